/* Spec example: UPC Extended Collective Operations 0.3, 5.3.6
 * upc_all_permute_x, example 1 (figure 6). Written for THREADS = 3.
 *
 *   #define BLK 9
 *   #define NELEMS BLK*THREADS
 *
 *   shared [] char * shared [1] A[THREADS];
 *   shared [] char * shared [1] B[THREADS];
 *
 *   shared [1] int P[THREADS];
 *   shared [1] size_t nBytes[THREADS];
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
 *       P[0] = 2;
 *       P[1] = 0;
 *       P[2] = 1;
 *
 *       nBytes[0] = 3*sizeof(char);
 *       nBytes[1] = 4*sizeof(char);
 *       nBytes[2] = 5*sizeof(char);
 *
 *       A[0] = (shared [] char *)&(C1[2]);
 *       A[1] = (shared [] char *)&(C2[14]);
 *       A[2] = (shared [] char *)&(C1[21]);
 *
 *       B[0] = (shared [] char *)&(D2[0]);
 *       B[1] = (shared [] char *)&(D1[9]);
 *       B[2] = (shared [] char *)&(D1[19]);
 *   }
 *
 *   upc_all_permute_x( B, A, P, nBytes,
 *                      UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
 *                      UPC_TEAM_ALL );
 *
 * Thread i's block, nBytes[i] bytes at A[i], goes to thread P[i], at
 * B[P[i]]. Run: permute_x_ex1 -n 3 */
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
    printf("permute_x_ex1: %s = %.*s | %.*s | %.*s (threads 0 | 1 | 2)\n", name, BLK, got, BLK,
           got + BLK, BLK, got + 2 * BLK);
    if (memcmp(got, want, NELEMS) == 0)
        return 0;
    fprintf(stderr, "permute_x_ex1: %s is %.*s, expected %.*s\n", name, NELEMS, got, NELEMS, want);
    return 1;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr,
                    "permute_x_ex1: the example is drawn for 3 threads: run it with -n 3\n");
        return 2;
    }
    /* shared [] char * shared [1] A[THREADS], B[THREADS];
     * shared [1] int P[THREADS]; shared [1] size_t nBytes[THREADS]. */
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t B = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t P = upc_all_alloc(THREADS, sizeof(int));
    tupc_sptr_t nBytes = upc_all_alloc(THREADS, sizeof(size_t));
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
        tupc_ref(P, 0, 1, int) = 2;
        tupc_ref(P, 1, 1, int) = 0;
        tupc_ref(P, 2, 1, int) = 1;

        tupc_ref(nBytes, 0, 1, size_t) = 3 * sizeof(char);
        tupc_ref(nBytes, 1, 1, size_t) = 4 * sizeof(char);
        tupc_ref(nBytes, 2, 1, size_t) = 5 * sizeof(char);

        tupc_ref(A, 0, 1, tupc_sptr_t) = at(C1, 2);
        tupc_ref(A, 1, 1, tupc_sptr_t) = at(C2, 14);
        tupc_ref(A, 2, 1, tupc_sptr_t) = at(C1, 21);

        tupc_ref(B, 0, 1, tupc_sptr_t) = at(D2, 0);
        tupc_ref(B, 1, 1, tupc_sptr_t) = at(D1, 9);
        tupc_ref(B, 2, 1, tupc_sptr_t) = at(D1, 19);
    }

    upc_all_permute_x(B, A, P, nBytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, UPC_TEAM_ALL);

    /* Expected, serially: nBytes[i] bytes from A[i] to B[P[i]]. */

    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[NELEMS], c2[NELEMS], d1[NELEMS], d2[NELEMS];
        for (int i = 0; i < NELEMS; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        char *const src[3] = {c1 + 2, c2 + 14, c1 + 21};
        char *const dst[3] = {d2 + 0, d1 + 9, d1 + 19};
        const int P_[3] = {2, 0, 1}, nbytes[3] = {3, 4, 5};
        for (int i = 0; i < 3; i++)
            memcpy(dst[P_[i]], src[i], (size_t)nbytes[i]);
        bad |= check("D1", D1, d1);
        bad |= check("D2", D2, d2);
    }
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(P);
    upc_all_free(nBytes);
    upc_all_free(C1);
    upc_all_free(C2);
    upc_all_free(D1);
    upc_all_free(D2);
    return bad;
}
