/* p++ and p-- on pointers-to-shared carry thread, phase and address from
 * element to element (tupcc_pstep), < and friends compare on one thread by
 * address (tupcc_ptr_cmp), upc_threadof and upc_phaseof read the pointer,
 * and a loop of p++ to an end runs as plain loops over partitions:
 * each checked against &a[i] (the general arithmetic) over whole arrays of
 * block sizes 1, 3 and indefinite, forwards and backwards. */
#include <upc.h>
#include <stdio.h>

#define N (7 * THREADS)
shared [3] int a[8 * THREADS];
shared int c[8 * THREADS];
shared [] int z[40];
shared [5] int m[4 * THREADS][3];

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

#define SAME(p, q) (p == q && upc_threadof(p) == upc_threadof(q) && upc_phaseof(p) == upc_phaseof(q))

int main(void)
{
    shared [3] int *p = &a[0], *q;
    for (int i = 0; i < N; i++, p++)
        EXPECT(SAME(p, &a[i]));
    for (int i = N; i > 0; i--) {
        q = p--;
        EXPECT(SAME(q, &a[i]) && SAME(p, &a[i - 1]));
    }
    shared int *r = &c[N - 1];
    for (int i = N - 1; i >= 0; --i, --r)
        EXPECT(SAME(r, &c[i]));
    r = &c[0];
    for (int i = 0; i < N; i++) {
        shared int *t = ++r;
        EXPECT(SAME(t, &c[i + 1]) && SAME(r, &c[i + 1]));
    }
    shared [] int *y = z;
    for (int i = 0; i < 39; i++) {
        EXPECT(SAME(y, &z[i]));
        y++;
    }
    shared [5] int (*mp)[3] = m; /* rows of 3 in blocks of 5: the general step */
    for (int i = 0; i < 4 * THREADS - 1; i++) {
        mp++;
        EXPECT(SAME(&(*mp)[0], &m[i + 1][0]));
    }
    /* order: the index order, on one thread or across threads */
    for (int i = 0; i < N; i++)
        for (int j = i > 6 ? i - 6 : 0; j < N && j < i + 7; j++) {
            EXPECT((&a[i] < &a[j]) == (i < j) && (&a[i] >= &a[j]) == (i >= j));
            EXPECT((&c[i] <= &c[j]) == (i <= j) && (&c[i] > &c[j]) == (i > j));
        }
    for (int i = 0; i < N; i++)
        EXPECT((&a[i] < &a[N - 1 - i]) == (i < N - 1 - i));
    /* loops of p++ to an end pointer (tupcc's runs of a partition): every
     * range of a and c, with <, <= and !=, reading and writing *p */
    upc_barrier;
    if (MYTHREAD == 0) {
        for (int i = 0; i < 8 * THREADS; i++) {
            a[i] = 3 * i;
            c[i] = 5 * i;
        }
        for (int lo = 0; lo < N; lo += 1 + lo / 4)
            for (int hi = lo; hi <= N; hi += 1 + (hi - lo) / 3) {
                long want = 0, got = 0, gotc = 0, gotn = 0, gotle = 0;
                int n = 0;
                for (int i = lo; i < hi; i++)
                    want += 3 * i;
                for (shared [3] int *w = &a[lo]; w < &a[hi]; w++)
                    got += *w;
                for (shared int *w = &c[lo]; w != &c[hi]; ++w) {
                    gotc += *w / 5 * 3;
                    n++;
                }
                shared [3] int *e = &a[hi];
                for (p = &a[lo]; p != e; p++) {
                    if (*p % 2)
                        continue;
                    gotn += *p;
                }
                for (long i = lo; i < hi; i++)
                    gotn += (3 * i) % 2 ? 3 * i : 0;
                if (hi > lo) {
                    e = &a[hi - 1];
                    for (p = &a[lo]; p <= e; p++)
                        gotle += *p;
                    EXPECT(SAME(p, &a[hi])); /* p after the loop */
                }
                EXPECT(got == want && gotc == want && n == hi - lo && gotn == want && gotle == want);
            }
        /* a write through *p, and p used otherwise (the general loop) */
        for (shared int *w = &c[1]; w < &c[N - 1]; w++)
            *w += 1;
        for (shared int *w = &c[0]; w < &c[N]; w++)
            EXPECT(*w == 5 * (int)(w - &c[0]) + (w != &c[0] && w != &c[N - 1]) &&
                   upc_threadof(w) == (size_t)((w - &c[0]) % THREADS));
        int k = 0;
        for (shared [] int *u = z; u < &z[40]; u++)
            *u = k++;
        for (int i = 0; i < 40; i++)
            EXPECT(z[i] == i);
    }
    upc_barrier;
    if (fails)
        return 1;
    if (MYTHREAD == 0)
        printf("sptr_step: every step and comparison agrees with the index\n");
    return 0;
}
