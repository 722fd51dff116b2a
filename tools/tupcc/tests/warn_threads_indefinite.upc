/* expect: THREADS in 1 of its dimensions with an indefinite block size (UPC 1.3 6.5.2.1 wants none under dynamic THREADS) */
#include <upc.h>
shared [] int all[4 * THREADS]; /* here */
int main(void)
{
    if (MYTHREAD == 0) /* one writer: the others read after the barrier */
        all[4 * THREADS - 1] = 1;
    upc_barrier;
    return all[4 * THREADS - 1] != 1 || upc_threadof(&all[4 * THREADS - 1]) != 0;
}
