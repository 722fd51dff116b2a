/* Layouts of shared arrays against UPC 1.3 6.5.2.1: for shared [B] T a[N],
 * element i has affinity to thread (i / B) mod THREADS and phase i mod B,
 * and a thread's elements lie in its partition course after course, so a
 * private pointer to its first element reaches the i-th at index
 * (i / (B * THREADS)) * B + i mod B. [] puts everything on thread 0, [*]
 * uses B = ceil(N / THREADS), no layout qualifier B = 1. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 37

shared int cyc[N];
shared [3] int blk3[N];
shared [1] long one[2 * THREADS];
shared [] double indef[N];
shared [0] char zero[5];
shared [*] short star[4 * THREADS];
shared [*] int starn[N];
shared [5] int md[3][2 * THREADS];
shared [2] int mdt[THREADS][3];
shared [7] char bigb[N];
shared int scalar;
shared [4] unsigned char bytes[N * THREADS];

static int fails;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fails++;                                                                                   \
    } while (0)

/* Checks element i of an array of n elements in blocks of b (0: indefinite). */
#define CHECK(a, n, b, elem)                                                                       \
    do {                                                                                           \
        size_t B_ = (b);                                                                           \
        for (size_t i = 0; i < (size_t)(n); i++) {                                                 \
            size_t t = B_ ? i / B_ % THREADS : 0, ph = B_ ? i % B_ : 0;                            \
            if (upc_threadof(&elem) != t || upc_phaseof(&elem) != ph)                              \
                FAIL(#a "[%zu]: thread %zu phase %zu, expected %zu %zu\n", i,                     \
                     upc_threadof(&elem), upc_phaseof(&elem), t, ph);                              \
        }                                                                                          \
    } while (0)

int main(void)
{
    CHECK(cyc, N, 1, cyc[i]);
    CHECK(blk3, N, 3, blk3[i]);
    CHECK(one, 2 * THREADS, 1, one[i]);
    CHECK(indef, N, 0, indef[i]);
    CHECK(zero, 5, 0, zero[i]);
    CHECK(star, 4 * THREADS, 4, star[i]);
    CHECK(starn, N, (N + THREADS - 1) / THREADS, starn[i]);
    CHECK(md, 3 * 2 * THREADS, 5, md[i / (2 * THREADS)][i % (2 * THREADS)]);
    CHECK(mdt, THREADS * 3, 2, mdt[i / 3][i % 3]);
    CHECK(bigb, N, 7, bigb[i]);
    CHECK(bytes, N * THREADS, 4, bytes[i]);
    if (upc_threadof(&scalar) != 0)
        FAIL("scalar not on thread 0\n");

    /* block sizes and sizes (UPC 1.3 6.4.1, 6.5.1.1) */
    if (upc_blocksizeof(blk3) != 3 || upc_blocksizeof(cyc) != 1 || upc_blocksizeof(indef) != 0 ||
        upc_blocksizeof(star) != 4 || upc_blocksizeof(md) != 5 || upc_blocksizeof scalar != 1)
        FAIL("upc_blocksizeof\n");
    if (upc_elemsizeof(md) != sizeof(int) || upc_elemsizeof(indef) != sizeof(double) ||
        upc_elemsizeof(shared [3] long) != sizeof(long))
        FAIL("upc_elemsizeof\n");
    size_t blocks = (N + 2) / 3;
    if (upc_localsizeof(blk3) != (blocks + THREADS - 1) / THREADS * 3 * sizeof(int) ||
        upc_localsizeof(indef) != N * sizeof(double) || upc_localsizeof(scalar) != sizeof(int))
        FAIL("upc_localsizeof %zu\n", upc_localsizeof(blk3));
    if (sizeof(cyc) != N * sizeof(int) || sizeof(md) != 3 * 2 * THREADS * sizeof(int) ||
        sizeof md[1] != 2 * THREADS * sizeof(int) || sizeof(shared int) != sizeof(int))
        FAIL("sizeof\n");

    /* the local elements, course after course, through a private pointer */
    int i;
    upc_forall (i = 0; i < N; i++; &blk3[i])
        blk3[i] = 1000 + i;
    upc_forall (i = 0; i < N; i++; &blk3[i]) {
        int *mine = (int *)&blk3[MYTHREAD * 3];
        size_t at = (size_t)i / (3 * THREADS) * 3 + (size_t)i % 3;
        if (mine[at] != 1000 + i)
            FAIL("blk3[%d] at local index %zu: %d\n", i, at, mine[at]);
    }
    upc_forall (i = 0; i < N * THREADS; i++; &bytes[i])
        bytes[i] = (unsigned char)(i * 7);
    upc_barrier;
    for (i = 0; i < N * THREADS; i++)
        if (bytes[i] != (unsigned char)(i * 7))
            FAIL("bytes[%d]\n", i);
    /* every element of every array starts at zero (static storage) */
    for (i = 0; i < N; i++)
        if (cyc[i] || indef[i] != 0.0 || starn[i])
            FAIL("not zero at %d\n", i);
    upc_barrier;
    if (fails)
        fprintf(stderr, "thread %d: %d failures\n", MYTHREAD, fails);
    return fails != 0;
}
