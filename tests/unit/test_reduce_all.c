/* upc_all_reduce_allT (Extended Collectives 0.3 5.5.1) and its team form.
 *
 * - matrix: the 17 types x every operator valid for the type x nelems {1, 2,
 *   THREADS + 1, 1000, 100003} x blk_size {0, 1, 3, nelems} x start offsets
 *   (thread and phase of src), against a serial left fold; every dst[i],
 *   i < THREADS, holds the result and the same bits as dst[0], and the
 *   elements beside each dst[i] are untouched. dst is given with phase 1 of
 *   a `shared [3]` array (item 11: the phase is ignored). UPC_FUNC is an
 *   addition (XOR for _Bool); UPC_NONCOMM_FUNC is associative and not
 *   commutative: a 2x2 matrix product mod 2^w packed in the element (the
 *   integer and real types), an affine-map composition (complex), the right
 *   operand (_Bool). Data make every result exact in any grouping. The sync
 *   flags cycle over all 16 values. At 100003 one blk_size per operator.
 * - bit_identity: F, D, LD, CX, DX, LDX on data whose sum depends on the
 *   grouping, small and large calls, UPC_NONCOMM_FUNC too: every dst[i] has
 *   the same bits, in every sync mode and every repetition, and for F, D
 *   and LD the bits of upc_all_reduceT (the same fixed order).
 * - noncomm_sweep: every start (thread, phase) x nelems 1..3*THREADS*B+2 x
 *   blk_size {0, 1, 2, 3, 5}, the matrix product on unsigned long long.
 * - nelems 0 leaves dst as it was.
 * - team: tupc_team_reduce_allT on two splits writes the element of every
 *   member's thread and no other.
 * - refused: _Bool with ADD, MULT, AND, MIN; complex with MIN, MAX and the
 *   bitwise operators; dst off thread 0; UPC_EXCLUSIVE_PREFIX_REDUCE in the
 *   mode; and others, each with its message.
 * THREADS {1, 2, 3, 5, 8}. Under TUPC_TEST_QUICK (ThreadSanitizer):
 * nelems 100003 left out, THREADS {1, 2, 3, 5}. */
#include "reduce_data.h"
#include "tt.h"

#include <upc_collective_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

#define SENTINEL 0xa5

/* dst areas: D, shared [3 * slots] TYPE [3 * slots * THREADS], all
 * sentinels; slot k is given as &D[3k + 1] (phase 3k + 1: item 11, the
 * phase is ignored), so its element t is D[3 * slots * t + 3k + 1], and
 * the elements beside it must stay sentinels. */
static tupc_sptr_t dst_alloc(size_t es, size_t slots)
{
    tupc_sptr_t base = upc_all_alloc((size_t)THREADS, 3 * slots * es);
    memset(tupc_ptr_add(base, (ptrdiff_t)(3 * slots) * MYTHREAD, 3 * slots, es).addr, SENTINEL,
           3 * slots * es);
    return base;
}

static tupc_sptr_t dst_slot(tupc_sptr_t base, size_t es, size_t slots, size_t k)
{
    return tupc_ptr_add(base, (ptrdiff_t)(3 * k + 1), 3 * slots, es);
}

/* Checks slot k: the result's elements of the threads where member[t] (or
 * all where member is NULL); the other elements and the neighbours stay
 * sentinels. want NULL: every element stays a sentinel. */
static void check_dst(tupc_sptr_t base, size_t slots, size_t k, size_t es, enum kind kd,
                      const void *want, int (*eq)(const void *, const void *), const int *member,
                      const char *what)
{
    unsigned char sent[32];
    char b1[32], b2[32];
    memset(sent, SENTINEL, sizeof sent);
    const unsigned char *first = NULL;
    for (int t = 0; t < THREADS; t++) {
        const unsigned char *e =
            (const unsigned char *)tupc_ptr_add(base, (ptrdiff_t)(3 * slots * (size_t)t + 3 * k),
                                                3 * slots, es)
                .addr;
        TCHECK(!memcmp(e, sent, es) && !memcmp(e + 2 * es, sent, es),
               "%s: an element beside dst[%d] was written", what, t);
        if (!want || (member && !member[t])) {
            TCHECK(!memcmp(e + es, sent, es), "%s: dst[%d] was written", what, t);
            continue;
        }
        TCHECK(eq(e + es, want), "%s: dst[%d] is %s, expected %s", what, t, hex(e + es, es, b1),
               hex(want, es, b2));
        if (first)
            TCHECK(same_bits(e + es, first, es, kd), "%s: dst[%d] is %s, dst[first] %s", what, t,
                   hex(e + es, es, b1), hex(first, es, b2));
        else
            first = e + es;
    }
}

struct cse {
    int op;
    size_t n, B, off;
    int flags;
    uint64_t seed;
};

/* src: `shared [B] TYPE` from offset off (B == 0: an indefinite array on
 * thread off % THREADS). */
static tupc_sptr_t src_alloc(size_t n, size_t B, size_t off, size_t es, tupc_sptr_t *base)
{
    if (B) {
        *base = upc_all_alloc((off + n + B - 1) / B + 1, B * es);
        return tupc_ptr_add(*base, (ptrdiff_t)off, B, es);
    }
    size_t bytes = (off + n) * es;
    *base = upc_all_alloc((size_t)THREADS, bytes);
    int ts = (int)(off % (size_t)THREADS);
    return tupc_ptr_cast(tupc_index(*base, ts * bytes + off * es, bytes, char));
}

/* One case for one type: fill src, reduce_all, check every dst[i]. */
#define DEFINE_CASE(T, TYPE, KIND, W, REAL)                                                        \
    static int veq_##T(const void *a, const void *b)                                               \
    {                                                                                              \
        return eq_##T(*(const TYPE *)a, *(const TYPE *)b);                                         \
    }                                                                                              \
    static void case_##T(const struct cse *k)                                                      \
    {                                                                                              \
        const size_t es = sizeof(TYPE), n = k->n, B = k->B;                                        \
        const int me = MYTHREAD, nt = THREADS;                                                     \
        tupc_sptr_t sbase, dbase = dst_alloc(es, 1);                                               \
        tupc_sptr_t src = src_alloc(n, B, k->off, es, &sbase), dst = dst_slot(dbase, es, 1, 0);    \
        for (size_t i = (size_t)me; i < n; i += (size_t)nt)                                        \
            tupc_ref(src, i, B, TYPE) = gen_##T(k->op, k->seed, i);                                \
        upc_barrier();                                                                             \
        TYPE(*fn)                                                                                  \
        (TYPE, TYPE) = k->op == UPC_FUNC ? add_##T : k->op == UPC_NONCOMM_FUNC ? nc_##T : NULL;    \
        upc_all_reduce_all##T(dst, src, k->op, n, B, fn, tt_sync_flags[k->flags]);                 \
        upc_barrier();                                                                             \
        if (me == (int)(k->seed % (size_t)nt)) {                                                   \
            TYPE acc = n ? tupc_ref(src, 0, B, TYPE) : gen_##T(k->op, k->seed, 0);                 \
            for (size_t i = 1; i < n; i++)                                                         \
                acc = oracle_##T(k->op, acc, tupc_ref(src, i, B, TYPE));                           \
            char what[128];                                                                        \
            snprintf(what, sizeof what, #T " op %d n %zu B %zu off %zu flags 0x%x", k->op, n, B,   \
                     k->off, (unsigned)tt_sync_flags[k->flags]);                                   \
            check_dst(dbase, 1, 0, es, KIND, n ? &acc : NULL, veq_##T, NULL, what);                \
        }                                                                                          \
        upc_barrier();                                                                             \
        upc_all_free(dbase);                                                                       \
        upc_all_free(sbase);                                                                       \
    }
TYPES(DEFINE_CASE)

typedef void (*case_fn)(const struct cse *);
static const case_fn cases[] = {
#define CASE_PTR(T, TYPE, KIND, W, REAL) case_##T,
    TYPES(CASE_PTR)};
static const enum kind kinds[] = {
#define KIND_OF(T, TYPE, KIND, W, REAL) KIND,
    TYPES(KIND_OF)};
#define NTYPES ((int)(sizeof cases / sizeof cases[0]))

static void run_case(const struct sweep_case *c)
{
    struct cse k = {c->op, c->n, c->B, c->off, c->count % TT_NSYNC, 12345 + (uint64_t)c->count};
    cases[c->ty](&k);
}

static int matrix(void *arg)
{
    (void)arg;
    sweep_types(NTYPES, kinds, quick(), run_case);
    return 0;
}

static void test_matrix(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < (quick() ? 4 : 5); i++)
        TT_RUN(threads[i], matrix, NULL);
}

/* nelems 0: dst is left as it was, in every sync mode, small and partial paths. */
static int empty(void *arg)
{
    (void)arg;
    for (int fl = 0; fl < TT_NSYNC; fl++) {
        struct cse k = {UPC_ADD, 0, (size_t)fl % 3, 0, fl, 99};
        cases[fl % NTYPES](&k);
    }
    return 0;
}

static void test_empty(void **state)
{
    (void)state;
    TT_RUN(3, empty, NULL);
    TT_RUN(17, empty, NULL); /* more threads than the small path takes */
}

/* ---- Bit identity -------------------------------------------------------- */

/* Magnitudes from 1e-9 to 1e9: sums round differently in every grouping. */
static double wide(uint64_t seed, size_t i)
{
    uint64_t h = hash(seed, i);
    return (double)(h >> 11) / 9007199254740992.0 * ((h & 3) == 0 ? 1e9 : (h & 3) == 1 ? 1e-9 : 1);
}

static float addf(float a, float b)
{
    return a + b;
}
static double addd(double a, double b)
{
    return a + b;
}
static long double addld(long double a, long double b)
{
    return a + b;
}
static _Complex float addcx(_Complex float a, _Complex float b)
{
    return a + b;
}
static _Complex double adddx(_Complex double a, _Complex double b)
{
    return a + b;
}
static _Complex long double addldx(_Complex long double a, _Complex long double b)
{
    return a + b;
}

/* Reduces the same src twice with two sync modes into two dst arrays and
 * checks that the 2 * THREADS elements have the same bits, and (real
 * types) those of upc_all_reduceT into a third element. */
#define IDENT_CASE(T, TYPE, REAL, FN, HAS13)                                                       \
    static void ident_##T(size_t n, size_t B, int op, int fl)                                      \
    {                                                                                              \
        const size_t es = sizeof(TYPE);                                                            \
        const int T_ = THREADS;                                                                    \
        tupc_sptr_t sb, d1 = dst_alloc(es, 1), d2 = dst_alloc(es, 1);                              \
        tupc_sptr_t src = src_alloc(n, B, (size_t)fl % 5, es, &sb);                                \
        tupc_sptr_t a1 = dst_slot(d1, es, 1, 0), a2 = dst_slot(d2, es, 1, 0);                      \
        tupc_sptr_t r13 = upc_all_alloc((size_t)T_, es);                                           \
        for (size_t i = (size_t)MYTHREAD; i < n; i += (size_t)T_) {                                \
            REAL p[2] = {(REAL)wide((uint64_t)fl, i), (REAL)wide((uint64_t)fl + 7, i)};            \
            TYPE v;                                                                                \
            memcpy(&v, p, sizeof v); /* a real takes p[0], a complex both */                       \
            tupc_ref(src, i, B, TYPE) = v;                                                         \
        }                                                                                          \
        upc_barrier();                                                                             \
        TYPE (*f)(TYPE, TYPE) = op == UPC_ADD ? NULL : FN;                                         \
        upc_all_reduce_all##T(a1, src, op, n, B, f, tt_sync_flags[fl % TT_NSYNC]);                 \
        upc_all_reduce_all##T(a2, src, op, n, B, f, tt_sync_flags[(fl + 5) % TT_NSYNC]);           \
        HAS13(upc_all_reduce##T(tupc_index(r13, fl % T_, 1, TYPE), src, op, n, B, f,               \
                                UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);)                                \
        upc_barrier();                                                                             \
        if (MYTHREAD == fl % T_) {                                                                 \
            const char *first = tupc_ptr_add(d1, 1, 3, es).addr;                                   \
            char b1[32], b2[32];                                                                   \
            for (int t = 0; t < 2 * T_; t++) {                                                     \
                const char *e = tupc_ptr_add(t < T_ ? d1 : d2, 3 * (t % T_) + 1, 3, es).addr;      \
                TCHECK(same_bits(e, first, es, sizeof(REAL) == es ? FLT : CPX),                    \
                       #T " n %zu B %zu op %d fl %d: element %d is %s, the first %s", n, B, op,    \
                       fl, t, hex(e, es, b1), hex(first, es, b2));                                 \
            }                                                                                      \
            HAS13(const void *r = tupc_index(r13, fl % T_, 1, TYPE).addr;                          \
                  TCHECK(same_bits(r, first, es, FLT),                                             \
                         #T " n %zu B %zu op %d: upc_all_reduce gives %s, reduce_all %s", n, B,    \
                         op, hex(r, es, b1), hex(first, es, b2));)                                 \
        }                                                                                          \
        upc_barrier();                                                                             \
        upc_all_free(r13);                                                                         \
        upc_all_free(d2);                                                                          \
        upc_all_free(d1);                                                                          \
        upc_all_free(sb);                                                                          \
    }
#define YES(...) __VA_ARGS__
#define NO(...)
IDENT_CASE(F, float, float, addf, YES)
IDENT_CASE(D, double, double, addd, YES)
IDENT_CASE(LD, long double, long double, addld, YES)
IDENT_CASE(CX, _Complex float, float, addcx, NO)
IDENT_CASE(DX, _Complex double, double, adddx, NO)
IDENT_CASE(LDX, _Complex long double, long double, addldx, NO)

static int bit_identity(void *arg)
{
    (void)arg;
    const size_t ns[] = {5, 100, 1000, 30011};
    const size_t Bs[] = {0, 1, 37};
    const int ops[] = {UPC_ADD, UPC_FUNC, UPC_NONCOMM_FUNC};
    int fl = 0;
    for (int in = 0; in < 4; in++)
        for (int ib = 0; ib < 3; ib++)
            for (int io = 0; io < 3; io++, fl++) {
                ident_F(ns[in], Bs[ib], ops[io], fl);
                ident_D(ns[in], Bs[ib], ops[io], fl);
                ident_LD(ns[in], Bs[ib], ops[io], fl);
                ident_CX(ns[in], Bs[ib], ops[io], fl);
                ident_DX(ns[in], Bs[ib], ops[io], fl);
                ident_LDX(ns[in], Bs[ib], ops[io], fl);
            }
    return 0;
}

static void test_bit_identity(void **state)
{
    (void)state;
    const int threads[] = {2, 3, 5, 8};
    for (int i = 0; i < (quick() ? 3 : 4); i++)
        TT_RUN(threads[i], bit_identity, NULL);
}

/* ---- Index order: every start, every length -------------------------------- */

static unsigned long long mat64(unsigned long long a, unsigned long long b)
{
    return matmul(a, b, 16);
}

static int sweep(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD;
    const size_t Bs[] = {0, 1, 2, 3, 5}, es = sizeof(unsigned long long);
    for (int ib = 0; ib < 5; ib++) {
        const size_t B = Bs[ib], maxn = 3 * (size_t)T * (B ? B : 2) + 2;
        const size_t noffs = B ? (size_t)T * B : (size_t)T;
        for (size_t off = 0; off < noffs; off++) {
            tupc_sptr_t sb, db = dst_alloc(es, 1);
            tupc_sptr_t src = src_alloc(maxn, B, off, es, &sb), dst = dst_slot(db, es, 1, 0);
            for (size_t n = 1; n <= maxn; n++) {
                for (size_t i = (size_t)me; i < n; i += (size_t)T)
                    tupc_ref(src, i, B, unsigned long long) = hash(n, i);
                upc_barrier();
                upc_all_reduce_allULL(dst, src, UPC_NONCOMM_FUNC, n, B, mat64,
                                      tt_sync_flags[n % TT_NPAIRS]);
                upc_barrier();
                unsigned long long acc = hash(n, 0);
                for (size_t i = 1; i < n; i++)
                    acc = mat64(acc, hash(n, i));
                unsigned long long got =
                    tupc_ref(db, 3 * ((me + n) % (size_t)T) + 1, 3, unsigned long long);
                TCHECK(got == acc, "B %zu off %zu n %zu: dst[%zu] %llx, expected %llx", B, off, n,
                       (me + n) % (size_t)T, got, acc);
                upc_barrier();
            }
            upc_all_free(db);
            upc_all_free(sb);
        }
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

/* ---- Teams ------------------------------------------------------------- */

/* Each team of a split reduces the indefinite array in its lead's block of
 * A into slot `lead` of one dst area (dst areas are allocated by every
 * thread, so outside the teams' calls); the lead checks every thread's
 * element of its slot. */
static int team_body(void *arg)
{
    (void)arg;
    const int T = THREADS;
    upc_team_t teams[2];
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &teams[0]);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, -MYTHREAD, &teams[1]);
    const size_t ns[] = {0, 1, 7, 1000}, per = 1000 * sizeof(long double), slots = (size_t)T;
    int *member = calloc((size_t)T, sizeof(int));
    tupc_sptr_t A = upc_all_alloc((size_t)T, per);
    int it = 0;
    for (int ti = 0; ti < 2; ti++) {
        const upc_team_t team = teams[ti];
        const int lead = tupc_team_thread(team, 0), r = tupc_team_rank(team);
        const tupc_sptr_t src = tupc_ptr_cast(tupc_index(A, (size_t)lead * per, per, char));
        for (int t = 0; t < T; t++)
            member[t] = tupc_team_rank_of(team, t) >= 0;
        for (int a = 0; a < 4; a++)
            for (int m = 0; m < TT_NPAIRS; m += 2, it++) {
                const size_t n = ns[a];
                const upc_flag_t fl = tt_sync_flags[m];
                char what[96];
#define TEAM_CASE(TY, TYPE, KIND, OP, FN)                                                          \
    do {                                                                                           \
        tupc_sptr_t base = dst_alloc(sizeof(TYPE), slots);                                         \
        if (r == 0)                                                                                \
            for (size_t i = 0; i < n; i++)                                                         \
                tupc_ref(src, i, 0, TYPE) = gen_##TY(OP, (uint64_t)it, i);                         \
        upc_barrier();                                                                             \
        tupc_team_reduce_all##TY(dst_slot(base, sizeof(TYPE), slots, (size_t)lead), src, OP, n, 0, \
                                 FN, fl, team);                                                    \
        upc_barrier();                                                                             \
        TYPE acc = gen_##TY(OP, (uint64_t)it, 0);                                                  \
        for (size_t i = 1; i < n; i++)                                                             \
            acc = oracle_##TY(OP, acc, gen_##TY(OP, (uint64_t)it, i));                             \
        snprintf(what, sizeof what, "team %d " #TY " n %zu flags 0x%x", ti, n, (unsigned)fl);      \
        if (r == 0)                                                                                \
            check_dst(base, slots, (size_t)lead, sizeof(TYPE), KIND, n ? &acc : NULL, veq_##TY,    \
                      member, what);                                                               \
        upc_barrier();                                                                             \
        upc_all_free(base);                                                                        \
    } while (0)
                TEAM_CASE(D, double, FLT, UPC_ADD, NULL);
                TEAM_CASE(LL, long long, INT, UPC_NONCOMM_FUNC, nc_LL);
                TEAM_CASE(CX, _Complex float, CPX, UPC_MULT, NULL);
                TEAM_CASE(B, _Bool, BOOL, UPC_NONCOMM_FUNC, nc_B);
#undef TEAM_CASE
            }
    }
    upc_barrier();
    upc_all_free(A);
    free(member);
    tupc_team_free(&teams[1]);
    tupc_team_free(&teams[0]);
    return 0;
}

static void test_team(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < 5; i++)
        TT_RUN(threads[i], team_body, NULL);
}

/* ---- Refused calls ------------------------------------------------------ */

static _Bool bool_and(_Bool a, _Bool b)
{
    return a && b;
}

static int refused(void *arg)
{
    const int which = *(const int *)arg;
    tupc_sptr_t arr = upc_all_alloc((size_t)THREADS, 64);
    tupc_sptr_t d = upc_all_alloc((size_t)THREADS, 32);
    switch (which) {
    case 0:
        upc_all_reduce_allB(d, arr, UPC_ADD, 4, 0, NULL, 0);
        break;
    case 1:
        upc_all_reduce_allB(d, arr, UPC_MIN, 4, 0, NULL, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        break;
    case 2:
        upc_all_reduce_allB(d, arr, UPC_XOR, 4, 1, NULL, 0);
        break;
    case 3:
        upc_all_reduce_allB(d, arr, UPC_MULT, 4, 0, bool_and, 0);
        break;
    case 4:
        upc_all_reduce_allCX(d, arr, UPC_MIN, 4, 0, NULL, 0);
        break;
    case 5:
        upc_all_reduce_allDX(d, arr, UPC_MAX, 2, 0, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        break;
    case 6:
        upc_all_reduce_allLDX(d, arr, UPC_AND, 1, 0, NULL, 0);
        break;
    case 7:
        upc_all_reduce_allD(d, arr, UPC_XOR, 4, 0, NULL, 0);
        break;
    case 8: /* dst on thread 1 */
        upc_all_reduce_allL(tupc_index(d, 1, 1, long), arr, UPC_ADD, 4, 0, NULL, 0);
        break;
    case 9:
        upc_all_reduce_allLL(d, arr, UPC_NONCOMM_FUNC, 4, 0, NULL, 0);
        break;
    case 10:
        upc_all_reduce_allI(d, arr, UPC_ADD, 4, 0, NULL, UPC_EXCLUSIVE_PREFIX_REDUCE);
        break;
    case 11:
        upc_all_reduce_allI(d, arr, UPC_ADD, 4, 0, NULL, UPC_IN_PLACE);
        break;
    case 12: { /* dst in an allocation of thread 0 only */
        if (MYTHREAD == 0)
            tupc_ref(d, 0, 1, tupc_sptr_t) = upc_alloc(8);
        upc_barrier();
        upc_all_reduce_allL(tupc_ref(d, 0, 1, tupc_sptr_t), arr, UPC_ADD, 4, 0, NULL, 0);
        break;
    }
    case 13:
        upc_all_reduce_allUL(TUPC_NULL, arr, UPC_ADD, 4, 0, NULL, 0);
        break;
    case 14: {
        upc_team_t half;
        tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &half);
        tupc_team_reduce_allCX(d, arr, UPC_MAX, 4, 0, NULL, 0, half);
        break;
    }
    case 15:
        upc_all_reduce_allD(d, arr, UPC_ADD, 100, 0, NULL, 0); /* 800 bytes in 64 */
        break;
    }
    return 0;
}

static void test_refused(void **state)
{
    (void)state;
    int w[16];
    for (int i = 0; i < 16; i++)
        w[i] = i;
    tt_expect_error(2, refused, &w[0], "upc_all_reduce_allB", "UPC_ADD", "_Bool",
                    "UPC_LOGAND, UPC_LOGOR, UPC_FUNC or UPC_NONCOMM_FUNC", "5.5.1 item 12", NULL);
    tt_expect_error(3, refused, &w[1], "upc_all_reduce_allB", "UPC_MIN", "_Bool", NULL);
    tt_expect_error(2, refused, &w[2], "upc_all_reduce_allB", "UPC_XOR", "_Bool", NULL);
    tt_expect_error(2, refused, &w[3], "upc_all_reduce_allB", "UPC_MULT", "_Bool", NULL);
    tt_expect_error(2, refused, &w[4], "upc_all_reduce_allCX", "UPC_MIN", "_Complex float",
                    "no order", NULL);
    tt_expect_error(3, refused, &w[5], "upc_all_reduce_allDX", "UPC_MAX", "no order", NULL);
    tt_expect_error(2, refused, &w[6], "upc_all_reduce_allLDX", "UPC_AND", "bitwise",
                    "_Complex long double", NULL);
    tt_expect_error(2, refused, &w[7], "upc_all_reduce_allD", "UPC_XOR", "bitwise", "double", NULL);
    tt_expect_error(2, refused, &w[8], "upc_all_reduce_allL", "dst has affinity to thread 1",
                    "thread 0", "5.5.1 item 10", NULL);
    tt_expect_error(2, refused, &w[9], "upc_all_reduce_allLL", "func is NULL", NULL);
    tt_expect_error(2, refused, &w[10], "upc_all_reduce_allI", "0x400", "no sync mode", NULL);
    tt_expect_error(2, refused, &w[11], "upc_all_reduce_allI", "0x100", "no sync mode", NULL);
    tt_expect_error(2, refused, &w[12], "upc_all_reduce_allL", "dst", "upc_all_alloc", NULL);
    tt_expect_error(2, refused, &w[13], "upc_all_reduce_allUL", "dst is a null", NULL);
    tt_expect_error(4, refused, &w[14], "tupc_team_reduce_allCX", "UPC_MAX", "no order", NULL);
    tt_expect_error(2, refused, &w[15], "upc_all_reduce_allD", "src", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),       cmocka_unit_test(test_empty),
        cmocka_unit_test(test_bit_identity), cmocka_unit_test(test_noncomm_sweep),
        cmocka_unit_test(test_team),         cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
