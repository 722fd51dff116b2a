/* Spec example: UPC Collective Operations Specification 1.0, 4.3.4
 * (upc_all_sort), example 1. UPC 1.2 and 1.3 dropped upc_all_sort; tupc
 * keeps it.
 *
 *   #define NELEMS 10
 *   shared [NELEMS] int A[NELEMS*THREADS];
 *
 *   int lt_int( shared void *x, shared void *y )
 *   {
 *       int x_val = *(shared int *)x, y_val = *(shared int *)y;
 *       return x_val > y_val ? -1 : x_val < y_val ? 1 : 0;
 *   }
 *
 *   // Initialize A.
 *   upc_barrier;
 *   upc_all_sort( A, sizeof(int), NELEMS*THREADS, NELEMS,
 *                 lt_int, UPC_IN_NOSYNC | UPC_OUT_NOSYNC );
 *   upc_barrier;
 *
 * upc_all_sort sorts in ascending order of its comparison function; lt_int
 * calls the larger value "less", so A ends in descending order.
 * Run: sort_ex1 -n 3 */
#include <upc.h>
#include <upc_collective.h>

#include <stdio.h>
#include <stdlib.h>

#define NELEMS 10

static int lt_int(tupc_sptr_t x, tupc_sptr_t y)
{
    /* *(shared int *)x: a pointer-to-shared read as an int */
    int x_val = tupc_ref(x, 0, 1, int), y_val = tupc_ref(y, 0, 1, int);
    return x_val > y_val ? -1 : x_val < y_val ? 1 : 0;
}

/* The same order for qsort, for the serial answer. */
static int desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x > y ? -1 : x < y ? 1 : 0;
}

static int initial(int i)
{
    return (i * 7) % 13; /* repeats every 13: equal keys too */
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    const int N = NELEMS * THREADS;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));

    // Initialize A.
    upc_forall(int i = 0, i < N, i++, tupc_index(A, i, NELEMS, int)) tupc_ref(A, i, NELEMS, int) =
        initial(i);
    upc_barrier();
    upc_all_sort(A, sizeof(int), NELEMS * THREADS, NELEMS, lt_int, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();

    /* Expected: the initial values, sorted serially in the same order;
     * thread 0 checks. */
    int bad = 0;
    int *want = MYTHREAD == 0 ? malloc((size_t)N * sizeof(int)) : NULL;
    if (want) {
        for (int i = 0; i < N; i++)
            want[i] = initial(i);
        qsort(want, (size_t)N, sizeof(int), desc);
        for (int i = 0; i < N; i++)
            if (tupc_ref(A, i, NELEMS, int) != want[i]) {
                fprintf(stderr, "sort_ex1: A[%d] is %d, expected %d\n", i,
                        tupc_ref(A, i, NELEMS, int), want[i]);
                bad = 1;
            }
        if (!bad)
            printf("sort_ex1: A = %d %d %d ... %d, descending over %d threads\n", want[0], want[1],
                   want[2], want[N - 1], THREADS);
        free(want);
    } else if (MYTHREAD == 0) {
        fprintf(stderr, "sort_ex1: out of memory\n");
        bad = 1;
    }
    upc_all_free(A);
    return bad;
}
