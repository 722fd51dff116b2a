/* expect: a shared object with automatic storage duration */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    __typeof__(a[0]) x = 1; /* here */
    return x - 1;
}
