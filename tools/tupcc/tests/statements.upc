/* upc_forall with integer, pointer and continue affinity, nested (the inner
 * loop runs every iteration: UPC 1.3 6.6.2), barriers with and
 * without ids, split-phase barriers, upc_fence, MYTHREAD and THREADS, the
 * predefined macros. */
#include <upc.h>
#include <stdio.h>

#if !defined(__UPC__) || __UPC_VERSION__ != 201311L
#error "__UPC__ and __UPC_VERSION__"
#endif
#if !defined(__UPC_DYNAMIC_THREADS__) && !defined(__UPC_STATIC_THREADS__)
#error "__UPC_DYNAMIC_THREADS__ or __UPC_STATIC_THREADS__"
#endif
#if defined(__UPC_DYNAMIC_THREADS__) && defined(__UPC_STATIC_THREADS__)
#error "both"
#endif

#define N (3 * THREADS)

shared int owner[N];
shared [3] int hits[N];
shared int nested[4][THREADS];
shared long total;

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static void count(int i)
{
    hits[i] += 1;
}

int main(void)
{
    int i, j;
    EXPECT(MYTHREAD >= 0 && MYTHREAD < THREADS && UPC_MAX_BLOCK_SIZE > 0);
    upc_forall (i = 0; i < N; i++; i)
        owner[i] = MYTHREAD;
    upc_forall (i = 0; i < N; i++; &hits[i])
        count(i);
    upc_barrier 1;
    for (i = 0; i < N; i++) {
        EXPECT(owner[i] == i % THREADS);
        EXPECT(hits[i] == 1);
    }
    /* unsigned and negative integer affinities */
    unsigned int u;
    int mine = 0;
    upc_forall (u = 0; u < 2u * THREADS; u++; u)
        mine++;
    EXPECT(mine == 2);
    mine = 0;
    upc_forall (i = -THREADS; i < 0; i++; i)
        mine++;
    EXPECT(mine == 1);
    /* continue: every thread runs every iteration */
    mine = 0;
    upc_forall (i = 0; i < N; i++; continue)
        mine++;
    upc_forall (i = 0; i < N; i++;)
        mine++;
    EXPECT(mine == 2 * N);
    /* nested: the outer loop's affinity decides, the inner runs all */
    upc_barrier;
    upc_forall (i = 0; i < THREADS; i++; i)
        upc_forall (j = 0; j < 4; j++; j)
            nested[j][i] = MYTHREAD + 1;
    upc_barrier;
    for (i = 0; i < THREADS; i++)
        for (j = 0; j < 4; j++)
            EXPECT(nested[j][i] == i + 1);
    /* a declaration in the loop and a break */
    mine = 0;
    upc_forall (int k = 0; k < N; k++; &owner[k]) {
        if (k >= 2 * THREADS)
            break;
        mine++;
    }
    EXPECT(mine == 2);
    /* split-phase barrier with an id, and upc_fence */
    if (MYTHREAD == 0)
        total = 42;
    upc_fence;
    upc_notify 7;
    i = 3;
    upc_wait 7;
    EXPECT(total == 42);
    upc_notify;
    upc_wait;
    upc_barrier MYTHREAD >= 0 ? 5 : 6;
    if (fails)
        fprintf(stderr, "thread %d: %d failures\n", MYTHREAD, fails);
    return fails != 0;
}
