/* A private C99 variable length array in a UPC program (its dimension is
 * no constant, so tupcc keeps it as written). */
#include <upc.h>
#include <stdio.h>
shared int s[THREADS];
int main(int argc, char **argv)
{
    (void)argv;
    int n = argc + 3 + MYTHREAD;
    int a[n];
    double m[n][2];
    for (int i = 0; i < n; i++) {
        a[i] = i;
        m[i][1] = 2 * i;
    }
    s[MYTHREAD] = a[n - 1] + (int)(sizeof a / sizeof a[0]) + (int)m[n - 1][1];
    upc_barrier;
    int bad = s[MYTHREAD] != 4 * n - 3;
    if (bad)
        printf("thread %d: %d\n", MYTHREAD, s[MYTHREAD]);
    return bad;
}
