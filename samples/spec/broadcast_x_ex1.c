/* Spec example: UPC Extended Collective Operations 0.3, 5.3.1
 * upc_all_broadcast_x, example 1 (figure 1). Written for THREADS = 3.
 *
 *   #define BLK 9
 *   #define NELEMS BLK*THREADS
 *
 *   shared [BLK] char A[NELEMS];
 *   shared [] char * shared [1] B[THREADS];
 *
 *   shared [BLK] char D1[NELEMS];
 *   shared [BLK] char D2[NELEMS];
 *
 *   ... Initialize A ...
 *
 *   if( MYTHREAD == 0 )
 *   {
 *       B[0] = (shared [] char *)&(D1[0]);
 *       B[1] = (shared [] char *)&(D2[11]);
 *       B[2] = (shared [] char *)&(D2[23]);
 *   }
 *
 *   upc_all_broadcast_x( B, &A[1], 4*sizeof(char),
 *                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
 *                        UPC_TEAM_ALL );
 *
 * The _x form takes, instead of one array with a block per thread, an
 * array of pointers: B[i] says where thread i's copy goes (on thread i,
 * anywhere in any array). UPC_PULL asks that each thread copy its own.
 * Run: broadcast_x_ex1 -n 3 */
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
    printf("broadcast_x_ex1: %s = %.*s | %.*s | %.*s (threads 0 | 1 | 2)\n", name, BLK, got, BLK,
           got + BLK, BLK, got + 2 * BLK);
    if (memcmp(got, want, NELEMS) == 0)
        return 0;
    fprintf(stderr, "broadcast_x_ex1: %s is %.*s, expected %.*s\n", name, NELEMS, got, NELEMS,
            want);
    return 1;
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr, "broadcast_x_ex1: the example is drawn for 3 threads: run it with "
                            "-n 3\n");
        return 2;
    }
    tupc_sptr_t A = upc_all_alloc(THREADS, BLK);
    /* shared [] char * shared [1] B[THREADS]: a pointer-to-shared per
     * thread, itself in shared memory. */
    tupc_sptr_t B = upc_all_alloc(THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t D1 = upc_all_alloc(THREADS, BLK);
    tupc_sptr_t D2 = upc_all_alloc(THREADS, BLK);

    /* ... Initialize A ...: A[i] = 'a' + i; D1 and D2 to '.' to see what
     * the call writes. */
    upc_forall(int i = 0, i < NELEMS, i++, tupc_index(A, i, BLK, char))
    {
        tupc_ref(A, i, BLK, char) = (char)('a' + i);
        tupc_ref(D1, i, BLK, char) = tupc_ref(D2, i, BLK, char) = '.';
    }

    if (MYTHREAD == 0) {
        tupc_ref(B, 0, 1, tupc_sptr_t) = at(D1, 0);
        tupc_ref(B, 1, 1, tupc_sptr_t) = at(D2, 11);
        tupc_ref(B, 2, 1, tupc_sptr_t) = at(D2, 23);
    }

    /* ALLSYNC in: B and A are written before any thread enters. */
    upc_all_broadcast_x(B, tupc_index(A, 1, BLK, char), 4 * sizeof(char),
                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, UPC_TEAM_ALL);

    /* Expected, serially: A[1..4] at each of the three places. */
    int bad = 0;
    if (MYTHREAD == 0) {
        char a[NELEMS], d1[NELEMS], d2[NELEMS];
        for (int i = 0; i < NELEMS; i++)
            a[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        memcpy(d1 + 0, a + 1, 4);
        memcpy(d2 + 11, a + 1, 4);
        memcpy(d2 + 23, a + 1, 4);
        bad |= check("D1", D1, d1);
        bad |= check("D2", D2, d2);
    }
    upc_all_free(A);
    upc_all_free(B);
    upc_all_free(D1);
    upc_all_free(D2);
    return bad;
}
