/* UPC 1.3 Required Library 7.4.2.1 para 9, EXAMPLE 1, as the spec writes it
 * (broadcast_ex1.c is its C translation). "Initialize A" and the check of
 * the result are added; it names A[1], so it needs THREADS >= 2. */
/* threads: 2 3 5 8 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

shared int A[THREADS];
shared int B[THREADS];

int main(void)
{
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "broadcast_ex1: the example reads A[1]: run it with -n 2 or more\n");
        return 2;
    }
    // Initialize A.
    A[MYTHREAD] = 100 + MYTHREAD;
    upc_barrier;
    upc_all_broadcast( B, &A[1], sizeof(int),
                       UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    /* B[i] == A[1] on every thread */
    int bad = 0;
    if (MYTHREAD == 0)
        for (int i = 0; i < THREADS; i++)
            if (B[i] != 101) {
                fprintf(stderr, "broadcast_ex1: B[%d] is %d, expected A[1] = 101\n", i, B[i]);
                bad = 1;
            }
    return bad;
}
