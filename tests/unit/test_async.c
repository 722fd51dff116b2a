/* Asynchronous collectives (Extended Collectives 0.3 section 4 item 7 and
 * 5.4): every completion function's return rules, handles completed out of
 * order and mixed with UPC_HANDLE_COMPLETE, a failing upc_testall that
 * changes nothing, chains of 200 posted calls without a barrier, and a
 * thread that computes long after posting while the others complete. */
#include "tt.h"

#include <upc_collective_ext.h>

#include <stdatomic.h>
#include <string.h>

enum { OPS = 200, W = 8 }; /* calls in a chain; bytes each call moves */

/* For each call k of a chain: its dst pointers (rank r's at entry k * T +
 * r of a shared [1] array), its src (W bytes on thread k % T) and its
 * blocks (W bytes at offset k * W of each member's partition of D). */
struct chain {
    tupc_sptr_t ptrs, S, D;
    upc_team_t team;
    int n;      /* members */
    int colour; /* which team of a split: each has its own pointers */
};

static tupc_sptr_t ptrs_of(const struct chain *c, int k)
{
    return tupc_index(c->ptrs, ((size_t)c->colour * OPS + (size_t)k) * THREADS, 1, tupc_sptr_t);
}

static tupc_sptr_t src_of(const struct chain *c, int k)
{
    int t = tupc_team_thread(c->team, k % c->n);
    return tupc_index(c->S, (size_t)t * OPS * W + (size_t)k * W, OPS * W, char);
}

static tupc_sptr_t dst_of(const struct chain *c, int rank, int k)
{
    int t = tupc_team_thread(c->team, rank);
    return tupc_index(c->D, (size_t)t * OPS * W + (size_t)k * W, OPS * W, char);
}

static unsigned char byte_of(int k, int i)
{
    return (unsigned char)(k * 7 + i + 1);
}

/* Thread 0 lays out every call's arguments; every thread fills its src. */
static void chain_setup(struct chain *c, upc_team_t team, int colour)
{
    c->team = team;
    c->colour = colour;
    c->n = tupc_team_size(team);
    c->ptrs = upc_all_alloc((size_t)2 * OPS * THREADS, sizeof(tupc_sptr_t));
    c->S = upc_all_alloc(THREADS, OPS * W);
    c->D = upc_all_alloc(THREADS, OPS * W);
    if (tupc_team_rank(team) == 0)
        for (int k = 0; k < OPS; k++)
            for (int r = 0; r < c->n; r++)
                tupc_ref(ptrs_of(c, k), r, 1, tupc_sptr_t) = dst_of(c, r, k);
    for (int k = 0; k < OPS; k++) {
        tupc_sptr_t s = src_of(c, k);
        if ((int)s.thread == MYTHREAD)
            for (int i = 0; i < W; i++)
                s.addr[i] = (char)byte_of(k, i);
        memset(dst_of(c, tupc_team_rank(team), k).addr, 0, W);
    }
}

static int chain_check(const struct chain *c)
{
    int bad = 0;
    for (int k = 0; k < OPS; k++) {
        const unsigned char *d = (const unsigned char *)dst_of(c, tupc_team_rank(c->team), k).addr;
        for (int i = 0; i < W; i++)
            if (d[i] != byte_of(k, i)) {
                TCHECK(0, "call %d, byte %d: %d, expected %d", k, i, d[i], byte_of(k, i));
                bad = 1;
            }
    }
    return bad;
}

/* 200 posted broadcasts, no barrier between them, completed as a->how
 * says (tt_complete_all); on two teams (even and odd threads) when
 * a->teams. */
static int chain_program(void *arg)
{
    const struct tt_chain_arg *a = arg;
    upc_team_t team = UPC_TEAM_ALL;
    if (a->teams)
        tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &team);
    struct chain c;
    chain_setup(&c, team, a->teams ? MYTHREAD % 2 : 0);
    upc_barrier();
    upc_coll_handle_t h[OPS];
    for (int k = 0; k < OPS; k++) {
        h[k] = upc_all_broadcast_x(ptrs_of(&c, k), src_of(&c, k), W, a->sync | UPC_ASYNC, team);
        TCHECK(h[k] != UPC_HANDLE_COMPLETE, "call %d returned no handle", k);
    }
    tt_complete_all(a->how, OPS, h);
    /* OUT_NOSYNC promises only this thread's part: a barrier then. */
    if ((a->sync & UPC_OUT_NOSYNC))
        upc_barrier();
    chain_check(&c);
    upc_barrier();
    if (a->teams)
        tupc_team_free(&team);
    return 0;
}

static void test_chains(void **state)
{
    (void)state;
    tt_chain_sweep(chain_program);
}

/* ---- the return rules ----------------------------------------------------- */

static _Atomic int gate; /* thread 1 posts its part of call 2 once this is 1 */

static int rules_program(void *arg)
{
    (void)arg;
    struct chain c;
    chain_setup(&c, UPC_TEAM_ALL, 0);
    atomic_store(&gate, 0);
    upc_barrier();
    const upc_flag_t all = UPC_IN_NOSYNC | UPC_OUT_ALLSYNC;
    upc_coll_handle_t h[4];
    h[0] = upc_all_broadcast_x(ptrs_of(&c, 0), src_of(&c, 0), W, all | UPC_ASYNC, UPC_TEAM_ALL);
    if (MYTHREAD == 1)
        while (!atomic_load(&gate))
            ;
    h[1] = upc_all_broadcast_x(ptrs_of(&c, 1), src_of(&c, 1), W, all | UPC_ASYNC, UPC_TEAM_ALL);
    if (MYTHREAD == 0) {
        /* Call 1 cannot be complete: thread 1 has not posted its part. */
        upc_coll_handle_t pair[3] = {h[0], UPC_HANDLE_COMPLETE, h[1]};
        for (int tries = 0; tries < 100; tries++)
            TCHECK(upc_testall(3, pair) < 0, "upc_testall passed before thread 1 posted");
        TCHECK(pair[0] == h[0] && pair[1] == UPC_HANDLE_COMPLETE && pair[2] == h[1],
               "a failing upc_testall changed the handles");
        TCHECK(upc_get_status(h[1]) < 0, "upc_get_status says complete before thread 1 posted");
        TCHECK(upc_testsome(1, &pair[2]) == 0, "upc_testsome completed call 1 early");
        TCHECK(upc_testany(2, &pair[1]) < 0, "upc_testany completed call 1 early");
        /* Call 0 completes on its own, out of order. */
        upc_wait(h[0]);
        pair[0] = UPC_HANDLE_COMPLETE;
        atomic_store(&gate, 1);
        TCHECK(upc_waitany(3, pair) == 2, "upc_waitany picked another index");
        TCHECK(pair[2] == UPC_HANDLE_COMPLETE, "upc_waitany did not reset its handle");
        TCHECK(upc_waitany(3, pair) < 0, "upc_waitany with nothing pending");
    } else {
        upc_coll_handle_t both[2] = {h[1], h[0]};
        upc_waitall(2, both);
        TCHECK(both[0] == UPC_HANDLE_COMPLETE && both[1] == UPC_HANDLE_COMPLETE,
               "upc_waitall left a handle set");
    }
    /* upc_test and upc_get_status on calls that do complete. */
    h[2] = upc_all_broadcast_x(ptrs_of(&c, 2), src_of(&c, 2), W, all | UPC_ASYNC, UPC_TEAM_ALL);
    while (upc_get_status(h[2]) < 0)
        ;
    TCHECK(upc_get_status(h[2]) > 0, "upc_get_status changed its answer");
    TCHECK(upc_test(h[2]) > 0, "upc_test of a complete call");
    h[3] = upc_all_broadcast_x(ptrs_of(&c, 3), src_of(&c, 3), W, all | UPC_ASYNC, UPC_TEAM_ALL);
    while (upc_test(h[3]) < 0)
        ;
    /* UPC_HANDLE_COMPLETE passed in. */
    upc_coll_handle_t none[3] = {UPC_HANDLE_COMPLETE, UPC_HANDLE_COMPLETE, UPC_HANDLE_COMPLETE};
    upc_wait(UPC_HANDLE_COMPLETE);
    TCHECK(upc_test(UPC_HANDLE_COMPLETE) > 0, "upc_test(UPC_HANDLE_COMPLETE)");
    TCHECK(upc_get_status(UPC_HANDLE_COMPLETE) > 0, "upc_get_status(UPC_HANDLE_COMPLETE)");
    upc_waitall(3, none);
    TCHECK(upc_testall(3, none) > 0, "upc_testall of complete handles");
    TCHECK(upc_testall(0, NULL) > 0, "upc_testall of no handles");
    TCHECK(upc_waitany(3, none) < 0 && upc_testany(3, none) < 0, "any of complete handles");
    TCHECK(upc_waitsome(3, none) == 0 && upc_testsome(3, none) == 0, "some of complete handles");
    /* The barrier's upc_wait is still the barrier's. */
    upc_notify(3);
    upc_wait(3);
    upc_notify();
    upc_wait();
    for (int k = 0; k < 4; k++) {
        const unsigned char *d = (const unsigned char *)dst_of(&c, MYTHREAD, k).addr;
        for (int i = 0; i < W; i++)
            TCHECK(d[i] == byte_of(k, i), "call %d byte %d is %d", k, i, d[i]);
    }
    return 0;
}

static void test_rules(void **state)
{
    (void)state;
    for (int n = 2; n <= 4; n++)
        TT_RUN(n, rules_program, NULL);
}

/* ---- progress while the owner computes ------------------------------------ */

static _Atomic int waits_done; /* threads other than 0 whose wait ended */

static int compute_program(void *arg)
{
    (void)arg;
    enum { BIG = 4 << 20 };
    tupc_sptr_t ptrs = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t S = upc_all_alloc(1, BIG);
    tupc_sptr_t D = upc_all_alloc(THREADS, BIG);
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) = tupc_index(D, (size_t)MYTHREAD * BIG, BIG, char);
    if (MYTHREAD == 0) {
        atomic_store(&waits_done, 0);
        for (size_t i = 0; i < BIG; i++)
            S.addr[i] = (char)(i * 13 + 5);
    }
    upc_barrier();
    upc_coll_handle_t h = upc_all_broadcast_x(
        ptrs, S, BIG, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, UPC_TEAM_ALL);
    if (MYTHREAD == 0) {
        /* Computes, with no call into the library, until every other
         * thread's wait has ended: their OUT_ALLSYNC needs thread 0's part
         * too, so that happens only if the data moves without thread 0.
         * The 60 s are a bound for a failure, not a timing. */
        tt_compute_until(&waits_done, THREADS - 1);
        upc_wait(h);
    } else {
        upc_wait(h);
        atomic_fetch_add(&waits_done, 1);
    }
    const char *d = tupc_index(D, (size_t)MYTHREAD * BIG, BIG, char).addr;
    for (size_t i = 0; i < BIG; i += 4093)
        TCHECK(d[i] == (char)(i * 13 + 5), "byte %zu is %d", i, d[i]);
    upc_barrier();
    return 0;
}

static void test_progress_while_computing(void **state)
{
    (void)state;
    for (int n = 2; n <= 3; n++)
        TT_RUN(n, compute_program, NULL);
}

/* ---- refusals -------------------------------------------------------------- */

static int twice(void *arg)
{
    int how = *(int *)arg;
    struct chain c;
    chain_setup(&c, UPC_TEAM_ALL, 0);
    upc_barrier();
    upc_coll_handle_t h =
        upc_all_broadcast_x(ptrs_of(&c, 0), src_of(&c, 0), W,
                            UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, UPC_TEAM_ALL);
    upc_wait(h);
    if (how == 4) { /* the slot of h reused by a call 256 posts later, still open */
        for (int k = 1; k < 256; k++)
            upc_wait(upc_all_broadcast_x(ptrs_of(&c, k % OPS), src_of(&c, k % OPS), W,
                                         UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC,
                                         UPC_TEAM_ALL));
        upc_coll_handle_t open =
            upc_all_broadcast_x(ptrs_of(&c, 0), src_of(&c, 0), W,
                                UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, UPC_TEAM_ALL);
        TCHECK(open != h, "a new handle equals a completed one");
        (void)upc_test(h); /* the stale handle: refused, open is not completed */
        return 0;
    }
    if (how == 0)
        upc_wait(h);
    else if (how == 1)
        (void)upc_test(h);
    else if (how == 2)
        (void)upc_waitany(-1, &h);
    else
        (void)upc_waitall(2, NULL);
    return 0;
}

static void test_refusals(void **state)
{
    (void)state;
    static const int how[5] = {0, 1, 2, 3, 4};
    tt_expect_error(2, twice, (void *)&how[0], "upc_wait", "no outstanding asynchronous", NULL);
    tt_expect_error(2, twice, (void *)&how[1], "upc_test", "no outstanding asynchronous", NULL);
    tt_expect_error(2, twice, (void *)&how[2], "upc_waitany", "count is -1", NULL);
    tt_expect_error(2, twice, (void *)&how[3], "upc_waitall", "handles is NULL", NULL);
    tt_expect_error(2, twice, (void *)&how[4], "upc_test", "no outstanding asynchronous", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_chains),
        cmocka_unit_test(test_progress_while_computing),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
