#include "tt.h"

#include <upc_collective.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Atomic int failures;

void tt_fail(const char *file, int line, const char *fmt, ...)
{
    int n = atomic_fetch_add(&failures, 1);
    if (n >= 20)
        return; /* the first ones say enough */
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "CHECK FAILED %s:%d (thread %d of %d): %s\n", file, line, MYTHREAD, THREADS,
            msg);
}

int tt_failures(void)
{
    return atomic_load(&failures);
}

int tt_run(int threads, int (*fn)(void *), void *arg)
{
    atomic_store(&failures, 0);
    tupc_options o = {.threads = threads, .return_on_error = 1};
    int st = tupc_run_opts(&o, fn, arg);
    if (st != 0)
        fprintf(stderr, "run of %d threads ended with status %d: %s\n", threads, st,
                tupc_last_error());
    int f = atomic_load(&failures);
    return f ? 1000 + f : st;
}

static void expect_error(int checks, int threads, int (*fn)(void *), void *arg, va_list ap)
{
    atomic_store(&failures, 0);
    tupc_options o = {.threads = threads, .return_on_error = 1, .quiet = 1, .checks = checks};
    int st = tupc_run_opts(&o, fn, arg);
    const char *msg = tupc_last_error();
    if (getenv("TT_VERBOSE")) /* to read the messages a test checks */
        fprintf(stderr, "[%d threads] %s\n", threads, msg);
    if (st != TUPC_RUN_ERROR)
        fail_msg("expected the run to stop with an error, status %d", st);
    for (const char *needle; (needle = va_arg(ap, const char *));)
        if (!strstr(msg, needle))
            fail_msg("error message \"%s\" lacks \"%s\"", msg, needle);
}

void tt_expect_error(int threads, int (*fn)(void *), void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    expect_error(TUPC_CHECKS_DEFAULT, threads, fn, arg, ap);
    va_end(ap);
}

void tt_expect_error_at(int checks, int threads, int (*fn)(void *), void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    expect_error(checks, threads, fn, arg, ap);
    va_end(ap);
}

const int tt_thread_counts[] = {1, 2, 3, 5, 8, 16};
const int tt_nthread_counts = sizeof tt_thread_counts / sizeof tt_thread_counts[0];

void tt_reloc_call(int fn, tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                   upc_flag_t flags)
{
    switch (fn) {
    case TT_BROADCAST:
        upc_all_broadcast(dst, src, nbytes, flags);
        break;
    case TT_SCATTER:
        upc_all_scatter(dst, src, nbytes, flags);
        break;
    case TT_GATHER:
        upc_all_gather(dst, src, nbytes, flags);
        break;
    case TT_GATHER_ALL:
        upc_all_gather_all(dst, src, nbytes, flags);
        break;
    case TT_EXCHANGE:
        upc_all_exchange(dst, src, nbytes, flags);
        break;
    case TT_PERMUTE:
        upc_all_permute(dst, src, perm, nbytes, flags);
        break;
    }
}

const upc_flag_t tt_sync_flags[TT_NSYNC] = {
    UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
    UPC_IN_NOSYNC | UPC_OUT_MYSYNC,
    UPC_IN_NOSYNC | UPC_OUT_ALLSYNC,
    UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
    UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
    UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
    UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,
    UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
    0,
    UPC_IN_NOSYNC,
    UPC_IN_MYSYNC,
    UPC_IN_ALLSYNC,
    UPC_OUT_NOSYNC,
    UPC_OUT_MYSYNC,
    UPC_OUT_ALLSYNC,
};

void tt_complete_all(int how, int count, upc_coll_handle_t *h)
{
    int pending = 0, done = 0;
    for (int k = 0; k < count; k++)
        pending += h[k] != UPC_HANDLE_COMPLETE;
    switch (how) {
    case 0:
        upc_waitall(count, h);
        break;
    case 1: /* by value: the array is not reset */
        for (int k = count - 1; k >= 0; k--)
            upc_wait(h[k]);
        memset(h, 0, sizeof *h * (size_t)count);
        break;
    case 2:
        while (done < pending) {
            int n = upc_waitsome(count, h);
            TCHECK(n > 0, "upc_waitsome gave %d with %d pending", n, pending - done);
            if (n <= 0)
                break;
            done += n;
        }
        TCHECK(upc_waitsome(count, h) == 0, "upc_waitsome with nothing pending");
        break;
    case 3:
        while (done < pending) {
            int i = upc_testany(count, h);
            if (i >= 0) {
                TCHECK(h[i] == UPC_HANDLE_COMPLETE, "handles[%d] not reset", i);
                done++;
            }
        }
        TCHECK(upc_testany(count, h) < 0, "upc_testany with nothing pending");
        break;
    case 4:
        while (done < pending)
            done += upc_testsome(count, h);
        TCHECK(done == pending && upc_testall(count, h) == 1, "%d of %d completed by upc_testsome",
               done, pending);
        break;
    }
    for (int k = 0; k < count; k++)
        TCHECK(h[k] == UPC_HANDLE_COMPLETE, "handles[%d] still set", k);
}

void tt_chain_sweep(int (*fn)(void *))
{
    static const upc_flag_t syncs[] = {UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
                                       UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                                       UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};
    for (int n = 1; n <= 5; n += 2)
        for (int s = 0; s < 3; s++)
            for (int how = 0; how < TT_CHAIN_HOWS; how++)
                for (int teams = 0; teams <= (n > 1); teams++) {
                    struct tt_chain_arg a = {how, teams, syncs[s]};
                    TT_RUN(n, fn, &a);
                }
    struct tt_chain_arg eight = {0, 1, UPC_IN_MYSYNC | UPC_OUT_MYSYNC};
    TT_RUN(8, fn, &eight);
}

void tt_compute_until(_Atomic int *others, int want)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while (atomic_load(others) < want && t.tv_sec - t0.tv_sec < 60);
    TCHECK(atomic_load(others) == want,
           "after 60 s of thread %d in user code, %d of %d other threads' waits had ended: no "
           "progress without it",
           MYTHREAD, atomic_load(others), want);
}
