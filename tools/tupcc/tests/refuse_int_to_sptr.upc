/* expect: a conversion of a pointer-to-local or an integer to a pointer-to-shared */
#include <upc.h>
int main(void)
{
    long v = 64;
    shared int *p = (shared int *)v; /* here */
    return p == 0;
}
