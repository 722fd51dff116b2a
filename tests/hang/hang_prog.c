/* Programs that hang, for the watchdog's reports (check_hang.py):
 *   lockcycle  threads 0 and 1 each hold a lock and wait for the other's;
 *              the rest wait in a barrier
 *   lockheld   thread 0 holds a lock and waits in a barrier that thread 1
 *              never reaches, waiting for the lock
 *   loop       thread 0 loops in user code; the rest wait in a barrier
 *   missing    the last thread skips a broadcast and loops in user code */
#include <upc.h>
#include <upc_collective.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static upc_lock_t *locks[2];
static _Atomic int never; /* stays 0: the user code's endless loop */

static void spin_forever(void)
{
    while (!atomic_load(&never))
        sched_yield();
}

int tupc_main(int argc, char **argv)
{
    if (argc != 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "usage: hang_prog lockcycle|lockheld|loop|missing\n");
        return 2;
    }
    const char *mode = argv[1];
    upc_lock_t *a = upc_all_lock_alloc(), *b = upc_all_lock_alloc();
    tupc_sptr_t x = upc_all_alloc(THREADS, sizeof(int));
    tupc_sptr_t y = upc_all_alloc(THREADS, sizeof(int));
    if (MYTHREAD == 0)
        locks[0] = a, locks[1] = b;
    upc_barrier();
    if (strcmp(mode, "lockcycle") == 0) {
        if (MYTHREAD < 2)
            upc_lock(locks[MYTHREAD]);
        upc_barrier(); /* both hold theirs */
        if (MYTHREAD < 2)
            upc_lock(locks[1 - MYTHREAD]);
        upc_barrier();
    } else if (strcmp(mode, "lockheld") == 0) {
        if (MYTHREAD == 0)
            upc_lock(a);
        upc_barrier();
        if (MYTHREAD == 1)
            upc_lock(a);
        upc_barrier();
    } else if (strcmp(mode, "loop") == 0) {
        if (MYTHREAD == 0)
            spin_forever();
        upc_barrier();
    } else if (strcmp(mode, "missing") == 0) {
        if (MYTHREAD == THREADS - 1)
            spin_forever();
        upc_all_broadcast(y, x, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    }
    return 0;
}
