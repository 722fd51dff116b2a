/* The code examples of UPC 1.3 section 6 as a program; each is quoted in a
 * comment with its paragraph. The examples that must be refused are tests of
 * their own (refuse_*), those for static THREADS only are in static_decls. */
#include <upc.h>
#include <stdio.h>

#define NN 12

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* 6.5.1.1 EXAMPLE 1: strict shared int y; */
strict shared int y;

/* 6.5.2.1 EXAMPLE 1: allowed with static or dynamic THREADS */
shared int x1[10 * THREADS];
shared int x2[THREADS * (100 * 20)];
shared [] int x3[10];

/* 6.5.2.1 EXAMPLE 3: shared [3] int x[10]; */
shared [3] int x[10];

/* 6.5.2.1 EXAMPLE 4: shared [3] applies to the ultimate element type */
typedef int S[10];
shared [3] S T[3 * THREADS];

/* 6.5.2.1 EXAMPLE 5 and 6 */
shared [] double D[100];
shared [] long *p;

/* 6.6.2 EXAMPLE 1: nested upc_forall, with the loops' arrays */
shared float fa[NN], fb[NN], fc[NN];

/* 6.6.2 EXAMPLE 2: evaluation of upc_forall's clauses */
static int n1, n2, n3;
shared int n4[10];
static void foo1(void) { n1++; }
static void foo2(void) { n2++; }
static void foo3(void) { n3++; }
static void foo4(int i) { n4[i] += 1; }

int main(void)
{
    int i, j, k;

    /* 6.4.2: p1 = p + i, and the equations after it, for every start and i */
    shared [3] int *pb = x;
    for (int s = 0; s < 10; s++)
        for (i = -s; i < 10 - s; i++) {
            shared [3] int *p0 = pb + s, *p1 = p0 + i;
            ptrdiff_t d = (ptrdiff_t)upc_phaseof(p0) + i;
            ptrdiff_t q = d >= 0 ? d / 3 : -((-d + 2) / 3);
            EXPECT(upc_phaseof(p1) == (size_t)(d - q * 3));
            EXPECT(upc_threadof(p1) ==
                   (size_t)((((ptrdiff_t)upc_threadof(p0) + q) % THREADS + THREADS) % THREADS));
        }

    /* 6.4.3 EXAMPLE 1 (the allowed half): a pointer-to-local from a
     * pointer-to-shared with affinity to this thread */
    int *lp;
    shared int *q = &x1[MYTHREAD];
    if ((int)upc_threadof(q) == MYTHREAD) /* -Wsign-compare: size_t and int */
        lp = (int *)q;
    else
        lp = 0;
    *lp = 40 + MYTHREAD;
    EXPECT(x1[MYTHREAD] == 40 + MYTHREAD);

    /* 6.5.1.1 EXAMPLE 1 */
    if (MYTHREAD == 0)
        y = 1;
    upc_barrier;
    EXPECT(y == 1);

    /* 6.5.2.1 EXAMPLE 4: blocked as shared [3] int T[3*THREADS][10] */
    for (i = 0; i < 3 * THREADS; i++)
        for (j = 0; j < 10; j++)
            EXPECT(upc_threadof(&T[i][j]) == (size_t)((i * 10 + j) / 3 % THREADS) &&
                   upc_phaseof(&T[i][j]) == (size_t)((i * 10 + j) % 3));
    EXPECT(sizeof(T) == 3 * THREADS * sizeof(S) && upc_blocksizeof(T) == 3);

    /* 6.5.2.1 EXAMPLE 5: every element of D on thread 0 */
    for (i = 0; i < 100; i++)
        EXPECT(upc_threadof(&D[i]) == 0);
    EXPECT(upc_threadof(&x3[9]) == 0 && upc_threadof(&x[9]) == (size_t)(3 % THREADS));
    EXPECT(upc_threadof(&x2[THREADS * 2000 - 1]) == (size_t)(THREADS - 1));

    /* 6.5.2.1 EXAMPLE 6: p's elements follow p's thread */
    shared [] long *arr = upc_all_alloc(THREADS, 8 * sizeof(long));
    p = (shared [] long *)((shared [8] long *)arr + 8 * MYTHREAD);
    for (i = 0; i < 8; i++) {
        p[i] = MYTHREAD;
        EXPECT(upc_threadof(&p[i]) == (size_t)MYTHREAD);
    }

    /* 6.6.2 EXAMPLE 1 */
    upc_forall (i = 0; i < NN; i++; &fc[i])
        fc[i] = 1.0f + (float)i;
    upc_forall (i = 0; i < NN; i++; &fb[i])
        fb[i] = 2.0f;
    upc_barrier;
    upc_forall (i = 0; i < NN; i++; continue)
        upc_forall (j = 0; j < NN; j++; &fa[j])
            upc_forall (k = 0; k < NN; k++; &fb[k])
                fa[j] = fb[k] * fc[i];
    upc_barrier;
    for (j = 0; j < NN; j++)
        EXPECT(fa[j] == 2.0f * NN);

    /* 6.6.2 EXAMPLE 2 */
    upc_forall ((foo1(), i = 0); (foo2(), i < 10); (foo3(), i++); i) {
        foo4(i);
    }
    EXPECT(n1 == 1 && n2 == 11 && n3 == 10 && i == 10);
    upc_barrier;
    for (i = 0; i < 10; i++)
        EXPECT(n4[i] == 1);

    /* 6.6.1: upc_barrier is upc_notify then upc_wait */
    { upc_notify 3; upc_wait 3; }
    upc_barrier;
    upc_all_free(arr);
    return fails != 0;
}
