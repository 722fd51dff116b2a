/* UPC 1.3 Required Library 7.4.2.5 para 9, EXAMPLE 1 (static THREADS), as
 * the spec writes it (exchange_ex1.c is its C translation); "Initialize A"
 * and the check added. The block size names THREADS, which needs static
 * THREADS (tupcc -n N). */
/* dynamic: no */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NELEMS 10
shared [NELEMS*THREADS] int A[THREADS][NELEMS*THREADS];
shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS];

int main(void)
{
    // Initialize A: A[t][k] = 1000t + k, each thread its own row.
    for (int k = 0; k < NELEMS * THREADS; k++)
        A[MYTHREAD][k] = 1000 * MYTHREAD + k;
    upc_barrier;
    upc_all_exchange( B, A, NELEMS*sizeof(int),
                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    /* block j of my row of B is block MYTHREAD of row j of A */
    int bad = 0;
    for (int j = 0; j < THREADS; j++)
        for (int e = 0; e < NELEMS; e++) {
            int want = 1000 * j + MYTHREAD * NELEMS + e;
            if (B[MYTHREAD][j * NELEMS + e] != want) {
                fprintf(stderr, "exchange_ex1: B[%d][%d] is %d, expected %d\n", MYTHREAD,
                        j * NELEMS + e, B[MYTHREAD][j * NELEMS + e], want);
                bad = 1;
            }
        }
    return bad;
}
