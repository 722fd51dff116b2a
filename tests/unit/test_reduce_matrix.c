/* upc_all_reduceT and upc_all_prefix_reduceT against a serial oracle: every
 * type x every valid operator (UPC_FUNC as a user addition, UPC_NONCOMM_FUNC
 * as "keep the right operand", associative and not commutative) x blk_size
 * {0, 1, 3, nelems} x nelems {1, 2, THREADS-1, 1000, 100003} x start
 * offsets (thread and phase of src) x THREADS {1, 2, 3, 5, 8}. dst of reduce
 * cycles over the threads; the sync flags cycle over the 9 IN x OUT pairs.
 * Integer data is random (unsigned wrap-around, and signed, which the
 * library wraps too); floating data is small integers (ADD exact in any
 * order), +-1 with rare 2 and 0.5 (MULT exact), so results compare bit for
 * bit. Under TUPC_TEST_QUICK (ThreadSanitizer) nelems 100003 is left out
 * and THREADS is {1, 2, 3, 5}. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

/* The test's own table: X(T, TYPE, IS_FLOAT). */
#define TYPES(X)                                                                                   \
    X(C, signed char, 0)                                                                           \
    X(UC, unsigned char, 0)                                                                        \
    X(S, signed short, 0)                                                                          \
    X(US, unsigned short, 0)                                                                       \
    X(I, signed int, 0)                                                                            \
    X(UI, unsigned int, 0)                                                                         \
    X(L, signed long, 0)                                                                           \
    X(UL, unsigned long, 0)                                                                        \
    X(F, float, 1)                                                                                 \
    X(D, double, 1)                                                                                \
    X(LD, long double, 1)

static uint64_t hash(uint64_t seed, size_t i)
{
    uint64_t s = seed + i * 0x9e3779b97f4a7c15ull;
    return tt_rand(&s);
}

/* Input element i for op (as a double for floats, as bits for integers). */
static double fvalue(int op, uint64_t seed, size_t i)
{
    uint64_t h = hash(seed, i);
    switch (op) {
    case UPC_MULT: {
        int r = (int)(h % 512);
        return r == 0 ? 2.0 : r == 1 ? 0.5 : (h >> 20) & 1 ? 1.0 : -1.0;
    }
    case UPC_LOGAND:
        return h % 997 == 0 ? 0.0 : (double)(int)(h % 7) + 1;
    case UPC_LOGOR:
        return h % 997 == 0 ? 3.0 : 0.0;
    default:
        return (double)((int)(h % 17) - 8);
    }
}

static uint64_t ivalue(int op, uint64_t seed, size_t i)
{
    uint64_t h = hash(seed, i);
    switch (op) {
    case UPC_LOGAND:
        return h % 997 == 0 ? 0 : (h | 1);
    case UPC_LOGOR:
        return h % 997 == 0 ? (h | 1) : 0;
    case UPC_AND:
        return h | hash(seed + 1, i) | hash(seed + 2, i);
    default:
        return h;
    }
}

#define DEFINE_FUNCS(T, TYPE, F)                                                                   \
    static TYPE add_##T(TYPE a, TYPE b)                                                            \
    {                                                                                              \
        return F ? (TYPE)(a + b) : (TYPE)((unsigned long)a + (unsigned long)b);                    \
    }                                                                                              \
    static TYPE right_##T(TYPE a, TYPE b)                                                          \
    {                                                                                              \
        (void)a;                                                                                   \
        return b;                                                                                  \
    }                                                                                              \
    static TYPE oracle_##T(int op, TYPE a, TYPE b)                                                 \
    {                                                                                              \
        switch (op) {                                                                              \
        case UPC_ADD:                                                                              \
        case UPC_FUNC:                                                                             \
            return add_##T(a, b);                                                                  \
        case UPC_MULT:                                                                             \
            return F ? (TYPE)(a * b) : (TYPE)((unsigned long)a * (unsigned long)b);                \
        case UPC_LOGAND:                                                                           \
            return (TYPE)(a && b);                                                                 \
        case UPC_LOGOR:                                                                            \
            return (TYPE)(a || b);                                                                 \
        case UPC_MIN:                                                                              \
            return b < a ? b : a;                                                                  \
        case UPC_MAX:                                                                              \
            return b > a ? b : a;                                                                  \
        case UPC_NONCOMM_FUNC:                                                                     \
            return b;                                                                              \
        default:                                                                                   \
            return oracle_bits_##T(op, a, b);                                                      \
        }                                                                                          \
    }
/* Bitwise operators exist only for the integer types. */
#define DEFINE_BITS_INT(T, TYPE)                                                                   \
    static TYPE oracle_bits_##T(int op, TYPE a, TYPE b)                                            \
    {                                                                                              \
        return op == UPC_AND ? (TYPE)(a & b) : op == UPC_OR ? (TYPE)(a | b) : (TYPE)(a ^ b);       \
    }
#define DEFINE_BITS_FLT(T, TYPE)                                                                   \
    static TYPE oracle_bits_##T(int op, TYPE a, TYPE b)                                            \
    {                                                                                              \
        (void)op;                                                                                  \
        (void)b;                                                                                   \
        return a;                                                                                  \
    }
DEFINE_BITS_INT(C, signed char)
DEFINE_BITS_INT(UC, unsigned char)
DEFINE_BITS_INT(S, signed short)
DEFINE_BITS_INT(US, unsigned short)
DEFINE_BITS_INT(I, signed int)
DEFINE_BITS_INT(UI, unsigned int)
DEFINE_BITS_INT(L, signed long)
DEFINE_BITS_INT(UL, unsigned long)
DEFINE_BITS_FLT(F, float)
DEFINE_BITS_FLT(D, double)
DEFINE_BITS_FLT(LD, long double)
TYPES(DEFINE_FUNCS)

struct cse {
    int op;
    size_t n, B, off;
    int td, flags;
    uint64_t seed;
};

/* One case for one type: fill src, reduce, prefix-reduce, check. */
#define DEFINE_CASE(T, TYPE, F)                                                                    \
    static void case_##T(const struct cse *k)                                                      \
    {                                                                                              \
        const size_t es = sizeof(TYPE), n = k->n, B = k->B;                                        \
        const int me = MYTHREAD, nt = THREADS;                                                     \
        tupc_sptr_t sbase, dbase, src, dst;                                                        \
        if (B) {                                                                                   \
            size_t nb = (k->off + n + B - 1) / B + 1;                                              \
            sbase = upc_all_alloc(nb, B * es);                                                     \
            dbase = upc_all_alloc(nb, B * es);                                                     \
            src = tupc_ptr_add(sbase, (ptrdiff_t)k->off, B, es);                                   \
            dst = tupc_ptr_add(dbase, (ptrdiff_t)k->off, B, es);                                   \
        } else {                                                                                   \
            size_t bytes = (k->off + n) * es;                                                      \
            sbase = upc_all_alloc((size_t)nt, bytes);                                              \
            dbase = upc_all_alloc((size_t)nt, bytes);                                              \
            int ts = (int)(k->off % (size_t)nt);                                                   \
            src = tupc_ptr_cast(tupc_index(sbase, ts * bytes + k->off * es, bytes, char));         \
            dst = tupc_ptr_cast(tupc_index(dbase, ts * bytes + k->off * es, bytes, char));         \
        }                                                                                          \
        tupc_sptr_t rall = upc_all_alloc((size_t)nt, 16);                                          \
        tupc_sptr_t rdst = tupc_index(rall, (size_t)k->td * 16, 16, char);                         \
        for (size_t i = (size_t)me; i < n; i += (size_t)nt) {                                      \
            TYPE v = F ? (TYPE)fvalue(k->op, k->seed, i) : (TYPE)ivalue(k->op, k->seed, i);        \
            tupc_ref(src, i, B, TYPE) = v;                                                         \
        }                                                                                          \
        upc_barrier();                                                                             \
        TYPE(*fn)                                                                                  \
        (TYPE, TYPE) = k->op == UPC_FUNC ? add_##T : k->op == UPC_NONCOMM_FUNC ? right_##T : NULL; \
        upc_all_reduce##T(rdst, src, k->op, n, B, fn, tt_sync_flags[k->flags]);                    \
        upc_all_prefix_reduce##T(dst, src, k->op, n, B, fn,                                        \
                                 tt_sync_flags[(k->flags + 4) % TT_NPAIRS]);                       \
        upc_barrier();                                                                             \
        if (me == (int)(k->seed % (size_t)nt)) {                                                   \
            TYPE acc = tupc_ref(src, 0, B, TYPE);                                                  \
            int bad = 0;                                                                           \
            for (size_t i = 0; i < n; i++) {                                                       \
                if (i)                                                                             \
                    acc = oracle_##T(k->op, acc, tupc_ref(src, i, B, TYPE));                       \
                TYPE got = tupc_ref(dst, i, B, TYPE);                                              \
                if (memcmp(&got, &acc, F ? (es == 16 ? 10 : es) : es) && bad++ < 3)                \
                    TCHECK(0, #T " prefix op %d n %zu B %zu off %zu: dst[%zu] %Lg, expected %Lg",  \
                           k->op, n, B, k->off, i, (long double)got, (long double)acc);            \
            }                                                                                      \
            TYPE got = *(TYPE *)rdst.addr;                                                         \
            TCHECK(!memcmp(&got, &acc, F ? (es == 16 ? 10 : es) : es),                             \
                   #T " reduce op %d n %zu B %zu off %zu td %d: %Lg, expected %Lg", k->op, n, B,   \
                   k->off, k->td, (long double)got, (long double)acc);                             \
        }                                                                                          \
        upc_barrier();                                                                             \
        upc_all_free(rall);                                                                        \
        upc_all_free(dbase);                                                                       \
        upc_all_free(sbase);                                                                       \
    }
TYPES(DEFINE_CASE)

typedef void (*case_fn)(const struct cse *);
static const case_fn cases[] = {
#define CASE_PTR(T, TYPE, F) case_##T,
    TYPES(CASE_PTR)};
static const int is_float[] = {
#define IS_F(T, TYPE, F) F,
    TYPES(IS_F)};
#define NTYPES ((int)(sizeof cases / sizeof cases[0]))

static int matrix(void *arg)
{
    (void)arg;
    const int T = THREADS;
    size_t ns[] = {1, 2, (size_t)(T > 1 ? T - 1 : 1), 1000, 100003};
    int nn = quick() ? 4 : 5;
    uint64_t seed = 12345;
    int count = 0;
    for (int ty = 0; ty < NTYPES; ty++) {
        for (int op = UPC_ADD; op <= UPC_NONCOMM_FUNC; op <<= 1) {
            if (is_float[ty] && (op == UPC_AND || op == UPC_OR || op == UPC_XOR))
                continue;
            for (int in = 0; in < nn; in++) {
                size_t n = ns[in];
                size_t Bs[] = {0, 1, 3, n};
                for (int ib = 0; ib < 4; ib++) {
                    size_t B = Bs[ib];
                    /* Start offsets: aligned, odd phase, another thread. */
                    size_t offs[] = {0, B > 1 ? B - 1 : 1, B * (size_t)(T / 2) + (B > 2)};
                    int noff = n > 1000 ? 1 + (count % 2) : 3;
                    for (int io = 0; io < noff; io++) {
                        struct cse k = {op,
                                        n,
                                        B,
                                        offs[n > 1000 ? noff - 1 : io],
                                        count % T,
                                        count % TT_NPAIRS,
                                        seed + (uint64_t)count};
                        cases[ty](&k);
                        count++;
                    }
                }
            }
        }
    }
    return 0;
}

static void test_matrix(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < (quick() ? 4 : 5); i++)
        TT_RUN(threads[i], matrix, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
