/* __typeof__ of shared expressions: a pointer-to-shared's type, an
 * arithmetic result's, and typeof inside a pointer declarator; the
 * expression inside names shared objects and is not evaluated. */
#include <upc.h>
#include <stdio.h>

shared [2] int a[2 * THREADS];

int main(void)
{
    __typeof__(&a[0]) p = &a[2 * MYTHREAD];
    p[0] = MYTHREAD;
    p[1] = -MYTHREAD;
    upc_barrier;
    __typeof__(a[0] + 1) s = 0;
    typeof(a[1] * 2L) wide = 0;
    for (int i = 0; i < 2 * THREADS; i++) {
        s += a[i];
        wide += (long)a[i] * a[i];
    }
    __typeof__(&a[1]) q = p + 1;
    if (s != 0 || wide != 2L * (THREADS - 1) * THREADS * (2 * THREADS - 1) / 6 ||
        upc_threadof(q) != (size_t)MYTHREAD || *q != -MYTHREAD) {
        printf("typeof: thread %d: s %d, wide %ld, q on %zu holds %d\n", MYTHREAD, s, wide,
               upc_threadof(q), *q);
        return 1;
    }
    return 0;
}
