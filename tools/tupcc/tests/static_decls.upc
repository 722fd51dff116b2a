/* UPC 1.3 6.5.2.1 EXAMPLE 2: declarations allowed only with static THREADS
 * (tupcc -n N), with their layouts checked; run.sh builds static_* with -n
 * only. */
#include <upc.h>
#include <stdio.h>

#ifndef __UPC_STATIC_THREADS__
#error "static THREADS only"
#endif
#if THREADS < 1 || THREADS > 1024
#error "THREADS in #if"
#endif

shared int x_a[10 + THREADS];
shared [] int x_b[THREADS];
shared int x_c[10];
shared int x_d[THREADS][4 * THREADS];
shared int x_e[THREADS * THREADS];
shared int x_f[THREADS * 100 * 20];
shared int (**pp)[THREADS][THREADS];
typedef shared int (*t)[THREADS][13][THREADS];
int private_array[THREADS];

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

int main(void)
{
    int i, j;
    shared int *q = &x_e[0];
    shared void *pv = (shared int (*)[THREADS][THREADS])q;
    EXPECT(pv == q);
    t tp = 0;
    EXPECT(tp == 0 && pp == 0);
    switch (MYTHREAD) {
    case THREADS - 1:
        break;
    default:
        break;
    }
    EXPECT(sizeof private_array == THREADS * sizeof(int));
    for (i = 0; i < 10 + THREADS; i++)
        EXPECT(upc_threadof(&x_a[i]) == (size_t)(i % THREADS));
    for (i = 0; i < THREADS; i++)
        EXPECT(upc_threadof(&x_b[i]) == 0);
    for (i = 0; i < THREADS; i++)
        for (j = 0; j < 4 * THREADS; j++)
            EXPECT(upc_threadof(&x_d[i][j]) == (size_t)((i * 4 * THREADS + j) % THREADS));
    if (MYTHREAD == 0) {
        x_e[THREADS * THREADS - 1] = 5;
        x_f[THREADS * 2000 - 1] = 6;
        x_c[9] = 7;
    }
    upc_barrier;
    EXPECT(x_e[THREADS * THREADS - 1] == 5 && x_f[THREADS * 2000 - 1] == 6 && x_c[9] == 7);
    return fails != 0;
}
