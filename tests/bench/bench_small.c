/* The 8-byte calls of two library builds with one and the same program:
 * 200000 back-to-back calls of upc_all_broadcast or upc_all_reduceL at
 * THREADS = 2 with the given flags, ns per call (thread 1's loop). The
 * benchmarks of each tree are compiled with that tree, so their own code
 * moves with it, and at this size a program's layout alone moved a figure by
 * 30 % (docs/benchmarks.md); tests/bench/ab.sh compiles this file against
 * both builds' static libraries and runs them in turns.
 *
 * Usage: bench_small broadcast|reduce FLAGS */
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

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "broadcast") != 0 && strcmp(argv[1], "reduce") != 0)) {
        fprintf(stderr, "usage: %s broadcast|reduce FLAGS\n", argv[0]);
        return 2;
    }
    reduce = strcmp(argv[1], "reduce") == 0;
    flags = (int)strtol(argv[2], NULL, 0);
    if (tupc_run(2, body, NULL) != 0)
        return 1;
    printf("%.1f\n", ns_per_call);
    return 0;
}
