/* UPC_EXCLUSIVE_PREFIX_REDUCE (Extended Collectives 0.3 section 4 item 8,
 * 5.5.1 item 3): dst[i] = src[0] op ... op src[i-1] for 0 < i < nelems, and
 * dst[0], undefined by the text, left as it was.
 *
 * - matrix: the 11 types of upc_all_prefix_reduceT x every valid operator x
 *   nelems {1, 2, THREADS + 1, 1000, 100003} x blk_size {0, 1, 3, nelems} x
 *   start offsets, against a serial left fold; every other case in place
 *   (UPC_IN_PLACE as src or in the mode: dst holds the input), the others
 *   into a dst of sentinels. dst[0] must keep its sentinel (in place: its
 *   input). The same call inclusive into a third array: the exclusive
 *   dst[i] has the bits of the inclusive dst[i-1]. Sync flags cycle over the
 *   9 IN x OUT pairs; at 100003 one blk_size per operator.
 * - shifted: the tiled path (2 MiB and more) and the small and partial
 *   paths, on data whose sums round differently in every grouping: UPC_ADD
 *   on D and L (the in-register kernels, AVX2 or SSE2 by TUPC_SIMD), UL, I
 *   (the serial kernel) and UPC_NONCOMM_FUNC; exclusive and inclusive, each
 *   also in place: the exclusive dst[i] has the bits of the inclusive
 *   dst[i - 1], except, for doubles, where a piece or a tile starts (the
 *   seed there is the same sum grouped otherwise); 16 MiB with streaming
 *   stores (not under TUPC_TEST_QUICK).
 * - team: tupc_team_prefix_reduceL and D, exclusive, in place or not.
 * - refused: the flag on a call that has no exclusive form.
 * THREADS {1, 2, 3, 5, 8} (shifted: 1 to 4); under TUPC_TEST_QUICK nelems
 * 100003 is left out and THREADS is {1, 2, 3, 5} (shifted: 1 to 3). With
 * TUPC_SIMD set, only shifted and streaming run (prefix_exclusive_sse2). */
#include "reduce_data.h"
#include "tt.h"

#include <upc_collective_ext.h>

#include <stdlib.h>
#include <string.h>

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

/* Under TUPC_SIMD (the SSE2 run) only the tests of the tiled kernels run. */
static int simd_only(void)
{
    return getenv("TUPC_SIMD") != NULL;
}

#define SENTINEL 0xa5

struct cse {
    int op;
    size_t n, B, off;
    int flags, in_place;
    uint64_t seed;
};

/* `shared [B] TYPE` arrays from offset off (B == 0: indefinite, on thread
 * off % THREADS), three alike: src, the exclusive dst, the inclusive one. */
static tupc_sptr_t arr(tupc_sptr_t *base, size_t n, size_t B, size_t off, size_t es)
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

#define DEFINE_CASE(T, TYPE, KIND, W, REAL)                                                        \
    static void case_##T(const struct cse *k)                                                      \
    {                                                                                              \
        const size_t es = sizeof(TYPE), n = k->n, B = k->B;                                        \
        const int me = MYTHREAD, nt = THREADS;                                                     \
        tupc_sptr_t sb, xb, ib;                                                                    \
        tupc_sptr_t src = arr(&sb, n, B, k->off, es), ex = arr(&xb, n, B, k->off, es),             \
                    in = arr(&ib, n, B, k->off, es);                                               \
        for (size_t i = (size_t)me; i < n; i += (size_t)nt) {                                      \
            TYPE v = gen_##T(k->op, k->seed, i);                                                   \
            tupc_ref(src, i, B, TYPE) = v;                                                         \
            if (k->in_place)                                                                       \
                tupc_ref(ex, i, B, TYPE) = v;                                                      \
            else                                                                                   \
                memset(tupc_index(ex, i, B, TYPE).addr, SENTINEL, es);                             \
        }                                                                                          \
        upc_barrier();                                                                             \
        TYPE(*fn)                                                                                  \
        (TYPE, TYPE) = k->op == UPC_FUNC ? add_##T : k->op == UPC_NONCOMM_FUNC ? nc_##T : NULL;    \
        const upc_flag_t fl = tt_sync_flags[k->flags] | UPC_EXCLUSIVE_PREFIX_REDUCE;               \
        if (k->in_place == 1)                                                                      \
            upc_all_prefix_reduce##T(ex, UPC_IN_PLACE, k->op, n, B, fn, fl);                       \
        else if (k->in_place == 2)                                                                 \
            upc_all_prefix_reduce##T(ex, src, k->op, n, B, fn, fl | UPC_IN_PLACE);                 \
        else                                                                                       \
            upc_all_prefix_reduce##T(ex, src, k->op, n, B, fn, fl);                                \
        upc_all_prefix_reduce##T(in, src, k->op, n, B, fn, tt_sync_flags[(k->flags + 4) % 9]);     \
        upc_barrier();                                                                             \
        if (me == (int)(k->seed % (size_t)nt)) {                                                   \
            TYPE acc = tupc_ref(src, 0, B, TYPE), v0 = acc;                                        \
            unsigned char sent[sizeof(TYPE)];                                                      \
            memset(sent, SENTINEL, es);                                                            \
            const void *first = tupc_index(ex, 0, B, TYPE).addr;                                   \
            TCHECK(k->in_place ? same_bits(first, &v0, es, KIND) : !memcmp(first, sent, es),       \
                   #T " op %d n %zu B %zu off %zu in_place %d: dst[0] was written", k->op, n, B,   \
                   k->off, k->in_place);                                                           \
            int bad = 0;                                                                           \
            char b1[32], b2[32], b3[32];                                                           \
            for (size_t i = 1; i < n && bad < 3; i++) {                                            \
                const TYPE got = tupc_ref(ex, i, B, TYPE);                                         \
                const void *prev = tupc_index(in, i - 1, B, TYPE).addr;                            \
                if (!eq_##T(got, acc) || !same_bits(&got, prev, es, KIND)) {                       \
                    bad++;                                                                         \
                    TCHECK(0,                                                                      \
                           #T " op %d n %zu B %zu off %zu flags 0x%x in_place %d: dst[%zu] %s, "   \
                              "expected %s (inclusive dst[%zu] %s)",                               \
                           k->op, n, B, k->off, (unsigned)fl, k->in_place, i, hex(&got, es, b1),   \
                           hex(&acc, es, b2), i - 1, hex(prev, es, b3));                           \
                }                                                                                  \
                acc = oracle_##T(k->op, acc, tupc_ref(src, i, B, TYPE));                           \
            }                                                                                      \
        }                                                                                          \
        upc_barrier();                                                                             \
        upc_all_free(ib);                                                                          \
        upc_all_free(xb);                                                                          \
        upc_all_free(sb);                                                                          \
    }
TYPES_13(DEFINE_CASE)

typedef void (*case_fn)(const struct cse *);
static const case_fn cases[] = {
#define CASE_PTR(T, TYPE, KIND, W, REAL) case_##T,
    TYPES_13(CASE_PTR)};
static const enum kind kinds[] = {
#define KIND_OF(T, TYPE, KIND, W, REAL) KIND,
    TYPES_13(KIND_OF)};
#define NTYPES ((int)(sizeof cases / sizeof cases[0]))

static void run_case(const struct sweep_case *c)
{
    struct cse k = {c->op,
                    c->n,
                    c->B,
                    c->off,
                    c->count % TT_NPAIRS,
                    c->count % 4 % 3,
                    777 + (uint64_t)c->count};
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
    if (simd_only())
        return;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < (quick() ? 4 : 5); i++)
        TT_RUN(threads[i], matrix, NULL);
}

/* ---- Exclusive as inclusive shifted, every path ------------------------- */

enum skind { S_D, S_L, S_UL, S_I, S_NC, NSK };

static unsigned long compose(unsigned long f, unsigned long g)
{
    uint32_t fa = (uint32_t)(f >> 32), fb = (uint32_t)f, ga = (uint32_t)(g >> 32), gb = (uint32_t)g;
    return (unsigned long)(ga * fa) << 32 | (uint32_t)(ga * fb + gb);
}

struct shift {
    enum skind k;
    size_t n, B, off;
    int flags;
};

static size_t ssize(enum skind k)
{
    return k == S_I ? 4 : 8;
}

static void sput(enum skind k, tupc_sptr_t a, size_t i, size_t B)
{
    uint64_t x = hash(41, i);
    switch (k) {
    case S_D: /* full mantissas: any other grouping rounds apart */
        tupc_ref(a, i, B, double) = (double)(int64_t)x / 3e18 + 1e-3 * (double)(i % 7);
        break;
    case S_I:
        tupc_ref(a, i, B, int) = (int)x;
        break;
    case S_NC:
        tupc_ref(a, i, B, unsigned long) = x | (1ull << 32);
        break;
    default:
        tupc_ref(a, i, B, unsigned long) = x;
        break;
    }
}

static void scall(enum skind k, tupc_sptr_t d, tupc_sptr_t s, size_t n, size_t B, upc_flag_t fl)
{
    switch (k) {
    case S_D:
        upc_all_prefix_reduceD(d, s, UPC_ADD, n, B, NULL, fl);
        break;
    case S_L:
        upc_all_prefix_reduceL(d, s, UPC_ADD, n, B, NULL, fl);
        break;
    case S_UL:
        upc_all_prefix_reduceUL(d, s, UPC_ADD, n, B, NULL, fl);
        break;
    case S_I:
        upc_all_prefix_reduceI(d, s, UPC_ADD, n, B, NULL, fl);
        break;
    default:
        upc_all_prefix_reduceUL(d, s, UPC_NONCOMM_FUNC, n, B, compose, fl);
        break;
    }
}

/* Arrays: src, inclusive, exclusive, and inclusive and exclusive in place
 * (which may take another path than the first two, with another grouping:
 * each pair is compared within itself). */
enum { A_SRC, A_INC, A_EXC, A_INC_IP, A_EXC_IP, NA };

static int shift_body(void *arg)
{
    const struct shift *c = arg;
    const int T = THREADS, me = MYTHREAD;
    const size_t es = ssize(c->k), n = c->n, B = c->B;
    tupc_sptr_t b[NA], a[NA];
    for (int j = 0; j < NA; j++)
        a[j] = arr(&b[j], n, B, c->off, es);
    for (size_t i = (size_t)me; i < n; i += (size_t)T) {
        sput(c->k, a[A_SRC], i, B);
        sput(c->k, a[A_INC_IP], i, B);
        sput(c->k, a[A_EXC_IP], i, B);
        memset(tupc_ptr_add(a[A_EXC], (ptrdiff_t)i, B, es).addr, SENTINEL, es);
    }
    upc_barrier();
    const upc_flag_t fl = tt_sync_flags[c->flags], ex = UPC_EXCLUSIVE_PREFIX_REDUCE;
    scall(c->k, a[A_INC], a[A_SRC], n, B, fl);
    scall(c->k, a[A_EXC], a[A_SRC], n, B, fl | ex);
    scall(c->k, a[A_INC_IP], a[A_INC_IP], n, B, fl | UPC_IN_PLACE);
    scall(c->k, a[A_EXC_IP], a[A_EXC_IP], n, B, fl | ex | UPC_IN_PLACE);
    upc_barrier();
    /* Each thread checks its own elements: a whole array of these sizes is
     * slow to walk through tupc_ptr_add. */
    unsigned char sent[8];
    memset(sent, SENTINEL, sizeof sent);
    if ((int)a[A_SRC].thread == me) {
        TCHECK(!memcmp(a[A_EXC].addr, sent, es), "kind %d n %zu: dst[0] was written", c->k, n);
        TCHECK(!memcmp(a[A_EXC_IP].addr, a[A_SRC].addr, es),
               "kind %d n %zu: in place, dst[0] was written", c->k, n);
    }
    /* Doubles: the first element of each piece or tile gets the seed (the
     * partials before it combined), the inclusive scan there its running
     * sum: the same sum grouped otherwise. So a few seams may differ in the
     * last bits; an element out of place would differ by a whole element. */
    int bad = 0, seams = 0;
    for (size_t i = 1; i < n && bad < 3; i++) {
        tupc_sptr_t p = tupc_ptr_add(a[A_EXC], (ptrdiff_t)i, B, es);
        if ((int)p.thread != me)
            continue;
        const void *pair[2][2] = {{p.addr, tupc_ptr_add(a[A_INC], (ptrdiff_t)i - 1, B, es).addr},
                                  {tupc_ptr_add(a[A_EXC_IP], (ptrdiff_t)i, B, es).addr,
                                   tupc_ptr_add(a[A_INC_IP], (ptrdiff_t)i - 1, B, es).addr}};
        for (int j = 0; j < 2; j++) {
            if (!memcmp(pair[j][0], pair[j][1], es))
                continue;
            double x = c->k == S_D ? *(const double *)pair[j][0] : 0;
            double y = c->k == S_D ? *(const double *)pair[j][1] : 1;
            double dev = x > y ? x - y : y - x, mag = y > 1 ? y : y < -1 ? -y : 1;
            if (c->k == S_D && dev <= 1e-12 * mag) {
                seams++;
                continue;
            }
            bad++;
            TCHECK(0,
                   "kind %d n %zu B %zu off %zu flags 0x%x: exclusive dst[%zu]%s differs from the "
                   "inclusive dst[%zu]",
                   c->k, n, B, c->off, (unsigned)fl, i, j ? " in place" : "", i - 1);
        }
    }
    /* At most a seam per piece of every thread, or per tile, each in two pairs. */
    const size_t most = 2 * ((size_t)T + n / (((size_t)1 << 20) / es) + 2);
    TCHECK((size_t)seams <= most,
           "kind %d n %zu B %zu: %d elements differ in their last bits, "
           "more than the %zu seams of pieces and tiles",
           c->k, n, B, seams, most);
    upc_barrier();
    for (int j = NA - 1; j >= 0; j--)
        upc_all_free(b[j]);
    return 0;
}

static void test_shifted(void **state)
{
    (void)state;
    setenv("UPC_SHARED_HEAP_SIZE", "160M", 1);
    /* Small (direct), partials, and the tiled path: 2 to 5 tiles of 1 MiB. */
    const size_t ns[] = {3, 100, 30011, 262144 + 5, 655361};
    int count = 0;
    /* Under TUPC_TEST_QUICK: THREADS 1 to 3, and 5 tiles at THREADS 3 only. */
    for (int T = 1; T <= (quick() ? 3 : 4); T++)
        for (int k = S_D; k < NSK; k++)
            for (int in = 0; in < (quick() && T < 3 ? 4 : 5); in++)
                for (int lay = 0; lay < 3; lay++) {
                    const size_t n = ns[in] * (k == S_I && in > 2 ? 2 : 1);
                    /* indefinite, one block per thread, blocks of 37 */
                    const size_t B = lay == 0   ? 0
                                     : lay == 1 ? (n + (size_t)T - 1) / (size_t)T + 3
                                                : 37;
                    if (in > 2 && lay == 2 && count % 3)
                        continue; /* many blocks: partials, not tiles; fewer at these sizes */
                    struct shift c = {(enum skind)k, n, B, B ? (size_t)count % 3 % B : 1,
                                      count % TT_NPAIRS};
                    TT_RUN(T, shift_body, &c);
                    count++;
                }
}

/* Streaming stores: 16 MiB of dst and more. */
static void test_streaming(void **state)
{
    (void)state;
    if (quick())
        return;
    setenv("UPC_SHARED_HEAP_SIZE", "160M", 1);
    const size_t n = ((size_t)16 << 20) / 8 + 12345;
    struct shift d = {S_D, n, (n + 1) / 2, 5, 4}, l = {S_L, n, 0, 3, 8};
    TT_RUN(2, shift_body, &d);
    TT_RUN(3, shift_body, &l);
}

/* ---- Teams --------------------------------------------------------------- */

static int team_body(void *arg)
{
    (void)arg;
    const int T = THREADS;
    upc_team_t teams[2];
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &teams[0]);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, -MYTHREAD, &teams[1]);
    const size_t ns[] = {0, 1, 2, 7, 1000}, per = 1000;
    tupc_sptr_t A = upc_all_alloc((size_t)T, per * sizeof(long));
    tupc_sptr_t R = upc_all_alloc((size_t)T, per * sizeof(long));
    int it = 0;
    for (int ti = 0; ti < 2; ti++) {
        const upc_team_t team = teams[ti];
        const int lead = tupc_team_thread(team, 0), r = tupc_team_rank(team);
        tupc_sptr_t src = tupc_index(A, (size_t)lead * per, per, long);
        tupc_sptr_t dst = tupc_index(R, (size_t)lead * per, per, long);
        for (int a = 0; a < 5; a++)
            for (int m = 0; m < TT_NPAIRS; m++, it++) {
                const size_t n = ns[a];
                const int noncomm = it % 2, in_place = it % 3 == 0,
                          op = noncomm ? UPC_NONCOMM_FUNC : UPC_ADD;
                if (r == 0)
                    for (size_t i = 0; i < n; i++) {
                        long v = (long)(hash((uint64_t)it, i) & 0x0003000300030003ull);
                        tupc_ref(src, i, 0, long) = v;
                        tupc_ref(dst, i, 0, long) = in_place ? v : -7;
                    }
                tupc_team_barrier(team);
                upc_flag_t fl = tt_sync_flags[m] | UPC_EXCLUSIVE_PREFIX_REDUCE;
                if (in_place)
                    tupc_team_prefix_reduceL(dst, UPC_IN_PLACE, op, n, 0, noncomm ? nc_L : NULL, fl,
                                             team);
                else
                    tupc_team_prefix_reduceL(dst, src, op, n, 0, noncomm ? nc_L : NULL, fl, team);
                tupc_team_barrier(team);
                if (r == 0 && n) {
                    long acc = tupc_ref(src, 0, 0, long);
                    TCHECK(tupc_ref(dst, 0, 0, long) == (in_place ? acc : -7),
                           "team %d n %zu: dst[0] was written", ti, n);
                    for (size_t i = 1; i < n; i++) {
                        long got = tupc_ref(dst, i, 0, long);
                        TCHECK(got == acc, "team %d n %zu op %d in_place %d: dst[%zu] %ld, %ld", ti,
                               n, op, in_place, i, got, acc);
                        if (got != acc)
                            break;
                        acc = oracle_L(op, acc, tupc_ref(src, i, 0, long));
                    }
                }
                tupc_team_barrier(team);
            }
    }
    upc_barrier();
    upc_all_free(R);
    upc_all_free(A);
    tupc_team_free(&teams[1]);
    tupc_team_free(&teams[0]);
    return 0;
}

static void test_team(void **state)
{
    (void)state;
    if (simd_only())
        return;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < 5; i++)
        TT_RUN(threads[i], team_body, NULL);
}

/* ---- Refused ------------------------------------------------------------ */

static int refused(void *arg)
{
    const int which = *(const int *)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64), r = upc_all_alloc((size_t)THREADS, 8);
    switch (which) {
    case 0:
        upc_all_reduceL(r, a, UPC_ADD, 4, 0, NULL, UPC_EXCLUSIVE_PREFIX_REDUCE);
        break;
    case 1:
        upc_all_prefix_reduceL(a, a, UPC_ADD, 4, 0, NULL,
                               UPC_EXCLUSIVE_PREFIX_REDUCE | UPC_IN_NOSYNC | UPC_IN_ALLSYNC);
        break;
    case 2:
        upc_all_prefix_reduceD(a, a, UPC_XOR, 4, 0, NULL, UPC_EXCLUSIVE_PREFIX_REDUCE);
        break;
    case 3:
        upc_all_broadcast(a, r, 8, UPC_EXCLUSIVE_PREFIX_REDUCE);
        break;
    }
    return 0;
}

static void test_refused(void **state)
{
    (void)state;
    int w[] = {0, 1, 2, 3};
    tt_expect_error(2, refused, &w[0], "upc_all_reduceL", "0x400", "no sync mode", NULL);
    tt_expect_error(2, refused, &w[1], "upc_all_prefix_reduceL", "more than one UPC_IN", NULL);
    tt_expect_error(2, refused, &w[2], "upc_all_prefix_reduceD", "UPC_XOR", "bitwise", NULL);
    tt_expect_error(2, refused, &w[3], "upc_all_broadcast", "0x400", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),    cmocka_unit_test(test_shifted),
        cmocka_unit_test(test_streaming), cmocka_unit_test(test_team),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
