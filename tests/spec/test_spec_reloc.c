/* Every example of the relocalization collectives in the specifications,
 * made concrete and checked element by element:
 *   UPC 1.3 7.4.2 (001_*.txt), UPC 1.2 (004_*.txt) and Collectives 1.0
 *   4.2 (000_*.txt) give the same examples (1.0 numbers them per function,
 *   1.3 by paragraph); the Cray upc_all_scatter(3c) page (002_*.txt) has two.
 * "static" shared arrays are made with upc_all_alloc, with the layout their
 * declaration gives; "Initialize A" is done by each thread for the elements
 * with affinity to it (or by thread 0 for shared [] arrays), with the
 * barrier the example has, or none where the example has ALLSYNC.
 * Examples that name A[1] or SRC_THREAD 1 need THREADS >= 2. */
#include "tt.h"

#include <upc_collective.h>

#define NELEMS 10

static const int counts[] = {1, 2, 3, 4, 7, 16};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static void run_from(int min_threads, int (*fn)(void *))
{
    for (int k = 0; k < NCOUNTS; k++)
        if (counts[k] >= min_threads)
            TT_RUN(counts[k], fn, NULL);
}

/* ---- upc_all_broadcast: 1.3 7.4.2.1 para 9-11, 1.0 4.2.1 examples 1-3 ---- */

/* shared int A[THREADS], B[THREADS]; broadcast(B, &A[1], sizeof(int), NO|NO) */
static int bcast_ex1(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, sizeof(int));
    tupc_ref(A, MYTHREAD, 1, int) = 100 + MYTHREAD;
    tupc_ref(B, MYTHREAD, 1, int) = -1;
    upc_barrier();
    upc_all_broadcast(B, tupc_index(A, 1, 1, int), sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    for (int i = 0; i < THREADS; i++)
        TCHECK(tupc_ref(B, i, 1, int) == 101, "B[%d] is %d, expected A[1] = 101", i,
               tupc_ref(B, i, 1, int));
    return 0;
}

/* shared [] int A[NELEMS]; shared [NELEMS] int B[NELEMS*THREADS]; ALL|ALL */
static int bcast_ex2(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(1, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    if (MYTHREAD == 0)
        for (int k = 0; k < NELEMS; k++)
            tupc_ref(A, k, 0, int) = 7 * k + 1;
    upc_all_broadcast(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < NELEMS * THREADS; i++)
        TCHECK(tupc_ref(B, i, NELEMS, int) == 7 * (i % NELEMS) + 1, "B[%d] is %d", i,
               tupc_ref(B, i, NELEMS, int));
    return 0;
}

/* (A[3],A[4]) to (B[0],B[1]), (B[10],B[11]), ... with shared [NELEMS] A, B. */
static int bcast_ex3(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
    {
        tupc_ref(A, i, NELEMS, int) = 1000 + i;
        tupc_ref(B, i, NELEMS, int) = -1;
    }
    upc_barrier();
    upc_all_broadcast(B, tupc_index(A, 3, NELEMS, int), sizeof(int) * 2,
                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    for (int i = 0; i < NELEMS * THREADS; i++) {
        int want = i % NELEMS == 0 ? 1003 : i % NELEMS == 1 ? 1004 : -1;
        TCHECK(tupc_ref(B, i, NELEMS, int) == want, "B[%d] is %d, expected %d", i,
               tupc_ref(B, i, NELEMS, int), want);
    }
    return 0;
}

static void test_broadcast_ex1(void **s)
{
    (void)s;
    run_from(2, bcast_ex1);
}
static void test_broadcast_ex2(void **s)
{
    (void)s;
    run_from(1, bcast_ex2);
}
static void test_broadcast_ex3(void **s)
{
    (void)s;
    run_from(1, bcast_ex3);
}

/* ---- upc_all_scatter: 1.3 7.4.2.2 para 10-11, 1.0 4.2.2, Cray page ---- */

#define NUMELEMS 10
#define SRC_THREAD 1

/* Dynamic THREADS: each thread's row of A, SRC_THREAD's row scattered. The
 * Cray page's example 1 is the same program with the initialization loop
 * left out and srcA never set; it is made concrete as the evident intent:
 * srcA = myA = &A[SRC_THREAD], with SRC_THREAD's row initialized. */
static int scatter_ex1_common(int cray)
{
    tupc_sptr_t A = upc_all_alloc(THREADS, THREADS * NUMELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NUMELEMS * sizeof(int));
    tupc_sptr_t myA, srcA;
    if (!cray) {
        myA = tupc_ptr_cast(tupc_index(A, MYTHREAD, 1, int));
        for (int i = 0; i < NUMELEMS * THREADS; i++)
            tupc_ref(myA, i, 0, int) = i + NUMELEMS * THREADS * MYTHREAD;
        srcA = tupc_ptr_cast(tupc_index(A, SRC_THREAD, 1, int));
    } else {
        myA = tupc_ptr_cast(tupc_index(A, SRC_THREAD, 1, int));
        if (MYTHREAD == SRC_THREAD)
            for (int i = 0; i < NUMELEMS * THREADS; i++)
                tupc_ref(myA, i, 0, int) = i + NUMELEMS * THREADS * SRC_THREAD;
        srcA = myA;
    }
    upc_barrier();
    upc_all_scatter(B, srcA, sizeof(int) * NUMELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    for (int i = 0; i < NUMELEMS * THREADS; i++) {
        int want = i + NUMELEMS * THREADS * SRC_THREAD;
        TCHECK(tupc_ref(B, i, NUMELEMS, int) == want, "B[%d] is %d, expected %d", i,
               tupc_ref(B, i, NUMELEMS, int), want);
    }
    return 0;
}

static int scatter_ex1(void *arg)
{
    (void)arg;
    return scatter_ex1_common(0);
}

static int scatter_cray_ex1(void *arg)
{
    (void)arg;
    return scatter_ex1_common(1);
}

/* Static THREADS (also the Cray page's example 2): shared [] int A[NELEMS*THREADS]. */
static int scatter_ex2(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(1, NELEMS * THREADS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    if (MYTHREAD == 0)
        for (int i = 0; i < NELEMS * THREADS; i++)
            tupc_ref(A, i, 0, int) = 3 * i - 5;
    upc_all_scatter(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int i = 0; i < NELEMS * THREADS; i++)
        TCHECK(tupc_ref(B, i, NELEMS, int) == 3 * i - 5, "B[%d] is %d", i,
               tupc_ref(B, i, NELEMS, int));
    return 0;
}

static void test_scatter_ex1(void **s)
{
    (void)s;
    run_from(2, scatter_ex1);
}
static void test_scatter_cray_ex1(void **s)
{
    (void)s;
    run_from(2, scatter_cray_ex1);
}
static void test_scatter_ex2_and_cray_ex2(void **s)
{
    (void)s;
    run_from(1, scatter_ex2);
}

/* ---- upc_all_gather: 1.3 7.4.2.3 para 10-11, 1.0 4.2.3 ---- */

/* ex1: shared [] int B[NELEMS*THREADS], ALL|ALL; ex2: B from upc_all_alloc(1, ...), NO|NO. */
static int gather_common(int dynamic)
{
    tupc_sptr_t A = upc_all_alloc(THREADS, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(1, NELEMS * THREADS * sizeof(int));
    upc_forall(int i = 0, i < NELEMS * THREADS, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 11 * i + dynamic;
    if (dynamic) {
        upc_barrier();
        upc_all_gather(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        upc_barrier();
    } else {
        upc_all_gather(B, A, sizeof(int) * NELEMS, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    }
    for (int i = 0; i < NELEMS * THREADS; i++)
        TCHECK(tupc_ref(B, i, 0, int) == 11 * i + dynamic, "B[%d] is %d", i,
               tupc_ref(B, i, 0, int));
    return 0;
}

static int gather_ex1(void *arg)
{
    (void)arg;
    return gather_common(0);
}
static int gather_ex2(void *arg)
{
    (void)arg;
    return gather_common(1);
}
static void test_gather_ex1(void **s)
{
    (void)s;
    run_from(1, gather_ex1);
}
static void test_gather_ex2(void **s)
{
    (void)s;
    run_from(1, gather_ex2);
}

/* ---- upc_all_gather_all: 1.3 7.4.2.4 para 10-11, 1.0 4.2.4 ---- */

/* shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS]; NO|NO */
static int gather_all_ex1(void *arg)
{
    (void)arg;
    int T = THREADS, row = NELEMS * T;
    tupc_sptr_t A = upc_all_alloc(T, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(T, (size_t)row * sizeof(int));
    upc_forall(int i = 0, i < NELEMS * T, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = 5 * i + 2;
    upc_barrier();
    upc_all_gather_all(B, A, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    for (int t = 0; t < T; t++)
        for (int k = 0; k < row; k++)
            TCHECK(tupc_ref(B, t * row + k, row, int) == 5 * k + 2, "B[%d][%d] is %d", t, k,
                   tupc_ref(B, t * row + k, row, int));
    return 0;
}

/* Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int)); myB its row; ALL|ALL */
static int gather_all_ex2(void *arg)
{
    (void)arg;
    int T = THREADS;
    tupc_sptr_t A = upc_all_alloc(T, NELEMS * sizeof(int));
    tupc_sptr_t Bdata = upc_all_alloc((size_t)T * T, NELEMS * sizeof(int));
    tupc_sptr_t myB = tupc_ptr_cast(tupc_index(Bdata, MYTHREAD, 1, int));
    upc_forall(int i = 0, i < NELEMS * T, i++, tupc_index(A, i, NELEMS, int))
        tupc_ref(A, i, NELEMS, int) = i * i;
    upc_all_gather_all(Bdata, A, NELEMS * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int k = 0; k < NELEMS * T; k++)
        TCHECK(tupc_ref(myB, k, 0, int) == k * k, "myB[%d] is %d", k, tupc_ref(myB, k, 0, int));
    /* Every thread's row, each starting at &Bdata[t] as myB does. */
    for (int t = 0; t < T; t++) {
        tupc_sptr_t row = tupc_ptr_cast(tupc_index(Bdata, t, 1, int));
        for (int k = 0; k < NELEMS * T; k++)
            TCHECK(tupc_ref(row, k, 0, int) == k * k, "row %d [%d] is %d", t, k,
                   tupc_ref(row, k, 0, int));
    }
    return 0;
}

static void test_gather_all_ex1(void **s)
{
    (void)s;
    run_from(1, gather_all_ex1);
}
static void test_gather_all_ex2(void **s)
{
    (void)s;
    run_from(1, gather_all_ex2);
}

/* ---- upc_all_exchange: 1.3 7.4.2.5 para 9-10, 1.0 4.2.5 ---- */

/* shared [NELEMS*THREADS] int A[THREADS][NELEMS*THREADS], B likewise; NO|NO */
static int exchange_ex1(void *arg)
{
    (void)arg;
    int T = THREADS, row = NELEMS * T;
    tupc_sptr_t A = upc_all_alloc(T, (size_t)row * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(T, (size_t)row * sizeof(int));
    for (int k = 0; k < row; k++)
        tupc_ref(A, MYTHREAD * row + k, row, int) = 1000 * MYTHREAD + k;
    upc_barrier();
    upc_all_exchange(B, A, NELEMS * sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    /* B[i][j*NELEMS + e] = A[j][i*NELEMS + e] */
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
            for (int e = 0; e < NELEMS; e++) {
                int got = tupc_ref(B, i * row + j * NELEMS + e, row, int);
                int want = 1000 * j + i * NELEMS + e;
                TCHECK(got == want, "B[%d][%d] is %d, expected %d", i, j * NELEMS + e, got, want);
            }
    return 0;
}

/* Adata, Bdata = upc_all_alloc(THREADS*THREADS, NELEMS*sizeof(int));
 * myA[i] = MYTHREAD*10 + i; ALL|ALL */
static int exchange_ex2(void *arg)
{
    (void)arg;
    int T = THREADS;
    tupc_sptr_t Adata = upc_all_alloc((size_t)T * T, NELEMS * sizeof(int));
    tupc_sptr_t myA = tupc_ptr_cast(tupc_index(Adata, MYTHREAD, 1, int));
    tupc_sptr_t Bdata = upc_all_alloc((size_t)T * T, NELEMS * sizeof(int));
    tupc_sptr_t myB = tupc_ptr_cast(tupc_index(Bdata, MYTHREAD, 1, int));
    for (int i = 0; i < NELEMS * T; i++)
        tupc_ref(myA, i, 0, int) = MYTHREAD * 10 + i;
    upc_all_exchange(Bdata, Adata, NELEMS * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    /* Block j of my row of B is block MYTHREAD of thread j's row of A. */
    for (int j = 0; j < T; j++)
        for (int e = 0; e < NELEMS; e++) {
            int got = tupc_ref(myB, j * NELEMS + e, 0, int);
            int want = j * 10 + MYTHREAD * NELEMS + e;
            TCHECK(got == want, "myB[%d] is %d, expected %d", j * NELEMS + e, got, want);
        }
    return 0;
}

static void test_exchange_ex1(void **s)
{
    (void)s;
    run_from(1, exchange_ex1);
}
static void test_exchange_ex2(void **s)
{
    (void)s;
    run_from(1, exchange_ex2);
}

/* ---- upc_all_permute: 1.3 7.4.2.6 para 10, 1.0 4.2.6 ---- */

/* shared [NELEMS] int A[NELEMS*THREADS], B[NELEMS*THREADS]; shared int P[THREADS];
 * P is made a rotation by 3 and, in a second call, the reversal. */
static int permute_ex1(void *arg)
{
    (void)arg;
    int T = THREADS;
    tupc_sptr_t A = upc_all_alloc(T, NELEMS * sizeof(int));
    tupc_sptr_t B = upc_all_alloc(T, NELEMS * sizeof(int));
    tupc_sptr_t P = upc_all_alloc(T, sizeof(int));
    for (int round = 0; round < 2; round++) {
        upc_forall(int i = 0, i < NELEMS * T, i++, tupc_index(A, i, NELEMS, int))
            tupc_ref(A, i, NELEMS, int) = 100 * round + i;
        upc_forall(int i = 0, i < T, i++, i) tupc_ref(P, i, 1, int) =
            round == 0 ? (i + 3) % T : T - 1 - i;
        upc_barrier();
        upc_all_permute(B, A, P, sizeof(int) * NELEMS, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        upc_barrier();
        for (int i = 0; i < T; i++) {
            int to = tupc_ref(P, i, 1, int);
            for (int e = 0; e < NELEMS; e++) {
                int got = tupc_ref(B, to * NELEMS + e, NELEMS, int);
                int want = 100 * round + i * NELEMS + e;
                TCHECK(got == want, "round %d: B[%d] is %d, expected %d", round, to * NELEMS + e,
                       got, want);
            }
        }
        upc_barrier();
    }
    return 0;
}

static void test_permute_ex1(void **s)
{
    (void)s;
    run_from(1, permute_ex1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast_ex1),    cmocka_unit_test(test_broadcast_ex2),
        cmocka_unit_test(test_broadcast_ex3),    cmocka_unit_test(test_scatter_ex1),
        cmocka_unit_test(test_scatter_cray_ex1), cmocka_unit_test(test_scatter_ex2_and_cray_ex2),
        cmocka_unit_test(test_gather_ex1),       cmocka_unit_test(test_gather_ex2),
        cmocka_unit_test(test_gather_all_ex1),   cmocka_unit_test(test_gather_all_ex2),
        cmocka_unit_test(test_exchange_ex1),     cmocka_unit_test(test_exchange_ex2),
        cmocka_unit_test(test_permute_ex1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
