/* Helpers for tests that run UPC threads under cmocka.
 *
 * cmocka's assert_* macros longjmp to the test's frame, which is undefined
 * from another thread, so code inside UPC threads checks with TCHECK: a
 * failure is counted and described (thread, file, line, message) and the
 * thread goes on; tt_run returns nonzero when any check failed, and the test
 * asserts on that in its own thread. */
#ifndef TT_H
#define TT_H

#include <upc.h>
#include <upc_collective_ext.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

void tt_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define TCHECK(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            tt_fail(__FILE__, __LINE__, __VA_ARGS__);                                              \
    } while (0)

/* Failed TCHECKs since the last tt_run started. */
int tt_failures(void);

/* Runs fn on `threads` UPC threads; errors of the library end the run
 * instead of the process. Returns the run's status, or 1000 + the number of
 * failed checks if any failed. */
int tt_run(int threads, int (*fn)(void *), void *arg);
#define TT_RUN(threads, fn, arg) assert_int_equal(tt_run((threads), (fn), (arg)), 0)

/* Runs fn on `threads` threads, quietly, and asserts that the library
 * stopped it with an error whose message contains every one of the
 * NULL-terminated needles. */
void tt_expect_error(int threads, int (*fn)(void *), void *arg, ...);
/* As tt_expect_error, at check level `checks` (tupc_options.checks);
 * tt_expect_error runs at TUPC_CHECKS_DEFAULT, whose messages it checks,
 * whatever TUPC_CHECKS says. */
void tt_expect_error_at(int checks, int threads, int (*fn)(void *), void *arg, ...);

/* Deterministic generator (splitmix64): the same seed gives the same data. */
static inline uint64_t tt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The six relocalization collectives by number, for tests that loop over them. */
enum tt_reloc {
    TT_BROADCAST,
    TT_SCATTER,
    TT_GATHER,
    TT_GATHER_ALL,
    TT_EXCHANGE,
    TT_PERMUTE,
    TT_NFN
};
void tt_reloc_call(int fn, tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                   upc_flag_t flags);

/* Every sync-mode value: the 9 IN x OUT pairs (first, IN-major), 0, and
 * each lone flag. */
#define TT_NSYNC 16
#define TT_NPAIRS 9
extern const upc_flag_t tt_sync_flags[TT_NSYNC];

/* Chains of posted calls (test_async, test_async_team). tt_complete_all
 * completes every handle of h, as `how` says: 0 upc_waitall, 1 upc_wait
 * newest first, 2 upc_waitsome, 3 polling upc_testany, 4 polling
 * upc_testsome; and checks the return values and that every handle ends
 * UPC_HANDLE_COMPLETE. tt_chain_sweep runs fn at 1, 3 and 5 THREADS (and
 * 8 with teams, MYSYNC), for each sync pair of MYSYNC, NOSYNC and ALLSYNC,
 * each `how`, on UPC_TEAM_ALL and, from 3 THREADS, on two teams. */
struct tt_chain_arg {
    int how, teams;
    upc_flag_t sync;
};
#define TT_CHAIN_HOWS 5
void tt_complete_all(int how, int count, upc_coll_handle_t *h);
void tt_chain_sweep(int (*fn)(void *));

/* For a thread that stays in user code while the others wait for posted
 * work it is part of: returns once *others reaches want, checking that it
 * does within 60 s (a bound for a failure, not a timing): the work must
 * move without this thread. */
void tt_compute_until(_Atomic int *others, int want);

/* Thread counts for matrices: THREADS well above the 2 cores of CI too. */
extern const int tt_thread_counts[];
extern const int tt_nthread_counts;

#endif
