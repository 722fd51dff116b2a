/* UPC 1.3 Required Library 7.4.3.1 para 13, EXAMPLE 1, as the spec writes
 * it (reduce_ex1.c is its C translation). The spec never points B
 * anywhere; here it points to one long on thread 0 ("not in the spec"). */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define BLK_SIZE 3
#define NELEMS 10
shared [BLK_SIZE] long A[NELEMS*THREADS];
shared long *B;
long result;

int main(void)
{
    const long N = NELEMS * THREADS;
    B = upc_all_alloc(1, sizeof(long)); /* not in the spec */
    // Initialize A. The result below is defined only on thread 0.
    upc_forall (long i = 0; i < N; i++; &A[i])
        A[i] = i;
    upc_barrier;
    upc_all_reduceL( B, A, UPC_ADD, NELEMS*THREADS, BLK_SIZE,
                     NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    int bad = 0;
    if (MYTHREAD == 0) {
        result = *B;
        if (result != N * (N - 1) / 2) {
            fprintf(stderr, "reduce_ex1: *B is %ld, expected %ld\n", result, N * (N - 1) / 2);
            bad = 1;
        }
    }
    upc_all_free(B);
    return bad;
}
