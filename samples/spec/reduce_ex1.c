/* Spec example: UPC 1.3 Required Library 7.4.3.1 para 13, EXAMPLE 1 (the
 * same in UPC 1.2, and in Collectives 1.0 4.3.2 as example 1):
 * upc_all_reduce of type long, UPC_ADD.
 *
 *   #define BLK_SIZE 3
 *   #define NELEMS 10
 *   shared [BLK_SIZE] long A[NELEMS*THREADS];
 *   shared long *B;
 *   long result;
 *   // Initialize A. The result below is defined only on thread 0.
 *   upc_barrier;
 *   upc_all_reduceL( B, A, UPC_ADD, NELEMS*THREADS, BLK_SIZE,
 *                    NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * The sum of all of A lands in *B. The spec declares B but never points it
 * anywhere; here it points to one long on thread 0, and thread 0 reads
 * `result` from it. Blocks of 3 go round the threads, so a thread's
 * elements are not one run: the reduction follows the layout.
 * Run: reduce_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define BLK_SIZE 3
#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const long N = NELEMS * THREADS;
    /* shared [BLK_SIZE] long A[N]: ceil(N / BLK_SIZE) blocks of BLK_SIZE. */
    tupc_sptr_t A = upc_all_alloc((N + BLK_SIZE - 1) / BLK_SIZE, BLK_SIZE * sizeof(long));
    tupc_sptr_t B = upc_all_alloc(1, sizeof(long)); /* not in the spec: B's target */
    long result;

    // Initialize A: A[i] = i, by the thread each element has affinity to.
    upc_forall(long i = 0, i < N, i++, tupc_index(A, i, BLK_SIZE, long))
        tupc_ref(A, i, BLK_SIZE, long) = i;
    upc_barrier();
    upc_all_reduceL(B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, NULL,
                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: 0 + 1 + ... + (N-1) = N(N-1)/2. */
    int bad = 0;
    if (MYTHREAD == 0) {
        result = tupc_ref(B, 0, 1, long); /* *B */
        if (result != N * (N - 1) / 2) {
            fprintf(stderr, "reduce_ex1: *B is %ld, expected %ld\n", result, N * (N - 1) / 2);
            bad = 1;
        } else {
            printf("reduce_ex1: A[0] + ... + A[%ld] = %ld\n", N - 1, result);
        }
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
