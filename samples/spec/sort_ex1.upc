/* UPC Collective Operations 1.0, 4.3.4 (upc_all_sort), example 1, as the
 * spec writes it (sort_ex1.c is its C translation); "Initialize A" and the
 * check added. lt_int calls the larger value "less": A ends descending. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>
#include <stdlib.h>

#define NELEMS 10
shared [NELEMS] int A[NELEMS*THREADS];

int lt_int( shared void *x, shared void *y )
{
    int x_val = *(shared int *)x, y_val = *(shared int *)y;
    return x_val > y_val ? -1 : x_val < y_val ? 1 : 0;
}

/* the same order for qsort, for the serial answer */
static int desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x > y ? -1 : x < y ? 1 : 0;
}

static int initial(int i)
{
    return (i * 7) % 13; /* repeats every 13: equal keys too */
}

int main(void)
{
    const int N = NELEMS * THREADS;
    // Initialize A.
    upc_forall (int i = 0; i < N; i++; &A[i])
        A[i] = initial(i);
    upc_barrier;
    upc_all_sort( A, sizeof(int), NELEMS*THREADS, NELEMS,
                  lt_int, UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
    upc_barrier;

    int bad = 0;
    int *want = malloc((size_t)N * sizeof(int));
    if (!want)
        return 1;
    for (int i = 0; i < N; i++)
        want[i] = initial(i);
    qsort(want, (size_t)N, sizeof(int), desc);
    upc_forall (int i = 0; i < N; i++; &A[i])
        if (A[i] != want[i]) {
            fprintf(stderr, "sort_ex1: A[%d] is %d, expected %d\n", i, A[i], want[i]);
            bad = 1;
        }
    free(want);
    return bad;
}
