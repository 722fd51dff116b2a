/* The misuse holes of a second adversarial round: each program breaks a
 * rule in a way tupc once missed (a silent wrong answer, a crash inside the
 * library, or an accepted violation), and must now end with one line that
 * names the function, the argument and what was expected, or behave right.
 * The use-after-free cases crash or report under AddressSanitizer without
 * their fixes. */
#include "tt.h"

#include <upc_collective.h>

#include <stdint.h>
#include <stdlib.h>

static const int counts[] = {2, 3, 5};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* ---- ranges past an array's last block -------------------------------- */

/* upc_all_alloc(THREADS - 1, 8) has no block on the last thread: a
 * reduction over THREADS elements would read one the array lacks. */
static int reduce_past_last_block(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS - 1, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(R, A, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    TCHECK(0, "upc_all_reduceL read past the array's last block");
    return 0;
}

/* A broadcast writes nbytes on every thread: not into an array with none on
 * the last one. */
static int broadcast_past_last_block(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8);
    tupc_sptr_t B = upc_all_alloc(THREADS - 1, 8);
    upc_all_broadcast(B, A, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    TCHECK(0, "upc_all_broadcast wrote a block the array lacks");
    return 0;
}

/* The same array's own elements, and a ragged array of 2 * THREADS + 1
 * blocks read whole, are right: every element against its formula. */
static int ragged_arrays_right(void *arg)
{
    (void)arg;
    size_t n = 2 * (size_t)THREADS + 1;
    tupc_sptr_t A = upc_all_alloc(n, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    for (size_t i = (size_t)MYTHREAD; i < n; i += (size_t)THREADS)
        tupc_ref(A, i, 1, long) = (long)(i * i + 1);
    upc_all_reduceL(R, A, UPC_ADD, n, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    long want = 0;
    for (size_t i = 0; i < n; i++)
        want += (long)(i * i + 1);
    TCHECK(tupc_ref(R, 0, 1, long) == want, "sum %ld, expected %ld", tupc_ref(R, 0, 1, long), want);
    upc_all_reduceL(R, A, UPC_ADD, n - 1, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    want -= (long)((n - 1) * (n - 1) + 1);
    TCHECK(tupc_ref(R, 0, 1, long) == want, "sum of n - 1: %ld, expected %ld",
           tupc_ref(R, 0, 1, long), want);
    upc_barrier();
    upc_all_free(A);
    upc_all_free(R);
    return 0;
}

/* One element past a ragged array of 2 * THREADS + 1 blocks. */
static int reduce_one_past_ragged(void *arg)
{
    (void)arg;
    size_t n = 2 * (size_t)THREADS + 1;
    tupc_sptr_t A = upc_all_alloc(n, sizeof(long));
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(R, A, UPC_ADD, n + 1, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    TCHECK(0, "upc_all_reduceL read one element past the array");
    return 0;
}

/* An array whose last thread's block is full and whose next course runs
 * into the allocation that follows: each thread's part lies in some
 * allocation, but not in the array's. */
static int reduce_into_next_allocation(void *arg)
{
    (void)arg;
    tupc_sptr_t X = upc_all_alloc(THREADS, 64), Y = upc_all_alloc(THREADS, 64);
    tupc_sptr_t R = upc_all_alloc(1, sizeof(long));
    (void)Y;
    tupc_sptr_t p = tupc_index(X, (size_t)(THREADS - 1) * 8, 8, long);
    upc_all_reduceL(R, p, UPC_ADD, 16, 8, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    TCHECK(0, "upc_all_reduceL read an array that runs into the next allocation");
    return 0;
}

static void test_range_past_last_block(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], reduce_past_last_block, NULL, "upc_all_reduceL", "src",
                        "last round", "UPC 1.3 7.2.2.2", NULL);
        tt_expect_error(counts[c], broadcast_past_last_block, NULL, "upc_all_broadcast", "dst",
                        "last round", "UPC 1.3 7.2.2.2", NULL);
        tt_expect_error(counts[c], reduce_one_past_ragged, NULL, "upc_all_reduceL", "src",
                        "last round", NULL);
        TT_RUN(counts[c], ragged_arrays_right, NULL);
        tt_expect_error(counts[c], reduce_into_next_allocation, NULL, "upc_all_reduceL", "src",
                        "past the end of the allocation that holds its start", NULL);
    }
}

/* ---- handles -------------------------------------------------------- */

#define MYMY (UPC_IN_MYSYNC | UPC_OUT_MYSYNC)

/* A posted broadcast of thread 0's 8 bytes on team t. */
static upc_coll_handle_t post(tupc_sptr_t B, tupc_sptr_t A, upc_team_t t)
{
    return tupc_team_broadcast(B, A, 8, UPC_ASYNC | MYMY, t);
}

/* A handle kept after its completion, 16,384 posts later: it once equalled
 * the live handle of the same slot and completed it. */
static int stale_handle(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    tupc_ref(A, MYTHREAD, 1, long) = 7 + MYTHREAD;
    upc_barrier();
    upc_coll_handle_t h0 = post(B, A, UPC_TEAM_ALL);
    upc_wait(h0);
    for (int i = 1; i < 16384; i++)
        upc_wait(post(B, A, UPC_TEAM_ALL));
    upc_coll_handle_t live = post(B, A, UPC_TEAM_ALL);
    TCHECK(live != h0, "a live handle equals a completed one");
    if (*(int *)arg) {
        upc_wait(h0);
        TCHECK(0, "upc_wait accepted a completed handle");
    }
    upc_wait(live);
    TCHECK(tupc_ref(B, MYTHREAD, 1, long) == 7, "broadcast gave %ld",
           tupc_ref(B, MYTHREAD, 1, long));
    upc_barrier();
    upc_all_free(A);
    upc_all_free(B);
    return 0;
}

static void test_stale_handle(void **state)
{
    (void)state;
    int wait_stale = 1, clean = 0;
    tt_expect_error(2, stale_handle, &wait_stale, "upc_wait", "handle", "no outstanding",
                    "completed already", "Extended Collectives 0.3 5.4", NULL);
    TT_RUN(2, stale_handle, &clean);
}

/* Handles whose request memory is gone: the team freed, the run ended. */
static upc_coll_handle_t kept[64];

static int handle_of_freed_team(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &t);
    upc_coll_handle_t h = post(B, A, t);
    upc_wait(h);
    tupc_team_free(&t);
    (void)upc_test(h);
    TCHECK(0, "upc_test accepted a handle of a freed team");
    return 0;
}

static int keep_handle(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    kept[MYTHREAD] = post(B, A, UPC_TEAM_ALL);
    upc_wait(kept[MYTHREAD]);
    return 0;
}

static int wait_kept_handle(void *arg)
{
    (void)arg;
    upc_wait(kept[MYTHREAD]);
    TCHECK(0, "upc_wait accepted a handle of an earlier run");
    return 0;
}

/* Values no posting call returned: an integer (0.3 calls the handle an
 * integral type) and addresses. */
static int forged_handle(void *arg)
{
    uintptr_t v = *(uintptr_t *)arg;
    long local = 0;
    upc_wait(v ? (upc_coll_handle_t)v : (upc_coll_handle_t)(void *)&local);
    TCHECK(0, "upc_wait accepted a forged handle");
    return 0;
}

static void test_dead_handles(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], handle_of_freed_team, NULL, "upc_test", "handle",
                        "no outstanding", NULL);
        TT_RUN(counts[c], keep_handle, NULL);
        tt_expect_error(counts[c], wait_kept_handle, NULL, "upc_wait", "earlier run", NULL);
    }
    static const uintptr_t forged[] = {1, 2, 0x40, (uintptr_t)0xdeadbeef0, UINTPTR_MAX, 0};
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++)
        tt_expect_error(2, forged_handle, (void *)&forged[i], "upc_wait", "handle",
                        "no posting call returned it", NULL);
}

/* A split team's operation left outstanding when the thread returns (only
 * UPC_TEAM_ALL's were checked). */
static int outstanding_on_team(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &t);
    (void)post(B, A, t);
    return 0;
}

/* One handle twice in an array completion call. */
static int same_handle_twice(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    upc_coll_handle_t h[3];
    h[0] = post(B, A, UPC_TEAM_ALL);
    h[1] = UPC_HANDLE_COMPLETE;
    h[2] = h[0];
    upc_waitall(3, h);
    TCHECK(0, "upc_waitall took one handle twice");
    return 0;
}

static void test_handle_rules(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], outstanding_on_team, NULL, "returned with 1 asynchronous",
                        "tupc_team_broadcast", "split with colour", "Extended Collectives 0.3",
                        NULL);
        tt_expect_error(counts[c], same_handle_twice, NULL, "upc_waitall",
                        "handles[2] is handles[0] again", NULL);
    }
}

/* ---- locks ------------------------------------------------------------ */

static upc_lock_t *kept_lock;

static int lock_freed_twice(void *arg)
{
    (void)arg;
    if (MYTHREAD == 0) {
        upc_lock_t *l = upc_global_lock_alloc();
        upc_lock_free(l);
        upc_lock_free(l);
        TCHECK(0, "upc_lock_free freed a lock twice");
    }
    return 0;
}

/* Thread 0 frees an upc_all_lock_alloc lock; after a barrier another
 * thread locks it. */
static int lock_after_free(void *arg)
{
    int attempt = *(int *)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        upc_lock_free(l);
    upc_barrier();
    if (MYTHREAD == THREADS - 1) {
        if (attempt)
            (void)upc_lock_attempt(l);
        else
            upc_lock(l);
        TCHECK(0, "a freed lock was taken");
    }
    return 0;
}

static int keep_lock(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    upc_lock(l);
    upc_unlock(l);
    if (MYTHREAD == 0)
        kept_lock = l;
    return 0;
}

static int lock_of_ended_run(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc(); /* may reuse the kept lock's slot */
    if (MYTHREAD == 0) {
        upc_lock(kept_lock);
        TCHECK(0, "a lock of an earlier run was taken");
    }
    upc_barrier();
    upc_lock(l);
    upc_unlock(l);
    return 0;
}

static int garbage_lock(void *arg)
{
    uintptr_t v = *(uintptr_t *)arg;
    long local = 0;
    upc_lock_t *l = v ? (upc_lock_t *)v : (upc_lock_t *)(void *)&local;
    if (MYTHREAD == 0) {
        upc_unlock(l);
        TCHECK(0, "upc_unlock took a value no allocation returned");
    }
    return 0;
}

/* Locks freed and made again many times, from several threads at once:
 * each fresh lock works, and mutual exclusion holds (a counter under it). */
static int lock_churn(void *arg)
{
    (void)arg;
    tupc_sptr_t C = upc_all_alloc(1, sizeof(long));
    for (int round = 0; round < 50; round++) {
        upc_lock_t *mine = upc_global_lock_alloc();
        upc_lock_t *all = upc_all_lock_alloc();
        for (int k = 0; k < 20; k++) {
            upc_lock(all);
            tupc_ref(C, 0, 1, long)++;
            upc_unlock(all);
            TCHECK(upc_lock_attempt(mine) == 1, "a fresh private lock is busy");
            upc_unlock(mine);
        }
        upc_lock_free(mine);
        upc_all_lock_free(all);
    }
    upc_barrier();
    TCHECK(tupc_ref(C, 0, 1, long) == 50L * 20 * THREADS, "counter %ld, expected %ld",
           tupc_ref(C, 0, 1, long), 50L * 20 * THREADS);
    return 0;
}

static void test_freed_locks(void **state)
{
    (void)state;
    int lock = 0, attempt = 1;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], lock_freed_twice, NULL, "upc_lock_free", "was freed",
                        "UPC 1.3 7.2.4.2", NULL);
        tt_expect_error(counts[c], lock_after_free, &lock, "upc_lock", "was freed", NULL);
        tt_expect_error(counts[c], lock_after_free, &attempt, "upc_lock_attempt", "was freed",
                        NULL);
        TT_RUN(counts[c], keep_lock, NULL);
        tt_expect_error(counts[c], lock_of_ended_run, NULL, "upc_lock", "was freed", "earlier run",
                        NULL);
        TT_RUN(counts[c], lock_churn, NULL);
    }
    static const uintptr_t garbage[] = {1, 3, 0x40, (uintptr_t)0xdeadbeef1, UINTPTR_MAX, 0};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        tt_expect_error(2, garbage_lock, (void *)&garbage[i], "upc_unlock",
                        "is no lock that upc_global_lock_alloc", NULL);
}

/* ---- rules of the spec once accepted ------------------------------------ */

/* upc_all_free's ptr is single-valued (UPC 1.3 7.2.2.5). */
static int all_free_different(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 8), B = upc_all_alloc(THREADS, 8);
    upc_all_free(MYTHREAD == THREADS - 1 ? B : A);
    TCHECK(MYTHREAD != THREADS - 1, "upc_all_free took different pointers");
    return 0;
}

/* A broadcast_x whose one destination block overlaps its source. */
static int x_overlap(void *arg)
{
    (void)arg;
    tupc_sptr_t D = upc_all_alloc(THREADS, 64);
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_ref(P, MYTHREAD, 1, tupc_sptr_t) = tupc_index(D, (size_t)MYTHREAD * 64, 64, char);
    upc_all_broadcast_x(P, tupc_index(D, 4, 64, char), 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
                        UPC_TEAM_ALL);
    TCHECK(0, "upc_all_broadcast_x copied between overlapping blocks");
    return 0;
}

/* A null entry of an _x pointer array is null, not "on thread 0". */
static int x_null_entry(void *arg)
{
    (void)arg;
    tupc_sptr_t D = upc_all_alloc(THREADS, 64);
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_ref(P, MYTHREAD, 1, tupc_sptr_t) =
        MYTHREAD == 1 ? TUPC_NULL : tupc_index(D, (size_t)MYTHREAD * 64, 64, char);
    upc_all_broadcast_x(P, tupc_index(D, 8, 64, char), 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
                        UPC_TEAM_ALL);
    TCHECK(0, "upc_all_broadcast_x took a null block");
    return 0;
}

/* A thread that returns between upc_notify and upc_wait (6.6.1). */
static int return_after_notify(void *arg)
{
    (void)arg;
    upc_notify();
    if (MYTHREAD == 0)
        return 0;
    upc_wait();
    return 0;
}

static void test_spec_rules(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++) {
        tt_expect_error(counts[c], all_free_different, NULL, "upc_all_free", "single-valued",
                        "on thread 0", "UPC 1.3 7.2.2.5", NULL);
        tt_expect_error_at(TUPC_CHECKS_FULL, counts[c], x_overlap, NULL, "upc_all_broadcast_x",
                           "overlaps", "TUPC_CHECKS=full", NULL);
        tt_expect_error(counts[c], x_null_entry, NULL, "upc_all_broadcast_x", "dst[1]",
                        "null pointer-to-shared", NULL);
        tt_expect_error(counts[c], return_after_notify, NULL, "upc_notify", "thread 0 of",
                        "between upc_notify and upc_wait", "UPC 1.3 6.6.1", NULL);
    }
}

/* ---- refusals that leak nothing (LeakSanitizer checks at exit) --------- */

/* An in-place permute_x whose last member refuses its perm entry: the
 * others wait in their moves, holding a saved block, when the run stops. */
static int permute_refused_midway(void *arg)
{
    (void)arg;
    tupc_sptr_t D = upc_all_alloc(THREADS, 64);
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t N = upc_all_alloc(THREADS, sizeof(size_t));
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(int));
    tupc_ref(A, MYTHREAD, 1, tupc_sptr_t) = tupc_index(D, (size_t)MYTHREAD * 64, 64, char);
    tupc_ref(N, MYTHREAD, 1, size_t) = 8;
    tupc_ref(P, MYTHREAD, 1, int) = MYTHREAD == THREADS - 1 ? THREADS : (MYTHREAD + 1) % THREADS;
    upc_all_permute_x(A, UPC_IN_PLACE, P, N, UPC_IN_MYSYNC | UPC_OUT_MYSYNC, UPC_TEAM_ALL);
    TCHECK(0, "upc_all_permute_x took rank %d in perm", THREADS);
    return 0;
}

/* Teams made until the table is full: the refused split leaks nothing. */
static int split_until_full(void *arg)
{
    (void)arg;
    for (int i = 0; i < 40000; i++) {
        upc_team_t t;
        tupc_team_split(UPC_TEAM_ALL, 0, 0, &t);
    }
    TCHECK(0, "40000 teams were made");
    return 0;
}

static void test_refusals_leak_nothing(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++)
        tt_expect_error(counts[c], permute_refused_midway, NULL, "upc_all_permute_x", "perm", NULL);
    tt_expect_error(1, split_until_full, NULL, "tupc_team_split", "teams are alive", NULL);
}

/* ---- messages ---------------------------------------------------------- */

/* Sizes no array can have, on each entry point: each refusal names the
 * function the program called and a spec section. */
static int by_value(tupc_sptr_t a, tupc_sptr_t b)
{
    long x = *(const long *)a.addr, y = *(const long *)b.addr;
    return (x > y) - (x < y);
}

static int huge_sizes(void *arg)
{
    int k = *(int *)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 64), R = upc_all_alloc(THREADS, 64);
    const upc_flag_t f = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    switch (k) {
    case 0:
        tupc_team_reduceL(R, A, UPC_ADD, SIZE_MAX, 1, NULL, f, UPC_TEAM_ALL);
        break;
    case 1:
        upc_all_reduceL(R, A, UPC_ADD, SIZE_MAX, 1, NULL, f);
        break;
    case 2:
        upc_all_prefix_reduceL(R, A, UPC_ADD, SIZE_MAX / 2, 1, NULL, f);
        break;
    case 3:
        upc_all_broadcast(R, A, SIZE_MAX, f);
        break;
    case 4:
        upc_all_exchange(R, A, SIZE_MAX / 2, f);
        break;
    case 5:
        upc_all_sort(A, 8, SIZE_MAX / 4, 1, by_value, f);
        break;
    case 6:
        upc_memset(A, 0, SIZE_MAX);
        break;
    }
    TCHECK(0, "case %d accepted a size no array has", k);
    return 0;
}

static void test_messages(void **state)
{
    (void)state;
    static const char *const func[] = {
        "tupc_team_reduceL", "upc_all_reduceL",  "upc_all_prefix_reduceL",
        "upc_all_broadcast", "upc_all_exchange", "upc_all_sort",
        "upc_memset"};
    for (int k = 0; k < 7; k++)
        tt_expect_error(3, huge_sizes, &k, func[k], "(thread ", "expected",
                        k == 5 ? "(Collectives 1.0 " : "(UPC 1.3 ", NULL);
}

/* ---- environment ------------------------------------------------------- */

static int nothing(void *arg)
{
    (void)arg;
    return 0;
}

static void test_environment(void **state)
{
    (void)state;
    setenv("TUPC_STREAM_MIN", " -1", 1);
    tt_expect_error(2, nothing, NULL, "TUPC_STREAM_MIN is \" -1\"", "expected a size", NULL);
    setenv("TUPC_STREAM_MIN", "-1", 1);
    tt_expect_error(2, nothing, NULL, "TUPC_STREAM_MIN is \"-1\"", NULL);
    unsetenv("TUPC_STREAM_MIN");
    setenv("UPC_SHARED_HEAP_SIZE", " -1", 1);
    tt_expect_error(2, nothing, NULL, "UPC_SHARED_HEAP_SIZE is \" -1\"", "expected a size", NULL);
    setenv("UPC_SHARED_HEAP_SIZE", "17179869183G", 1);
    tt_expect_error(2, nothing, NULL, "UPC_SHARED_HEAP_SIZE", "overflows", NULL);
    unsetenv("UPC_SHARED_HEAP_SIZE");
    TT_RUN(2, nothing, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_past_last_block), cmocka_unit_test(test_stale_handle),
        cmocka_unit_test(test_dead_handles),          cmocka_unit_test(test_handle_rules),
        cmocka_unit_test(test_freed_locks),           cmocka_unit_test(test_spec_rules),
        cmocka_unit_test(test_refusals_leak_nothing), cmocka_unit_test(test_messages),
        cmocka_unit_test(test_environment),
        /* one a line */
    };
    /* TT_FILTER=test_stale_handle runs one test (an ASan abort in one
     * would hide the others). */
    if (getenv("TT_FILTER"))
        cmocka_set_test_filter(getenv("TT_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
