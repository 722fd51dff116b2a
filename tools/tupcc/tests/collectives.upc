/* The library headers in UPC syntax (UPC 1.3 7.2-7.5, Extended Collectives
 * 0.3): shared arrays passed where the functions take shared void *,
 * dynamic allocation, locks, upc_memput/get, timers. */
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>
#include <upc_tick.h>
#include <stdio.h>

#define NB 4

shared [NB] int A[NB * THREADS];
shared [NB] int B[NB * THREADS];
shared long sums[THREADS];
shared long total;
shared int counter;

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

int main(void)
{
    upc_tick_t t0 = upc_ticks_now();
    int i;
    for (i = 0; i < NB; i++)
        A[MYTHREAD * NB + i] = MYTHREAD * 10 + i;
    /* thread 1's block (thread 0's with one thread) to every block of B */
    upc_all_broadcast(B, &A[(THREADS > 1) * NB], NB * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (i = 0; i < NB; i++)
        EXPECT(B[MYTHREAD * NB + i] == (THREADS > 1) * 10 + i);
    sums[MYTHREAD] = MYTHREAD + 1;
    upc_all_reduceL(&total, sums, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    EXPECT(total == (long)THREADS * (THREADS + 1) / 2);

    upc_lock_t *lock = upc_all_lock_alloc();
    for (i = 0; i < 10; i++) {
        upc_lock(lock);
        counter += 1;
        upc_unlock(lock);
    }
    upc_barrier;
    EXPECT(counter == 10 * THREADS);

    shared [] int *buf = (shared [] int *)upc_all_alloc(1, THREADS * sizeof(int));
    int mine = MYTHREAD * 3;
    upc_memput(&buf[MYTHREAD], &mine, sizeof mine);
    upc_barrier;
    int all[1024];
    upc_memget(all, buf, THREADS * sizeof(int));
    for (i = 0; i < THREADS; i++)
        EXPECT(all[i] == 3 * i);
    upc_barrier;
    upc_all_lock_free(lock);
    if (MYTHREAD == 0)
        upc_free(buf);
    EXPECT(upc_ticks_to_ns(upc_ticks_now() - t0) < 600000000000ull);
    return fails != 0;
}
