/* The demo: THREADS, where each thread runs, how the shared heap is laid
 * out, and a barrier. Run: demo -n 4 */
#include <upc.h>
#include <upc_tick.h>

#include <stdio.h>

#define NELEMS 3

int tupc_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    /* shared [NELEMS] int A[NELEMS * THREADS]: block t lives on thread t. */
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    for (int i = 0; i < NELEMS; i++)
        tupc_ref(A, MYTHREAD * NELEMS + i, NELEMS, int) = 100 * MYTHREAD + i;
    upc_barrier();

    if (MYTHREAD == 0) {
        printf("tupc demo: %d THREADS, one heap of %d partitions\n", THREADS, THREADS);
        printf("shared [%d] int A[%d]:\n", NELEMS, NELEMS * THREADS);
        for (int i = 0; i < NELEMS * THREADS; i++) {
            tupc_sptr_t p = tupc_index(A, i, NELEMS, int);
            printf("  A[%2d] = %4d   thread %zu, phase %zu, offset %zu\n", i, *(int *)p.addr,
                   upc_threadof(p), upc_phaseof(p), upc_addrfield(p));
        }
    }

    /* Time a few thousand barriers. */
    upc_barrier();
    upc_tick_t t0 = upc_ticks_now();
    for (int i = 0; i < 10000; i++)
        upc_barrier();
    upc_tick_t t1 = upc_ticks_now();
    if (MYTHREAD == 0)
        printf("upc_barrier: %.0f ns each on %d THREADS\n",
               (double)upc_ticks_to_ns(t1 - t0) / 10000, THREADS);
    upc_barrier();
    printf("thread %d of %d: done\n", MYTHREAD, THREADS);
    upc_all_free(A);
    return 0;
}
