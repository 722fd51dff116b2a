/* UPC Extended Collectives 0.3, 5.3.1 upc_all_broadcast_x, example 1
 * (figure 1), as the spec writes it (broadcast_x_ex1.c is its C
 * translation); "Initialize A" and the check added. Drawn for THREADS = 3. */
/* threads: 3 */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>
#include <string.h>

#define BLK 9
#define NELEMS BLK*THREADS

shared [BLK] char A[NELEMS];
shared [] char * shared [1] B[THREADS];

shared [BLK] char D1[NELEMS];
shared [BLK] char D2[NELEMS];

/* X against the serial answer; 1 if they differ */
static int check(const char *name, shared [BLK] char *X, const char *want)
{
    for (int i = 0; i < BLK * 3; i++)
        if (X[i] != want[i]) {
            fprintf(stderr, "broadcast_x_ex1: %s[%d] is '%c', expected '%c'\n", name, i, X[i],
                    want[i]);
            return 1;
        }
    return 0;
}

int main(void)
{
    if (THREADS != 3) {
        if (MYTHREAD == 0)
            fprintf(stderr, "broadcast_x_ex1: the example is drawn for 3 threads: -n 3\n");
        return 2;
    }
    // ... Initialize A ...: A[i] = 'a' + i; D1, D2 to '.' to see what changes.
    upc_forall (int i = 0; i < NELEMS; i++; &A[i]) {
        A[i] = (char)('a' + i);
        D1[i] = D2[i] = '.';
    }

    if( MYTHREAD == 0 )
    {
        B[0] = (shared [] char *)&(D1[0]);
        B[1] = (shared [] char *)&(D2[11]);
        B[2] = (shared [] char *)&(D2[23]);
    }

    upc_all_broadcast_x( B, &A[1], 4*sizeof(char),
                         UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL,
                         UPC_TEAM_ALL );

    /* serially: A[1..4] at each of the three places */
    int bad = 0;
    if (MYTHREAD == 0) {
        char a[BLK * 3], d1[BLK * 3], d2[BLK * 3];
        for (int i = 0; i < BLK * 3; i++)
            a[i] = (char)('a' + i), d1[i] = d2[i] = '.';
        memcpy(d1 + 0, a + 1, 4);
        memcpy(d2 + 11, a + 1, 4);
        memcpy(d2 + 23, a + 1, 4);
        bad = check("D1", D1, d1) | check("D2", D2, d2);
    }
    return bad;
}
