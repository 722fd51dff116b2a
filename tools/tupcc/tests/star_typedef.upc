/* shared [*] through a typedef: [*] distributes the array being declared
 * (UPC 1.3 6.5.1.1), so two arrays of one [*] type but of other sizes have
 * each its own block size, whichever is declared first. */
#include <upc.h>
#include <stdio.h>
typedef shared [*] int E;
E small[10 * THREADS];
E big[1000 * THREADS];
typedef shared [*] long L[60];
L l1;
int main(void)
{
    int bad = 0;
    bad += upc_blocksizeof(small) != 10 || upc_blocksizeof(big) != 1000;
    bad += (int)upc_blocksizeof(l1) != (60 + THREADS - 1) / THREADS;
    for (int i = 0; i < 1000 * THREADS; i += 7)
        bad += (int)upc_threadof(&big[i]) != i / 1000;
    for (int i = 0; i < 10 * THREADS; i++)
        bad += (int)upc_threadof(&small[i]) != i / 10;
    upc_forall (int i = 0; i < 1000 * THREADS; i++; &big[i])
        big[i] = i;
    upc_barrier;
    for (int i = 0; i < 1000 * THREADS; i += 13)
        bad += big[i] != i || (int)upc_threadof(big + i) != i / 1000;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
