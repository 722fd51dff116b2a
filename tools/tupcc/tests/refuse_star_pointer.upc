/* expect: a [*] layout */
#include <upc.h>
shared [2] int a[2 * THREADS];
int main(void)
{
    shared [*] int *p = (shared [*] int *)a; /* here */
    return p == 0;
}
