/* expect: arithmetic or ordering on a pointer to shared void */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    shared void *g = &a[0];
    g = g + 1; /* here */
    return g == 0;
}
