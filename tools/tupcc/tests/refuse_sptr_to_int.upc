/* expect: a conversion of a pointer-to-shared to an integer */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    long v = (long)&a[1]; /* here */
    return v == 0;
}
