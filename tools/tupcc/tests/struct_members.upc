/* Addresses of members of shared structs (UPC 1.3 6.4.4): &s.m is a
 * shared [] T *, phase 0, on the struct's thread, and its arithmetic stays
 * inside the struct. */
#include <upc.h>
#include <stdio.h>
struct point { int x, y; double w[3]; };
shared [2] struct point pts[2 * THREADS];
int main(void)
{
    int bad = 0;
    if (MYTHREAD == 0)
        for (int i = 0; i < 2 * THREADS; i++)
            for (int k = 0; k < 3; k++)
                pts[i].w[k] = 10 * i + k;
    upc_barrier;
    int i = 2 * THREADS - 1;
    shared [] double *q = &pts[i].w[0];
    bad += q[2] != 10 * i + 2 || *(q + 1) != 10 * i + 1;
    bad += (&pts[i].w[0])[2] != 10 * i + 2 || *(&pts[i].w[1] + 1) != 10 * i + 2;
    bad += *(pts[i].w + 2) != 10 * i + 2 || &pts[i].w[2] - &pts[i].w[0] != 2;
    bad += upc_phaseof(&pts[i].y) != 0 || upc_threadof(&pts[i].w[2]) != upc_threadof(&pts[i]);
    bad += upc_phaseof(&pts[1]) != 1;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
