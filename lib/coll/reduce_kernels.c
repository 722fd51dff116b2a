/* The kernels of every reduction (reduce, combine, scan) for each type and
 * operator, generated from the tables in reduce_types.h: the type tables
 * tupc_red_T.
 *
 * Built with -fpeel-loops where the compiler has it (lib/meson.build): gcc
 * unrolls the lane loops below whole, and so keeps the lanes in registers,
 * at -O3 but not at -O2, the default build's; there an 8-lane sum of 4 MiB
 * of longs took 206 us against 56, and every type and operator but MIN on
 * doubles ran 2-4 times slower. */
#include "coll/reduce_types.h"

#include <stddef.h>

/* Lanes of independent accumulators: 64 bytes of them, so the compiler can
 * keep them in vector registers; the lanes are combined in lane order, so
 * the result is a fixed function of the input (floating results differ from
 * a left-to-right sum only by the grouping, which 7.4.3 para 3 allows). The
 * lanes start from elements 1..NL rather than from an identity: complex MULT
 * has none that keeps every sign of zero (the results are those an identity
 * gives for the real types). */
#define TUPC_LANES(TYPE) (sizeof(TYPE) >= 16 ? 4 : 64 / sizeof(TYPE))

#define TUPC_GEN_OP(OP, CLASS, EXPR, T, TYPE_, ARITH_, KIND)                                       \
    TUPC_IF(KIND, CLASS)                                                                           \
    (                                                                                              \
        static inline TYPE_ op_##T##_##OP(TYPE_ a, TYPE_ b) {                                      \
            typedef TYPE_ TYPE;                                                                    \
            typedef ARITH_ ARITH;                                                                  \
            (void)sizeof(TYPE);                                                                    \
            (void)sizeof(ARITH);                                                                   \
            return EXPR;                                                                           \
        } static TYPE_ red_##T##_##OP(const TYPE_ *restrict p, size_t m) {                         \
            enum { NL = TUPC_LANES(TYPE_) };                                                       \
            TYPE_ acc = p[0];                                                                      \
            size_t i = 1;                                                                          \
            if (m - 1 >= NL) {                                                                     \
                TYPE_ lane[NL];                                                                    \
                for (int j = 0; j < NL; j++)                                                       \
                    lane[j] = p[1 + j];                                                            \
                for (i = 1 + NL; i + NL <= m; i += NL)                                             \
                    for (int j = 0; j < NL; j++)                                                   \
                        lane[j] = op_##T##_##OP(lane[j], p[i + j]);                                \
                for (int j = 0; j < NL; j++)                                                       \
                    acc = op_##T##_##OP(acc, lane[j]);                                             \
            }                                                                                      \
            for (; i < m; i++)                                                                     \
                acc = op_##T##_##OP(acc, p[i]);                                                    \
            return acc;                                                                            \
        } static void scan_##T##_##OP(TYPE_ *d, const TYPE_ *s, size_t m, const TYPE_ *seed,       \
                                      int excl, TYPE_ *carry) {                                    \
            size_t i = 0;                                                                          \
            TYPE_ acc;                                                                             \
            if (seed) {                                                                            \
                acc = *seed;                                                                       \
            } else {                                                                               \
                acc = s[0];                                                                        \
                if (!excl)                                                                         \
                    d[0] = acc;                                                                    \
                i = 1;                                                                             \
            }                                                                                      \
            if (excl)                                                                              \
                for (; i < m; i++) {                                                               \
                    TYPE_ x = s[i]; /* before d[i]: d may be s */                                  \
                    d[i] = acc;                                                                    \
                    acc = op_##T##_##OP(acc, x);                                                   \
                }                                                                                  \
            else                                                                                   \
                for (; i < m; i++)                                                                 \
                    d[i] = acc = op_##T##_##OP(acc, s[i]);                                         \
            if (carry)                                                                             \
                *carry = acc;                                                                      \
        })

#define TUPC_CASE_RED(OP, CLASS, EXPR, T, KIND)                                                    \
    TUPC_IF(KIND, CLASS)(case UPC_##OP : r = red_##T##_##OP(p, m); break;)
#define TUPC_CASE_COMB(OP, CLASS, EXPR, T, KIND)                                                   \
    TUPC_IF(KIND, CLASS)(case UPC_##OP : *a = op_##T##_##OP(*a, *b); break;)
#define TUPC_CASE_SCAN(OP, CLASS, EXPR, T, KIND)                                                   \
    TUPC_IF(KIND, CLASS)(case UPC_##OP : scan_##T##_##OP(d, s, m, seed, excl, carry); break;)
#define TUPC_OP_BIT(OP, CLASS, EXPR, KIND) TUPC_IF(KIND, CLASS)(| (unsigned)UPC_##OP)

/* User functions are called strictly left to right, acc = func(acc, next),
 * for UPC_FUNC as well as UPC_NONCOMM_FUNC. */
#define TUPC_GEN_TYPE(T, TYPE, ARITH, KIND)                                                        \
    TUPC_REDUCE_OPS(TUPC_GEN_OP, T, TYPE, ARITH, KIND)                                             \
    typedef TYPE (*fn_##T)(TYPE, TYPE);                                                            \
    static void reduce_##T(upc_op_t op, tupc_red_fn f, const void *vp, size_t m, void *out)        \
    {                                                                                              \
        const TYPE *p = vp;                                                                        \
        TYPE r = p[0];                                                                             \
        switch (op) {                                                                              \
            TUPC_REDUCE_OPS(TUPC_CASE_RED, T, KIND)                                                \
        default:                                                                                   \
            for (size_t i = 1; i < m; i++)                                                         \
                r = ((fn_##T)f)(r, p[i]);                                                          \
        }                                                                                          \
        *(TYPE *)out = r;                                                                          \
    }                                                                                              \
    static void combine_##T(upc_op_t op, tupc_red_fn f, void *va, const void *vb)                  \
    {                                                                                              \
        TYPE *a = va;                                                                              \
        const TYPE *b = vb;                                                                        \
        switch (op) {                                                                              \
            TUPC_REDUCE_OPS(TUPC_CASE_COMB, T, KIND)                                               \
        default:                                                                                   \
            *a = ((fn_##T)f)(*a, *b);                                                              \
        }                                                                                          \
    }                                                                                              \
    static void scan_##T(upc_op_t op, tupc_red_fn f, void *vd, const void *vs, size_t m,           \
                         const void *vseed, int excl, void *vcarry)                                \
    {                                                                                              \
        TYPE *d = vd, *carry = vcarry;                                                             \
        const TYPE *s = vs, *seed = vseed;                                                         \
        switch (op) {                                                                              \
            TUPC_REDUCE_OPS(TUPC_CASE_SCAN, T, KIND)                                               \
        default: {                                                                                 \
            size_t i = 0;                                                                          \
            TYPE acc;                                                                              \
            if (seed) {                                                                            \
                acc = *seed;                                                                       \
            } else {                                                                               \
                acc = s[0];                                                                        \
                if (!excl)                                                                         \
                    d[0] = acc;                                                                    \
                i = 1;                                                                             \
            }                                                                                      \
            for (; i < m; i++) {                                                                   \
                TYPE x = s[i];                                                                     \
                TYPE next = ((fn_##T)f)(acc, x);                                                   \
                d[i] = excl ? acc : next;                                                          \
                acc = next;                                                                        \
            }                                                                                      \
            if (carry)                                                                             \
                *carry = acc;                                                                      \
        }                                                                                          \
        }                                                                                          \
    }                                                                                              \
    const struct tupc_red_type tupc_red_##T = {                                                    \
        #TYPE,      sizeof(TYPE), TUPC_RED_##KIND, 0u TUPC_REDUCE_OPS(TUPC_OP_BIT, KIND),          \
        reduce_##T, combine_##T,  scan_##T};

TUPC_REDUCE_TYPES(TUPC_GEN_TYPE)
