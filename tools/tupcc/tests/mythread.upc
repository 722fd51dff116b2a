/* a[MYTHREAD] in a shared array of block size 1 is this thread's own
 * element: tupcc addresses it with tupcc_at_mythread, a multiply and an add
 * (mythread.sh checks the generated C); other layouts, dimensions and
 * pointers keep tupc_ptr_add. Every form must give the same elements. */
#include <upc.h>
#include <stdio.h>

shared int fa[THREADS];            /* fast: block size 1 */
shared [1] double fd[4 * THREADS]; /* fast */
strict shared long fs[THREADS];    /* fast, strict */
shared [2] int sa[2 * THREADS];    /* not: block size 2 */
shared int ta[THREADS][3];         /* not: two dimensions */

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
    shared int *p = fa + 0; /* not: a pointer, whose phase and thread are not known */
    fa[MYTHREAD] = 10 + MYTHREAD;
    fd[MYTHREAD] = 0.5 * MYTHREAD;
    fd[MYTHREAD] += 1;
    fs[MYTHREAD] = 7L * MYTHREAD;
    sa[MYTHREAD] = 20 + MYTHREAD;
    ta[MYTHREAD][1] = 30 + MYTHREAD;
    EXPECT(upc_threadof(&fa[MYTHREAD]) == (size_t)MYTHREAD);
    EXPECT(upc_phaseof(&fa[MYTHREAD]) == 0);
    EXPECT(&fa[MYTHREAD] == fa + MYTHREAD);
    EXPECT(&fd[MYTHREAD] == &fd[0] + MYTHREAD);
    EXPECT((int *)&fa[MYTHREAD] == (int *)(p + MYTHREAD));
    upc_barrier;
    for (int t = 0; t < THREADS; t++) {
        EXPECT(fa[t] == 10 + t);
        EXPECT(fd[t] == 0.5 * t + 1);
        EXPECT(fs[t] == 7L * t);
        EXPECT(sa[t] == 20 + t);
        EXPECT(ta[t][1] == 30 + t);
        EXPECT(p[t] == 10 + t);
    }
    EXPECT(p[MYTHREAD] == 10 + MYTHREAD);
    EXPECT(fd[MYTHREAD + THREADS] == 0); /* not MYTHREAD alone: the general path */
    upc_barrier;
    if (fails)
        return 1;
    if (MYTHREAD == 0)
        printf("a[MYTHREAD] in block size 1: every form agrees on %d threads\n", THREADS);
    return 0;
}
