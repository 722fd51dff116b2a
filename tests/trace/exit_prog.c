/* upc_global_exit must not lose the trace or the stats: thread 1 calls
 * upc_global_exit(3) after a broadcast, while the others wait in a barrier
 * (check_exit.py). */
#include <upc.h>
#include <upc_collective.h>

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t b = upc_all_alloc(THREADS, sizeof(long));
    /* b from a: a broadcast between overlapping areas is refused at
     * TUPC_CHECKS=full (CI's clang build). */
    upc_all_broadcast(b, a, sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    if (MYTHREAD == 1)
        upc_global_exit(3);
    upc_barrier();
    return 0;
}
