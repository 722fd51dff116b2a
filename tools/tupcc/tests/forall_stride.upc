/* A controlling upc_forall (T i = ...; i < E; i++; &a[i]) visits only this
 * thread's elements (tupcc_fa_first, tupcc_fa_step), b[i] of an array of
 * a's layout is reached from &a[i] (tupcc_like), b[i + k] by a step
 * (tupcc_near). Each loop here counts what it visits and where, against
 * what the plain affinity test gives; nested, it runs every iteration. */
#include <upc.h>
#include <stdio.h>

#define B 3
shared [B] int a[7 * THREADS], b[7 * THREADS];
shared [B] long c[7 * THREADS];           /* another element size: not like a */
shared int d[5 * THREADS], e[5 * THREADS]; /* block size 1 */
shared [B] int seen[7 * THREADS];

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* the elements of a that the plain test gives this thread, from lo to hi */
static int mine(int lo, int hi)
{
    int n = 0;
    for (int i = lo; i < hi; i++)
        n += (int)upc_threadof(&a[i]) == MYTHREAD;
    return n;
}

static int inner(void)
{
    int n = 0;
    upc_forall (int i = 0; i < 7 * THREADS; i++; &a[i]) /* nested: every iteration */
        n++;
    return n;
}

int main(void)
{
    const int N = 7 * THREADS;
    int n = 0, want;
    upc_forall (int i = 0; i < N; i++; &a[i]) {
        EXPECT((int)upc_threadof(&a[i]) == MYTHREAD);
        EXPECT(upc_phaseof(&a[i]) == (size_t)(i % B));
        a[i] = 10 * i;
        b[i] = a[i] + 1;
        c[i] = 2L * i;
        seen[i] += 1;
        n++;
    }
    EXPECT(n == mine(0, N));
    upc_barrier;
    for (int i = 0; i < N; i++)
        EXPECT(a[i] == 10 * i && b[i] == 10 * i + 1 && c[i] == 2L * i && seen[i] == 1);
    upc_barrier;

    /* a start inside a block, <=, += 1; neighbours across block edges */
    n = 0;
    upc_forall (long i = 4; i <= N - 2; i += 1; &b[i]) {
        EXPECT(a[i - 1] == 10 * (int)(i - 1) && a[i + 1] == 10 * (int)(i + 1));
        EXPECT(b[i] == 10 * (int)i + 1 && c[i] == 2L * i);
        if (i + 4 < N)
            EXPECT(a[i + 4] == 10 * (int)(i + 4));
        n++;
    }
    EXPECT(n == mine(4, N - 1));

    /* block size 1, a start past thread 0, unsigned */
    n = 0;
    upc_forall (unsigned i = 1; i < 5u * THREADS; i++; &d[i]) {
        d[i] = (int)i;
        e[i] = d[i] * 2;
        n++;
    }
    want = 0;
    for (int i = 1; i < 5 * THREADS; i++)
        want += (int)upc_threadof(&d[i]) == MYTHREAD;
    EXPECT(n == want);
    upc_barrier;
    for (int i = 1; i < 5 * THREADS; i++)
        EXPECT(d[i] == i && e[i] == 2 * i);

    /* nested: the inner loop runs every iteration */
    n = 0;
    upc_forall (int i = 0; i < THREADS; i++; &a[i * B])
        n += inner();
    EXPECT(n == 7 * THREADS); /* a[i * B] is thread i's: one outer iteration each */
    upc_forall (int i = 0; i < N; i++; &a[i]) {
        EXPECT(inner() == 7 * THREADS);
        break; /* once */
    }

    /* continue goes on to this thread's next element */
    n = 0;
    upc_forall (int i = 0; i < N; i++; &a[i]) {
        if (i % 2)
            continue;
        n++;
    }
    want = 0;
    for (int i = 0; i < N; i += 2)
        want += (int)upc_threadof(&a[i]) == MYTHREAD;
    EXPECT(n == want);

    /* an empty range */
    upc_forall (int i = N; i < N; i++; &a[i])
        EXPECT(0);
    upc_barrier;
    if (fails)
        return 1;
    if (MYTHREAD == 0)
        printf("strided upc_forall: every loop visits what the affinity test gives\n");
    return 0;
}
