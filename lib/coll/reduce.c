/* upc_all_reduceT (UPC 1.3 7.4.3.1) and the kernels of every reduction,
 * generated from the tables in reduce_types.h. Kept in one file with the
 * 1.3 functions, which then call their type's kernels directly (inlined):
 * with the kernels in a file of their own, reached through the table, an
 * 8-byte NO|NO reduce took 1.19 times as long (28.0 against 23.5 ns,
 * bench_small in turns).
 *
 * Built with -fpeel-loops where the compiler has it (lib/meson.build):
 * gcc unrolls the lane loops whole, and so keeps the lanes in registers,
 * at -O3 but not at -O2, the default build's; there an 8-lane sum of 4 MiB
 * of longs took 206 us against 56, and every type and operator but MIN on
 * doubles ran 2-4 times slower.
 *
 * Checks: op and func against the type, flags, src (null, phase below
 * blk_size, extent within the partitions), dst (shared TYPE *, anywhere).
 * Touches: each thread reads the src elements with affinity to it (LOCAL
 * layout) and writes its partial to its own scratch slot; the thread of dst
 * (the root) reads the partials, combines them in key order and writes dst.
 * For UPC_NONCOMM_FUNC over more blocks than threads (CHUNK layout) each
 * thread reads an index range of src, which lies in any partition. Small
 * calls: one thread, the worker, reads all of src and writes dst (see
 * reduce_direct).
 * Sync: no barrier except for IN_ALLSYNC with more than TUPC_TEAM_SCAN_MAX
 * threads. OUT_ALLSYNC (and OUT_MYSYNC for CHUNK) waits for the root's
 * finished counter only: the root finishes after every partial was
 * published, i.e. after every read of src, and after its write of dst. */
#include "observe/trace.h"
#include "coll/reduce_types.h"

#include "check/error.h"
#include "coll/copy.h"
#include "coll/syncmode.h"
#include "heap/heap.h"

#include <stdint.h>
#include <string.h>

/* ---- Kernels -------------------------------------------------------------- */

/* Lanes of independent accumulators: 64 bytes of them, so the compiler can
 * keep them in vector registers; the lanes are combined in lane order, so
 * the result is a fixed function of the input (floating results differ from
 * a left-to-right sum only by the grouping, which 7.4.3 para 3 allows). The
 * lanes start from elements 1..NL rather than from an identity: complex MULT
 * has none that keeps every sign of zero (the results are those an identity
 * gives for the real types). */
#define TUPC_LANES(TYPE) (sizeof(TYPE) >= 16 ? 4 : 64 / sizeof(TYPE))

/* A scan's start, for the kernels and the user functions alike: from the
 * seed, or from s[0] (written to d[0] unless exclusive) with element 1 next.
 * Reads s, d, seed and excl of the scan it stands in. */
#define TUPC_SCAN_START(acc, i)                                                                    \
    do {                                                                                           \
        (i) = 0;                                                                                   \
        if (seed) {                                                                                \
            (acc) = *seed;                                                                         \
        } else {                                                                                   \
            (acc) = s[0];                                                                          \
            if (!excl)                                                                             \
                d[0] = (acc);                                                                      \
            (i) = 1;                                                                               \
        }                                                                                          \
    } while (0)

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
            size_t i;                                                                              \
            TYPE_ acc;                                                                             \
            TUPC_SCAN_START(acc, i);                                                               \
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
            size_t i;                                                                              \
            TYPE acc;                                                                              \
            TUPC_SCAN_START(acc, i);                                                               \
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

/* ---- Argument checks --------------------------------------------------------- */

static const char *const op_names[] = {"UPC_ADD", "UPC_MULT",   "UPC_AND",         "UPC_OR",
                                       "UPC_XOR", "UPC_LOGAND", "UPC_LOGOR",       "UPC_MIN",
                                       "UPC_MAX", "UPC_FUNC",   "UPC_NONCOMM_FUNC"};

void tupc_red_check_op_full(const char *func, const struct tupc_red_type *ty, upc_op_t op,
                            tupc_red_fn f)
{
    if (tupc_red_op_index(op) < 0)
        tupc_fail(func, "UPC 1.3 7.4.3 para 1",
                  "op is %d; expected one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, "
                  "UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, UPC_FUNC, UPC_NONCOMM_FUNC",
                  op);
    if (op <= UPC_MAX && !(ty->ops & (unsigned)op)) {
        if (ty->kind == TUPC_RED_BOOL)
            tupc_fail(func, "Extended Collectives 0.3 5.5.1 item 12",
                      "op is %s on type _Bool; expected UPC_LOGAND, UPC_LOGOR, UPC_FUNC or "
                      "UPC_NONCOMM_FUNC",
                      op_names[tupc_red_op_index(op)]);
        if (ty->kind == TUPC_RED_CPX && (op == UPC_MIN || op == UPC_MAX))
            tupc_fail(func, "Extended Collectives 0.3 5.5; tupc refuses it",
                      "op is %s on complex type %s, and complex numbers have no order; expected "
                      "UPC_ADD, UPC_MULT, UPC_LOGAND, UPC_LOGOR, UPC_FUNC or UPC_NONCOMM_FUNC",
                      op_names[tupc_red_op_index(op)], ty->name);
        if (ty->kind == TUPC_RED_CPX)
            tupc_fail(func, "Extended Collectives 0.3 5.5",
                      "op is %s, a bitwise operator, on complex type %s; expected UPC_ADD, "
                      "UPC_MULT, UPC_LOGAND, UPC_LOGOR, UPC_FUNC or UPC_NONCOMM_FUNC",
                      op_names[tupc_red_op_index(op)], ty->name);
        tupc_fail(func, "UPC 1.3 7.4.3 para 2",
                  "op is %s, a bitwise operator, on floating type %s; expected an arithmetic, "
                  "logical, MIN/MAX or function operator",
                  op_names[tupc_red_op_index(op)], ty->name);
    }
    if ((op == UPC_FUNC || op == UPC_NONCOMM_FUNC) && !f)
        tupc_fail(func, "UPC 1.3 7.4.3 para 1", "op is %s but func is NULL; expected a function",
                  op_names[tupc_red_op_index(op)]);
}

void tupc_red_dst_all_fail(const char *func, tupc_sptr_t dst)
{
    tupc_fail(func, "Extended Collectives 0.3 5.5.1 item 10",
              "dst has affinity to thread %u; expected dst, treated as shared [1] TYPE [THREADS], "
              "to have affinity to thread 0",
              dst.thread);
}

void tupc_red_check_array_full(const char *func, const char *arg, tupc_sptr_t p, size_t nelems,
                               size_t blk_size, size_t esize)
{
    if (blk_size > UPC_MAX_BLOCK_SIZE)
        tupc_fail(func, "UPC 1.3 6.5.1.1",
                  "blk_size is %zu; expected at most UPC_MAX_BLOCK_SIZE (%zu)", blk_size,
                  (size_t)UPC_MAX_BLOCK_SIZE);
    if (nelems == 0)
        return;
    size_t bytes; /* no division: this runs on every call */
    if (__builtin_mul_overflow(nelems, esize, &bytes) || bytes > PTRDIFF_MAX)
        tupc_fail(func, "UPC 1.3 7.4.3",
                  "nelems is %zu; expected at most %zu elements of %zu bytes", nelems,
                  (size_t)PTRDIFF_MAX / esize, esize);
    if (blk_size == 0) {
        (void)tupc_check_in_partition(func, arg, p, bytes);
        return;
    }
    if (p.phase >= blk_size)
        tupc_fail(func, "UPC 1.3 7.4.3.1 para 8",
                  "%s has phase %u; expected less than blk_size %zu", arg, p.phase, blk_size);
    if (p.phase + nelems <= blk_size) { /* within the first block: no division */
        (void)tupc_check_in_partition(func, arg, p, bytes);
        return;
    }
    (void)tupc_check_in_partition(func, arg, p, esize);
    /* The far ends: the last element, and the end of the block before it
     * (threads with a full block in the last course reach further). */
    size_t nb = (p.phase + nelems + blk_size - 1) / blk_size;
    (void)tupc_check_in_partition(func, arg,
                                  tupc_ptr_add(p, (ptrdiff_t)nelems - 1, blk_size, esize), esize);
    if (nb >= 2)
        (void)tupc_check_in_partition(
            func, arg,
            tupc_ptr_add(p, (ptrdiff_t)((nb - 1) * blk_size - p.phase) - 1, blk_size, esize),
            esize);
}

/* ---- upc_all_reduceT --------------------------------------------------------- */

_Static_assert(sizeof(union tupc_red_val) <= TUPC_EAGER_BYTES, "a partial fits an eager line");

/* Small calls: one thread (the worker) reads every element itself, in
 * index order, through plain pointers into the other partitions, and writes
 * dst. A few lines of src cost it no more than as many partials would, and
 * the other threads then touch no data at all: they wait for nobody on
 * entry, and on exit at most for the worker.
 *
 * The worker is the root (the thread of dst), except with ALLSYNC|ALLSYNC,
 * where it is thread (call number % THREADS). There every call is two hops
 * in a row: all entries to the worker, then the worker's finish to all. With
 * a fixed root and 2 threads both hops cost a cache-line transfer. With a
 * rotating worker, the thread that learns of call s's finish is the worker
 * of call s + 1, and s's worker stores its finish of s and its entry to
 * s + 1 in one line, moments apart: one transfer often brings both, so back
 * to back calls pay about one transfer each, as a barrier does. */
/* Call c on team t after tupc_red_enter(..., worker): IN_ALLSYNC's scan is
 * done on the worker, so only IN_MYSYNC and OUT_* are left. Ranks are t's;
 * src's elements may lie with any thread, a non-member's counting as ready
 * at entry (Extended Collectives 0.3 on teams). */
static void reduce_direct(const struct tupc_red_type *ty, struct tupc_coll *c,
                          const struct tupc_team *t, int worker, tupc_sptr_t dst, tupc_sptr_t src,
                          upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
                          enum tupc_sync in, enum tupc_sync out)
{
    const int n = tupc_team_n(t), me = tupc_coll_rank(c, t);
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, 0);
    /* Exit waits are all done here, as OUT_MYSYNC waits on listed threads. */
    const enum tupc_sync out_given = out;
    c->out = TUPC_MYSYNC;
    if (me != worker) {
        /* The worker read my src (if I hold any) and wrote dst (if it has
         * my affinity): OUT_MYSYNC waits for it only then, OUT_ALLSYNC
         * always (the worker finishes only after every member has entered,
         * see below). The worker is dst's thread except under ALLSYNC|ALLSYNC
         * or when dst lies outside the team. */
        size_t lo;
        int wait = out_given == TUPC_ALLSYNC ||
                   (out_given == TUPC_MYSYNC &&
                    tupc_red_piece(&L, tupc_red_key(&L, tupc_impl_mythread), &lo));
        tupc_coll_leave_for(c, &worker, wait);
        return;
    }
    if (in == TUPC_MYSYNC) /* every member holding src has entered */
        for (int k = 0; k < L.T; k++) {
            size_t lo;
            int r;
            if (tupc_red_piece(&L, k, &lo) &&
                (r = tupc_team_rank_in(t, tupc_red_thread(&L, k))) >= 0)
                tupc_coll_need(c, r);
        }
    if (nelems) { /* nelems == 0: dst is left as it was */
        union tupc_red_val acc;
        tupc_red_range(ty, &L, 0, nelems, op, f, &acc);
        tupc_copy_elem(dst.addr, &acc, ty->size);
    }
    /* OUT_ALLSYNC: "all threads have completed" means all have entered
     * (they have nothing else to do); IN_ALLSYNC already waited for that,
     * IN_MYSYNC for the holders of src only. */
    if (out_given == TUPC_ALLSYNC && in != TUPC_ALLSYNC)
        for (int j = 0; j < n; j++)
            if (j != me)
                tupc_coll_wait_entered(c, j);
    tupc_coll_leave_alone(c); /* my data was touched by me only */
}

/* The rank of t that combines a reduction to dst: dst's thread, or rank 0
 * when dst lies outside the team. On UPC_TEAM_ALL (a constant in the 1.3
 * functions) dst's thread as it is: a bad one is refused by the checks,
 * which come before any thread waits for it or touches data. */
static inline int reduce_root(const struct tupc_team *t, tupc_sptr_t dst)
{
    if (t == &tupc_team_all_)
        return (int)dst.thread;
    int r = tupc_team_rank_in(t, (int)dst.thread);
    return r >= 0 ? r : 0;
}

/* The pointer checks of reduce_one_block, whose arguments a loop repeats:
 * in the partition, then in a live allocation, made once per distinct call
 * between frees (heap/range_check.h). `args` (the call's signature, from
 * tupc_red_begin) holds dst.addr, src.addr, nelems and blk_size; the key
 * adds the threads and phases, so it covers every argument the checks
 * read. A call that fails is never remembered. */
static __attribute__((noinline)) void check_ptrs_slow(const struct tupc_red_type *ty,
                                                      const char *func, tupc_sptr_t dst,
                                                      tupc_sptr_t src, size_t nelems,
                                                      size_t blk_size, uint64_t key, uint32_t gen)
{
    (void)tupc_red_check_areas(ty, func, TUPC_RED_DST_ONE, dst, src, nelems, blk_size, 0);
    tupc_red_alloc_checks(func, dst, TUPC_RED_DST_ONE, src, nelems, blk_size, ty->size);
    tupc_call_seen(key, gen);
}

static inline void check_ptrs_once(const struct tupc_red_type *ty, const char *func, uint64_t args,
                                   tupc_sptr_t dst, tupc_sptr_t src, size_t nelems, size_t blk_size)
{
    uint64_t key = tupc_red_check_key(func, args, dst, src);
    uint32_t gen;
    if (__builtin_expect(tupc_call_unseen(key, &gen), 0))
        check_ptrs_slow(ty, func, dst, src, nelems, blk_size, key, gen);
}

/* A small call whose src lies in one block (or has no blocks), the most
 * common small call, as reduce_direct does it with nothing left to lay out:
 * one thread holds all of src, which the worker reads in one run. Inlined
 * into each upc_all_reduceT, so the type's size is a constant, and into the
 * team form (tupc_red_reduce_on).
 *
 * With ALLSYNC|ALLSYNC and a rotating worker, back-to-back calls cost one
 * transfer each only if a thread's entry to call s + 1 reaches the worker
 * of s + 1 in the same transfer as its finish of s, i.e. if it stores both
 * within about half a transfer. So this path enters first and checks its
 * arguments after: a bad argument stops the run all the same, before this
 * thread touches data, and no peer has used ours (each reads and writes
 * through its own checked arguments; the one that compares signatures
 * stops the run too). Threads other than the worker touch no data: they
 * store their finish with their entry, so their line is written once per
 * call. They still compare the worker's call with theirs when they wait
 * for it: threads that disagree on the flags may disagree on who the
 * worker is, and then nobody else compares (test_coll_mismatch). */
static inline __attribute__((always_inline)) void
reduce_one_block(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                 tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                 tupc_red_fn f, upc_flag_t flags)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    tupc_coll_flags(func, flags, &in, &out);
    /* src's holder is read where a mode needs it: NO|NO and ALL|ALL do not.
     * A split team's rank map is loaded here, beside the caller's rank, so
     * that a rank read after the entry waits for one load, not three. */
    const int me = t == &tupc_team_all_ ? tupc_impl_mythread : tupc_coll_self_on(t)->me;
    const int *const rank = t == &tupc_team_all_ ? NULL : t->rank;
    const int rotate = in == TUPC_ALLSYNC && out == TUPC_ALLSYNC;
    struct tupc_coll c;
    int worker = tupc_red_begin(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f,
                                rotate ? TUPC_RED_ROTATE : reduce_root(t, dst), dst.addr);
    if (me != worker)
        tupc_coll_finish(&c); /* nothing to touch: in the same burst as the entry */
    tupc_red_check_op(func, ty, op, f);
    check_ptrs_once(ty, func, c.args, dst, src, nelems, blk_size);
    if (me != worker) {
        if (out == TUPC_ALLSYNC ||
            (out == TUPC_MYSYNC && me == (rank ? rank[src.thread] : (int)src.thread)))
            tupc_coll_wait_finished(&c, worker);
        return;
    }
    tupc_red_wait_in(&c, t, in, worker);
    if (in == TUPC_MYSYNC) {
        const int holder = rank ? rank[src.thread] : (int)src.thread;
        if (holder >= 0)
            tupc_coll_need(&c, holder);
    }
    if (nelems == 1) { /* one element reduces to itself, whatever op is */
        tupc_copy_elem(dst.addr, src.addr, ty->size);
    } else {
        union tupc_red_val acc;
        ty->reduce(op, f, src.addr, nelems, &acc);
        tupc_copy_elem(dst.addr, &acc, ty->size);
    }
    /* OUT_ALLSYNC: as in reduce_direct, every member must have entered. */
    if (out == TUPC_ALLSYNC && in != TUPC_ALLSYNC)
        for (int j = 0, n = tupc_team_n(t); j < n; j++)
            if (j != me)
                tupc_coll_wait_entered(&c, j);
    tupc_coll_finish(&c);
}

/* The checks of a call that reduce_one_block does not take, written once
 * for one process and across processes; the flags parsed into in and out. */
static inline void reduce_check(const struct tupc_red_type *ty, const char *func, tupc_sptr_t dst,
                                tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                                tupc_red_fn f, upc_flag_t flags, enum tupc_sync *in,
                                enum tupc_sync *out)
{
    tupc_require_thread(func);
    (void)tupc_red_check_call(ty, func, TUPC_RED_DST_ONE, dst, src, op, nelems, blk_size, f, flags,
                              0, in, out, NULL);
}

static void reduce_partials(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                            tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                            size_t blk_size, tupc_red_fn f, upc_flag_t flags, enum tupc_sync in,
                            enum tupc_sync out);

/* Every call that reduce_one_block does not take: checks, then the small
 * calls (reduce_direct) or the partials. */
static __attribute__((noinline)) void reduce_checked(const struct tupc_red_type *ty,
                                                     const char *func, struct tupc_team *t,
                                                     tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                                     size_t nelems, size_t blk_size, tupc_red_fn f,
                                                     upc_flag_t flags)
{
    /* Every traced call comes here (alg.red_direct). */
    TUPC_TRACE_VOID(reduce_checked(ty, func, t, dst, src, op, nelems, blk_size, f, flags), func,
                    (uint64_t)nelems * ty->size, flags, t == &tupc_team_all_ ? 0 : (int)t->id);
    enum tupc_sync in, out;
    reduce_check(ty, func, dst, src, op, nelems, blk_size, f, flags, &in, &out);

    if (tupc_red_is_direct(t, nelems, ty->size)) {
        const int rotate = in == TUPC_ALLSYNC && out == TUPC_ALLSYNC;
        struct tupc_coll c;
        int worker = tupc_red_enter(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f,
                                    rotate ? TUPC_RED_ROTATE : reduce_root(t, dst), dst.addr);
        reduce_direct(ty, &c, t, worker, dst, src, op, nelems, blk_size, f, in, out);
        return;
    }
    reduce_partials(ty, func, t, dst, src, op, nelems, blk_size, f, flags, in, out);
}

/* Whether a call takes reduce_one_block: nelems in 1 .. the direct limit,
 * all in one block (no overflow, and a phase below blk_size), on a team
 * whose small reductions have one member read. A team's call was traced by
 * its form. */
static inline int reduce_is_one_block(const struct tupc_red_type *ty, const struct tupc_team *t,
                                      tupc_sptr_t src, size_t nelems, size_t blk_size)
{
    return nelems - 1 < TUPC_RED_DIRECT_MAX / ty->size &&
           (blk_size == 0 || (blk_size <= UPC_MAX_BLOCK_SIZE && src.phase + nelems <= blk_size)) &&
           t->alg.red_direct;
}

static inline __attribute__((always_inline)) void
reduce_entry(const struct tupc_red_type *ty, const char *func, struct tupc_team *t, tupc_sptr_t dst,
             tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
             upc_flag_t flags)
{
    if (reduce_is_one_block(ty, t, src, nelems, blk_size))
        reduce_one_block(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
    else
        reduce_checked(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
}

/* Out of line, so that the small calls above do not pay for its frame.
 * Each member reduces its own piece (LOCAL) or index range (CHUNK): the
 * caller has made sure that t's members hold every piece
 * (tupc_red_reduce_on). */
static __attribute__((noinline)) void
reduce_partials(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                tupc_red_fn f, upc_flag_t flags, enum tupc_sync in, enum tupc_sync out)
{
    const int n = tupc_team_n(t), me = tupc_team_my_rank(t), root = reduce_root(t, dst);
    struct tupc_coll c;
    tupc_red_enter(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f, TUPC_RED_ALL,
                   NULL);

    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, op == UPC_NONCOMM_FUNC);
    if (L.chunk && in == TUPC_MYSYNC)
        for (int j = 0; j < n; j++)
            tupc_coll_need(&c, j); /* an index range may lie in any partition */

    union tupc_red_val mine;
    int have = tupc_red_partial(ty, &L, tupc_red_key(&L, tupc_impl_mythread), op, f, &mine);
    if (me != root) {
        tupc_red_eager_send(ty, &c, have, &mine);
    } else {
        union tupc_red_val acc;
        int any = tupc_red_eager_combine(ty, &c, t, &L, op, f, &mine, &acc);
        if (any) /* nelems == 0: dst is left as it was */
            memcpy(dst.addr, &acc, ty->size);
    }

    if (out == TUPC_ALLSYNC || (out == TUPC_MYSYNC && L.chunk)) {
        c.out = TUPC_MYSYNC;
        tupc_coll_leave_for(&c, &root, me == root ? 0 : 1);
    } else {
        /* OUT_MYSYNC, LOCAL: no member but me touched data of mine; dst's
         * thread, if not the root, is outside the team. */
        tupc_coll_leave_alone(&c);
    }
}

static inline __attribute__((always_inline)) int
reduce_on(const struct tupc_red_type *ty, const char *func, struct tupc_team *t, tupc_sptr_t dst,
          tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
          upc_flag_t flags)
{
    if (reduce_is_one_block(ty, t, src, nelems, blk_size)) { /* first: the small calls */
        reduce_one_block(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
        return 1;
    }
    /* The partials path needs every piece held by a member. */
    if (!tupc_red_is_direct(t, nelems, ty->size) &&
        !tupc_red_pieces_fit(t, src, op, nelems, blk_size, ty->size))
        return 0;
    reduce_checked(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
    return 1;
}

#if TUPC_HAVE_MPI
/* Across processes (mpi/hier*.c), after the checks of the single-process
 * path: upc_all_reduceT (dst_kind TUPC_RED_DST_ONE) and, from
 * reduce_all.c, upc_all_reduce_allT (TUPC_RED_DST_EVERY). */
__attribute__((noinline)) void tupc_red_mpi(const struct tupc_red_type *ty, const char *func,
                                            enum tupc_red_dst dst_kind, tupc_sptr_t dst,
                                            tupc_sptr_t src, upc_op_t op, size_t nelems,
                                            size_t blk_size, tupc_red_fn f, upc_flag_t flags)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    /* Each kind a constant, so that the checks of the prefix's dst fold
     * away (their note lives in prefix_reduce.c, which calls this file). */
    if (dst_kind == TUPC_RED_DST_EVERY)
        dst = tupc_red_check_call(ty, func, TUPC_RED_DST_EVERY, dst, src, op, nelems, blk_size, f,
                                  flags, 0, &in, &out, NULL);
    else
        dst = tupc_red_check_call(ty, func, TUPC_RED_DST_ONE, dst, src, op, nelems, blk_size, f,
                                  flags, 0, &in, &out, NULL);
    tupc_check_not_split(func);
    const struct tupc_mpi_call c = {
        func,
        (unsigned)flags,
        tupc_sig(tupc_red_sig(dst, src, op, nelems, blk_size, f), (uint64_t)(unsigned)flags),
        (int)in,
        (int)out,
        NULL};
    void (*fn)(void) = (void (*)(void))f;
    if (dst_kind == TUPC_RED_DST_EVERY)
        tupc_mpi_reduce_all(&c, ty, dst, src, op, nelems, blk_size, fn);
    else if (op == UPC_NONCOMM_FUNC) /* in index order, by blocks (mpi/hier_prefix.c) */
        tupc_mpi_reduce_ordered(&c, ty, dst, src, op, nelems, blk_size, fn);
    else
        tupc_mpi_reduce(&c, ty, dst, src, op, nelems, blk_size, fn);
}
#define TUPC_REDUCE_MPI(T, func)                                                                   \
    if (__builtin_expect(tupc_procs_ > 1, 0)) {                                                    \
        tupc_red_mpi(&tupc_red_##T, "upc_all_reduce" #T, TUPC_RED_DST_ONE, dst, src, op, nelems,   \
                     blk_size, (tupc_red_fn)func, flags);                                          \
        return;                                                                                    \
    }
#else
#define TUPC_REDUCE_MPI(T, func)
#endif

#define TUPC_DEFINE_REDUCE(T, TYPE, ARITH, KIND)                                                   \
    void upc_all_reduce##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,           \
                           size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags)            \
    {                                                                                              \
        TUPC_REDUCE_MPI(T, func)                                                                   \
        reduce_entry(&tupc_red_##T, "upc_all_reduce" #T, &tupc_team_all_, dst, src, op, nelems,    \
                     blk_size, (tupc_red_fn)func, flags);                                          \
    }
TUPC_REDUCE_TYPES_13(TUPC_DEFINE_REDUCE)

/* The team forms' entries, one per type as the 1.3 functions', so that a
 * small call on a team runs the same inlined kernel. */
#define TUPC_DEFINE_REDUCE_ON(T, TYPE, ARITH, KIND)                                                \
    int tupc_red_reduce_on##T(const char *func, struct tupc_team *t, tupc_sptr_t dst,              \
                              tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,        \
                              tupc_red_fn f, upc_flag_t flags)                                     \
    {                                                                                              \
        return reduce_on(&tupc_red_##T, func, t, dst, src, op, nelems, blk_size, f, flags);        \
    }
TUPC_REDUCE_TYPES_13(TUPC_DEFINE_REDUCE_ON)

tupc_red_team_path_fn *tupc_red_team_reduce_path_;

/* tupc_team_reduceT: on UPC_TEAM_ALL the 1.3 function's call; a blocking
 * call on another team runs reduce_on inlined here, as upc_all_reduceT runs
 * reduce_entry, so that a small call pays no second call with its ten
 * arguments (an 8-byte reduceL on a split team: 31 instructions fewer); a
 * traced call goes out of line to reduce_checked, which opens its span (a
 * team's red_direct is off while a trace or the stats are on); the rest
 * (posted, pieces held by non-members) takes reduce_team.c's path. */
#define TUPC_DEFINE_TEAM_REDUCE(T, TYPE, ARITH, KIND)                                              \
    upc_coll_handle_t tupc_team_reduce##T(                                                         \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t flags, upc_team_t team)                               \
    {                                                                                              \
        TUPC_TEAM_FORM_ON_ALL(team, flags, "upc_all_reduce" #T, "tupc_team_reduce" #T,             \
                              upc_all_reduce##T(dst, src, op, nelems, blk_size, func, flags));     \
        /* team != UPC_TEAM_ALL with !UPC_ASYNC follows from the line above;                       \
         * said, so that the inlined path's tests for UPC_TEAM_ALL fold. */                        \
        if (team != UPC_TEAM_ALL && !(flags & UPC_ASYNC) && tupc_procs_ == 1 &&                    \
            reduce_on(&tupc_red_##T, "tupc_team_reduce" #T,                                        \
                      tupc_team_get("tupc_team_reduce" #T, team), dst, src, op, nelems, blk_size,  \
                      (tupc_red_fn)func, flags))                                                   \
            return UPC_HANDLE_COMPLETE;                                                            \
        tupc_require_thread("tupc_team_reduce" #T); /* the hook is unset outside a run */          \
        return tupc_red_team_reduce_path_(&tupc_red_##T, "tupc_team_reduce" #T, dst, src, op,      \
                                          nelems, blk_size, (tupc_red_fn)func, flags, team,        \
                                          tupc_red_reduce_on##T);                                  \
    }
TUPC_REDUCE_TYPES_13(TUPC_DEFINE_TEAM_REDUCE)
