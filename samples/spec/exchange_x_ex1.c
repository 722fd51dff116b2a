/* Spec example: UPC Extended Collective Operations 0.3, 5.3.5
 * upc_all_exchange_x, example 1 (figure 5). Written for THREADS = 3.
 *
 *   #define BLK 9
 *   #define NELEMS BLK*THREADS
 *
 *   shared [] char * shared [THREADS] A[THREADS*THREADS];
 *   shared [] char * shared [THREADS] B[THREADS*THREADS];
 *
 *   shared [THREADS] size_t nbytes[THREADS*THREADS];
 *
 *   shared [BLK] char C1[NELEMS];
 *   shared [BLK] char C2[NELEMS];
 *
 *   shared [BLK] char D1[NELEMS];
 *   shared [BLK] char D2[NELEMS];
 *
 *   ... Initialize C1, C2 ...
 *
 *   if( MYTHREAD == 0 )
 *   {
 *       nBytes[0] = 2*sizeof(char);  ...  nBytes[8] = 4*sizeof(char);
 *       (2, 3, 1, 4, 2, 3, 1, 3, 4)
 *       A[0] = (shared [] char *)&(C1[1]);   B[0] = (shared [] char *)&(D2[0]);
 *       A[1] = (shared [] char *)&(C2[3]);   B[1] = (shared [] char *)&(D2[3]);
 *       A[2] = (shared [] char *)&(C1[7]);   B[2] = (shared [] char *)&(D1[6]);
 *       A[3] = (shared [] char *)&(C2[9]);   B[3] = (shared [] char *)&(D1[9]);
 *       A[4] = (shared [] char *)&(C1[13]);  B[4] = (shared [] char *)&(D2[13]);
 *       A[5] = (shared [] char *)&(C2[15]);  B[5] = (shared [] char *)&(D1[15]);
 *       A[6] = (shared [] char *)&(C1[18]);  B[6] = (shared [] char *)&(D2[19]);
 *       A[7] = (shared [] char *)&(C1[24]);  B[7] = (shared [] char *)&(D2[22]);
 *       A[8] = (shared [] char *)&(C2[20]);  B[8] = (shared [] char *)&(D1[23]);
 *   }
 *
 *   upc_all_exchange_x( B, A, nBytes,
 *                       UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
 *                       UPC_TEAM_ALL );
 *
 * (The A and B assignments are set side by side here; the spec lists them
 * one after the other. It declares the counts as nbytes and uses nBytes.)
 * Block i of thread j, nBytes[j*3 + i] bytes at A[j*3 + i], goes to block
 * j of thread i, at B[i*3 + j]: an all-to-all with a size and a place per
 * block (docs/extended.md says why this reading of the text).
 * Run: exchange_x_ex1 -n 3 */
#include <upc.h>
#include <upc_collective_ext.h>

#include <stdio.h>
#include <string.h>

#define BLK 9
#define NELEMS (BLK * 3)

/* (shared [] char *)&(X[i]) for shared [BLK] char X[NELEMS] */
static tupc_sptr_t at(tupc_sptr_t X, int i)
{
    return tupc_ptr_cast(tupc_index(X, i, BLK, char));
}

/* Prints X, a block per thread as the figure draws it, and compares it
 * with the serial answer; returns 1 if they differ. */
static int check(const char *name, tupc_sptr_t X, const char *want)
{
    char got[NELEMS];
    for (int i = 0; i < NELEMS; i++)
        got[i] = tupc_ref(X, i, BLK, char);
    printf("exchange_x_ex1: %s = %.*s | %.*s | %.*s (threads 0 | 1 | 2)\n", name, BLK, got, BLK,
           got + BLK, BLK, got + 2 * BLK);
    if (memcmp(got, want, NELEMS) == 0)
        return 0;
    fprintf(stderr, "exchange_x_ex1: %s is %.*s, expected %.*s\n", name, NELEMS, got, NELEMS, want);
    return 1;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr,
                    "exchange_x_ex1: the example is drawn for 3 threads: run it with -n 3\n");
        return 2;
    }
    /* THREADS*THREADS pointers and counts, THREADS per thread: block size
     * THREADS, so A[j*THREADS + i] is element j*THREADS + i of A. */
    tupc_sptr_t A = upc_all_alloc(THREADS, THREADS * sizeof(tupc_sptr_t));
    tupc_sptr_t B = upc_all_alloc(THREADS, THREADS * sizeof(tupc_sptr_t));
    tupc_sptr_t nBytes = upc_all_alloc(THREADS, THREADS * sizeof(size_t));
    tupc_sptr_t C1 = upc_all_alloc(THREADS, BLK), C2 = upc_all_alloc(THREADS, BLK);
    tupc_sptr_t D1 = upc_all_alloc(THREADS, BLK), D2 = upc_all_alloc(THREADS, BLK);

    /* ... Initialize C1, C2 ...: C1[i] = 'A' + i, C2[i] = 'a' + i; D1 and
     * D2 to '.' to see what the call writes. */
    upc_forall(int i = 0, i < NELEMS, i++, tupc_index(C1, i, BLK, char))
    {
        tupc_ref(C1, i, BLK, char) = (char)('A' + i);
        tupc_ref(C2, i, BLK, char) = (char)('a' + i);
        tupc_ref(D1, i, BLK, char) = tupc_ref(D2, i, BLK, char) = '.';
    }

    if (MYTHREAD == 0) {
        tupc_ref(nBytes, 0, THREADS, size_t) = 2 * sizeof(char);
        tupc_ref(nBytes, 1, THREADS, size_t) = 3 * sizeof(char);
        tupc_ref(nBytes, 2, THREADS, size_t) = 1 * sizeof(char);
        tupc_ref(nBytes, 3, THREADS, size_t) = 4 * sizeof(char);
        tupc_ref(nBytes, 4, THREADS, size_t) = 2 * sizeof(char);
        tupc_ref(nBytes, 5, THREADS, size_t) = 3 * sizeof(char);
        tupc_ref(nBytes, 6, THREADS, size_t) = 1 * sizeof(char);
        tupc_ref(nBytes, 7, THREADS, size_t) = 3 * sizeof(char);
        tupc_ref(nBytes, 8, THREADS, size_t) = 4 * sizeof(char);

        tupc_ref(A, 0, THREADS, tupc_sptr_t) = at(C1, 1);
        tupc_ref(A, 1, THREADS, tupc_sptr_t) = at(C2, 3);
        tupc_ref(A, 2, THREADS, tupc_sptr_t) = at(C1, 7);
        tupc_ref(A, 3, THREADS, tupc_sptr_t) = at(C2, 9);
        tupc_ref(A, 4, THREADS, tupc_sptr_t) = at(C1, 13);
        tupc_ref(A, 5, THREADS, tupc_sptr_t) = at(C2, 15);
        tupc_ref(A, 6, THREADS, tupc_sptr_t) = at(C1, 18);
        tupc_ref(A, 7, THREADS, tupc_sptr_t) = at(C1, 24);
        tupc_ref(A, 8, THREADS, tupc_sptr_t) = at(C2, 20);

        tupc_ref(B, 0, THREADS, tupc_sptr_t) = at(D2, 0);
        tupc_ref(B, 1, THREADS, tupc_sptr_t) = at(D2, 3);
        tupc_ref(B, 2, THREADS, tupc_sptr_t) = at(D1, 6);
        tupc_ref(B, 3, THREADS, tupc_sptr_t) = at(D1, 9);
        tupc_ref(B, 4, THREADS, tupc_sptr_t) = at(D2, 13);
        tupc_ref(B, 5, THREADS, tupc_sptr_t) = at(D1, 15);
        tupc_ref(B, 6, THREADS, tupc_sptr_t) = at(D2, 19);
        tupc_ref(B, 7, THREADS, tupc_sptr_t) = at(D2, 22);
        tupc_ref(B, 8, THREADS, tupc_sptr_t) = at(D1, 23);
    }

    upc_all_exchange_x(B, A, nBytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, UPC_TEAM_ALL);

    /* Expected, serially: for threads j and i, nBytes[j*3 + i] bytes from
     * A[j*3 + i] to B[i*3 + j]. */

    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[NELEMS], c2[NELEMS], d1[NELEMS], d2[NELEMS];
        for (int i = 0; i < NELEMS; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        char *const src[9] = {c1 + 1,  c2 + 3,  c1 + 7,  c2 + 9, c1 + 13,
                              c2 + 15, c1 + 18, c1 + 24, c2 + 20};
        char *const dst[9] = {d2 + 0,  d2 + 3,  d1 + 6,  d1 + 9, d2 + 13,
                              d1 + 15, d2 + 19, d2 + 22, d1 + 23};
        const int nbytes[9] = {2, 3, 1, 4, 2, 3, 1, 3, 4};
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++)
                memcpy(dst[i * 3 + j], src[j * 3 + i], (size_t)nbytes[j * 3 + i]);
        bad |= check("D1", D1, d1);
        bad |= check("D2", D2, d2);
    }
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(nBytes);
    upc_all_free(C1);
    upc_all_free(C2);
    upc_all_free(D1);
    upc_all_free(D2);
    return bad;
}
