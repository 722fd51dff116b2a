/* UPC Extended Collectives 0.3, 5.3.5 upc_all_exchange_x, example 1
 * (figure 5), as the spec writes it (exchange_x_ex1.c is its C
 * translation); "Initialize C1, C2" and the check added. Drawn for
 * THREADS = 3; the block size THREADS needs static THREADS (tupcc -n 3).
 * The spec declares the counts as nbytes and uses nBytes: declared here as
 * nBytes. */
/* threads: 3 */
/* dynamic: no */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include <string.h>

#define BLK 9
#define NELEMS BLK*THREADS

shared [] char * shared [THREADS] A[THREADS*THREADS];
shared [] char * shared [THREADS] B[THREADS*THREADS];

shared [THREADS] size_t nBytes[THREADS*THREADS];

shared [BLK] char C1[NELEMS];
shared [BLK] char C2[NELEMS];

shared [BLK] char D1[NELEMS];
shared [BLK] char D2[NELEMS];

/* X against the serial answer; 1 if they differ */
static int check(const char *name, shared [BLK] char *X, const char *want)
{
    for (int i = 0; i < BLK * 3; i++)
        if (X[i] != want[i]) {
            fprintf(stderr, "exchange_x_ex1: %s[%d] is '%c', expected '%c'\n", name, i, X[i],
                    want[i]);
            return 1;
        }
    return 0;
}

int main(void)
{
    // ... Initialize C1, C2 ...: C1[i] = 'A' + i, C2[i] = 'a' + i; D1, D2 to '.'.
    upc_forall (int i = 0; i < NELEMS; i++; &C1[i]) {
        C1[i] = (char)('A' + i);
        C2[i] = (char)('a' + i);
        D1[i] = D2[i] = '.';
    }

    if( MYTHREAD == 0 )
    {
        nBytes[0] = 2*sizeof(char);
        nBytes[1] = 3*sizeof(char);
        nBytes[2] = 1*sizeof(char);
        nBytes[3] = 4*sizeof(char);
        nBytes[4] = 2*sizeof(char);
        nBytes[5] = 3*sizeof(char);
        nBytes[6] = 1*sizeof(char);
        nBytes[7] = 3*sizeof(char);
        nBytes[8] = 4*sizeof(char);

        A[0] = (shared [] char *)&(C1[1]);
        A[1] = (shared [] char *)&(C2[3]);
        A[2] = (shared [] char *)&(C1[7]);
        A[3] = (shared [] char *)&(C2[9]);
        A[4] = (shared [] char *)&(C1[13]);
        A[5] = (shared [] char *)&(C2[15]);
        A[6] = (shared [] char *)&(C1[18]);
        A[7] = (shared [] char *)&(C1[24]);
        A[8] = (shared [] char *)&(C2[20]);

        B[0] = (shared [] char *)&(D2[0]);
        B[1] = (shared [] char *)&(D2[3]);
        B[2] = (shared [] char *)&(D1[6]);
        B[3] = (shared [] char *)&(D1[9]);
        B[4] = (shared [] char *)&(D2[13]);
        B[5] = (shared [] char *)&(D1[15]);
        B[6] = (shared [] char *)&(D2[19]);
        B[7] = (shared [] char *)&(D2[22]);
        B[8] = (shared [] char *)&(D1[23]);
    }

    upc_all_exchange_x( B, A, nBytes,
                        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
                        UPC_TEAM_ALL );

    /* serially: nBytes[j*3 + i] bytes from A[j*3 + i] to B[i*3 + j] */
    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[BLK * 3], c2[BLK * 3], d1[BLK * 3], d2[BLK * 3];
        for (int i = 0; i < BLK * 3; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        char *const src[9] = {c1 + 1,  c2 + 3,  c1 + 7,  c2 + 9, c1 + 13,
                              c2 + 15, c1 + 18, c1 + 24, c2 + 20};
        char *const dst[9] = {d2 + 0,  d2 + 3,  d1 + 6,  d1 + 9, d2 + 13,
                              d1 + 15, d2 + 19, d2 + 22, d1 + 23};
        const int nbytes[9] = {2, 3, 1, 4, 2, 3, 1, 3, 4};
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++)
                memcpy(dst[i * 3 + j], src[j * 3 + i], (size_t)nbytes[j * 3 + i]);
        bad = check("D1", D1, d1) | check("D2", D2, d2);
    }
    return bad;
}
