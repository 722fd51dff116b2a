/* expect: implicit conversion between pointers-to-shared of different block sizes ('shared double *' to 'shared [10] double *'): incompatible types (UPC 1.3 6.5.1.1 */
#include <upc.h>
shared double d[10 * THREADS];
static double first(shared [10] double *p)
{
    return *p;
}
int main(void)
{
    shared double *q = &d[0];
    return first(q) != 0; /* here */
}
