/* movement.c in UPC: shows how each relocalization collective moves
 * blocks. Every thread owns one block of 2 ints, labelled 100*thread +
 * 10*block + index; the program runs each collective, prints who holds what
 * afterwards and checks it. A and B have room for THREADS blocks on every
 * thread, a size that depends on THREADS, so they are allocated:
 * upc_all_alloc(THREADS, bytes) puts block t on thread t, &A[t] of a
 * `shared int *` is its first element, and a collective called with
 * `nbytes` of one block sees the first block on each thread.
 * Run: movement -n 4 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NB 2 /* ints per block */

shared int P[THREADS]; /* the permutation: thread i's block goes to P[i] */
static int bad;

/* The value of the first block of A of thread t, index i, block k. */
static int label(int t, int k, int i)
{
    return 100 * t + 10 * k + i;
}

/* Prints blocks_per_thread blocks of every thread's row of X, and checks
 * on thread 0 that block k of thread t holds want(t, k) + index (-1: zeros). */
static void show(const char *title, shared int *X, int blocks_per_thread, int (*want)(int, int))
{
    upc_barrier;
    if (MYTHREAD == 0) {
        printf("%s\n", title);
        for (int t = 0; t < THREADS; t++) {
            shared [] int *row = (shared [] int *)&X[t];
            printf("  thread %d:", t);
            for (int k = 0; k < blocks_per_thread; k++)
                for (int i = 0; i < NB; i++) {
                    int w = want(t, k), got = row[k * NB + i], expect = w < 0 ? 0 : w + i;
                    printf(" %4d", got);
                    if (got != expect) {
                        fprintf(stderr, "movement: thread %d, block %d: %d, expected %d\n", t, k,
                                got, expect);
                        bad = 1;
                    }
                }
            printf("\n");
        }
    }
    upc_barrier;
}

/* What each picture should show: the label of element 0 of the block. */
static int w_a(int t, int k)
{
    return label(t, k, 0);
}

static int w_broadcast(int t, int k)
{
    (void)t, (void)k;
    return label(1 % THREADS, 0, 0);
}

static int w_scatter(int t, int k)
{
    (void)k;
    return label(1 % THREADS, t, 0);
}

static int w_gather(int t, int k)
{
    return t == 0 ? label(k, 0, 0) : -1;
}

static int w_gather_all(int t, int k)
{
    (void)t;
    return label(k, 0, 0);
}

static int w_exchange(int t, int k)
{
    return label(k, t, 0);
}

static int w_permute(int t, int k)
{
    (void)k;
    return label((t + THREADS - 1) % THREADS, 0, 0);
}

/* Zeroes this thread's row of B, so that each picture shows one call only. */
static void clear(shared int *B)
{
    upc_memset(&B[MYTHREAD], 0, (size_t)THREADS * NB * sizeof(int));
}

int main(void)
{
    const int T = THREADS;
    /* shared [NB*THREADS] int A[THREADS][NB*THREADS], B likewise */
    shared int *A = upc_all_alloc(T, (size_t)T * NB * sizeof(int));
    shared int *B = upc_all_alloc(T, (size_t)T * NB * sizeof(int));
    int *a = (int *)&A[MYTHREAD]; /* my row, as a C array */
    for (int k = 0; k < T; k++)
        for (int i = 0; i < NB; i++)
            a[k * NB + i] = label(MYTHREAD, k, i);
    P[MYTHREAD] = (MYTHREAD + 1) % T; /* shift right by one */
    show("A: 100*thread + 10*block + index", A, T, w_a);

    const upc_flag_t sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    const size_t nb = NB * sizeof(int);
    /* &A[1 % T] is thread 1's first block (thread 0's with one thread) */
    clear(B);
    upc_all_broadcast(B, &A[1 % T], nb, sync);
    show("upc_all_broadcast(B, &A[1]): thread 1's first block to everyone", B, 1, w_broadcast);
    clear(B);
    upc_all_scatter(B, &A[1 % T], nb, sync);
    show("upc_all_scatter(B, &A[1]): thread 1's block i to thread i", B, 1, w_scatter);
    clear(B);
    upc_all_gather(B, A, nb, sync);
    show("upc_all_gather(B, A): block of thread i to block i on thread 0", B, T, w_gather);
    clear(B);
    upc_all_gather_all(B, A, nb, sync);
    show("upc_all_gather_all(B, A): block of thread i to block i on every thread", B, T,
         w_gather_all);
    clear(B);
    upc_all_exchange(B, A, nb, sync);
    show("upc_all_exchange(B, A): block j of thread i to block i of thread j", B, T, w_exchange);
    clear(B);
    upc_all_permute(B, A, P, nb, sync);
    show("upc_all_permute(B, A, P = i+1 mod T): block of thread i to thread P[i]", B, 1, w_permute);

    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
