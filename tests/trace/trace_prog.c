/* A program whose trace test/check_trace.py knows in advance: per thread,
 * allocations, BCASTS broadcasts of 8 bytes, REDUCES reductions of
 * THREADS longs, one lock taken, a barrier that thread 0 reaches 60 ms
 * late (the others' spans of it hold a wait of about that long), a team
 * split, a team barrier, a small reduction on the team and a free of the
 * team. */
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <time.h>

#define BCASTS 3
#define REDUCES 2

static upc_lock_t *lock;

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t b = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t r = upc_all_alloc(1, sizeof(long));
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        lock = l;
    tupc_ref(a, MYTHREAD, 1, long) = MYTHREAD;
    for (int i = 0; i < BCASTS; i++)
        upc_all_broadcast(b, a, sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < REDUCES; i++)
        upc_all_reduceL(r, a, UPC_ADD, (size_t)THREADS, 1, 0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_lock(l);
    upc_unlock(l);
    if (MYTHREAD == 0) {
        struct timespec ts = {0, 60 * 1000 * 1000};
        nanosleep(&ts, 0);
    }
    upc_barrier(5);
    upc_team_t half;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &half);
    tupc_team_barrier(half);
    /* A small reduction on the team: its span, as every traced call's,
     * though the untraced call takes an inlined path. The team's rank 0 is
     * thread MYTHREAD % 2; its element of a into its element of b. */
    int first = MYTHREAD % 2;
    tupc_team_reduceL(tupc_index(b, first, 1, long), tupc_index(a, first, 1, long), UPC_ADD, 1, 1,
                      NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, half);
    tupc_team_free(&half);
    upc_all_lock_free(l);
    upc_all_free(a);
    upc_all_free(b);
    upc_all_free(r);
    return 0;
}
