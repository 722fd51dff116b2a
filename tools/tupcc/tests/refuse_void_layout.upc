/* expect: a layout qualifier on shared void, in 'shared [4] void *' (UPC 1.3 6.5.1.1 constraint */
#include <upc.h>
shared [4] int a[4 * THREADS];
int main(void)
{
    shared [4] void *p = a; /* here */
    return p == 0;
}
