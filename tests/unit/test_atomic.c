/* <upc_atomic.h>: every thread hammers one object of each type with the
 * domain's operations, and the result is what no lost update could give;
 * each operation's fetched value and effect are checked on one thread;
 * the upc_op_t constants are distinct bits; misuse is refused in one line
 * that names the function and the argument. */
#include "tt.h"

#include <upc_atomic.h>

#include <stdint.h>
#include <string.h>

static const int counts[] = {1, 2, 3, 5, 8};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])
#define ROUNDS 2000

/* Every thread adds, increments, subtracts and ORs into shared counters,
 * half the calls strict and half relaxed; a lost update shows in the sums. */
static int contention(void *arg)
{
    (void)arg;
    int T = THREADS, me = MYTHREAD;
    tupc_sptr_t L = upc_all_alloc(1, sizeof(long)), D = upc_all_alloc(1, sizeof(double));
    tupc_sptr_t U = upc_all_alloc(1, sizeof(uint64_t)), M = upc_all_alloc(1, sizeof(int));
    upc_atomicdomain_t *dl =
        upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD | UPC_INC | UPC_SUB | UPC_GET, 0);
    upc_atomicdomain_t *dd = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_GET, 0);
    upc_atomicdomain_t *du = upc_all_atomicdomain_alloc(UPC_UINT64, UPC_OR | UPC_GET, 0);
    upc_atomicdomain_t *dm =
        upc_all_atomicdomain_alloc(UPC_INT, UPC_MAX | UPC_MIN | UPC_SET | UPC_GET, 0);
    if (me == 0) {
        *(long *)tupc_local(L) = 0;
        *(double *)tupc_local(D) = 0;
        *(uint64_t *)tupc_local(U) = 0;
        *(int *)tupc_local(M) = -1;
    }
    upc_barrier();
    long three = 3, one = 1;
    double half = 0.5;
    for (int r = 0; r < ROUNDS; r++) {
        void (*op)(upc_atomicdomain_t *, void *restrict, upc_op_t, tupc_sptr_t,
                   const void *restrict, const void *restrict) =
            r & 1 ? upc_atomic_strict : upc_atomic_relaxed;
        op(dl, NULL, UPC_ADD, L, &three, NULL);
        op(dl, NULL, UPC_INC, L, NULL, NULL);
        op(dl, NULL, UPC_SUB, L, &one, NULL);
        op(dd, NULL, UPC_ADD, D, &half, NULL);
        uint64_t bit = (uint64_t)1 << ((me * ROUNDS + r) % 64);
        op(du, NULL, UPC_OR, U, &bit, NULL);
        int v = me * ROUNDS + r;
        op(dm, NULL, UPC_MAX, M, &v, NULL);
    }
    upc_barrier();
    long l;
    double d;
    uint64_t u;
    int m;
    upc_atomic_strict(dl, &l, UPC_GET, L, NULL, NULL);
    upc_atomic_strict(dd, &d, UPC_GET, D, NULL, NULL);
    upc_atomic_strict(du, &u, UPC_GET, U, NULL, NULL);
    upc_atomic_strict(dm, &m, UPC_GET, M, NULL, NULL);
    TCHECK(l == 3L * ROUNDS * T, "long: %ld after %d threads added 3 %d times", l, T, ROUNDS);
    TCHECK(d == 0.5 * ROUNDS * T, "double: %g; expected %g", d, 0.5 * ROUNDS * T);
    TCHECK(u == UINT64_MAX, "uint64 OR: %#llx; expected every bit", (unsigned long long)u);
    TCHECK(m == T * ROUNDS - 1, "int MAX: %d; expected %d", m, T * ROUNDS - 1);
    upc_barrier();
    upc_all_atomicdomain_free(dl);
    upc_all_atomicdomain_free(dd);
    upc_all_atomicdomain_free(du);
    upc_all_atomicdomain_free(dm);
    upc_all_free(L);
    upc_all_free(D);
    upc_all_free(U);
    upc_all_free(M);
    return 0;
}

static void test_contention(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++)
        TT_RUN(counts[c], contention, NULL);
}

#define ALL_INT_OPS                                                                                \
    (UPC_GET | UPC_SET | UPC_CSWAP | UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | UPC_DEC | UPC_AND |  \
     UPC_OR | UPC_XOR | UPC_MIN | UPC_MAX)

/* One thread: each operation's fetched (old) value and new value. */
static int each_op(void *arg)
{
    (void)arg;
    tupc_sptr_t I = upc_alloc(sizeof(int)), F = upc_alloc(sizeof(float));
    tupc_sptr_t P = upc_alloc(sizeof(tupc_sptr_t));
    int *i = tupc_local(I);
    upc_atomicdomain_t *di =
        upc_all_atomicdomain_alloc(UPC_INT, ALL_INT_OPS, UPC_ATOMIC_HINT_LATENCY);
    struct {
        upc_op_t op;
        int a, b, before, fetched, after;
    } cases[] = {
        {UPC_GET, 0, 0, 7, 7, 7},     {UPC_SET, 9, 0, 7, 7, 9},  {UPC_CSWAP, 7, 4, 7, 7, 4},
        {UPC_CSWAP, 6, 4, 7, 7, 7},   {UPC_ADD, 5, 0, 7, 7, 12}, {UPC_SUB, 5, 0, 7, 7, 2},
        {UPC_MULT, -3, 0, 7, 7, -21}, {UPC_INC, 0, 0, 7, 7, 8},  {UPC_DEC, 0, 0, 7, 7, 6},
        {UPC_AND, 6, 0, 7, 7, 6},     {UPC_OR, 8, 0, 7, 7, 15},  {UPC_XOR, 5, 0, 7, 7, 2},
        {UPC_MIN, -1, 0, 7, 7, -1},   {UPC_MIN, 9, 0, 7, 7, 7},  {UPC_MAX, 9, 0, 7, 7, 9},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        *i = cases[k].before;
        int got = -99;
        (k & 1 ? upc_atomic_strict : upc_atomic_relaxed)(di, &got, cases[k].op, I, &cases[k].a,
                                                         &cases[k].b);
        TCHECK(got == cases[k].fetched && *i == cases[k].after,
               "case %zu (op %#x): fetched %d, then %d; expected %d, then %d", k,
               (unsigned)cases[k].op, got, *i, cases[k].fetched, cases[k].after);
    }
    upc_atomicdomain_t *df =
        upc_all_atomicdomain_alloc(UPC_FLOAT, UPC_CSWAP | UPC_MULT | UPC_DEC | UPC_MIN, 0);
    float *f = tupc_local(F), old, zero = 0.0f, two = 2.0f, neg = -5.0f;
    *f = -0.0f;
    upc_atomic_strict(df, &old, UPC_CSWAP, F, &zero, &two); /* -0.0 == 0.0: swapped */
    TCHECK(old == 0.0f && *f == 2.0f, "float CSWAP: fetched %g, then %g", old, *f);
    upc_atomic_relaxed(df, NULL, UPC_MULT, F, &two, NULL);
    upc_atomic_relaxed(df, NULL, UPC_DEC, F, NULL, NULL);
    upc_atomic_relaxed(df, &old, UPC_MIN, F, &neg, NULL);
    TCHECK(old == 3.0f && *f == -5.0f, "float MULT, DEC, MIN: fetched %g, then %g", old, *f);
    upc_atomicdomain_t *dp = upc_all_atomicdomain_alloc(UPC_PTS, UPC_GET | UPC_SET | UPC_CSWAP, 0);
    tupc_sptr_t *p = tupc_local(P), got, other = tupc_ptr_add(I, 0, 1, 1);
    *p = TUPC_NULL;
    upc_atomic_strict(dp, NULL, UPC_SET, P, &I, NULL);
    upc_atomic_strict(dp, &got, UPC_CSWAP, P, &I, &F);
    TCHECK(tupc_ptr_eq(got, I) && tupc_ptr_eq(*p, F), "PTS CSWAP: the pointer did not move to F");
    upc_atomic_relaxed(dp, &got, UPC_CSWAP, P, &other, &I);
    TCHECK(tupc_ptr_eq(got, F) && tupc_ptr_eq(*p, F), "PTS CSWAP with no match stored");
    TCHECK(upc_atomic_isfast(UPC_INT, UPC_ADD, I) && upc_atomic_isfast(UPC_DOUBLE, UPC_ADD, F),
           "int and double ADD are lock-free here");
    TCHECK(!upc_atomic_isfast(UPC_PTS, UPC_SET, P), "a pointer-to-shared takes a lock");
    upc_all_atomicdomain_free(di);
    upc_all_atomicdomain_free(df);
    upc_all_atomicdomain_free(dp);
    upc_free(I);
    upc_free(F);
    upc_free(P);
    return 0;
}

static void test_each_op(void **state)
{
    (void)state;
    TT_RUN(1, each_op, NULL);
    /* UPC 1.3 7.3.1: every OR of the operators is distinct (each a bit). */
    const upc_op_t ops[] = {UPC_ADD,   UPC_MULT,  UPC_AND, UPC_OR,   UPC_XOR,          UPC_LOGAND,
                            UPC_LOGOR, UPC_MIN,   UPC_MAX, UPC_FUNC, UPC_NONCOMM_FUNC, UPC_GET,
                            UPC_SET,   UPC_CSWAP, UPC_SUB, UPC_INC,  UPC_DEC};
    upc_op_t seen = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        assert_true(ops[k] > 0 && !(ops[k] & (ops[k] - 1)));
        assert_false(seen & ops[k]);
        seen |= ops[k];
    }
}

static int null_domain(void *arg)
{
    (void)arg;
    tupc_sptr_t I = upc_all_alloc(1, sizeof(int));
    int one = 1;
    upc_atomic_relaxed(NULL, NULL, UPC_ADD, I, &one, NULL);
    return 0;
}

static int freed_domain(void *arg)
{
    (void)arg;
    tupc_sptr_t I = upc_all_alloc(1, sizeof(int));
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT, UPC_INC, 0);
    upc_all_atomicdomain_free(d);
    upc_atomic_strict(d, NULL, UPC_INC, I, NULL, NULL);
    return 0;
}

static int op_not_in_domain(void *arg)
{
    (void)arg;
    tupc_sptr_t I = upc_all_alloc(1, sizeof(int));
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT, UPC_INC | UPC_GET, 0);
    int one = 1;
    upc_atomic_relaxed(d, NULL, UPC_ADD, I, &one, NULL);
    return 0;
}

static int bitwise_on_double(void *arg)
{
    (void)arg;
    (void)upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_XOR, 0);
    return 0;
}

static int arithmetic_on_pts(void *arg)
{
    (void)arg;
    (void)upc_all_atomicdomain_alloc(UPC_PTS, UPC_SET | UPC_ADD, 0);
    return 0;
}

static int bad_type(void *arg)
{
    (void)arg;
    (void)upc_all_atomicdomain_alloc(UPC_CHAR, UPC_SET, 0);
    return 0;
}

static int types_differ(void *arg)
{
    (void)arg;
    (void)upc_all_atomicdomain_alloc(MYTHREAD ? UPC_LONG : UPC_INT, UPC_SET, 0);
    return 0;
}

static int missing_operand(void *arg)
{
    (void)arg;
    tupc_sptr_t I = upc_all_alloc(1, sizeof(int));
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT, UPC_CSWAP, 0);
    int seven = 7;
    upc_atomic_strict(d, NULL, UPC_CSWAP, I, &seven, NULL);
    return 0;
}

static int null_target(void *arg)
{
    (void)arg;
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT, UPC_INC, 0);
    upc_atomic_strict(d, NULL, UPC_INC, TUPC_NULL, NULL, NULL);
    return 0;
}

static void test_refusals(void **state)
{
    (void)state;
    tt_expect_error(2, null_domain, NULL, "upc_atomic_relaxed", "domain is NULL", NULL);
    tt_expect_error(2, freed_domain, NULL, "upc_atomic_strict", "was freed", NULL);
    tt_expect_error(2, op_not_in_domain, NULL, "upc_atomic_relaxed", "op is UPC_ADD",
                    "not allocated with", NULL);
    tt_expect_error(2, bitwise_on_double, NULL, "upc_all_atomicdomain_alloc", "UPC_DOUBLE",
                    "no bitwise operation", NULL);
    tt_expect_error(2, arithmetic_on_pts, NULL, "upc_all_atomicdomain_alloc", "type UPC_PTS",
                    "UPC_GET, UPC_SET and UPC_CSWAP only", NULL);
    tt_expect_error(2, bad_type, NULL, "upc_all_atomicdomain_alloc", "type is 1", "UPC_INT", NULL);
    tt_expect_error(2, types_differ, NULL, "upc_all_atomicdomain_alloc", "differ from thread 0's",
                    NULL);
    tt_expect_error(2, missing_operand, NULL, "upc_atomic_strict", "operand2 is NULL", NULL);
    tt_expect_error(2, null_target, NULL, "upc_atomic_strict", "target is the null", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contention),
        cmocka_unit_test(test_each_op),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
