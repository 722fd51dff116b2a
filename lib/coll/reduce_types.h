/* The computational collectives (UPC 1.3 7.4.3, Extended Collectives 0.3
 * 5.5): the one table of types, the one table of operators, and the
 * per-type kernels that reduce.c generates from them and prefix_reduce.c,
 * reduce_all.c and reduce_team.c share.
 *
 * NaN (implementation-defined, 1.3 7.4.3.1 para 5): every floating operator
 * propagates NaN. ADD and MULT do by IEEE 754; MIN and MAX are written
 * `b < a || b != b ? b : a`, so a NaN operand always wins and the result is a
 * NaN whenever any element is one (which NaN, when there are several, follows
 * the fixed combine order: the same for the same input and THREADS). LOGAND
 * and LOGOR count a NaN as true (it compares unequal to 0). MIN/MAX of +0.0
 * and -0.0 keep the operand met first in that same fixed order. */
#ifndef TUPC_COLL_REDUCE_TYPES_H
#define TUPC_COLL_REDUCE_TYPES_H

#include "check/overlap.h"
#include "coll/syncmode.h"
#include "heap/heap.h"
#include "observe/trace.h"

#include <upc.h>
#include <upc_collective.h>

#include <stddef.h>
#include <string.h>

/* The types: X(T, TYPE, ARITH, KIND). ARITH is the type ADD and MULT
 * compute in: unsigned for the integers, so that signed overflow wraps (two's
 * complement) instead of being undefined. KIND selects the operators that
 * apply: INT (every one, UPC 1.3 7.4.3 para 2), FLT (no bitwise one), CPX
 * (complex: no bitwise one, and no MIN or MAX, as complex numbers have no
 * order), BOOL (LOGAND and LOGOR only, Extended Collectives 0.3 5.5.1 item
 * 12). The first eleven are those of UPC 1.3, which upc_all_reduceT and
 * upc_all_prefix_reduceT take; the last six complete the seventeen of
 * upc_all_reduce_allT (0.3 5.5.1 item 1). */
#define TUPC_REDUCE_TYPES_13(X)                                                                    \
    X(C, signed char, unsigned, INT)                                                               \
    X(UC, unsigned char, unsigned, INT)                                                            \
    X(S, signed short, unsigned, INT)                                                              \
    X(US, unsigned short, unsigned, INT)                                                           \
    X(I, signed int, unsigned, INT)                                                                \
    X(UI, unsigned int, unsigned, INT)                                                             \
    X(L, signed long, unsigned long, INT)                                                          \
    X(UL, unsigned long, unsigned long, INT)                                                       \
    X(F, float, float, FLT)                                                                        \
    X(D, double, double, FLT)                                                                      \
    X(LD, long double, long double, FLT)
#define TUPC_REDUCE_TYPES_EXT(X)                                                                   \
    X(LL, long long, unsigned long long, INT)                                                      \
    X(ULL, unsigned long long, unsigned long long, INT)                                            \
    X(CX, _Complex float, _Complex float, CPX)                                                     \
    X(DX, _Complex double, _Complex double, CPX)                                                   \
    X(LDX, _Complex long double, _Complex long double, CPX)                                        \
    X(B, _Bool, _Bool, BOOL)
#define TUPC_REDUCE_TYPES(X) TUPC_REDUCE_TYPES_13(X) TUPC_REDUCE_TYPES_EXT(X)

/* The built-in operators: X(OP, CLASS, EXPR, ...) with EXPR combining `a`
 * and `b` (TYPE and ARITH are typedefs in scope where it is expanded);
 * CLASS says which KINDs it applies to (TUPC_IF below). The trailing
 * arguments are passed on to X, so a type's row can be expanded against
 * every operator. UPC_FUNC and UPC_NONCOMM_FUNC call the user's function and
 * are not in the table. Complex ADD and MULT are C's (MULT as Annex G has
 * it, with infinities recovered); LOGAND and LOGOR take a complex as true
 * when either part is nonzero. */
#define TUPC_REDUCE_OPS(X, ...)                                                                    \
    X(ADD, NUM, (TYPE)((ARITH)a + (ARITH)b), __VA_ARGS__)                                          \
    X(MULT, NUM, (TYPE)((ARITH)a * (ARITH)b), __VA_ARGS__)                                         \
    X(AND, BITS, (TYPE)(a & b), __VA_ARGS__)                                                       \
    X(OR, BITS, (TYPE)(a | b), __VA_ARGS__)                                                        \
    X(XOR, BITS, (TYPE)(a ^ b), __VA_ARGS__)                                                       \
    X(LOGAND, ANY, (TYPE)(a && b), __VA_ARGS__)                                                    \
    X(LOGOR, ANY, (TYPE)(a || b), __VA_ARGS__)                                                     \
    X(MIN, ORD, (b < a || tupc_isnan_(b)) ? b : a, __VA_ARGS__)                                    \
    X(MAX, ORD, (b > a || tupc_isnan_(b)) ? b : a, __VA_ARGS__)

/* Whether x is a NaN; 0 for the integer types (no self-comparison warning). */
static inline int tupc_isnanf_(float x)
{
    return x != x;
}
static inline int tupc_isnand_(double x)
{
    return x != x;
}
static inline int tupc_isnanl_(long double x)
{
    return x != x;
}
static inline int tupc_notnan_(unsigned long long x)
{
    (void)x;
    return 0;
}
#define tupc_isnan_(x)                                                                             \
    _Generic((x), float                                                                            \
             : tupc_isnanf_, double                                                                \
             : tupc_isnand_, long double                                                           \
             : tupc_isnanl_, default                                                               \
             : tupc_notnan_)(x)

/* Expands `code` when an operator of CLASS applies to a type of KIND. */
#define TUPC_IF_INT_ANY(...) __VA_ARGS__
#define TUPC_IF_INT_NUM(...) __VA_ARGS__
#define TUPC_IF_INT_ORD(...) __VA_ARGS__
#define TUPC_IF_INT_BITS(...) __VA_ARGS__
#define TUPC_IF_FLT_ANY(...) __VA_ARGS__
#define TUPC_IF_FLT_NUM(...) __VA_ARGS__
#define TUPC_IF_FLT_ORD(...) __VA_ARGS__
#define TUPC_IF_FLT_BITS(...)
#define TUPC_IF_CPX_ANY(...) __VA_ARGS__
#define TUPC_IF_CPX_NUM(...) __VA_ARGS__
#define TUPC_IF_CPX_ORD(...)
#define TUPC_IF_CPX_BITS(...)
#define TUPC_IF_BOOL_ANY(...) __VA_ARGS__
#define TUPC_IF_BOOL_NUM(...)
#define TUPC_IF_BOOL_ORD(...)
#define TUPC_IF_BOOL_BITS(...)
#define TUPC_IF(KIND, CLASS) TUPC_IF_##KIND##_##CLASS

/* The user's function, as passed, before the cast back to TYPE (*)(TYPE, TYPE). */
typedef void (*tupc_red_fn)(void);

/* What the drivers need of a type. Every kernel takes m >= 1 elements and
 * evaluates in a fixed order, so a result never depends on timing. */
enum tupc_red_kind { TUPC_RED_INT, TUPC_RED_FLT, TUPC_RED_CPX, TUPC_RED_BOOL };
struct tupc_red_type {
    const char *name; /* "double", for messages */
    size_t size;
    enum tupc_red_kind kind;
    unsigned ops; /* bit op set for each built-in operator that applies */
    /* *out = p[0] op p[1] op ... op p[m-1] */
    void (*reduce)(upc_op_t op, tupc_red_fn f, const void *p, size_t m, void *out);
    /* *acc = *acc op *x */
    void (*combine)(upc_op_t op, tupc_red_fn f, void *acc, const void *x);
    /* Inclusive (excl == 0): d[i] = seed op s[0] op ... op s[i]; exclusive:
     * d[i] = seed op s[0] op ... op s[i-1], d[0] = seed. Without a seed
     * (NULL) the seed term is left out, and an exclusive scan leaves d[0] as
     * it was. Each s[i] is read before d[i] is written, so d may be s. *carry
     * (when not NULL) gets seed op s[0] op ... op s[m-1]. */
    void (*scan)(upc_op_t op, tupc_red_fn f, void *d, const void *s, size_t m, const void *seed,
                 int excl, void *carry);
};

#define TUPC_RED_DECLARE_(T, TYPE, ARITH, KIND) extern const struct tupc_red_type tupc_red_##T;
TUPC_REDUCE_TYPES(TUPC_RED_DECLARE_)
#undef TUPC_RED_DECLARE_

/* Checks op and func for a type (1.3 7.4.3 paras 1 and 2, 0.3 5.5); fails naming func.
 * The inline test passes what is valid; the full check explains the rest. */
void tupc_red_check_op_full(const char *func, const struct tupc_red_type *ty, upc_op_t op,
                            tupc_red_fn f);
/* An operator's bit (upc_types.h) as 0 (UPC_ADD) to 10 (UPC_NONCOMM_FUNC),
 * for tables; -1 for no one operator. */
static inline int tupc_red_op_index(upc_op_t op)
{
    return op > 0 && op <= UPC_NONCOMM_FUNC && !(op & (op - 1)) ? __builtin_ctz((unsigned)op) : -1;
}
static inline void tupc_red_check_op(const char *func, const struct tupc_red_type *ty, upc_op_t op,
                                     tupc_red_fn f)
{
    /* One operator bit up to UPC_MAX that the type takes: a range test, a
     * one-bit test and the type's mask (no table on this path). */
    int ok =
        ((unsigned)op - 1u < (unsigned)UPC_MAX && !(op & (op - 1)) && (ty->ops & (unsigned)op)) ||
        ((op == UPC_FUNC || op == UPC_NONCOMM_FUNC) && f);
    if (__builtin_expect(!ok, 0))
        tupc_red_check_op_full(func, ty, op, f);
}

/* Checks src (and dst, for the prefix reduction) against nelems and blk_size.
 * Inline for arrays within one block (every small call): the full check
 * covers every other case and explains a refusal. */
void tupc_red_check_array_full(const char *func, const char *arg, tupc_sptr_t p, size_t nelems,
                               size_t blk_size, size_t esize);
static inline void tupc_red_check_array(const char *func, const char *arg, tupc_sptr_t p,
                                        size_t nelems, size_t blk_size, size_t esize)
{
    size_t bytes;
    if (__builtin_expect(
            nelems && blk_size <= UPC_MAX_BLOCK_SIZE &&
                !__builtin_mul_overflow(nelems, esize, &bytes) && bytes <= PTRDIFF_MAX &&
                (blk_size == 0 || (p.phase < blk_size && p.phase + nelems <= blk_size)),
            1))
        (void)tupc_check_in_partition(func, arg, p, bytes);
    else
        tupc_red_check_array_full(func, arg, p, nelems, blk_size, esize);
}

/* What a reduction's dst is: one element (upc_all_reduceT), an array like
 * src (upc_all_prefix_reduceT), or one element at the same offset in every
 * partition (upc_all_reduce_allT: `shared [1] TYPE [THREADS]`). */
enum tupc_red_dst { TUPC_RED_DST_ONE, TUPC_RED_DST_ARRAY, TUPC_RED_DST_EVERY };

#if TUPC_HAVE_MPI
/* upc_all_reduceT (TUPC_RED_DST_ONE) or upc_all_reduce_allT
 * (TUPC_RED_DST_EVERY) across processes: its checks, then mpi/hier*.c
 * (reduce.c). */
void tupc_red_mpi(const struct tupc_red_type *ty, const char *func, enum tupc_red_dst dst_kind,
                  tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                  tupc_red_fn f, upc_flag_t flags);
#endif

/* The allocation checks (heap/range_check.h) of a reduction's src and dst
 * (see enum tupc_red_dst), made once per distinct call between frees. `args` is a signature of
 * dst.addr, src.addr, nelems and blk_size (tupc_red_args, or the call's own from tupc_red_begin,
 * which starts from it); tupc_red_check_key folds in the rest of what the checks read. */
static inline uint64_t tupc_red_args(tupc_sptr_t dst, tupc_sptr_t src, size_t nelems,
                                     size_t blk_size)
{
    return ((uintptr_t)dst.addr * 0x9e3779b97f4a7c15ull) ^
           ((uintptr_t)src.addr * 0xc2b2ae3d27d4eb4full) ^ (nelems * 0xd6e8feb86659fd93ull) ^
           (blk_size * 0xff51afd7ed558ccdull);
}

/* The signature of a reduce call's single-valued arguments, recorded for
 * the messages of check/calls.h. */
static inline uint64_t tupc_red_sig(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                                    size_t blk_size, tupc_red_fn f)
{
    return tupc_calls_args("*dst,*src,#op,nelems,blk_size,&func", (uintptr_t)dst.addr,
                           (uintptr_t)src.addr, (uint64_t)op, nelems, blk_size, (uintptr_t)f);
}

/* The allocation checks themselves. */
static inline void tupc_red_alloc_checks(const char *func, tupc_sptr_t dst,
                                         enum tupc_red_dst dst_kind, tupc_sptr_t src, size_t nelems,
                                         size_t blk_size, size_t esize)
{
    if (tupc_checks_ == TUPC_CHECK_OFF)
        return;
    /* In place (src is dst) the one array is named dst. */
    if (dst_kind != TUPC_RED_DST_ARRAY || src.addr != dst.addr)
        tupc_check_range_array(func, "src", src, nelems, blk_size, esize);
    if (dst_kind == TUPC_RED_DST_ARRAY)
        tupc_check_range_array(func, "dst", dst, nelems, blk_size, esize);
    else /* thread -1: a symmetric allocation, with the element in every partition */
        tupc_check_range(func, "dst", dst_kind == TUPC_RED_DST_EVERY ? -1 : (int)dst.thread,
                         tupc_offset(dst), tupc_offset(dst) + esize);
    if (tupc_checks_ == TUPC_CHECK_FULL &&
        (dst_kind != TUPC_RED_DST_ARRAY || src.addr != dst.addr)) {
        /* reduce_all's dst: one element at the same offset of every partition. */
        struct tupc_extent s = {"src", src, nelems, blk_size, esize, 0};
        struct tupc_extent d = {"dst",    dst,   dst_kind == TUPC_RED_DST_ARRAY ? nelems : 1,
                                blk_size, esize, dst_kind == TUPC_RED_DST_EVERY};
        tupc_check_overlap(func,
                           dst_kind == TUPC_RED_DST_ARRAY   ? "UPC 1.3 7.4.3.2 para 12"
                           : dst_kind == TUPC_RED_DST_EVERY ? "Extended Collectives 0.3 5.5.1"
                                                            : "UPC 1.3 7.4.3.1 para 12",
                           &d, &s);
    }
}

/* The key of a reduction's pointer checks (heap/range_check.h): `args`
 * covers the addresses, nelems and blk_size; the threads and phases are
 * folded in here. */
static inline uint64_t tupc_red_check_key(const char *func, uint64_t args, tupc_sptr_t dst,
                                          tupc_sptr_t src)
{
    return tupc_call_key(func,
                         args ^ (((uint64_t)src.phase << 32 | dst.phase) * 0xc4ceb9fe1a85ec53ull) ^
                             (((uint64_t)src.thread << 32 | dst.thread) * 0xd6e8feb86659fd93ull));
}

static inline void tupc_red_check_allocs(const char *func, uint64_t args, tupc_sptr_t dst,
                                         enum tupc_red_dst dst_kind, tupc_sptr_t src, size_t nelems,
                                         size_t blk_size, size_t esize)
{
    uint64_t key = tupc_red_check_key(func, args, dst, src);
    uint32_t gen;
    if (__builtin_expect(!tupc_call_unseen(key, &gen), 1))
        return;
    tupc_red_alloc_checks(func, dst, dst_kind, src, nelems, blk_size, esize);
    tupc_call_seen(key, gen);
}

/* dst of upc_all_reduce_allT (0.3 5.5.1 items 9 to 11): treated as
 * `shared [1] TYPE [THREADS]`, with affinity to thread 0 and its phase
 * taken as 0, so element t lies at dst's offset in thread t's partition.
 * The check fails naming func unless dst is such a pointer, and returns it
 * with phase 0. */
_Noreturn void tupc_red_dst_all_fail(const char *func, tupc_sptr_t dst);
static inline tupc_sptr_t tupc_red_check_dst_all(const char *func, tupc_sptr_t dst, size_t esize)
{
    (void)tupc_check_in_partition(func, "dst", dst, esize);
    if (__builtin_expect(dst.thread != 0, 0))
        tupc_red_dst_all_fail(func, dst);
    dst.phase = 0;
    return dst;
}

/* Element t of such a dst. */
static inline char *tupc_red_dst_of(tupc_sptr_t dst, int t)
{
    return dst.addr + (ptrdiff_t)t * (ptrdiff_t)tupc_impl_partition_size;
}

/* Where each thread's share of the work lies. Pieces are numbered by key
 * 0..THREADS-1 and partial results are combined in key order, so results
 * depend on the input and THREADS only.
 *
 * LOCAL: thread t works on the elements with affinity to it. In a
 *   `shared [B]` layout those form one contiguous run of its partition (its
 *   blocks sit B elements apart), read through a plain pointer; keys count
 *   from the thread of src (key = (t - threadof(src)) mod THREADS). When
 *   every thread holds at most one block (nblocks <= THREADS, always so for
 *   B == 0) piece k is an index range before piece k+1, so key order is
 *   index order; with more blocks it is so only for commutative operators.
 * CHUNK: piece k is the k-th of THREADS balanced index ranges, on thread k,
 *   walked block by block: for index order (UPC_NONCOMM_FUNC and prefix
 *   reductions) over many blocks. Reads (and writes) other partitions. */
struct tupc_red_lay {
    tupc_sptr_t src;
    size_t n, B, es, nb; /* nb: blocks the array touches, 1 for B == 0 */
    int T, t0, chunk;
};

static inline void tupc_red_lay_init(struct tupc_red_lay *L, tupc_sptr_t src, size_t n, size_t B,
                                     size_t es, int need_index_order)
{
    L->src = src;
    L->n = n;
    L->B = B;
    L->es = es;
    L->T = THREADS;
    L->t0 = (int)src.thread;
    size_t end = src.phase + n; /* without a division while it is one block */
    L->nb = B == 0 ? 1 : end <= B ? end > 0 : (end + B - 1) / B;
    L->chunk = need_index_order && L->nb > (size_t)L->T;
    if (B == 0)
        L->src.phase = 0; /* an indefinite layout has no phase */
}

static inline int tupc_red_key(const struct tupc_red_lay *L, int thread)
{
    int k = thread - L->t0; /* both in 0 .. T - 1: no division */
    return L->chunk ? thread : k < 0 ? k + L->T : k;
}

static inline int tupc_red_thread(const struct tupc_red_lay *L, int key)
{
    int t = L->t0 + key;
    return L->chunk ? key : t >= L->T ? t - L->T : t;
}

/* Elements of piece `key`; *lo gets the index of its first element. */
static inline size_t tupc_red_piece(const struct tupc_red_lay *L, int key, size_t *lo)
{
    size_t n = L->n, B = L->B, ph = L->src.phase, q = (size_t)key;
    if (L->chunk) {
        size_t T = (size_t)L->T, base = n / T, extra = n % T;
        *lo = q * base + (q < extra ? q : extra);
        return base + (q < extra);
    }
    *lo = 0;
    if (n == 0 || q >= L->nb)
        return 0;
    if (B == 0)
        return n;
    *lo = q * B > ph ? q * B - ph : 0;
    size_t T = (size_t)L->T; /* last block of mine: */
    size_t last = L->nb <= T ? q : q + (L->nb - 1 - q) / T * T;
    size_t hi = (last + 1) * B - ph < n ? (last + 1) * B - ph : n;
    if (last == q)
        return hi - *lo;
    tupc_sptr_t a = tupc_ptr_add(L->src, (ptrdiff_t)*lo, B, L->es);
    tupc_sptr_t b = tupc_ptr_add(L->src, (ptrdiff_t)(hi - 1), B, L->es);
    return (size_t)(b.addr - a.addr) / L->es + 1;
}

/* Elements that can be run through before the next block starts. */
static inline size_t tupc_red_run(const struct tupc_red_lay *L, tupc_sptr_t p, size_t left)
{
    if (L->B == 0)
        return left;
    size_t r = L->B - p.phase;
    return r < left ? r : left;
}

/* Calls over at most this many bytes of src read the elements they need
 * from the other partitions directly instead of exchanging partials. */
#define TUPC_RED_DIRECT_MAX 1024

/* Enters a reduce or prefix_reduce call (c), folding the single-valued
 * arguments into its signature. With few threads IN_ALLSYNC is done by
 * reading every thread's entered counter: the same guarantee as the
 * barrier, and the same reads as its flat form, without its second pass.
 * `scanner` is the one thread that touches data in this call, which alone
 * then reads the counters, TUPC_RED_ALL when every thread touches data, or
 * TUPC_RED_ROTATE for rank (call number % team size, c->turn), returned: see
 * reduce_direct. `scanner` is a rank of team t, the call's team (on
 * UPC_TEAM_ALL a thread). The scanner first starts taking `wline` (or NULL), which it
 * will write, for writing, so that the transfer overlaps its wait. */
#define TUPC_RED_ALL (-1)
#define TUPC_RED_ROTATE (-2)
/* tupc_red_enter is tupc_red_begin (the entry, no wait) and then
 * tupc_red_wait_in (IN_ALLSYNC's scan), for callers with work between. */
static inline __attribute__((always_inline)) int
tupc_red_begin(struct tupc_coll *c, struct tupc_team *t, const char *func, upc_flag_t flags,
               enum tupc_sync in, enum tupc_sync out, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
               size_t nelems, size_t blk_size, tupc_red_fn f, int scanner, const void *wline)
{
    int scan_in = in == TUPC_ALLSYNC && tupc_team_scans(t);
    /* Six independent products rather than a chain of six: the signature
     * is on the path of every call. Odd multipliers keep any one differing
     * argument from vanishing. */
    /* NOSYNC calls too: the running signature of check/calls.h carries it
     * to the next barrier or MYSYNC wait. */
    uint64_t sig = tupc_red_sig(dst, src, op, nelems, blk_size, f);
    if (t == &tupc_team_all_) /* folds for the 1.3 functions */
        tupc_coll_begin(c, func, flags, scan_in ? TUPC_MYSYNC : in, out, sig);
    else
        tupc_coll_begin_team(c, t, tupc_coll_self_on(t), func, flags, scan_in ? TUPC_MYSYNC : in,
                             out, sig);
    if (scanner == TUPC_RED_ROTATE)
        scanner = c->turn;
    if (wline && scanner == tupc_coll_rank(c, t))
        __builtin_prefetch(wline, 1);
    return scanner;
}

static inline __attribute__((always_inline)) void tupc_red_wait_in(const struct tupc_coll *c,
                                                                   const struct tupc_team *t,
                                                                   enum tupc_sync in, int scanner)
{
    const int n = tupc_team_n(t), me = tupc_coll_rank(c, t);
    if (in == TUPC_ALLSYNC && tupc_team_scans(t) && (scanner == TUPC_RED_ALL || scanner == me))
        for (int j = 0; j < n; j++)
            if (j != me)
                tupc_coll_wait_entered(c, j);
}

static inline __attribute__((always_inline)) int
tupc_red_enter(struct tupc_coll *c, struct tupc_team *t, const char *func, upc_flag_t flags,
               enum tupc_sync in, enum tupc_sync out, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
               size_t nelems, size_t blk_size, tupc_red_fn f, int scanner, const void *wline)
{
    scanner = tupc_red_begin(c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f, scanner,
                             wline);
    tupc_red_wait_in(c, t, in, scanner);
    return scanner;
}

/* Whether the members of team t hold every piece of layout L, so that the
 * paths of the 1.3 functions, where each thread works on its own piece (or
 * thread k on index range k), run on t as they are: always for a team of
 * every thread; for fewer, only when no piece lies with a non-member (and
 * never for CHUNK, whose ranges go to every thread). */
static inline int tupc_red_covers(const struct tupc_team *t, const struct tupc_red_lay *L)
{
    if (tupc_team_n(t) == L->T)
        return 1;
    if (L->chunk)
        return 0;
    for (int k = 0; k < L->T; k++) {
        size_t lo;
        if (tupc_red_piece(L, k, &lo) && tupc_team_rank_in(t, tupc_red_thread(L, k)) < 0)
            return 0;
    }
    return 1;
}

/* Whether the pieces of a reduction of src (op, nelems, blk_size, elements
 * of esize) all lie with members of t (tupc_red_covers), for the paths
 * that have each member reduce its own: their layout depends on
 * single-valued arguments only, so every member decides alike. Unchecked
 * arguments make no layout (0: the team form's own cut, which checks). */
static inline int tupc_red_pieces_fit(const struct tupc_team *t, tupc_sptr_t src, upc_op_t op,
                                      size_t nelems, size_t blk_size, size_t esize)
{
    if (src.thread >= (unsigned)tupc_impl_threads || (blk_size && src.phase >= blk_size))
        return 0;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, esize, op == UPC_NONCOMM_FUNC);
    return tupc_red_covers(t, &L);
}

/* The 1.3 paths of upc_all_reduceT (tupc_red_reduce_onT) and
 * prefix_reduceT on team t, for the blocking team forms (reduce_team.c), which call them with
 * their own name after their trace span opens. Each checks its arguments as
 * the 1.3 function does. Returns 0, having done nothing, when the call must
 * take the team forms' own path instead (pieces held by non-members). */
typedef int tupc_red_on_fn(const char *func, struct tupc_team *t, tupc_sptr_t dst, tupc_sptr_t src,
                           upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
                           upc_flag_t flags);
#define TUPC_DECLARE_REDUCE_ON(T, TYPE, ARITH, KIND)                                               \
    int tupc_red_reduce_on##T(const char *func, struct tupc_team *t, tupc_sptr_t dst,              \
                              tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,        \
                              tupc_red_fn f, upc_flag_t flags);
TUPC_REDUCE_TYPES_13(TUPC_DECLARE_REDUCE_ON)
#define TUPC_DECLARE_REDUCE_ALL_ON(T, TYPE, ARITH, KIND)                                           \
    int tupc_red_reduce_all_on##T(const char *func, struct tupc_team *t, tupc_sptr_t dst,          \
                                  tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,    \
                                  tupc_red_fn f, upc_flag_t flags);
TUPC_REDUCE_TYPES(TUPC_DECLARE_REDUCE_ALL_ON)
int tupc_red_prefix_on(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                       tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                       size_t blk_size, tupc_red_fn f, upc_flag_t flags);

/* A team reduction that the 1.3 paths do not take (pieces held by
 * non-members: on, the type's tupc_red_reduce_onT, returns 0), a posted
 * one, or a traced one: reduce_team.c's path, which reduce.c's
 * tupc_team_reduceT reaches through this hook, set by reduce_team.c when
 * the run starts (tupc_red_team_attach, from run.c). So reduce.c, whose team
 * form inlines the 1.3 path, calls nothing of reduce_team.c, which uses
 * reduce.c's kernels and checks. */
typedef upc_coll_handle_t tupc_red_team_path_fn(const struct tupc_red_type *ty, const char *func,
                                                tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                                size_t nelems, size_t blk_size, tupc_red_fn f,
                                                upc_flag_t flags, upc_team_t team,
                                                tupc_red_on_fn *on);
extern tupc_red_team_path_fn *tupc_red_team_reduce_path_;
void tupc_red_team_attach(void);

/* Whether the prefix_reduce and reduce_all team forms' call on a split
 * team tries the 1.3 path first, before reduce_team.c's path: blocking and
 * untraced (that path opens a traced call's span), so that a small call
 * pays no second call with a dozen arguments (8-byte prefix_reduceL 35
 * instructions fewer). The reduce form needs no trace test: its inlined
 * path is off while tracing (alg.red_direct). Outside a UPC thread the
 * lookup then fails first (tupc_team_find_). A call whose pieces do not fit
 * the team goes on to reduce_team.c's path, which finds that again. */
static inline int tupc_red_team_direct(const char *func, upc_flag_t flags)
{
    /* Across processes a team's calls take mpi/team_coll.c's path. */
    return !(flags & UPC_ASYNC) && tupc_procs_ == 1 && !tupc_trace_wanted(func);
}

/* What tupc_red_prefix_on computes on team t, done by one thread (a posted
 * call's job), with the same kernels and combine order: the same bits.
 * Returns 0, having done nothing, where tupc_red_prefix_on would. */
int tupc_red_prefix_serial(const struct tupc_red_type *ty, const struct tupc_team *t,
                           tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                           size_t blk_size, tupc_red_fn f, int in_place, int excl,
                           enum tupc_sync out);

/* Whether upc_all_reduceT's paths on team t read src by one thread (small
 * calls) rather than by pieces. */
static inline int tupc_red_is_direct(const struct tupc_team *t, size_t nelems, size_t esize)
{
    return nelems * esize <= TUPC_RED_DIRECT_MAX && tupc_team_scans(t);
}

/* Room for one partial result of any type in a scratch slot. */
union tupc_red_val {
    long double ld;
    _Complex long double ldx;
    unsigned long ul;
    unsigned char bytes[32];
};

/* The first element of the block after p's (a blocked layout): the same
 * offset in the next thread's partition, or in thread 0's one course on.
 * Without the divisions of tupc_ptr_add: small calls walk their runs so. */
static inline tupc_sptr_t tupc_red_next_block(const struct tupc_red_lay *L, tupc_sptr_t p)
{
    const ptrdiff_t S = (ptrdiff_t)tupc_impl_partition_size;
    p.addr -= (size_t)p.phase * L->es; /* the start of p's block */
    if ((int)p.thread + 1 < L->T) {
        p.addr += S;
        p.thread++;
    } else {
        p.addr += (ptrdiff_t)(L->B * L->es) - (ptrdiff_t)(L->T - 1) * S;
        p.thread = 0;
    }
    p.phase = 0;
    return p;
}

/* Reduces elements lo .. lo + m - 1 (m > 0) in index order into *out, block
 * run by block run, in whichever partitions they lie. */
static inline void tupc_red_range(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                                  size_t lo, size_t m, upc_op_t op, tupc_red_fn f, void *out)
{
    tupc_sptr_t p = tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es);
    union tupc_red_val run;
    for (size_t left = m, first = 1; left; first = 0) {
        size_t r = tupc_red_run(L, p, left);
        if (r == 1) /* one element reduces to itself (blocks of 1: one per thread) */
            first ? memcpy(out, p.addr, L->es) : ty->combine(op, f, out, p.addr);
        else
            ty->reduce(op, f, p.addr, r, first ? out : &run);
        if (!first && r != 1)
            ty->combine(op, f, out, &run);
        left -= r;
        if (left)
            p = tupc_red_next_block(L, p);
    }
}

/* The partial of piece `key` into *out; 0 when the piece is empty. */
static inline int tupc_red_partial(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                                   int key, upc_op_t op, tupc_red_fn f, void *out)
{
    size_t lo, m = tupc_red_piece(L, key, &lo);
    if (m == 0)
        return 0;
    if (L->chunk)
        tupc_red_range(ty, L, lo, m, op, f, out);
    else /* one contiguous local run */
        ty->reduce(op, f, tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es).addr, m, out);
    return 1;
}

/* The eager path of a reduction to one root (upc_all_reduceT,
 * upc_all_reduce_allT): a thread other than the root posts its partial, if
 * it has one, in the line that signals it (one transfer); the root combines
 * every thread's partial in key order, which is index order, its own from
 * `mine`. Returns 0 when no thread had an element (nelems == 0). */
static inline void tupc_red_eager_send(const struct tupc_red_type *ty, const struct tupc_coll *c,
                                       int have, const union tupc_red_val *mine)
{
    if (have) {
        memcpy(tupc_coll_eager_claim(c), mine, ty->size);
        tupc_coll_eager_post(c);
    }
}

static inline int tupc_red_eager_combine(const struct tupc_red_type *ty, const struct tupc_coll *c,
                                         const struct tupc_team *t, const struct tupc_red_lay *L,
                                         upc_op_t op, tupc_red_fn f, const union tupc_red_val *mine,
                                         union tupc_red_val *acc)
{
    union tupc_red_val x;
    int any = 0, me = tupc_impl_mythread;
    for (int k = 0; k < L->T; k++) {
        int j = tupc_red_thread(L, k);
        size_t lo;
        if (tupc_red_piece(L, k, &lo) == 0)
            continue;
        const void *v = mine;
        if (j != me) {
            memcpy(&x, tupc_coll_eager_wait(c, tupc_team_rank_in(t, j)), ty->size);
            v = &x;
        }
        if (any)
            ty->combine(op, f, acc, v);
        else
            memcpy(acc, v, ty->size);
        any = 1;
    }
    return any;
}

/* ---- The team forms' cut: n balanced index ranges, in rank order ------ */

/* A member's partial in its scratch slot: `have` is 0 for an empty range. */
struct tupc_red_part {
    union tupc_red_val v;
    int have;
};

/* Member r's range of nelems among n: the r-th of n balanced ranges. */
static inline void tupc_red_range_of(size_t nelems, int n, int r, size_t *lo, size_t *m)
{
    size_t base = nelems / (size_t)n, extra = nelems % (size_t)n, k = (size_t)r;
    *lo = k * base + (k < extra ? k : extra);
    *m = base + (k < extra);
}

/* Reduces (scan == 0) elements lo..lo+m-1 of the array at L->src into *out,
 * or scans them into dst from seed (NULL: none), inclusive (scan == 1) or
 * exclusive (scan == 2), block run by block run. dst has src's block size
 * but may have another thread and phase (Collectives 1.0's prefix
 * reduction): a run ends where either array's block does. */
static inline void tupc_red_walk(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                                 tupc_sptr_t dst, size_t lo, size_t m, upc_op_t op, tupc_red_fn f,
                                 int scan, const void *seed, union tupc_red_val *out)
{
    tupc_sptr_t s = tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es);
    tupc_sptr_t d = scan ? tupc_ptr_add(dst, (ptrdiff_t)lo, L->B, L->es) : dst;
    union tupc_red_val acc, part, carry;
    int any = 0;
    for (size_t left = m; left;) {
        size_t r = tupc_red_run(L, s, left);
        if (scan) {
            size_t rd = tupc_red_run(L, d, r);
            r = rd < r ? rd : r;
            ty->scan(op, f, d.addr, s.addr, r, seed, scan == 2, &carry);
            seed = &carry;
        } else {
            ty->reduce(op, f, s.addr, r, any ? &part : &acc);
            if (any)
                ty->combine(op, f, &acc, &part);
            any = 1;
        }
        left -= r;
        if (left) {
            s = tupc_ptr_add(s, (ptrdiff_t)r, L->B, L->es);
            if (scan)
                d = tupc_ptr_add(d, (ptrdiff_t)r, L->B, L->es);
        }
    }
    if (!scan)
        memcpy(out, &acc, ty->size);
}

/* Combines the partials of ranks 0..upto-1 of call c in rank order into
 * *acc, each once its member has published it; 0 when all were empty. */
static inline int tupc_red_combine_ranks(const struct tupc_red_type *ty, const struct tupc_coll *c,
                                         upc_op_t op, tupc_red_fn f, int upto,
                                         union tupc_red_val *acc)
{
    int any = 0;
    for (int j = 0; j < upto; j++) {
        if (j != tupc_coll_state(c)->me)
            tupc_coll_wait_published(c, j); /* acquire: j's partial */
        const struct tupc_red_part *p = tupc_coll_scratch(c, j);
        if (!p->have)
            continue;
        if (any)
            ty->combine(op, f, acc, &p->v);
        else
            memcpy(acc, &p->v, ty->size);
        any = 1;
    }
    return any;
}

/* Whether a prefix reduction's dst and src differ in thread or phase, which
 * Collectives 1.0 allows ("the phases of src and dst are respected") and
 * UPC 1.3 7.4.3.1 para 10 does not: tupc takes the 1.0 meaning, and at
 * TUPC_CHECKS=full says once per process that the call is not portable. */
void tupc_red_prefix_apart_note(const char *func, tupc_sptr_t dst, tupc_sptr_t src);
static inline int tupc_red_prefix_apart(const char *func, tupc_sptr_t dst, tupc_sptr_t src,
                                        size_t nelems, size_t blk_size)
{
    int apart = nelems && (dst.thread != src.thread || (blk_size && dst.phase != src.phase));
    if (__builtin_expect(apart, 0) && tupc_checks_ == TUPC_CHECK_FULL)
        tupc_red_prefix_apart_note(func, dst, src);
    return apart;
}

/* ---- The check front of every reduction ---------------------------------- */

/* dst as the reduction's kind has it (one element, an array like src, one
 * element in every partition) and src unless the call runs in place: the
 * pointer checks of every form of every reduction, in the order the 1.3
 * functions make them. Returns dst (reduce_all's, with its phase 0). */
static inline tupc_sptr_t tupc_red_check_areas(const struct tupc_red_type *ty, const char *func,
                                               enum tupc_red_dst kind, tupc_sptr_t dst,
                                               tupc_sptr_t src, size_t nelems, size_t blk_size,
                                               int in_place)
{
    if (kind == TUPC_RED_DST_ONE)
        (void)tupc_check_in_partition(func, "dst", dst, ty->size);
    else if (kind == TUPC_RED_DST_ARRAY)
        tupc_red_check_array(func, "dst", dst, nelems, blk_size, ty->size);
    else
        dst = tupc_red_check_dst_all(func, dst, ty->size);
    if (!in_place)
        tupc_red_check_array(func, "src", src, nelems, blk_size, ty->size);
    return dst;
}

/* The checks of a reduction's call, written once for each reduction and
 * each of its forms (the 1.3 function, the team form, a posted call): op and
 * func against the type, the flags (`modes`: the call's flags without the
 * form's own, UPC_ASYNC, UPC_IN_PLACE, UPC_EXCLUSIVE_PREFIX_REDUCE) into
 * *in and *out, the areas, and their allocations once per distinct call.
 * The caller has checked the thread (and named the team) first; src is dst
 * where the call runs in place. Returns dst as tupc_red_check_areas does;
 * *apart, for a prefix reduction, whether dst and src lie apart
 * (tupc_red_prefix_apart). The small calls enter first and check after, the
 * same areas (tupc_red_check_areas) with the same allocation checks. */
static inline tupc_sptr_t tupc_red_check_call(const struct tupc_red_type *ty, const char *func,
                                              enum tupc_red_dst kind, tupc_sptr_t dst,
                                              tupc_sptr_t src, upc_op_t op, size_t nelems,
                                              size_t blk_size, tupc_red_fn f, upc_flag_t modes,
                                              int in_place, enum tupc_sync *in, enum tupc_sync *out,
                                              int *apart)
{
    tupc_red_check_op(func, ty, op, f);
    tupc_coll_flags(func, modes, in, out);
    dst = tupc_red_check_areas(ty, func, kind, dst, src, nelems, blk_size, in_place);
    if (kind == TUPC_RED_DST_ARRAY) {
        int a = tupc_red_prefix_apart(func, dst, src, nelems, blk_size);
        if (apart)
            *apart = a;
    }
    tupc_red_check_allocs(func, tupc_red_args(dst, src, nelems, blk_size), dst, kind, src, nelems,
                          blk_size, ty->size);
    return dst;
}

#endif
