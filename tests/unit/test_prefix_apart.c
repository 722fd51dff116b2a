/* upc_all_prefix_reduceT with dst and src of different threads or phases:
 * Collectives 1.0 allows it ("the phases of src and dst are respected"),
 * UPC 1.3 7.4.3.1 para 10 does not; tupc follows 1.0 and says so once per
 * process at TUPC_CHECKS=full. Every element of dst against a serial oracle,
 * every element around it untouched; the team form, blocking and posted,
 * gives the 1.3 function's bits. */
#include "tt.h"

#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define PER 1200 /* elements per thread of each array */
#define SENTINEL (-7777)

/* Elements of a shared [B] array of PER per thread: whole courses only. */
static size_t total_of(size_t B)
{
    return (size_t)THREADS * (PER / B * B);
}

static long elem(size_t i, int it)
{
    uint64_t s = i * 31 + (uint64_t)it * 1000003u;
    return (long)(tt_rand(&s) % 1000) - 500;
}

static double elemd(size_t i, int it)
{
    return (double)elem(i, it) / 7.0;
}

struct shape {
    size_t B, n, s0, d0; /* block size, elements, src and dst start index */
};

/* Fills every element of A (the source arrays) and D (the destinations)
 * that this thread holds, with the data of round it and the sentinel. */
static void fill(tupc_sptr_t A, tupc_sptr_t Ad, tupc_sptr_t D, tupc_sptr_t Dd, size_t B, int it)
{
    size_t total = total_of(B);
    for (size_t i = 0; i < total; i++)
        if (upc_threadof(tupc_index(A, (ptrdiff_t)i, B, long)) == (size_t)MYTHREAD) {
            tupc_ref(A, i, B, long) = elem(i, it);
            tupc_ref(Ad, i, B, double) = elemd(i, it);
            tupc_ref(D, i, B, long) = SENTINEL;
            tupc_ref(Dd, i, B, double) = SENTINEL;
        }
}

/* Checks dst (from index d0) against the prefix of src (from s0), and the
 * sentinel everywhere else in D. */
static void check(const struct shape *sh, tupc_sptr_t D, int it, int excl, const char *what)
{
    size_t B = sh->B, total = total_of(B);
    long acc = 0;
    for (size_t i = 0; i < total; i++) {
        long want = SENTINEL;
        if (i >= sh->d0 && i < sh->d0 + sh->n) {
            size_t k = i - sh->d0;
            long x = elem(sh->s0 + k, it);
            if (excl) {
                want = k ? acc : SENTINEL; /* dst[0] is not written */
                acc += x;
            } else {
                acc += x;
                want = acc;
            }
        }
        long got = tupc_ref(D, i, B, long);
        TCHECK(got == want, "%s: B %zu n %zu src at %zu dst at %zu, element %zu: %ld, expected %ld",
               what, B, sh->n, sh->s0, sh->d0, i, got, want);
        if (got != want)
            return;
    }
}

/* dst's elements (the first not, exclusive) the same bits in D1 and D2. */
static void same_bits(const struct shape *sh, tupc_sptr_t D1, tupc_sptr_t D2, int excl,
                      const char *what)
{
    for (size_t i = sh->d0 + (size_t)excl; i < sh->d0 + sh->n; i++) {
        double x = tupc_ref(D1, i, sh->B, double), y = tupc_ref(D2, i, sh->B, double);
        TCHECK(!memcmp(&x, &y, sizeof x), "B %zu n %zu element %zu: %a, %s %a", sh->B, sh->n, i, x,
               what, y);
    }
}

static int apart_body(void *arg)
{
    (void)arg;
    static const size_t Bs[] = {1, 3, 7, 64};
    static const size_t ns[] = {1, 5, 100, 1000};
    upc_team_t rev;
    tupc_team_split(UPC_TEAM_ALL, 0, THREADS - 1 - MYTHREAD, &rev);
    int it = 0;
    for (size_t b = 0; b < sizeof Bs / sizeof Bs[0]; b++) {
        size_t B = Bs[b];
        tupc_sptr_t A = upc_all_alloc((size_t)THREADS, PER * sizeof(long));
        tupc_sptr_t Ad = upc_all_alloc((size_t)THREADS, PER * sizeof(double));
        tupc_sptr_t D = upc_all_alloc((size_t)THREADS, PER * sizeof(long));
        tupc_sptr_t Dd = upc_all_alloc((size_t)THREADS, PER * sizeof(double));
        tupc_sptr_t D2 = upc_all_alloc((size_t)THREADS, PER * sizeof(double));
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (int m = 0; m < TT_NPAIRS; m += 4, it++) {
                /* dst one block and one element on from src, or src on */
                struct shape sh = {B, ns[a], it % 2 ? B + 1 : 0, it % 2 ? 0 : 2 * B + 1};
                if (sh.n + sh.s0 > total_of(B) || sh.n + sh.d0 > total_of(B))
                    continue;
                upc_flag_t f = tt_sync_flags[m];
                int excl = it % 3 == 0;
                upc_flag_t fx = f | (excl ? UPC_EXCLUSIVE_PREFIX_REDUCE : 0);
                fill(A, Ad, D, Dd, B, it);
                upc_barrier();
                tupc_sptr_t src = tupc_index(A, (ptrdiff_t)sh.s0, B, long);
                tupc_sptr_t dst = tupc_index(D, (ptrdiff_t)sh.d0, B, long);
                upc_all_prefix_reduceL(dst, src, UPC_ADD, sh.n, B, NULL, fx);
                upc_barrier();
                check(&sh, D, it, excl, "upc_all_prefix_reduceL");
                upc_barrier();
                /* Doubles: the 1.3 function, the team form and a posted
                 * call on a team of every thread in reverse order. */
                tupc_sptr_t srcd = tupc_index(Ad, (ptrdiff_t)sh.s0, B, double);
                upc_all_prefix_reduceD(tupc_index(Dd, (ptrdiff_t)sh.d0, B, double), srcd, UPC_ADD,
                                       sh.n, B, NULL, fx);
                tupc_team_prefix_reduceD(tupc_index(D2, (ptrdiff_t)sh.d0, B, double), srcd, UPC_ADD,
                                         sh.n, B, NULL, fx, rev);
                upc_barrier();
                same_bits(&sh, Dd, D2, excl, "team");
                upc_barrier();
                upc_wait(tupc_team_prefix_reduceD(tupc_index(D2, (ptrdiff_t)sh.d0, B, double), srcd,
                                                  UPC_ADD, sh.n, B, NULL, fx | UPC_ASYNC, rev));
                upc_barrier();
                /* The posted call cuts as the blocking forms do: the same bits. */
                same_bits(&sh, Dd, D2, excl, "posted");
                upc_barrier();
            }
        upc_all_free(A);
        upc_all_free(Ad);
        upc_all_free(D);
        upc_all_free(Dd);
        upc_all_free(D2);
    }
    tupc_team_free(&rev);
    return 0;
}

static void test_apart(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], apart_body, NULL);
}

/* At TUPC_CHECKS=full the process says once that the call is not portable. */
static int apart_twice(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc((size_t)THREADS, 64 * sizeof(long));
    tupc_sptr_t D = upc_all_alloc((size_t)THREADS, 64 * sizeof(long));
    for (int k = 0; k < 2; k++)
        upc_all_prefix_reduceL(tupc_index(D, 1, 4, long), A, UPC_ADD, 10, 4, NULL,
                               UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_free(A);
    upc_all_free(D);
    return 0;
}

/* In a process of its own (this program again, with --full-child), so
 * that what the earlier tests printed at TUPC_CHECKS=full cannot count. */
static int full_child(void)
{
    tupc_options o = {.threads = 3, .return_on_error = 1, .checks = TUPC_CHECKS_FULL};
    return tupc_run_opts(&o, apart_twice, NULL);
}

static void test_full_checks_say_so(void **state)
{
    (void)state;
    char path[] = "/tmp/tupc_apart_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        execl("/proc/self/exe", "test_prefix_apart", "--full-child", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char buf[4096] = {0};
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    close(fd);
    unlink(path);
    assert_true(got > 0);
    const char *w = strstr(buf, "warning: dst has thread 0 and phase 1, src thread 0 and phase 0");
    assert_non_null(w);
    assert_non_null(strstr(buf, "upc_all_prefix_reduceL"));
    assert_non_null(strstr(buf, "UPC 1.3 7.4.3.1 para 10"));
    assert_null(strstr(w + 1, "warning:")); /* once */
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--full-child"))
        return full_child();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apart),
        cmocka_unit_test(test_full_checks_say_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
