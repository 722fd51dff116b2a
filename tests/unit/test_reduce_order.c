/* Index order, determinism and bad input of the reductions.
 *
 * - UPC_NONCOMM_FUNC with affine-map composition (x -> a*x + b mod 2^64,
 *   packed in an unsigned long: a odd in the high half, b in the low half),
 *   associative and not commutative: exhaustive start offset (every thread
 *   and phase) x nelems 1..3*THREADS*B+2 x blk_size {0,1,2,3,5}, reduce and
 *   prefix, against the left-to-right composition.
 * - Floating ADD on data whose sum depends on the grouping: the result is
 *   bit-identical over 50 repetitions with NOSYNC|NOSYNC.
 * - Bad arguments are refused with a message naming them.
 * Under TUPC_TEST_QUICK the sweep stops at THREADS 3. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

/* f(x) = a x + b with a = hi 32 bits (odd), b = lo 32 bits, mod 2^32:
 * compose(f, g) = g after f = (ga*fa) x + (ga*fb + gb). */
static unsigned long compose(unsigned long f, unsigned long g)
{
    uint32_t fa = (uint32_t)(f >> 32), fb = (uint32_t)f, ga = (uint32_t)(g >> 32), gb = (uint32_t)g;
    uint32_t a = ga * fa, b = ga * fb + gb;
    return (unsigned long)a << 32 | b;
}

static unsigned long elem(size_t i)
{
    uint64_t s = i * 7919 + 1;
    uint64_t h = tt_rand(&s);
    return (h | (1ull << 32)) & ~0ull; /* a odd */
}

static int sweep(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD;
    const size_t Bs[] = {0, 1, 2, 3, 5};
    const size_t es = sizeof(unsigned long);
    for (int ib = 0; ib < 5; ib++) {
        size_t B = Bs[ib];
        size_t maxn = 3 * (size_t)T * (B ? B : 2) + 2;
        size_t noffs = B ? (size_t)T * B : (size_t)T;
        size_t nb = (noffs + maxn) / (B ? B : 1) + 2;
        tupc_sptr_t sb = B ? upc_all_alloc(nb, B * es) : upc_all_alloc((size_t)T, (maxn + 1) * es);
        tupc_sptr_t db = B ? upc_all_alloc(nb, B * es) : upc_all_alloc((size_t)T, (maxn + 1) * es);
        tupc_sptr_t r = upc_all_alloc((size_t)T, es);
        for (size_t off = 0; off < noffs; off++) {
            tupc_sptr_t src, dst;
            if (B) {
                src = tupc_ptr_add(sb, (ptrdiff_t)off, B, es);
                dst = tupc_ptr_add(db, (ptrdiff_t)off, B, es);
            } else {
                size_t bytes = (maxn + 1) * es;
                src = tupc_ptr_cast(tupc_index(sb, off * bytes + es, bytes, char));
                dst = tupc_ptr_cast(tupc_index(db, off * bytes + es, bytes, char));
            }
            for (size_t n = 1; n <= maxn; n++) {
                for (size_t i = (size_t)me; i < n; i += (size_t)T)
                    tupc_ref(src, i, B, unsigned long) = elem(i + n);
                tupc_sptr_t rd = tupc_index(r, (n % (size_t)T), 1, unsigned long);
                upc_barrier();
                upc_all_reduceUL(rd, src, UPC_NONCOMM_FUNC, n, B, compose,
                                 UPC_IN_NOSYNC | UPC_OUT_MYSYNC);
                upc_all_prefix_reduceUL(dst, src, UPC_NONCOMM_FUNC, n, B, compose,
                                        UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
                upc_barrier();
                if (me == (int)(n % (size_t)T)) {
                    unsigned long acc = elem(n);
                    for (size_t i = 0; i < n; i++) {
                        if (i)
                            acc = compose(acc, elem(i + n));
                        TCHECK(tupc_ref(dst, i, B, unsigned long) == acc,
                               "prefix B %zu off %zu n %zu: dst[%zu] wrong", B, off, n, i);
                    }
                    TCHECK(*(unsigned long *)rd.addr == acc, "reduce B %zu off %zu n %zu wrong", B,
                           off, n);
                }
                upc_barrier();
            }
        }
        upc_all_free(r);
        upc_all_free(db);
        upc_all_free(sb);
    }
    return 0;
}

static void test_noncomm_sweep(void **state)
{
    (void)state;
    for (int t = 1; t <= (quick() ? 3 : 5); t++)
        TT_RUN(t, sweep, NULL);
    if (!quick())
        TT_RUN(8, sweep, NULL);
}

/* Sums whose value depends on the grouping: bit-identical every time. */
static int determinism(void *arg)
{
    (void)arg;
    const size_t n = 10007, B = 37;
    tupc_sptr_t a = upc_all_alloc(n / B + 2, B * sizeof(double));
    tupc_sptr_t p = upc_all_alloc(n / B + 2, B * sizeof(double));
    tupc_sptr_t r = upc_all_alloc((size_t)THREADS, sizeof(double));
    for (size_t i = (size_t)MYTHREAD; i < n; i += (size_t)THREADS) {
        uint64_t s = i;
        tupc_ref(a, i, B, double) = (double)tt_rand(&s) / 3e15 * (i % 3 ? 1e-9 : 1e9);
    }
    upc_barrier();
    double first = 0, firstp = 0;
    for (int rep = 0; rep < 50; rep++) {
        upc_all_reduceD(r, a, UPC_ADD, n, B, NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        upc_all_prefix_reduceD(p, a, UPC_ADD, n, B, NULL, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
        double got = *(double *)r.addr, gotp = tupc_ref(p, n - 1, B, double);
        if (rep == 0) {
            first = got;
            firstp = gotp;
        }
        TCHECK(!memcmp(&got, &first, sizeof got), "rep %d: reduce %.17g, first %.17g", rep, got,
               first);
        TCHECK(!memcmp(&gotp, &firstp, sizeof got), "rep %d: prefix %.17g", rep, gotp);
        upc_barrier();
    }
    return 0;
}

static void test_determinism(void **state)
{
    (void)state;
    TT_RUN(3, determinism, NULL);
    TT_RUN(4, determinism, NULL);
}

/* ---- Bad input ---------------------------------------------------------- */

static int bad(void *arg)
{
    int which = *(int *)arg;
    tupc_sptr_t arr = upc_all_alloc((size_t)THREADS, 64);
    tupc_sptr_t d = arr, s = tupc_index(arr, 8, 4, double);
    switch (which) {
    case 0:
        upc_all_reduceD(d, s, UPC_XOR, 4, 4, NULL, 0);
        break;
    case 1:
        upc_all_reduceI(d, s, UPC_FUNC, 4, 4, NULL, 0);
        break;
    case 2:
        upc_all_reduceI(d, s, 42, 4, 4, NULL, 0);
        break;
    case 3: /* (dst of another thread or phase than src is Collectives 1.0's
             * extension: test_prefix_apart) */
        upc_all_prefix_reduceL(TUPC_NULL, arr, UPC_ADD, 4, 1, NULL, 0);
        break;
    case 4:
        upc_all_reduceL(d, TUPC_NULL, UPC_ADD, 4, 1, NULL, 0);
        break;
    case 5:
        upc_all_reduceL(d, arr, UPC_ADD, 4, 1, NULL, UPC_IN_NOSYNC | UPC_IN_MYSYNC);
        break;
    case 6: {
        tupc_sptr_t p = arr;
        p.phase = 5;
        upc_all_reduceL(d, p, UPC_ADD, 4, 4, NULL, 0);
        break;
    }
    case 7:
        upc_all_sort(arr, 4, 4, 1, NULL, 0);
        break;
    case 8:
        upc_all_prefix_reduceF(d, s, UPC_AND, 4, 4, NULL, 0);
        break;
    case 9:
        upc_all_reduceL(d, arr, UPC_ADD, (size_t)1 << 30, 0, NULL, 0);
        break;
    /* Small calls over one block check their arguments after their entry
     * (reduce.c): the same refusals. */
    case 10:
        upc_all_reduceL(d, TUPC_NULL, UPC_ADD, 1, 0, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        break;
    case 11:
        upc_all_reduceL(TUPC_NULL, arr, UPC_ADD, 1, 1, NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        break;
    case 12:
        upc_all_reduceL(d, arr, UPC_ADD, 2, (size_t)UPC_MAX_BLOCK_SIZE + 1, NULL, 0);
        break;
    case 13:
        upc_all_reduceF(d, arr, UPC_OR, 1, 0, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        break;
    }
    return 0;
}

static void test_bad_input(void **state)
{
    (void)state;
    int w[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    tt_expect_error(2, bad, &w[0], "upc_all_reduceD", "UPC_XOR", "bitwise", "double", NULL);
    tt_expect_error(2, bad, &w[1], "upc_all_reduceI", "func is NULL", NULL);
    tt_expect_error(2, bad, &w[2], "op is 42", NULL);
    tt_expect_error(2, bad, &w[3], "upc_all_prefix_reduceL", "dst is a null", NULL);
    tt_expect_error(2, bad, &w[4], "src is a null", NULL);
    tt_expect_error(2, bad, &w[5], "more than one UPC_IN", NULL);
    tt_expect_error(2, bad, &w[6], "src has phase 5", "blk_size 4", NULL);
    tt_expect_error(2, bad, &w[7], "upc_all_sort", "func is NULL", NULL);
    tt_expect_error(2, bad, &w[8], "upc_all_prefix_reduceF", "bitwise", "float", NULL);
    tt_expect_error(2, bad, &w[9], "src", "runs past the end", NULL);
    tt_expect_error(2, bad, &w[10], "upc_all_reduceL", "src is a null", NULL);
    tt_expect_error(3, bad, &w[11], "upc_all_reduceL", "dst is a null", NULL);
    tt_expect_error(2, bad, &w[12], "blk_size", "UPC_MAX_BLOCK_SIZE", NULL);
    tt_expect_error(3, bad, &w[13], "upc_all_reduceF", "UPC_OR", "bitwise", "float", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noncomm_sweep),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
