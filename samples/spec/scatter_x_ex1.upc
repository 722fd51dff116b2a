/* UPC Extended Collectives 0.3, 5.3.2 upc_all_scatter_x, example 1
 * (figure 2), as the spec writes it (scatter_x_ex1.c is its C
 * translation); "Initialize C1, C2" and the check added. Drawn for
 * THREADS = 3. */
/* threads: 3 */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include <string.h>

#define BLK 9
#define NELEMS BLK*THREADS

shared [] char * shared [1] A[THREADS];
shared [] char * shared [1] B[THREADS];

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
            fprintf(stderr, "scatter_x_ex1: %s[%d] is '%c', expected '%c'\n", name, i, X[i],
                    want[i]);
            return 1;
        }
    return 0;
}

int main(void)
{
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr, "scatter_x_ex1: the example is drawn for 3 threads: -n 3\n");
        return 2;
    }
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

        A[0] = (shared [] char *)&(C1[1]);
        A[1] = (shared [] char *)&(C2[3]);
        A[2] = (shared [] char *)&(C2[8]);

        B[0] = (shared [] char *)&(D1[5]);
        B[1] = (shared [] char *)&(D2[9]);
        B[2] = (shared [] char *)&(D1[19]);
    }

    upc_all_scatter_x( B, A, nBytes,
                       UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
                       UPC_TEAM_ALL );

    /* serially: nBytes[i] bytes from A[i] to B[i] */
    int bad = 0;
    if (MYTHREAD == 0) {
        char c1[BLK * 3], c2[BLK * 3], d1[BLK * 3], d2[BLK * 3];
        for (int i = 0; i < BLK * 3; i++)
            c1[i] = (char)('A' + i), c2[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        memcpy(d1 + 5, c1 + 1, 2);
        memcpy(d2 + 9, c2 + 3, 3);
        memcpy(d1 + 19, c2 + 8, 1);
        bad = check("D1", D1, d1) | check("D2", D2, d2);
    }
    return bad;
}
