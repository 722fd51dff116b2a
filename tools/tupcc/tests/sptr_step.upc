/* p++ and p-- on pointers-to-shared carry thread, phase and address from
 * element to element (tupcc_pstep), < and friends compare on one thread by
 * address (tupcc_ptr_cmp), upc_threadof and upc_phaseof read the pointer:
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
    if (fails)
        return 1;
    if (MYTHREAD == 0)
        printf("sptr_step: every step and comparison agrees with the index\n");
    return 0;
}
