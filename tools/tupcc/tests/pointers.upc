/* Pointers-to-shared (UPC 1.3 6.4.2, 6.4.3): arithmetic, comparison,
 * difference, casts to other block sizes and to shared void *, pointers
 * kept in shared memory, ++ and --, and conversions to private pointers. */
#include <upc.h>
#include <stdio.h>

#define N (8 * THREADS)

shared [2] int a[N];
shared int c[N];
shared [2] int *shared sp;          /* a pointer-to-shared in shared memory */
shared int *shared ptrs[THREADS];   /* one per thread */
shared [2] int *gp;                 /* private: one per thread */

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static shared [2] int *advance(shared [2] int *p, int k)
{
    return p + k;
}

static int sum(shared int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

int main(void)
{
    int i;
    upc_forall (i = 0; i < N; i++; &a[i]) {
        a[i] = i;
        c[i] = 2 * i;
    }
    upc_barrier;
    shared [2] int *p = &a[0], *q = a + 5;
    EXPECT(*q == 5 && q[1] == 6 && *(q - 2) == 3);
    EXPECT(q - p == 5 && p - q == -5);
    EXPECT(p < q && q > p && p <= p && !(q <= p) && p != q && p == &a[0]);
    EXPECT(upc_threadof(q) == (size_t)(5 / 2 % THREADS) && upc_phaseof(q) == 1);
    EXPECT(advance(p, 7) == &a[7] && *advance(q, 1) == 6);
    p++;
    ++p;
    EXPECT(p == &a[2] && *p == 2);
    shared [2] int *old = p--;
    EXPECT(old == &a[2] && p == &a[1]);
    p += 4;
    EXPECT(*p == 5);
    p -= 3;
    EXPECT(*p == 2);
    EXPECT(sum(c, N) == N * (N - 1));
    EXPECT(sum(&c[1], 2) == 6);

    /* generic pointers keep the phase; another block size resets it */
    shared void *g = q;
    shared [2] int *back = g;
    EXPECT(back == q && upc_phaseof(back) == 1);
    shared [3] int *r = (shared [3] int *)q;
    EXPECT(upc_phaseof(r) == 0 && upc_threadof(r) == upc_threadof(q));
    shared [] int *ind = (shared [] int *)&a[2 * MYTHREAD];
    EXPECT(ind[1] == 2 * MYTHREAD + 1);
    shared int *cp = (shared int *)&a[2];
    EXPECT(*cp == 2 && upc_phaseof(cp) == 0);

    /* null pointers-to-shared */
    shared int *np = 0;
    EXPECT(np == NULL && !np);
    np = &c[3];
    EXPECT(np && np != NULL);
    /* declarations in a for statement's first clause */
    int walked = 0;
    for (shared int *w = &c[MYTHREAD], *end = &c[N]; w < end; w += THREADS)
        walked += *w == 2 * (int)(w - &c[0]);
    EXPECT(walked == N / THREADS);
    /* pointers-to-shared as conditions */
    int turns = 0;
    while (np) {
        np = turns++ ? 0 : np;
    }
    for (np = &c[1]; np; np = 0)
        turns++;
    do
        turns++;
    while (np);
    if (!np && (np = &c[0]) ? 1 : 0)
        turns++;
    EXPECT(turns == 5 && np == &c[0]);

    /* to a private pointer: the thread's own elements */
    int *lp = (int *)&a[2 * MYTHREAD];
    EXPECT(lp[0] == 2 * MYTHREAD && lp[1] == 2 * MYTHREAD + 1);

    /* pointers in shared memory */
    if (MYTHREAD == 0)
        sp = &a[3];
    ptrs[MYTHREAD] = &c[MYTHREAD];
    upc_barrier;
    EXPECT(*sp == 3 && sp[1] == 4 && sp - &a[0] == 3);
    for (i = 0; i < THREADS; i++)
        EXPECT(*ptrs[i] == 2 * i && upc_threadof(ptrs[i]) == (size_t)i);
    upc_barrier;
    if (MYTHREAD == THREADS - 1)
        sp += 2;
    upc_barrier;
    EXPECT(*sp == 5);

    /* a private pointer-to-shared per thread */
    gp = &a[MYTHREAD];
    EXPECT(*gp == MYTHREAD);

    /* dynamic allocation, as UPC writes it */
    shared [4] double *d = upc_all_alloc(THREADS, 4 * sizeof(double));
    upc_forall (i = 0; i < 4 * THREADS; i++; &d[i])
        d[i] = i / 2.0;
    upc_barrier;
    double s = 0;
    for (i = 0; i < 4 * THREADS; i++)
        s += d[i];
    EXPECT(s == (4 * THREADS - 1) * (4 * THREADS) / 4.0);
    upc_barrier;
    upc_all_free(d);
    return fails != 0;
}
