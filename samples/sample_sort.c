/* Classic: sample sort. Each thread sorts its own keys, the threads agree
 * on THREADS-1 splitters from a sample of everyone's keys, and one
 * all-to-all, upc_all_exchange, sends each key to the thread whose range
 * holds it; each thread then sorts what it received. Thread t ends with
 * the t-th run of the sorted keys. Run: sample_sort -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 10000 /* keys in all, whatever THREADS */
#define S 8     /* samples per thread */

static int key(long i) /* the i-th key: scattered, with repeats */
{
    return (int)((i * 2654435761u) % 100003u) % 50000;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int T = THREADS, me = MYTHREAD;
    const long cap = (N + T - 1) / T; /* at most this many keys start on a thread */
    /* Thread me's keys are keys lo..hi-1; private memory, sorted locally. */
    long lo = N * me / T, hi = N * (me + 1) / T, n = hi - lo;
    int *mine = malloc((size_t)cap * sizeof(int));
    for (long i = 0; i < n; i++)
        mine[i] = key(lo + i);
    qsort(mine, (size_t)n, sizeof(int), cmp_int);

    /* 1. Splitters. shared [S] int samples[S*T]: S evenly spaced keys of
     * each thread; gather_all copies all S*T into every thread's row of
     * shared [S*T] int all[T][S*T]. */
    tupc_sptr_t samples = upc_all_alloc(T, S * sizeof(int));
    tupc_sptr_t all = upc_all_alloc(T, (size_t)T * S * sizeof(int));
    for (int s = 0; s < S; s++)
        tupc_ref(samples, me * S + s, S, int) = mine[n * s / S];
    /* MYSYNC in: each thread wrote only its own samples before entering.
     * MYSYNC out: each reads only its own row when its call returns. */
    upc_all_gather_all(all, samples, S * sizeof(int), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    /* My row is in my memory: a plain C pointer reaches it. Every thread
     * sorts the same samples, so all pick the same splitters. */
    int *sample = tupc_local(tupc_index(all, me * T * S, T * S, int));
    qsort(sample, (size_t)T * S, sizeof(int), cmp_int);
    /* Keys below sample[S] go to thread 0, then below sample[2S] to 1, ... */

    /* 2. Buckets. send is shared [T*cap] int send[T][T*cap]: row t holds
     * thread t's T buckets, each in a slot of cap ints. count[t][j] is the
     * number of thread t's keys bound for j. */
    tupc_sptr_t send = upc_all_alloc(T, (size_t)T * cap * sizeof(int));
    tupc_sptr_t recv = upc_all_alloc(T, (size_t)T * cap * sizeof(int));
    tupc_sptr_t count = upc_all_alloc(T, (size_t)T * sizeof(long));
    tupc_sptr_t rcount = upc_all_alloc(T, (size_t)T * sizeof(long));
    int *row = tupc_local(tupc_index(send, me * T * cap, T * cap, int));
    long i = 0;
    for (int j = 0; j < T; j++) { /* mine is sorted: each bucket is a run */
        long start = i;
        while (i < n && (j == T - 1 || mine[i] < sample[(j + 1) * S]))
            i++;
        memcpy(row + j * cap, mine + start, (size_t)(i - start) * sizeof(int));
        tupc_ref(count, me * T + j, T, long) = i - start;
    }

    /* 3. The all-to-all: block j of thread i goes to block i of thread j.
     * First the counts, then the buckets, in slots of cap ints. */
    upc_all_exchange(rcount, count, sizeof(long), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    upc_all_exchange(recv, send, (size_t)cap * sizeof(int), UPC_IN_MYSYNC | UPC_OUT_MYSYNC);

    /* 4. Close the gaps between the received runs and sort them. */
    int *got = tupc_local(tupc_index(recv, me * T * cap, T * cap, int));
    long m = 0;
    for (int t = 0; t < T; t++) {
        long c = tupc_ref(rcount, me * T + t, T, long);
        memmove(got + m, got + t * cap, (size_t)c * sizeof(int));
        m += c;
    }
    qsort(got, (size_t)m, sizeof(int), cmp_int);
    tupc_sptr_t total = upc_all_alloc(T, sizeof(long)); /* shared long total[T] */
    tupc_ref(total, me, 1, long) = m;
    upc_barrier();

    /* Check: thread 0 reads every thread's run in turn (they are shared
     * memory) and compares them with a serial sort of all the keys. */
    int bad = 0;
    if (me == 0) {
        int *want = malloc(N * sizeof(int));
        for (long k = 0; k < N; k++)
            want[k] = key(k);
        qsort(want, N, sizeof(int), cmp_int);
        long k = 0;
        for (int t = 0; t < T && !bad; t++) {
            /* Any thread's run, here or (built with MPI) in another process. */
            long c = tupc_get_long(tupc_index(total, t, 1, long));
            for (long e = 0; e < c && !bad; e++, k++)
                if (k >= N ||
                    tupc_get_int(tupc_index(recv, t * T * cap + e, T * cap, int)) != want[k]) {
                    fprintf(stderr, "sample_sort: thread %d's key %ld is wrong (key %ld of %d)\n",
                            t, e, k, N);
                    bad = 1;
                }
        }
        if (!bad && k != N) {
            fprintf(stderr, "sample_sort: %ld keys in the buckets, expected %d\n", k, N);
            bad = 1;
        }
        if (!bad)
            printf("sample_sort: %d keys sorted on %d threads, %d to %d\n", N, T, want[0],
                   want[N - 1]);
        free(want);
    }
    free(mine);
    upc_all_free(samples);
    upc_all_free(all);
    upc_all_free(send);
    upc_all_free(recv);
    upc_all_free(count);
    upc_all_free(rcount);
    upc_all_free(total);
    return bad;
}
