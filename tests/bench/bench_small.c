/* The 8-byte calls of two library builds with one and the same program:
 * 200000 back-to-back calls of upc_all_broadcast or upc_all_reduceL at
 * THREADS = 2 with the given flags, ns per call (thread 1's loop). The
 * benchmarks of each tree are compiled with that tree, so their own code
 * moves with it, and at this size a program's layout alone moved a figure by
 * 30 % (docs/benchmarks.md); tests/bench/ab.sh compiles this file against
 * both builds' static libraries and runs them in turns.
 *
 * Usage: bench_small broadcast|reduce FLAGS */
#include "args.h"

#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WARM = 20000, CALLS = 200000 };

static int reduce, flags;
static double ns_per_call;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void call(tupc_sptr_t a, tupc_sptr_t b)
{
    if (reduce)
        upc_all_reduceL(b, a, UPC_ADD, 1, 1, NULL, flags);
    else
        upc_all_broadcast(b, a, 8, flags);
}

static int body(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc(THREADS, 8), b = upc_all_alloc(THREADS, 8);
    for (int i = 0; i < WARM; i++)
        call(a, b);
    upc_barrier();
    double t0 = now_ns();
    for (int i = 0; i < CALLS; i++)
        call(a, b);
    double t = (now_ns() - t0) / CALLS;
    upc_barrier();
    if (MYTHREAD == 1)
        ns_per_call = t;
    return 0;
}

static const struct tb_opt opts[] = {{NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    "broadcast|reduce FLAGS",
    "ns per 8-byte call at THREADS = 2; FLAGS: the sync flags, such as 0x09 (NO|NO).", opts};

int main(int argc, char **argv)
{
    const char *arg[2], *v;
    int n = 0, i = 1;
    while (tb_next_opt(argc, argv, &i, &cmd, &v) != TB_END) {
        if (n == 2)
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        arg[n++] = v; /* no options: every other argument is an operand */
    }
    if (n != 2 || (strcmp(arg[0], "broadcast") != 0 && strcmp(arg[0], "reduce") != 0))
        tb_usage_error(argv[0], &cmd, "expected broadcast|reduce FLAGS", "");
    reduce = strcmp(arg[0], "reduce") == 0;
    flags = (int)strtol(arg[1], NULL, 0);
    if (tupc_run(2, body, NULL) != 0)
        return 1;
    printf("%.1f\n", ns_per_call);
    return 0;
}
