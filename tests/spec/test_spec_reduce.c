/* The examples of UPC 1.3 7.4.3.1 (upc_all_reduceL, upc_all_prefix_reduceL)
 * and Collectives 1.0 4.3.4 (upc_all_sort), made concrete: A initialised to
 * A[i] = i, the results checked. THREADS {1, 2, 3, 4, 7}. */
#include "tt.h"

#include <upc_collective.h>

#define BLK_SIZE 3
#define NELEMS 10

static int example_reduce(void *arg)
{
    (void)arg;
    /* shared [BLK_SIZE] long A[NELEMS*THREADS]; shared long *B; */
    tupc_sptr_t A =
        upc_all_alloc((NELEMS * THREADS + BLK_SIZE - 1) / BLK_SIZE, BLK_SIZE * sizeof(long));
    tupc_sptr_t B = upc_all_alloc(1, sizeof(long));
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, BLK_SIZE, long))
        tupc_ref(A, i, BLK_SIZE, long) = i;
    upc_barrier();
    upc_all_reduceL(B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, NULL,
                    UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    long n = NELEMS * THREADS;
    TCHECK(*(long *)B.addr == n * (n - 1) / 2, "reduce: %ld", *(long *)B.addr);
    upc_barrier();
    upc_all_free(B);
    upc_all_free(A);
    return 0;
}

static int example_prefix(void *arg)
{
    (void)arg;
    size_t nb = (NELEMS * THREADS + BLK_SIZE - 1) / BLK_SIZE;
    tupc_sptr_t A = upc_all_alloc(nb, BLK_SIZE * sizeof(long));
    tupc_sptr_t B = upc_all_alloc(nb, BLK_SIZE * sizeof(long));
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, BLK_SIZE, long))
        tupc_ref(A, i, BLK_SIZE, long) = i;
    upc_all_prefix_reduceL(B, A, UPC_ADD, NELEMS * THREADS, BLK_SIZE, NULL,
                           UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (long i = 0; i < NELEMS * THREADS; i++)
        TCHECK(tupc_ref(B, i, BLK_SIZE, long) == i * (i + 1) / 2, "B[%ld] = %ld", i,
               tupc_ref(B, i, BLK_SIZE, long));
    upc_barrier();
    upc_all_free(B);
    upc_all_free(A);
    return 0;
}

/* int lt_int(shared void *x, shared void *y): descending order. */
static int lt_int(tupc_sptr_t x, tupc_sptr_t y)
{
    int x_val = *(int *)tupc_local(x), y_val = *(int *)tupc_local(y);
    return x_val > y_val ? -1 : x_val < y_val ? 1 : 0;
}

static int example_sort(void *arg)
{
    (void)arg;
    /* shared [NELEMS] int A[NELEMS*THREADS]; */
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = (i * 7) % 13;
    upc_barrier();
    upc_all_sort(A, sizeof(int), NELEMS * THREADS, NELEMS, lt_int, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    long sum = 0, want = 0;
    for (int i = 0; i < NELEMS * THREADS; i++) {
        sum += tupc_ref(A, i, NELEMS, int);
        want += (i * 7) % 13;
        if (i)
            TCHECK(tupc_ref(A, i - 1, NELEMS, int) >= tupc_ref(A, i, NELEMS, int),
                   "A[%d] out of order", i);
    }
    TCHECK(sum == want, "sort lost elements");
    upc_barrier();
    upc_all_free(A);
    return 0;
}

static void test_examples(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 4, 7};
    for (int i = 0; i < 5; i++) {
        TT_RUN(threads[i], example_reduce, NULL);
        TT_RUN(threads[i], example_prefix, NULL);
        TT_RUN(threads[i], example_sort, NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
