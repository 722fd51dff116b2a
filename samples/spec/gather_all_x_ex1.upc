/* UPC Extended Collectives 0.3, 5.3.4 upc_all_gather_all_x, example 1
 * (figure 4), as the spec writes it (gather_all_x_ex1.c is its C
 * translation); "Initialize C1, C2" and the check added. Drawn for
 * THREADS = 3; B's block size THREADS needs static THREADS (tupcc -n 3). */
/* threads: 3 */
/* dynamic: no */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include <string.h>

#define BLK 9
#define NELEMS BLK*THREADS

shared [] char * shared [1] A[THREADS];
shared [] char * shared [THREADS] B[THREADS*THREADS];

shared [1] size_t nBytes[THREADS];

shared [BLK] char C1[NELEMS];
shared [BLK] char C2[NELEMS];

shared [BLK] char D1[NELEMS];
shared [BLK] char D2[NELEMS];

/* X against the serial answer; 1 if they differ */
static int check(const char *name, shared [BLK] char *X, const char *want)
{
    for (int i = 0; i < BLK * 3; i++)
        if (X[i] != want[i]) {
            fprintf(stderr, "gather_all_x_ex1: %s[%d] is '%c', expected '%c'\n", name, i, X[i],
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

        A[0] = (shared [] char *)&(C1[5]);
        A[1] = (shared [] char *)&(C2[9]);
        A[2] = (shared [] char *)&(C1[19]);

        B[0] = (shared [] char *)&(D1[1]);
        B[1] = (shared [] char *)&(D2[3]);
        B[2] = (shared [] char *)&(D2[8]);
        B[3] = (shared [] char *)&(D2[10]);
        B[4] = (shared [] char *)&(D1[12]);
        B[5] = (shared [] char *)&(D1[17]);
        B[6] = (shared [] char *)&(D2[18]);
        B[7] = (shared [] char *)&(D2[21]);
        B[8] = (shared [] char *)&(D2[25]);
    }

    upc_all_gather_all_x( B, A, nBytes,
                          UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PUSH,
                          UPC_TEAM_ALL );

    /* serially: nBytes[r] bytes from A[r] to B[i*3 + r] for each thread i */
    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[BLK * 3], c2[BLK * 3], d1[BLK * 3], d2[BLK * 3];
        for (int i = 0; i < BLK * 3; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        char *const src[3] = {c1 + 5, c2 + 9, c1 + 19};
        const int nbytes[3] = {2, 3, 1};
        char *const dst[9] = {d1 + 1,  d2 + 3,  d2 + 8,  d2 + 10, d1 + 12,
                              d1 + 17, d2 + 18, d2 + 21, d2 + 25};
        for (int i = 0; i < 3; i++)
            for (int r = 0; r < 3; r++)
                memcpy(dst[i * 3 + r], src[r], (size_t)nbytes[r]);
        bad = check("D1", D1, d1) | check("D2", D2, d2);
    }
    return bad;
}
