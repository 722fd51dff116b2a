/* Spec example: UPC Extended Collective Operations 0.3, 5.3.4
 * upc_all_gather_all_x, example 1 (figure 4). Written for THREADS = 3.
 *
 *   #define BLK 9
 *   #define NELEMS BLK*THREADS
 *
 *   shared [] char * shared [1] A[THREADS];
 *   shared [] char * shared [THREADS] B[THREADS*THREADS];
 *
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
 *       nBytes[0] = 2*sizeof(char);
 *       nBytes[1] = 3*sizeof(char);
 *       nBytes[2] = 1*sizeof(char);
 *
 *       A[0] = (shared [] char *)&(C1[5]);
 *       A[1] = (shared [] char *)&(C2[9]);
 *       A[2] = (shared [] char *)&(C1[19]);
 *
 *       B[0] = (shared [] char *)&(D1[1]);
 *       B[1] = (shared [] char *)&(D2[3]);
 *       B[2] = (shared [] char *)&(D2[8]);
 *       B[3] = (shared [] char *)&(D2[10]);
 *       B[4] = (shared [] char *)&(D1[12]);
 *       B[5] = (shared [] char *)&(D1[17]);
 *       B[6] = (shared [] char *)&(D2[18]);
 *       B[7] = (shared [] char *)&(D2[21]);
 *       B[8] = (shared [] char *)&(D2[25]);
 *   }
 *
 *   upc_all_gather_all_x( B, A, nBytes,
 *                         UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PUSH,
 *                         UPC_TEAM_ALL );
 *
 * Every thread gathers every block: block r (nBytes[r] bytes at A[r]) goes
 * to B[i*THREADS + r] on each thread i, so B has THREADS pointers per
 * thread (block size THREADS). Run: gather_all_x_ex1 -n 3 */
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
    printf("gather_all_x_ex1: %s = %.*s | %.*s | %.*s (threads 0 | 1 | 2)\n", name, BLK, got, BLK,
           got + BLK, BLK, got + 2 * BLK);
    if (memcmp(got, want, NELEMS) == 0)
        return 0;
    fprintf(stderr, "gather_all_x_ex1: %s is %.*s, expected %.*s\n", name, NELEMS, got, NELEMS,
            want);
    return 1;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr,
                    "gather_all_x_ex1: the example is drawn for 3 threads: run it with -n 3\n");
        return 2;
    }
    /* shared [] char * shared [1] A[THREADS]; B has THREADS*THREADS
     * pointers, THREADS per thread: shared [THREADS], so B[i*THREADS + r]
     * is element i*THREADS + r with block size THREADS. */
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t B = upc_all_alloc(THREADS, THREADS * sizeof(tupc_sptr_t));
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
        tupc_ref(nBytes, 0, 1, size_t) = 2 * sizeof(char);
        tupc_ref(nBytes, 1, 1, size_t) = 3 * sizeof(char);
        tupc_ref(nBytes, 2, 1, size_t) = 1 * sizeof(char);

        tupc_ref(A, 0, 1, tupc_sptr_t) = at(C1, 5);
        tupc_ref(A, 1, 1, tupc_sptr_t) = at(C2, 9);
        tupc_ref(A, 2, 1, tupc_sptr_t) = at(C1, 19);

        tupc_ref(B, 0, THREADS, tupc_sptr_t) = at(D1, 1);
        tupc_ref(B, 1, THREADS, tupc_sptr_t) = at(D2, 3);
        tupc_ref(B, 2, THREADS, tupc_sptr_t) = at(D2, 8);
        tupc_ref(B, 3, THREADS, tupc_sptr_t) = at(D2, 10);
        tupc_ref(B, 4, THREADS, tupc_sptr_t) = at(D1, 12);
        tupc_ref(B, 5, THREADS, tupc_sptr_t) = at(D1, 17);
        tupc_ref(B, 6, THREADS, tupc_sptr_t) = at(D2, 18);
        tupc_ref(B, 7, THREADS, tupc_sptr_t) = at(D2, 21);
        tupc_ref(B, 8, THREADS, tupc_sptr_t) = at(D2, 25);
    }

    upc_all_gather_all_x(B, A, nBytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PUSH, UPC_TEAM_ALL);

    /* Expected, serially: for each thread i and block r, nBytes[r] bytes
     * from A[r] to B[i*3 + r]. */

    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[NELEMS], c2[NELEMS], d1[NELEMS], d2[NELEMS];
        for (int i = 0; i < NELEMS; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        char *const src[3] = {c1 + 5, c2 + 9, c1 + 19};
        const int nbytes[3] = {2, 3, 1};
        char *const dst[9] = {d1 + 1,  d2 + 3,  d2 + 8,  d2 + 10, d1 + 12,
                              d1 + 17, d2 + 18, d2 + 21, d2 + 25};
        for (int i = 0; i < 3; i++)
            for (int r = 0; r < 3; r++)
                memcpy(dst[i * 3 + r], src[r], (size_t)nbytes[r]);
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
