/* Starting THREADS: the run function, statuses, upc_global_exit, bad input. */
#include "tt.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Atomic int seen[64];

static int record_ids(void *arg)
{
    int expect = *(int *)arg;
    TCHECK(THREADS == expect, "THREADS is %d, expected %d", THREADS, expect);
    TCHECK(MYTHREAD >= 0 && MYTHREAD < THREADS, "MYTHREAD %d out of range", MYTHREAD);
    atomic_fetch_add(&seen[MYTHREAD], 1);
    return 0;
}

static void test_run_many_sizes(void **state)
{
    (void)state;
    const int sizes[] = {1, 2, 3, 4, 8, 16, 32, 7, 1};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        for (int t = 0; t < 64; t++)
            atomic_store(&seen[t], 0);
        TT_RUN(n, record_ids, &n);
        for (int t = 0; t < 64; t++)
            assert_int_equal(atomic_load(&seen[t]), t < n ? 1 : 0);
    }
}

static int return_thread_status(void *arg)
{
    (void)arg;
    return MYTHREAD == 2 ? 7 : MYTHREAD == 3 ? 9 : 0;
}

static void test_status_lowest_nonzero(void **state)
{
    (void)state;
    tupc_options o = {.threads = 4, .return_on_error = 1};
    assert_int_equal(tupc_run_opts(&o, return_thread_status, NULL), 7);
}

static int global_exit_body(void *arg)
{
    (void)arg;
    if (MYTHREAD == 1)
        upc_global_exit(42);
    /* The others wait in a barrier that thread 1 never reaches: the exit
     * must release them. */
    upc_barrier();
    return 0;
}

static void test_global_exit_releases_waiters(void **state)
{
    (void)state;
    for (int n = 2; n <= 16; n *= 2) {
        tupc_options o = {.threads = n, .return_on_error = 1};
        assert_int_equal(tupc_run_opts(&o, global_exit_body, NULL), 42);
    }
}

static int nothing(void *arg)
{
    (void)arg;
    return 0;
}

static void test_bad_thread_counts(void **state)
{
    (void)state;
    tupc_options o = {.return_on_error = 1, .quiet = 1};
    o.threads = -3;
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "threads is -3"));
    o.threads = TUPC_MAX_THREADS + 1;
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "expected 1 to"));

    o.threads = 0;
    setenv("UPC_THREADS", "abc", 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "UPC_THREADS is \"abc\""));
    setenv("UPC_THREADS", "0", 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    setenv("UPC_THREADS", "3", 1);
    int three = 3;
    o.quiet = 0;
    assert_int_equal(tupc_run_opts(&o, record_ids, &three), 0);
    unsetenv("UPC_THREADS");
}

static void test_bad_heap_size(void **state)
{
    (void)state;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    setenv("UPC_SHARED_HEAP_SIZE", "12Q", 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "UPC_SHARED_HEAP_SIZE is \"12Q\""));
    setenv("UPC_SHARED_HEAP_SIZE", "2M", 1);
    o.quiet = 0;
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), 0);
    unsetenv("UPC_SHARED_HEAP_SIZE");
}

/* The heap works with and without huge pages: touch every page of a
 * collective allocation. */
static int touch_heap(void *arg)
{
    (void)arg;
    size_t n = (size_t)8 << 20;
    tupc_sptr_t a = upc_all_alloc(THREADS, n);
    TCHECK(!tupc_isnull(a), "allocation failed: %s", tupc_alloc_error());
    unsigned char *mine = tupc_local(tupc_index(a, (size_t)MYTHREAD * n, n, unsigned char));
    for (size_t i = 0; i < n; i += 4096)
        mine[i] = (unsigned char)(i >> 12);
    for (size_t i = 0; i < n; i += 4096)
        TCHECK(mine[i] == (unsigned char)(i >> 12), "page %zu lost its byte", i >> 12);
    upc_all_free(a);
    return 0;
}

static void test_huge_pages_either_way(void **state)
{
    (void)state;
    setenv("TUPC_HUGEPAGES", "0", 1);
    TT_RUN(3, touch_heap, NULL);
    unsetenv("TUPC_HUGEPAGES");
    TT_RUN(3, touch_heap, NULL);
}

/* Placement: with no more threads than allowed CPUs, each thread runs on
 * one CPU of its own; with more, or with TUPC_PLACEMENT=none, on all. */
static int allowed_cpus(void)
{
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    return CPU_COUNT(&set);
}

static _Atomic int cpu_owner[CPU_SETSIZE];

static int check_pinned(void *arg)
{
    int want_pinned = *(int *)arg;
    cpu_set_t set;
    TCHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity failed");
    int n = CPU_COUNT(&set);
    if (want_pinned) {
        TCHECK(n == 1, "thread runs on %d CPUs, expected 1", n);
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                TCHECK(atomic_fetch_add(&cpu_owner[c], 1) == 0, "CPU %d given to two threads", c);
    } else {
        TCHECK(n > 1 || allowed_cpus() == 1, "thread pinned to %d CPU(s), expected none", n);
    }
    return 0;
}

/* With a multiple of the CPUs, each thread runs on one CPU, in equal
 * blocks of consecutive threads. */
static _Atomic int cpu_of[1024];

static int note_cpu(void *arg)
{
    (void)arg;
    cpu_set_t set;
    TCHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity failed");
    int n = CPU_COUNT(&set), cpu = -1;
    for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
        if (CPU_ISSET(c, &set))
            cpu = c;
    atomic_store(&cpu_of[MYTHREAD], n == 1 ? cpu : -1);
    return 0;
}

static void check_blocks(int threads, int cpus)
{
    TT_RUN(threads, note_cpu, NULL);
    int per = threads / cpus;
    for (int t = 0; t < threads; t++) {
        int c = atomic_load(&cpu_of[t]);
        if (c < 0)
            fail_msg("%d THREADS on %d CPUs: thread %d is not pinned", threads, cpus, t);
        int first = atomic_load(&cpu_of[t - t % per]);
        if (c != first)
            fail_msg("%d THREADS on %d CPUs: thread %d on CPU %d, thread %d (same block of %d) "
                     "on CPU %d",
                     threads, cpus, t, c, t - t % per, per, first);
        if (t >= per && c == atomic_load(&cpu_of[t - per]))
            fail_msg("%d THREADS on %d CPUs: threads %d and %d share CPU %d across blocks", threads,
                     cpus, t - per, t, c);
    }
}

static void test_placement(void **state)
{
    (void)state;
    int cpus = allowed_cpus(), yes = 1, no = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        atomic_store(&cpu_owner[c], 0);
    TT_RUN(cpus, check_pinned, &yes);
    if (cpus > 1)
        TT_RUN(cpus + 1, check_pinned, &no);
    if (4 * cpus <= 1024) {
        check_blocks(2 * cpus, cpus);
        check_blocks(4 * cpus, cpus);
    }
    setenv("TUPC_PLACEMENT", "none", 1);
    TT_RUN(cpus, check_pinned, &no);
    setenv("TUPC_PLACEMENT", "scatter", 1);
    for (int c = 0; c < CPU_SETSIZE; c++)
        atomic_store(&cpu_owner[c], 0);
    TT_RUN(cpus, check_pinned, &yes);
    setenv("TUPC_PLACEMENT", "diagonal", 1);
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "TUPC_PLACEMENT is \"diagonal\""));
    unsetenv("TUPC_PLACEMENT");
}

/* tupc_options grows without breaking callers: the header's macro passes
 * the size of the caller's struct. */
static void test_options_size(void **state)
{
    (void)state;
    struct {
        tupc_options o;
        int newer_field;
    } big = {{.threads = 2, .return_on_error = 1, .quiet = 1}, 0};
    /* A caller compiled with a field this library lacks, left zero: runs. */
    assert_int_equal(tupc_impl_run_opts(&big.o, sizeof big, nothing, NULL), 0);
    /* The same field set: refused, naming both sizes. */
    big.newer_field = 5;
    assert_int_equal(tupc_impl_run_opts(&big.o, sizeof big, nothing, NULL), TUPC_RUN_ERROR);
    char want[96];
    snprintf(want, sizeof want, "tupc_options has %zu bytes and sets fields this libtupc (%zu",
             sizeof big, sizeof(tupc_options));
    if (!strstr(tupc_last_error(), want))
        fail_msg("message \"%s\" lacks \"%s\"", tupc_last_error(), want);
    /* Smaller than the first layout (here, without `quiet`): refused. */
    tupc_options small = {.threads = 2, .return_on_error = 1, .quiet = 1};
    size_t short_size = offsetof(tupc_options, quiet);
    assert_int_equal(tupc_impl_run_opts(&small, short_size, nothing, NULL), TUPC_RUN_ERROR);
    snprintf(want, sizeof want, "has %zu bytes; expected at least %zu", short_size,
             offsetof(tupc_options, quiet) + sizeof(int));
    if (!strstr(tupc_last_error(), want))
        fail_msg("message \"%s\" lacks \"%s\"", tupc_last_error(), want);
    /* The function, not the macro: the first layout's size. */
    assert_int_equal((tupc_run_opts)(&small, nothing, NULL), 0);
}

/* A lock cycle under return_on_error: the watchdog stops the run, which
 * returns the error with the report (every thread waits in the library, so
 * every thread can leave). */
static upc_lock_t *cycle_locks[2];

static int lock_cycle(void *arg)
{
    (void)arg;
    upc_lock_t *a = upc_all_lock_alloc(), *b = upc_all_lock_alloc();
    if (MYTHREAD == 0)
        cycle_locks[0] = a, cycle_locks[1] = b;
    upc_barrier();
    if (MYTHREAD < 2)
        upc_lock(cycle_locks[MYTHREAD]);
    upc_barrier();
    if (MYTHREAD < 2)
        upc_lock(cycle_locks[1 - MYTHREAD]);
    upc_barrier();
    return 0;
}

static void test_hang_returns(void **state)
{
    (void)state;
    tupc_options o = {.threads = 3, .return_on_error = 1, .quiet = 1, .hang_timeout = 1};
    assert_int_equal(tupc_run_opts(&o, lock_cycle, NULL), TUPC_RUN_ERROR);
    const char *want[] = {"no thread has made progress for 1 s", "thread 0: in upc_lock for",
                          "queued behind thread 1", "thread 2: in upc_barrier for"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(tupc_last_error(), want[i]))
            fail_msg("report \"%s\" lacks \"%s\"", tupc_last_error(), want[i]);
    /* The next run is a normal one. */
    o.hang_timeout = 0;
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), 0);
}

static void test_bad_barrier_choice(void **state)
{
    (void)state;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    setenv("TUPC_BARRIER", "dissemination", 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    assert_non_null(strstr(tupc_last_error(), "TUPC_BARRIER is \"dissemination\""));
    unsetenv("TUPC_BARRIER");
}

static void test_bad_stream_min(void **state)
{
    (void)state;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    const char *bad[] = {"lots", "0", "-1M", "12Q"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("TUPC_STREAM_MIN", bad[i], 1);
        assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
        char want[64];
        snprintf(want, sizeof want, "TUPC_STREAM_MIN is \"%s\"", bad[i]);
        if (!strstr(tupc_last_error(), want))
            fail_msg("message \"%s\" lacks %s", tupc_last_error(), want);
    }
    setenv("TUPC_STREAM_MIN", "64K", 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), 0);
    unsetenv("TUPC_STREAM_MIN");
}

/* A run with environment variable `name` set to `bad` is refused with a
 * message that contains `says`; each of the n values in `good` runs. */
static void expect_env_choice(const char *name, const char *bad, const char *says,
                              const char *const *good, int n)
{
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    setenv(name, bad, 1);
    assert_int_equal(tupc_run_opts(&o, nothing, NULL), TUPC_RUN_ERROR);
    if (!strstr(tupc_last_error(), says))
        fail_msg("%s=%s: the error is \"%s\", expected it to contain \"%s\"", name, bad,
                 tupc_last_error(), says);
    for (int i = 0; i < n; i++) {
        setenv(name, good[i], 1);
        assert_int_equal(tupc_run_opts(&o, nothing, NULL), 0);
    }
    unsetenv(name);
}

static void test_bad_fence_choice(void **state)
{
    (void)state;
    const char *const good[] = {"asymmetric", "symmetric"};
    expect_env_choice("TUPC_FENCE", "seq_cst", "TUPC_FENCE is \"seq_cst\"", good, 2);
}

static void test_bad_simd_choice(void **state)
{
    (void)state;
    const char *const good[] = {"auto", "sse2", ""};
    expect_env_choice("TUPC_SIMD", "avx512", "TUPC_SIMD is \"avx512\"; expected auto or sse2", good,
                      3);
}

static int nested(void *arg)
{
    (void)arg;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    TCHECK(tupc_run_opts(&o, nothing, NULL) == TUPC_RUN_ERROR, "a nested run was accepted");
    return 0;
}

static void test_runs_do_not_nest(void **state)
{
    (void)state;
    TT_RUN(1, nested, NULL);
}

/* After a refused nested run, the outer run still reports its own errors
 * as a run does (the refusal must not end it). */
static int nested_then_error(void *arg)
{
    (void)arg;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    (void)tupc_run_opts(&o, nothing, NULL);
    upc_all_alloc((size_t)-1, 16); /* overflows: refused */
    return 0;
}

static void test_refused_nested_run_keeps_outer_run(void **state)
{
    (void)state;
    tt_expect_error(2, nested_then_error, NULL, "upc_all_alloc (thread", "overflows size_t", NULL);
}

/* Two threads of the process start runs at the same time: one is refused. */
static int slow(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return 0;
}

static pthread_barrier_t start_together;

static void *start_run(void *arg)
{
    int *status = arg;
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1};
    pthread_barrier_wait(&start_together);
    *status = tupc_run_opts(&o, slow, NULL);
    return NULL;
}

static void test_concurrent_runs_refused(void **state)
{
    (void)state;
    int st[2];
    pthread_t t[2];
    pthread_barrier_init(&start_together, NULL, 2);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, start_run, &st[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start_together);
    assert_true((st[0] == 0 && st[1] == TUPC_RUN_ERROR) || (st[1] == 0 && st[0] == TUPC_RUN_ERROR));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_many_sizes),
        cmocka_unit_test(test_status_lowest_nonzero),
        cmocka_unit_test(test_global_exit_releases_waiters),
        cmocka_unit_test(test_bad_thread_counts),
        cmocka_unit_test(test_bad_heap_size),
        cmocka_unit_test(test_bad_barrier_choice),
        cmocka_unit_test(test_bad_stream_min),
        cmocka_unit_test(test_bad_fence_choice),
        cmocka_unit_test(test_bad_simd_choice),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_options_size),
        cmocka_unit_test(test_hang_returns),
        cmocka_unit_test(test_huge_pages_either_way),
        cmocka_unit_test(test_runs_do_not_nest),
        cmocka_unit_test(test_refused_nested_run_keeps_outer_run),
        cmocka_unit_test(test_concurrent_runs_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
