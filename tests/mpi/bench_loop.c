/* One collective of 8 bytes per block under IN_MYSYNC | OUT_MYSYNC, back to
 * back: mpirun -np P bench_loop -n T [calls] [verb]. Each thread prints
 * its time per call, its CPU at the end, and its context switches per call
 * (voluntary: it slept; involuntary: it was preempted or yielded to a
 * thread that then ran), the figures that show where a crowded node's
 * calls go (docs/benchmarks.md). Verbs: gather, scatter, broadcast,
 * gather_all, exchange, prefix_reduce, reduce (of longs, UPC_ADD), permute
 * (each thread's block to the next thread), and upc_barrier; the default is
 * gather_all. Two rounds; the second is
 * printed. */
#include <upc.h>
#include <upc_collective.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* This thread's voluntary and involuntary context switches so far. */
static void switches(long *vol, long *invol)
{
    char line[256];
    FILE *f = fopen("/proc/thread-self/status", "r");
    *vol = *invol = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0)
            *vol = atol(line + 24);
        else if (strncmp(line, "nonvoluntary_ctxt_switches:", 27) == 0)
            *invol = atol(line + 27);
    }
    if (f)
        fclose(f);
}

static const char *const verbs[] = {"gather",     "scatter",  "broadcast",
                                    "gather_all", "exchange", "prefix_reduce",
                                    "reduce",     "permute",  "barrier"};
enum { NVERBS = sizeof verbs / sizeof verbs[0] };

static void call(int v, tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm)
{
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    switch (v) {
    case 0:
        upc_all_gather(dst, src, 8, my);
        break;
    case 1:
        upc_all_scatter(src, dst, 8, my);
        break;
    case 2:
        upc_all_broadcast(dst, src, 8, my);
        break;
    case 3:
        upc_all_gather_all(dst, src, 8, my);
        break;
    case 4:
        upc_all_exchange(dst, src, 8, my);
        break;
    case 5:
        upc_all_prefix_reduceL(dst, src, UPC_ADD, (size_t)THREADS, 1, NULL, my);
        break;
    case 6:
        upc_all_reduceL(dst, src, UPC_ADD, (size_t)THREADS, 1, NULL, my);
        break;
    case 7:
        upc_all_permute(dst, src, perm, 8, my);
        break;
    default:
        upc_barrier();
        break;
    }
}

int tupc_main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 3000;
    int v = 3;
    for (int i = 0; argc > 2 && i < NVERBS; i++)
        if (strcmp(argv[2], verbs[i]) == 0)
            v = i;
    if (n < 1 || (argc > 2 && strcmp(argv[2], verbs[v]) != 0)) {
        if (MYTHREAD == 0)
            fprintf(stderr,
                    "usage: bench_loop -n T [calls >= 1] [verb: gather, scatter, "
                    "broadcast, gather_all, exchange, prefix_reduce, reduce, permute, barrier]\n");
        return 2;
    }
    /* src: a block of 8 bytes per thread (THREADS of them for the
     * exchange); dst: THREADS blocks of 8 bytes per thread. */
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS, 8 * (size_t)THREADS);
    tupc_sptr_t dst = upc_all_alloc((size_t)THREADS, 8 * (size_t)THREADS);
    tupc_sptr_t perm = upc_all_alloc((size_t)THREADS, sizeof(int));
    if (tupc_isnull(src) || tupc_isnull(dst) || tupc_isnull(perm))
        return 1;
    tupc_put_int(tupc_index(perm, MYTHREAD, 1, int), (MYTHREAD + 1) % THREADS);
    upc_barrier();
    for (int round = 0; round < 2; round++) {
        long v0, i0, v1, i1;
        switches(&v0, &i0);
        const double t0 = now_us();
        for (int i = 0; i < n; i++)
            call(v, dst, src, perm);
        const double t1 = now_us();
        switches(&v1, &i1);
        upc_barrier();
        if (round == 1)
            printf("bench_loop: thread %d of %d, %s: %.2f us per call, cpu %d, switches per "
                   "call %.2f voluntary %.2f involuntary\n",
                   MYTHREAD, THREADS, verbs[v], (t1 - t0) / n, sched_getcpu(),
                   (double)(v1 - v0) / n, (double)(i1 - i0) / n);
    }
    upc_all_free(perm);
    upc_all_free(dst);
    upc_all_free(src);
    return 0;
}
