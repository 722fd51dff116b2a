/* upc_forall loops run as block loops (translate.py fast_forall): each
 * thread visits only its own iterations, and x[i] of an array of the
 * loop's layout is a plain access of the thread's part of x. Every loop
 * here records which thread ran each iteration, through the privatized
 * access and through a general one, and every element is checked against
 * a serial computation after the loop, read with general accesses: the
 * block size (1, 3, [*], larger than a thread's share), start, end, <=,
 * continue, unsigned and undeclared loop variables, neighbours across
 * block edges, strict arrays, struct elements, nesting, and the loops that
 * must keep the general translation (affinities that are not &a[i] or i,
 * other steps, a break, a static in the body, a bound the body changes). */
#include <upc.h>
#include <upc_relaxed.h>
#include <stdio.h>

#define N (7 * THREADS)
shared [3] int a[N], b[N], who[N];
shared [3] long wide[N];            /* another element size, same layout */
shared int hits[N];                 /* cyclic: not a's layout */
shared int c1[N], c2[N];            /* cyclic */
shared [*] int s1[5 * THREADS], s2[5 * THREADS];
shared [4] int q[THREADS];          /* most threads own nothing */
shared [10] int big[2 * THREADS];   /* one block wider than a thread's share */
strict shared [3] int sa[N];
struct pt {
    int x;
    double y;
};
shared [2] struct pt ps[N];
shared [2] int pw[N];
shared [2 * 6] int m2[4 * THREADS][6]; /* two rows a block */
shared [2] int rowsum[4 * THREADS];    /* its rows' layout */
shared [6] int m1[3 * THREADS][6];     /* a row a block: cyclic rows */
shared [8] int h1[6 * THREADS], h2[6 * THREADS]; /* blocks with a middle */

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static int g_n; /* a bound the loop cannot prove constant */

/* clears who and hits (every thread its own part) */
static void clear(void)
{
    upc_barrier;
    for (int i = 0; i < N; i++)
        if ((int)upc_threadof(&who[i]) == MYTHREAD) {
            who[i] = -1;
        }
    upc_forall (int i = 0; i < N; i++; &hits[i])
        hits[i] = 0;
    upc_barrier;
}

/* after a loop over lo <= i < hi (step st) with affinity thread aff(i):
 * each visited once, by its thread, and nothing else visited */
#define CHECK_VISITS(lo, hi, st, aff)                                                              \
    do {                                                                                           \
        upc_barrier;                                                                               \
        if (MYTHREAD == 0)                                                                         \
            for (long k_ = 0; k_ < N; k_++) {                                                      \
                int in_ = k_ >= (lo) && k_ < (hi) && (k_ - (lo)) % (st) == 0;                      \
                EXPECT(hits[k_] == in_);                                                           \
                EXPECT(who[k_] == (in_ ? (int)(aff) : -1));                                        \
            }                                                                                      \
        upc_barrier;                                                                               \
    } while (0)

static int inner_calls(void)
{
    int n = 0;
    upc_forall (int j = 0; j < N; j++; &b[j]) /* nested through a call: every j */
        n++;
    return n;
}

int main(void)
{
    g_n = N;
    /* blocked, a start inside a block, neighbours across edges */
    upc_forall (int i = 0; i < N; i++; &b[i])
        b[i] = 5 * i + 1;
    clear();
    upc_forall (int i = 2; i < N - 1; i++; &a[i]) {
        a[i] = (i > 0 ? b[i - 1] : 0) + b[i] + (i + 1 < N ? b[i + 1] : 0);
        wide[i] = 1000L * i;
        who[i] = MYTHREAD;
        hits[i] += 1;
        EXPECT((int)upc_threadof(&a[i]) == MYTHREAD && upc_phaseof(&a[i]) == (size_t)(i % 3));
        EXPECT(upc_threadof(&b[i + 3]) == (size_t)((i / 3 + 1) % THREADS));
        EXPECT(b[i + 4] == (i + 4 < N ? 5 * (i + 4) + 1 : 0) || i + 4 >= N);
    }
    CHECK_VISITS(2, N - 1, 1, (k_ / 3) % THREADS);
    if (MYTHREAD == 0)
        for (int i = 2; i < N - 1; i++) {
            EXPECT(a[i] == (i > 0 ? 5 * i - 4 : 0) + 5 * i + 1 + (i + 1 < N ? 5 * i + 6 : 0));
            EXPECT(wide[i] == 1000L * i);
        }

    /* <=, and i not declared by the loop: its value after */
    clear();
    int i;
    upc_forall (i = 1; i <= N - 2; i += 1; &who[i]) {
        who[i] = MYTHREAD;
        hits[i]++;
    }
    EXPECT(i == N - 1);
    CHECK_VISITS(1, N - 1, 1, (k_ / 3) % THREADS);
    i = 99;
    upc_forall (i = N + 3; i < N; i++; &a[i])
        EXPECT(0);
    EXPECT(i == N + 3);

    /* cyclic, by &c1[i] and by the integer i; continue */
    clear();
    upc_forall (long j = 1; j < N; ++j; &c1[j]) {
        if (j % 4 == 3)
            continue;
        c1[j] = (int)j * 3;
        c2[j] = c1[j] + 1;
        hits[j] = 1;
        who[j] = MYTHREAD;
        EXPECT(upc_threadof(&c2[j]) == (size_t)MYTHREAD && upc_phaseof(&c2[j]) == 0);
        /* c1[j + 1] is another thread's, written by it meanwhile: only
         * its address (reading it would be a race, which TSan reports) */
        EXPECT(upc_threadof(&c1[j + 1]) == (size_t)((j + 1) % THREADS));
    }
    upc_barrier;
    if (MYTHREAD == 0)
        for (int k = 0; k < N; k++) {
            int in = k >= 1 && k % 4 != 3;
            EXPECT(hits[k] == in && who[k] == (in ? k % THREADS : -1));
            EXPECT(c1[k] == (in ? 3 * k : 0) && c2[k] == (in ? 3 * k + 1 : 0));
        }
    clear();
    upc_forall (unsigned u = 3; u < (unsigned)N; u++; u) {
        c2[u] = -(int)u;
        who[u] = MYTHREAD;
        hits[u]++;
    }
    CHECK_VISITS(3, N, 1, k_ % THREADS);
    if (MYTHREAD == 0)
        for (int k = 3; k < N; k++)
            EXPECT(c2[k] == -k);

    /* [*]: the block size is the array's share per thread */
    clear();
    upc_forall (size_t j = 0; j < 5u * THREADS; j++; &s1[j]) {
        s1[j] = (int)j + 7;
        s2[j] = s1[j] * 2;
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, 5 * THREADS, 1, k_ / 5);
    if (MYTHREAD == 0)
        for (int k = 0; k < 5 * THREADS; k++)
            EXPECT(s1[k] == k + 7 && s2[k] == 2 * k + 14);

    /* blocks wider than a thread's share: most threads have none */
    clear();
    upc_forall (int j = 0; j < THREADS; j++; &q[j]) {
        q[j] = j + 1;
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, THREADS, 1, (k_ / 4) % THREADS);
    clear();
    upc_forall (int j = 1; j < 2 * THREADS; j++; &big[j]) {
        big[j] = j;
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(1, 2 * THREADS, 1, (k_ / 10) % THREADS);
    if (MYTHREAD == 0)
        for (int k = 0; k < THREADS; k++)
            EXPECT(q[k] == k + 1 && big[k] == k && big[k + THREADS] == k + THREADS);

    /* strict elements and struct elements */
    clear();
    upc_forall (int j = 0; j < N; j++; &sa[j]) {
        sa[j] = j * j;
        sa[j] += 1;
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N, 1, (k_ / 3) % THREADS);
    upc_forall (int j = 0; j < N; j++; &ps[j]) {
        ps[j].x = j;
        ps[j].y = j / 2.0;
        pw[j] = ps[j].x + 1;
    }
    upc_barrier;
    if (MYTHREAD == 0)
        for (int k = 0; k < N; k++)
            EXPECT(sa[k] == k * k + 1 && ps[k].x == k && ps[k].y == k / 2.0 && pw[k] == k + 1);

    /* x[i + K]: tested at a block's edges, plain in its middle */
    upc_forall (int j = 0; j < 6 * THREADS; j++; &h1[j])
        h1[j] = j * j;
    clear();
    upc_forall (unsigned j = 1; j < 6u * THREADS - 1; j++; &h2[j]) {
        h2[j] = (j >= 2 ? h1[j - 2] : 0) + 10 * h1[j - 1] + 100 * h1[j] + 1000 * h1[j + 1] +
                (j + 3 < 6u * THREADS ? 7 * h1[3 + j] : 0);
        EXPECT(upc_phaseof(&h1[j + 1]) == (j + 1) % 8 && upc_threadof(&h1[j - 1]) == (j - 1) / 8 % THREADS);
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(1, 6 * THREADS - 1, 1, (k_ / 8) % THREADS);
    if (MYTHREAD == 0)
        for (int j = 1; j < 6 * THREADS - 1; j++) {
            int s = (j >= 2 ? (j - 2) * (j - 2) : 0) + 10 * (j - 1) * (j - 1) + 100 * j * j +
                    1000 * (j + 1) * (j + 1) + (j + 3 < 6 * THREADS ? 7 * (j + 3) * (j + 3) : 0);
            EXPECT(h2[j] == s);
        }

    /* two dimensions whose blocks hold whole rows */
    clear();
    upc_forall (int r = 0; r < 4 * THREADS; r++; &m2[r][0]) {
        int sum = 0;
        for (int k = 0; k < 6; k++) {
            m2[r][k] = 10 * r + k;
            sum += m2[r][k];
        }
        rowsum[r] = sum;
        EXPECT(upc_threadof(&m2[r][5]) == (size_t)MYTHREAD && upc_phaseof(&m2[r][5]) == (size_t)(r % 2 * 6 + 5));
        who[r] = MYTHREAD;
        hits[r]++;
    }
    CHECK_VISITS(0, 4 * THREADS, 1, (k_ / 2) % THREADS);
    upc_forall (int r = 1; r < 3 * THREADS; r++; &m1[r][0]) {
        for (int k = 0; k < 6; k++)
            m1[r][k] = m2[r][k] + (r + 1 < 4 * THREADS ? m2[r + 1][k] : 0);
        EXPECT(upc_threadof(&m1[r][0]) == (size_t)MYTHREAD);
    }
    upc_barrier;
    if (MYTHREAD == 0)
        for (int r = 0; r < 4 * THREADS; r++) {
            EXPECT(rowsum[r] == 60 * r + 15);
            for (int k = 0; k < 6; k++) {
                EXPECT(m2[r][k] == 10 * r + k);
                if (r >= 1 && r < 3 * THREADS)
                    EXPECT(m1[r][k] == 20 * r + 10 + 2 * k);
            }
        }

    /* nested: the inner loop runs every iteration, the outer's a[i] stays
     * its own element */
    clear();
    int total = 0, calls = 0;
    upc_forall (int j = 0; j < N; j++; &a[j]) {
        int sum = 0;
        upc_forall (int k = 0; k < N; k++; &b[k])
            sum += b[k] - a[j] + a[j];
        total += sum == 5 * (N * (N - 1) / 2) + N;
        calls += inner_calls() == N;
        hits[j]++;
        who[j] = MYTHREAD;
    }
    CHECK_VISITS(0, N, 1, (k_ / 3) % THREADS);
    {
        int mine = 0;
        for (int k = 0; k < N; k++)
            mine += (int)upc_threadof(&a[k]) == MYTHREAD;
        EXPECT(total == mine && calls == mine);
    }

    /* the general translation: affinities that are not &a[i] or i */
    clear();
    upc_forall (int j = 0; j < N - 1; j++; &a[j + 1]) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N - 1, 1, ((k_ + 1) / 3) % THREADS);
    clear();
    upc_forall (int j = 0; j < N / 2; j++; &a[2 * j]) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N / 2, 1, (2 * k_ / 3) % THREADS);
    clear();
    upc_forall (int j = 0; j < N; j++; j * 3 + 1) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N, 1, (k_ * 3 + 1) % THREADS);
    clear();
    {
        shared [3] int *p = &a[1];
        upc_forall (int j = 0; j < N - 1; j++; &p[j]) {
            who[j] = MYTHREAD;
            hits[j]++;
        }
        CHECK_VISITS(0, N - 1, 1, ((k_ + 1) / 3) % THREADS);
    }
    /* other steps, a break, a static, a bound the loop may change */
    clear();
    upc_forall (int j = N - 1; j >= 2; j--; &a[j]) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(2, N, 1, (k_ / 3) % THREADS);
    clear();
    upc_forall (int j = 1; j < N; j += 2; &a[j]) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(1, N, 2, (k_ / 3) % THREADS);
    clear();
    upc_forall (int j = 0; j < N; j++; &a[j]) {
        static int seen;
        seen++;
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N, 1, (k_ / 3) % THREADS);
    clear();
    upc_forall (int j = 0; j < g_n; j++; &a[j]) {
        who[j] = MYTHREAD;
        hits[j]++;
    }
    CHECK_VISITS(0, N, 1, (k_ / 3) % THREADS);
    clear();
    {
        int n = N;
        upc_forall (int j = 0; j < n; j++; &a[j]) {
            who[j] = MYTHREAD;
            hits[j]++;
            if (j == N - 1)
                n = N; /* the bound is written: not provably the same */
        }
    }
    CHECK_VISITS(0, N, 1, (k_ / 3) % THREADS);
    clear();
    {
        int n = 0;
        upc_forall (int j = 0; j < N; j++; &a[j]) {
            if (j >= 3 * THREADS)
                break; /* undefined in UPC; tupcc leaves the loop */
            who[j] = MYTHREAD;
            hits[j]++;
            n++;
        }
        (void)n;
    }
    CHECK_VISITS(0, 3 * THREADS, 1, (k_ / 3) % THREADS);

    upc_barrier;
    if (fails)
        return 1;
    if (MYTHREAD == 0)
        printf("forall_private: every loop ran each iteration once, on its thread\n");
    return 0;
}
