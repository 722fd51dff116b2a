/* UPC 1.3 Required Library 7.4.3.1 para 14, EXAMPLE 2, as the spec writes
 * it (prefix_reduce_ex2.c is its C translation); "Initialize A" and the
 * check added. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define BLK_SIZE 3
#define NELEMS 10
shared [BLK_SIZE] long A[NELEMS*THREADS];
shared [BLK_SIZE] long B[NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[i] = i.
    upc_forall (long i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = i;
    upc_all_prefix_reduceL( B, A, UPC_ADD, NELEMS*THREADS, BLK_SIZE,
                            NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );

    /* B[i] == A[0] + ... + A[i] == i(i+1)/2 */
    int bad = 0;
    upc_forall (long i = 0; i < NELEMS * THREADS; i++; &B[i])
        if (B[i] != i * (i + 1) / 2) {
            fprintf(stderr, "prefix_reduce_ex2: B[%ld] is %ld, expected %ld\n", i, B[i],
                    i * (i + 1) / 2);
            bad = 1;
        }
    return bad;
}
