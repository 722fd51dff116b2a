/* For teaching: shows how each relocalization collective moves blocks.
 * Every thread owns one block of 2 ints, labelled 100*thread + index; the
 * program runs each collective and prints who holds what afterwards.
 * Run: movement -n 4 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define NB 2 /* ints per block */

static void show(const char *title, tupc_sptr_t a, int blocks_per_thread)
{
    upc_barrier();
    if (MYTHREAD == 0) {
        printf("%s\n", title);
        for (int t = 0; t < THREADS; t++) {
            printf("  thread %d:", t);
            for (int i = 0; i < blocks_per_thread * NB; i++)
                printf(" %4d", tupc_ref(a, t * blocks_per_thread * NB + i,
                                        (size_t)blocks_per_thread * NB, int));
            printf("\n");
        }
    }
    upc_barrier();
}

/* Zeroes this thread's row of B, so that each picture shows one call only. */
static void clear(tupc_sptr_t b)
{
    size_t row = (size_t)THREADS * NB;
    upc_memset(tupc_index(b, MYTHREAD * row, row, int), 0, row * sizeof(int));
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int T = THREADS;
    /* shared [NB*T] int A[T][NB*T]: room for T blocks on every thread. */
    tupc_sptr_t A = upc_all_alloc(T, (size_t)T * NB * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(T, (size_t)T * NB * sizeof(int));
    tupc_sptr_t P = upc_all_alloc(T, sizeof(int));
    for (int k = 0; k < T; k++)
        for (int i = 0; i < NB; i++)
            tupc_ref(A, (MYTHREAD * T + k) * NB + i, (size_t)T * NB, int) =
                100 * MYTHREAD + 10 * k + i;
    tupc_ref(P, MYTHREAD, 1, int) = (MYTHREAD + 1) % T; /* shift right by one */
    show("A: 100*thread + 10*block + index", A, T);

    const upc_flag_t sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
    const size_t nb = NB * sizeof(int);
    /* Views of A and B with one block per thread (shared [NB] int[NB*T]). */
    clear(B);
    upc_all_broadcast(B, tupc_index(A, NB * T, (size_t)T * NB, int), nb, sync);
    show("upc_all_broadcast(B, &A[1][0]): thread 1's first block to everyone", B, 1);
    clear(B);
    upc_all_scatter(B, tupc_index(A, NB * T, (size_t)T * NB, int), nb, sync);
    show("upc_all_scatter(B, &A[1][0]): thread 1's block i to thread i", B, 1);
    clear(B);
    upc_all_gather(B, A, nb, sync);
    show("upc_all_gather(B, A): block of thread i to block i on thread 0", B, T);
    clear(B);
    upc_all_gather_all(B, A, nb, sync);
    show("upc_all_gather_all(B, A): block of thread i to block i on every thread", B, T);
    clear(B);
    upc_all_exchange(B, A, nb, sync);
    show("upc_all_exchange(B, A): block j of thread i to block i of thread j", B, T);
    clear(B);
    upc_all_permute(B, A, P, nb, sync);
    show("upc_all_permute(B, A, P = i+1 mod T): block of thread i to thread P[i]", B, 1);

    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(P);
    return 0;
}
