/* A 2-D array member of a shared struct: S[t].v[i][j] is in S[t], on
 * thread t (UPC 1.3 6.4.4 makes the member's elements contiguous there), and
 * upc_blocksizeof of a member agrees with its address's arithmetic: 0. */
#include <upc.h>
#include <stdio.h>
struct s { int v[2][4]; int w; };
shared struct s S[THREADS];
shared [2] struct s S2[2 * THREADS];
int main(void)
{
    int bad = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            S[MYTHREAD].v[i][j] = MYTHREAD * 100 + i * 10 + j;
    S[MYTHREAD].w = MYTHREAD;
    upc_barrier;
    for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++) {
                bad += S[t].v[i][j] != t * 100 + i * 10 + j;
                bad += (int)upc_threadof(&S[t].v[i][j]) != t;
            }
        bad += S[t].w != t;
    }
    struct s *mine = (struct s *)&S[MYTHREAD];
    bad += mine->v[1][3] != MYTHREAD * 100 + 13;
    shared [] int *p = &S2[3].v[0][0];
    bad += upc_blocksizeof(S2[3].v) != 0 || upc_blocksizeof(S2[3].v[1]) != 0;
    bad += upc_blocksizeof(S2[3].w) != 0 || upc_blocksizeof(S2) != 2;
    bad += upc_phaseof(p + 5) != 0 || upc_threadof(p + 5) != upc_threadof(&S2[3]);
    bad += upc_localsizeof(S2[3].v) != sizeof(int[2][4]);
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
