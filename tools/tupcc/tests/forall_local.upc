/* upc_forall over &a[i]: accesses of a[i] in the body reuse the pointer the
 * affinity test computed (this thread's element), unless the body changes
 * i; other elements, other arrays and nested loops are left alone. */
#include <upc.h>
#include <stdio.h>

#define N (5 * THREADS)

shared [2] int a[N];
shared int b[N];
shared [] int one[N];

int main(void)
{
    int i, bad = 0;
    upc_forall (i = 0; i < N; i++; &a[i]) {
        a[i] = 3 * i;
        a[i] += 1;
        b[i] = a[i] + 1;
        bad += upc_threadof(&a[i]) != (size_t)MYTHREAD;
    }
    upc_barrier;
    for (i = 0; i < N; i++)
        bad += a[i] != 3 * i + 1 || b[i] != 3 * i + 2;
    upc_barrier;
    /* i changes in the body: every a[i] is computed again */
    upc_forall (i = 0; i < N; i++; &a[i]) {
        int was = i;
        i += 0;
        bad += a[i] != 3 * was + 1;
    }
    /* the inner loop's affinity is ignored (nested): its a[j] may be remote */
    upc_forall (i = 0; i < N; i++; &b[i])
        upc_forall (int j = 0; j < N; j++; &a[j])
            bad += a[j] != 3 * j + 1;
    /* indefinite: every element on thread 0 */
    upc_forall (i = 0; i < N; i++; &one[i])
        one[i] = i;
    upc_barrier;
    for (i = 0; i < N; i++)
        bad += one[i] != i;
    if (bad)
        fprintf(stderr, "thread %d: %d failures\n", MYTHREAD, bad);
    return bad != 0;
}
