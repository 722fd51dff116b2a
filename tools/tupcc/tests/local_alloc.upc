/* UPC 1.2's upc_local_alloc (deprecated in 1.3, so tupcc warns): nblocks
 * blocks of nbytes with affinity to the calling thread. */
#include <upc.h>
#include <stdio.h>
shared [] int *shared mine[THREADS];
int main(void)
{
    int bad = 0;
    shared [] int *p = (shared [] int *)upc_local_alloc(4, 2 * sizeof(int));
    bad += p == NULL || (int)upc_threadof(p) != MYTHREAD;
    for (int i = 0; i < 8; i++)
        p[i] = 10 * MYTHREAD + i;
    mine[MYTHREAD] = p;
    upc_barrier;
    shared [] int *q = mine[(MYTHREAD + 1) % THREADS];
    bad += q[7] != 10 * ((MYTHREAD + 1) % THREADS) + 7;
    upc_barrier;
    upc_free(p);
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
