/* expect: incompatible pointer types initializing 'shared double *' with an expression of type 'shared int *' (a C 6.5.16.1 constraint */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    shared double *p = &a[0]; /* here */
    return p == 0;
}
