/* Data, operators and oracles of the reduction tests, per type: the 17
 * types of Extended Collectives 0.3 5.5.1 (TYPES), of which the first 11 are
 * those of UPC 1.3 (TYPES_13). For each type T: gen_T(op, seed, i) (element
 * i of the data for op), add_T (the UPC_FUNC), nc_T (the UPC_NONCOMM_FUNC),
 * oracle_T(op, a, b) (one step of the serial left fold) and eq_T (the value
 * compare). Every result of these data is exact in any grouping. */
#ifndef TESTS_UNIT_REDUCE_DATA_H
#define TESTS_UNIT_REDUCE_DATA_H

#include "tt.h"

#include <upc_collective.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline uint64_t hash(uint64_t seed, size_t i)
{
    uint64_t s = seed + i * 0x9e3779b97f4a7c15ull;
    return tt_rand(&s);
}

/* 2x2 matrices of w-bit entries packed low to high (a00 a01 a10 a11), the
 * product mod 2^w: associative, not commutative. */
static inline uint64_t matmul(uint64_t a, uint64_t b, int w)
{
    const uint64_t m = ((uint64_t)1 << w) - 1;
#define E(x, k) (((x) >> ((k)*w)) & m)
    uint64_t c00 = (E(a, 0) * E(b, 0) + E(a, 1) * E(b, 2)) & m;
    uint64_t c01 = (E(a, 0) * E(b, 1) + E(a, 1) * E(b, 3)) & m;
    uint64_t c10 = (E(a, 2) * E(b, 0) + E(a, 3) * E(b, 2)) & m;
    uint64_t c11 = (E(a, 2) * E(b, 1) + E(a, 3) * E(b, 3)) & m;
#undef E
    return c00 | c01 << w | c10 << 2 * w | c11 << 3 * w;
}

/* Integer data by operator: random, except where AND, LOGAND and LOGOR need
 * a result that is not almost always 0 or 1. */
static inline uint64_t ivalue(int op, uint64_t seed, size_t i)
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

/* Real data: small integers (ADD exact in any order), +-1 with rare 2 and
 * 0.5 (MULT exact). */
static inline double fvalue(int op, uint64_t seed, size_t i)
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

/* Per kind: gen_T (element i), add_T (UPC_FUNC), nc_T (UPC_NONCOMM_FUNC),
 * oracle_T (one step of the serial fold) and eq_T (the value compare). */
#define FUNCS_INT(T, TYPE, W, REAL)                                                                \
    static inline TYPE gen_##T(int op, uint64_t seed, size_t i)                                    \
    {                                                                                              \
        return (TYPE)ivalue(op, seed, i);                                                          \
    }                                                                                              \
    static inline TYPE add_##T(TYPE a, TYPE b)                                                     \
    {                                                                                              \
        return (TYPE)((uint64_t)a + (uint64_t)b);                                                  \
    }                                                                                              \
    static inline TYPE nc_##T(TYPE a, TYPE b)                                                      \
    {                                                                                              \
        return (TYPE)matmul((uint64_t)a, (uint64_t)b, W);                                          \
    }                                                                                              \
    static inline TYPE oracle_##T(int op, TYPE a, TYPE b)                                          \
    {                                                                                              \
        switch (op) {                                                                              \
        case UPC_MULT:                                                                             \
            return (TYPE)((uint64_t)a * (uint64_t)b);                                              \
        case UPC_AND:                                                                              \
            return (TYPE)(a & b);                                                                  \
        case UPC_OR:                                                                               \
            return (TYPE)(a | b);                                                                  \
        case UPC_XOR:                                                                              \
            return (TYPE)(a ^ b);                                                                  \
        case UPC_LOGAND:                                                                           \
            return (TYPE)(a && b);                                                                 \
        case UPC_LOGOR:                                                                            \
            return (TYPE)(a || b);                                                                 \
        case UPC_MIN:                                                                              \
            return b < a ? b : a;                                                                  \
        case UPC_MAX:                                                                              \
            return b > a ? b : a;                                                                  \
        case UPC_NONCOMM_FUNC:                                                                     \
            return nc_##T(a, b);                                                                   \
        default:                                                                                   \
            return add_##T(a, b);                                                                  \
        }                                                                                          \
    }                                                                                              \
    static inline int eq_##T(TYPE a, TYPE b)                                                       \
    {                                                                                              \
        return a == b;                                                                             \
    }

/* The matrix entries of a real are w bits each, 4w bits in all, an exact
 * integer of the type. */
#define FUNCS_FLT(T, TYPE, W, REAL)                                                                \
    static inline TYPE gen_##T(int op, uint64_t seed, size_t i)                                    \
    {                                                                                              \
        if (op == UPC_NONCOMM_FUNC)                                                                \
            return (TYPE)(hash(seed, i) & (((uint64_t)1 << (4 * W)) - 1));                         \
        return (TYPE)fvalue(op, seed, i);                                                          \
    }                                                                                              \
    static inline TYPE add_##T(TYPE a, TYPE b)                                                     \
    {                                                                                              \
        return a + b;                                                                              \
    }                                                                                              \
    static inline TYPE nc_##T(TYPE a, TYPE b)                                                      \
    {                                                                                              \
        return (TYPE)matmul((uint64_t)a, (uint64_t)b, W);                                          \
    }                                                                                              \
    static inline TYPE oracle_##T(int op, TYPE a, TYPE b)                                          \
    {                                                                                              \
        switch (op) {                                                                              \
        case UPC_MULT:                                                                             \
            return a * b;                                                                          \
        case UPC_LOGAND:                                                                           \
            return (TYPE)(a && b);                                                                 \
        case UPC_LOGOR:                                                                            \
            return (TYPE)(a || b);                                                                 \
        case UPC_MIN:                                                                              \
            return b < a ? b : a;                                                                  \
        case UPC_MAX:                                                                              \
            return b > a ? b : a;                                                                  \
        case UPC_NONCOMM_FUNC:                                                                     \
            return nc_##T(a, b);                                                                   \
        default:                                                                                   \
            return a + b;                                                                          \
        }                                                                                          \
    }                                                                                              \
    static inline int eq_##T(TYPE a, TYPE b)                                                       \
    {                                                                                              \
        return a == b;                                                                             \
    }

/* Complex: made and taken apart as two REALs (C11 6.2.5 para 13). The
 * affine map x -> re * x + im (re +-1, im a small integer) composes without
 * rounding; MULT data are the units 1, -1, i, -i with rare factors 2 and
 * 0.5. The compare is by value: a zero part's sign may follow the grouping. */
#define FUNCS_CPX(T, TYPE, W, REAL)                                                                \
    static inline TYPE mk_##T(REAL re, REAL im)                                                    \
    {                                                                                              \
        TYPE z;                                                                                    \
        REAL *p = (REAL *)&z;                                                                      \
        p[0] = re;                                                                                 \
        p[1] = im;                                                                                 \
        return z;                                                                                  \
    }                                                                                              \
    static inline REAL part_##T(TYPE z, int k)                                                     \
    {                                                                                              \
        return ((REAL *)&z)[k];                                                                    \
    }                                                                                              \
    static inline TYPE gen_##T(int op, uint64_t seed, size_t i)                                    \
    {                                                                                              \
        uint64_t h = hash(seed, i);                                                                \
        REAL small = (REAL)((int)((h >> 8) % 17) - 8), k = (REAL)(h % 7 + 1);                      \
        switch (op) {                                                                              \
        case UPC_MULT: {                                                                           \
            int r = (int)((h >> 16) % 512);                                                        \
            REAL s = r == 0 ? (REAL)2 : r == 1 ? (REAL)0.5 : (REAL)1;                              \
            switch (h % 4) {                                                                       \
            case 0:                                                                                \
                return mk_##T(s, 0);                                                               \
            case 1:                                                                                \
                return mk_##T(-s, 0);                                                              \
            case 2:                                                                                \
                return mk_##T(0, s);                                                               \
            default:                                                                               \
                return mk_##T(0, -s);                                                              \
            }                                                                                      \
        }                                                                                          \
        case UPC_LOGAND:                                                                           \
            return h % 997 == 0 ? mk_##T(0, 0) : (h >> 30) & 1 ? mk_##T(k, 0) : mk_##T(0, k);      \
        case UPC_LOGOR: /* true only through the imaginary part */                                 \
            return h % 997 == 0 ? mk_##T(0, 3) : mk_##T(0, 0);                                     \
        case UPC_NONCOMM_FUNC:                                                                     \
            return mk_##T((h >> 30) & 1 ? 1 : -1, small);                                          \
        default:                                                                                   \
            return mk_##T((REAL)((int)(h % 17) - 8), small);                                       \
        }                                                                                          \
    }                                                                                              \
    static inline TYPE add_##T(TYPE a, TYPE b)                                                     \
    {                                                                                              \
        return a + b;                                                                              \
    }                                                                                              \
    /* x -> b(a(x)) */                                                                             \
    static inline TYPE nc_##T(TYPE a, TYPE b)                                                      \
    {                                                                                              \
        return mk_##T(part_##T(b, 0) * part_##T(a, 0),                                             \
                      part_##T(b, 0) * part_##T(a, 1) + part_##T(b, 1));                           \
    }                                                                                              \
    static inline TYPE oracle_##T(int op, TYPE a, TYPE b)                                          \
    {                                                                                              \
        switch (op) {                                                                              \
        case UPC_MULT:                                                                             \
            return a * b;                                                                          \
        case UPC_LOGAND:                                                                           \
            return (TYPE)(a && b);                                                                 \
        case UPC_LOGOR:                                                                            \
            return (TYPE)(a || b);                                                                 \
        case UPC_NONCOMM_FUNC:                                                                     \
            return nc_##T(a, b);                                                                   \
        default:                                                                                   \
            return a + b;                                                                          \
        }                                                                                          \
    }                                                                                              \
    static inline int eq_##T(TYPE a, TYPE b)                                                       \
    {                                                                                              \
        return part_##T(a, 0) == part_##T(b, 0) && part_##T(a, 1) == part_##T(b, 1);               \
    }

/* _Bool: UPC_FUNC is XOR, UPC_NONCOMM_FUNC keeps the right operand. */
#define FUNCS_BOOL(T, TYPE, W, REAL)                                                               \
    static inline TYPE gen_##T(int op, uint64_t seed, size_t i)                                    \
    {                                                                                              \
        uint64_t h = hash(seed, i);                                                                \
        return op == UPC_LOGAND ? h % 997 != 0 : op == UPC_LOGOR ? h % 997 == 0 : (h >> 7) & 1;    \
    }                                                                                              \
    static inline TYPE add_##T(TYPE a, TYPE b)                                                     \
    {                                                                                              \
        return a != b;                                                                             \
    }                                                                                              \
    static inline TYPE nc_##T(TYPE a, TYPE b)                                                      \
    {                                                                                              \
        (void)a;                                                                                   \
        return b;                                                                                  \
    }                                                                                              \
    static inline TYPE oracle_##T(int op, TYPE a, TYPE b)                                          \
    {                                                                                              \
        return op == UPC_LOGAND  ? a && b                                                          \
               : op == UPC_LOGOR ? a || b                                                          \
               : op == UPC_FUNC  ? add_##T(a, b)                                                   \
                                 : nc_##T(a, b);                                                    \
    }                                                                                              \
    static inline int eq_##T(TYPE a, TYPE b)                                                       \
    {                                                                                              \
        return a == b;                                                                             \
    }

/* X(T, TYPE, KIND, W, REAL): W is the width of a matrix entry, REAL the
 * part type of a complex. */
#define TYPES_13(X)                                                                                \
    X(C, signed char, INT, 2, void)                                                                \
    X(UC, unsigned char, INT, 2, void)                                                             \
    X(S, signed short, INT, 4, void)                                                               \
    X(US, unsigned short, INT, 4, void)                                                            \
    X(I, signed int, INT, 8, void)                                                                 \
    X(UI, unsigned int, INT, 8, void)                                                              \
    X(L, signed long, INT, 16, void)                                                               \
    X(UL, unsigned long, INT, 16, void)                                                            \
    X(F, float, FLT, 4, void)                                                                      \
    X(D, double, FLT, 8, void)                                                                     \
    X(LD, long double, FLT, 8, void)
#define TYPES(X)                                                                                   \
    TYPES_13(X)                                                                                    \
    X(LL, long long, INT, 16, void)                                                                \
    X(ULL, unsigned long long, INT, 16, void)                                                      \
    X(CX, _Complex float, CPX, 0, float)                                                           \
    X(DX, _Complex double, CPX, 0, double)                                                         \
    X(LDX, _Complex long double, CPX, 0, long double)                                              \
    X(B, _Bool, BOOL, 0, void)

#define DEFINE_FUNCS(T, TYPE, KIND, W, REAL) FUNCS_##KIND(T, TYPE, W, REAL)
TYPES(DEFINE_FUNCS)

enum kind { INT, FLT, CPX, BOOL };

static inline int valid_op(enum kind k, int op)
{
    switch (k) {
    case INT:
        return 1;
    case FLT:
        return op != UPC_AND && op != UPC_OR && op != UPC_XOR;
    case CPX:
        return op == UPC_ADD || op == UPC_MULT || op == UPC_LOGAND || op == UPC_LOGOR ||
               op >= UPC_FUNC;
    default:
        return op == UPC_LOGAND || op == UPC_LOGOR || op >= UPC_FUNC;
    }
}

/* Whether two elements have the same value bits (long double: 10 of 16). */
static inline int same_bits(const void *a, const void *b, size_t es, enum kind k)
{
    if (es == 16 && k == FLT)
        return memcmp(a, b, 10) == 0;
    if (es == 32)
        return memcmp(a, b, 10) == 0 && memcmp((const char *)a + 16, (const char *)b + 16, 10) == 0;
    return memcmp(a, b, es) == 0;
}

/* The sweep of test_reduce_all and test_prefix_exclusive: each case is
 * (type index ty, op valid for kinds[ty], nelems in {1, 2, THREADS + 1,
 * 1000, and 100003 unless quick}, blk_size in {0, 1, 3, nelems}, a start
 * offset aligned, at an odd phase or on another thread); at the largest
 * sizes one blk_size and one offset per case, in turn. `count` numbers the
 * cases, for the callers to vary flags and seeds. */
struct sweep_case {
    int ty, op;
    size_t n, B, off;
    int count;
};

static inline void sweep_types(int ntypes, const enum kind *kinds, int quick,
                               void (*run)(const struct sweep_case *))
{
    const int T = THREADS;
    const size_t ns[] = {1, 2, (size_t)T + 1, 1000, 100003};
    int count = 0;
    for (int ty = 0; ty < ntypes; ty++)
        for (int op = UPC_ADD; op <= UPC_NONCOMM_FUNC; op <<= 1) {
            if (!valid_op(kinds[ty], op))
                continue;
            for (int in = 0; in < (quick ? 4 : 5); in++) {
                const size_t n = ns[in], Bs[] = {0, 1, 3, n};
                for (int ib = 0; ib < 4; ib++) {
                    const size_t B = Bs[ib];
                    if (n > 1000 && ib != count % 4)
                        continue;
                    const size_t offs[] = {0, B > 1 ? B - 1 : 1, B * (size_t)(T / 2) + (B > 2)};
                    for (int io = 0; io < 3; io++) {
                        if (n > 1000 && io != count % 3)
                            continue;
                        struct sweep_case c = {ty, op, n, B, offs[io], count++};
                        run(&c);
                    }
                }
            }
        }
}

static inline const char *hex(const void *p, size_t n, char *buf)
{
    const unsigned char *b = p;
    size_t k = n > 12 ? 12 : n;
    for (size_t i = 0; i < k; i++)
        sprintf(buf + 2 * i, "%02x", b[i]);
    return buf;
}

#endif
