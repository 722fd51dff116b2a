/* Idioms of classic UPC programs: matrix-vector product over rows with
 * affinity, a stencil on a 2-D array, a pointer walk over a thread's
 * elements, a lock-protected sum, upc_memget into a private buffer, a
 * dynamically allocated array of blocks with a pointer-to-shared per row. */
#include <upc_relaxed.h>
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 6

shared [N] double A[N * THREADS][N];
shared double x[N];
shared double y[N * THREADS];
shared [N] double grid[2][N * THREADS];
shared int walk[4 * THREADS];
shared double total;
upc_lock_t *lock;

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
    /* A[i][j] = i + j, x[j] = 1: y[i] = sum_j (i + j) */
    upc_forall (i = 0; i < N * THREADS; i++; &A[i][0])
        for (j = 0; j < N; j++)
            A[i][j] = i + j;
    if (MYTHREAD == 0)
        for (j = 0; j < N; j++)
            x[j] = 1.0;
    upc_barrier;
    upc_forall (i = 0; i < N * THREADS; i++; &y[i]) {
        double s = 0;
        for (j = 0; j < N; j++)
            s += A[i][j] * x[j];
        y[i] = s;
    }
    upc_barrier;
    for (i = 0; i < N * THREADS; i++)
        EXPECT(y[i] == N * i + N * (N - 1) / 2);

    /* one stencil step between two planes */
    upc_forall (j = 0; j < N * THREADS; j++; &grid[0][j])
        grid[0][j] = j;
    upc_barrier;
    upc_forall (j = 1; j < N * THREADS - 1; j++; &grid[1][j])
        grid[1][j] = (grid[0][j - 1] + grid[0][j + 1]) / 2;
    upc_barrier;
    for (j = 1; j < N * THREADS - 1; j++)
        EXPECT(grid[1][j] == j);

    /* a pointer walk over this thread's elements of a cyclic array */
    shared int *p;
    for (p = &walk[MYTHREAD]; p < &walk[4 * THREADS]; p += THREADS)
        *p = MYTHREAD;
    upc_barrier;
    for (i = 0; i < 4 * THREADS; i++)
        EXPECT(walk[i] == i % THREADS);

    /* a sum under a lock */
    lock = upc_all_lock_alloc();
    upc_lock(lock);
    total += y[MYTHREAD];
    upc_unlock(lock);
    upc_barrier;
    double want = 0;
    for (i = 0; i < THREADS; i++)
        want += y[i];
    EXPECT(total == want);

    /* one thread's row of A into a private buffer */
    double row[N];
    upc_memget(row, &A[MYTHREAD][0], sizeof row);
    for (j = 0; j < N; j++)
        EXPECT(row[j] == MYTHREAD + j);

    /* rows of blocks allocated at run time */
    shared [N] int *rows = upc_all_alloc(THREADS, N * sizeof(int));
    shared [N] int *mine = rows + N * MYTHREAD;
    for (j = 0; j < N; j++)
        mine[j] = MYTHREAD * 100 + j;
    upc_barrier;
    shared [N] int *other = rows + N * ((MYTHREAD + 1) % THREADS);
    EXPECT(other[N - 1] == (MYTHREAD + 1) % THREADS * 100 + N - 1);
    EXPECT(upc_threadof(other) == (size_t)((MYTHREAD + 1) % THREADS));
    upc_barrier;
    upc_all_free(rows);
    upc_all_lock_free(lock);
    return fails != 0;
}
