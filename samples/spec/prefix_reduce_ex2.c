/* Spec example: UPC 1.3 Required Library 7.4.3.1 para 14, EXAMPLE 2 (the
 * same in UPC 1.2, and in Collectives 1.0 4.3.3 as example 1):
 * upc_all_prefix_reduce of type long, UPC_ADD.
 *
 *   #define BLK_SIZE 3
 *   #define NELEMS 10
 *   shared [BLK_SIZE] long A[NELEMS*THREADS];
 *   shared [BLK_SIZE] long B[NELEMS*THREADS];
 *   // Initialize A.
 *   upc_all_prefix_reduceL( B, A, UPC_ADD, NELEMS*THREADS, BLK_SIZE,
 *                           NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC );
 *
 * B[i] becomes A[0] + A[1] + ... + A[i], an inclusive scan, in A's layout.
 * Run: prefix_reduce_ex2 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>

#define BLK_SIZE 3
#define NELEMS 10

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const long N = NELEMS * THREADS;
    const size_t nblocks = (N + BLK_SIZE - 1) / BLK_SIZE;
    tupc_sptr_t A = upc_all_alloc(nblocks, BLK_SIZE * sizeof(long));
    tupc_sptr_t B = upc_all_alloc(nblocks, BLK_SIZE * sizeof(long));

    // Initialize A: A[i] = i. ALLSYNC in makes a barrier before the call
    // unnecessary.
    upc_forall(long i = 0, i < N, i++, tupc_index(A, i, BLK_SIZE, long))
        tupc_ref(A, i, BLK_SIZE, long) = i;
    upc_all_prefix_reduceL(B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, NULL,
                           UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);

    /* Expected: B[i] = 0 + 1 + ... + i = i(i+1)/2, a running sum. */
    int bad = 0;
    if (MYTHREAD == 0) {
        long sum = 0;
        for (long i = 0; i < N; i++) {
            sum += i;
            if (tupc_ref(B, i, BLK_SIZE, long) != sum) {
                fprintf(stderr, "prefix_reduce_ex2: B[%ld] is %ld, expected %ld\n", i,
                        tupc_ref(B, i, BLK_SIZE, long), sum);
                bad = 1;
            }
        }
        if (!bad)
            printf("prefix_reduce_ex2: B = 0 1 3 6 10 ... %ld, the running sum of A\n", sum);
    }
    upc_all_free(A);
    upc_all_free(B);
    return bad;
}
