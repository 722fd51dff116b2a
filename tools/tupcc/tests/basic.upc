#include <upc.h>
#include <stdio.h>

shared int counts[THREADS];
shared [4] long blk[4 * THREADS];
shared int total;

int main(void)
{
    int i;
    counts[MYTHREAD] = MYTHREAD + 1;
    upc_forall (i = 0; i < 4 * THREADS; i++; &blk[i])
        blk[i] = i * 10;
    upc_barrier;
    if (MYTHREAD == 0) {
        int s = 0;
        for (i = 0; i < THREADS; i++)
            s += counts[i];
        total = s;
        for (i = 0; i < 4 * THREADS; i++)
            if (blk[i] != i * 10 || upc_threadof(&blk[i]) != (size_t)(i / 4 % THREADS))
                return 1;
    }
    upc_barrier;
    printf("hello from %d of %d: total %d\n", MYTHREAD, THREADS, total);
    return total == THREADS * (THREADS + 1) / 2 ? 0 : 2;
}
