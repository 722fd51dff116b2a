/* expect: THREADS in an array dimension other than as expr * THREADS */
#include <upc.h>
shared int a[THREADS + 1]; /* here */
int main(void)
{
    return 0;
}
