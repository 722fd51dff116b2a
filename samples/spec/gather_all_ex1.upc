/* UPC 1.3 Required Library 7.4.2.4 para 10, EXAMPLE 1 (static THREADS), as
 * the spec writes it (gather_all_ex1.c is its C translation); "Initialize
 * A" and the check added. B's block size names THREADS, which needs
 * static THREADS (tupcc -n N). */
/* dynamic: no */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];
shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[i] = 5i + 2, each thread its own block.
    upc_forall (int i = 0; i < NELEMS * THREADS; i++; &A[i])
        A[i] = 5 * i + 2;
    upc_barrier;
    upc_all_gather_all( B, A, sizeof(int)*NELEMS,
                        UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    /* every row of B is A; row t is thread t's */
    int bad = 0;
    for (int k = 0; k < NELEMS * THREADS; k++)
        if (B[MYTHREAD][k] != 5 * k + 2) {
            fprintf(stderr, "gather_all_ex1: B[%d][%d] is %d, expected %d\n", MYTHREAD, k,
                    B[MYTHREAD][k], 5 * k + 2);
            bad = 1;
        }
    return bad;
}
