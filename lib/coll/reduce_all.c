/* upc_all_reduce_allT (Extended Collectives 0.3 5.5.1): the reduction of
 * upc_all_reduceT, with its one result in dst[i] for every i < THREADS.
 *
 * Footnote 7 wants every dst[i] to compare equal even where floating
 * roundoff depends on the order: so one thread (the worker) computes the
 * result, once, in the fixed key order of reduce_types.h, and the others
 * only copy its bits. No thread computes a result of its own.
 *
 * Checks: op and func against the type (_Bool takes LOGAND, LOGOR and the
 * function operators only, item 12; complex types no MIN, MAX or bitwise
 * operator), flags, src as for upc_all_reduceT, dst (items 9 to 11):
 * affinity to thread 0, its phase ignored, its element in every partition
 * inside one live symmetric allocation.
 * Touches: one thread, the worker, writes every dst[i] and the others touch
 * no dst (OUT_NOSYNC, OUT_ALLSYNC: they wait for the worker's finish, which
 * comes after every read and write of the call; OUT_MYSYNC: the same), or
 * the worker posts the result in its eager line (the signal and the bits in
 * one line) and each thread copies it into its own dst[i], waiting for that
 * line only, which the worker fills after its last read of src: where it
 * pays, OUT_MYSYNC of calls larger than small, and small ones whose worker
 * waits for nobody before it reads (src in one block, not IN_ALLSYNC).
 * Small calls (TUPC_RED_DIRECT_MAX bytes of src, at most TUPC_TEAM_SCAN_MAX
 * threads), as upc_all_reduceT's: the worker reads every element itself;
 * it is the thread of src, or, where it writes every dst[i] and the others
 * wait for it (OUT_MYSYNC, OUT_ALLSYNC), thread (call number % THREADS), for
 * the reason reduce.c gives. Larger calls: each thread reduces its piece and
 * hands the partial to thread 0, the worker, which combines them in key
 * order.
 * IN_MYSYNC: the worker waits for the threads whose src it reads and, where
 * it writes every dst[i], for every thread. */
#include "observe/trace.h"
#include "coll/reduce_types.h"

#include <upc_collective_ext.h>

#include "check/error.h"
#include "coll/copy.h"
#include "coll/syncmode.h"
#include "heap/heap.h"

#include <string.h>

/* The worker's result in its eager line: a byte `have` (0 when nelems is 0:
 * dst is then left as it was), and the value at RESULT_AT. The line's data
 * is 8 bytes into a cache line, so the value lands 16-byte aligned, as a
 * long double (complex) needs; both are written and read as bytes. */
#define RESULT_AT 8
_Static_assert(RESULT_AT + sizeof(union tupc_red_val) <= TUPC_EAGER_BYTES,
               "a result fits an eager line");

/* The worker's part after the entry: the result into every dst[i] (each ==
 * 0) or into its eager line and its own dst[i] (each == 1). */
static void hand_out(const struct tupc_red_type *ty, const struct tupc_coll *c,
                     const struct tupc_team *t, tupc_sptr_t dst, const union tupc_red_val *v,
                     int have, int each)
{
    const int me = MYTHREAD;
    if (each) {
        unsigned char *line = tupc_coll_eager_claim(c);
        line[0] = (unsigned char)have;
        memcpy(line + RESULT_AT, v, ty->size);
        tupc_coll_eager_post(c);
        if (have)
            tupc_copy_elem(tupc_red_dst_of(dst, me), v, ty->size);
    } else if (have) {
        for (int r = 0, n = tupc_team_n(t); r < n; r++) /* every member's element */
            tupc_copy_elem(tupc_red_dst_of(dst, tupc_team_thread_of(t, r)), v, ty->size);
    }
}

/* A thread other than the worker under OUT_MYSYNC: its dst[i] from the
 * worker's eager line. */
static void take_result(const struct tupc_red_type *ty, const struct tupc_coll *c, tupc_sptr_t dst,
                        int worker)
{
    const unsigned char *line = tupc_coll_eager_wait(c, worker);
    if (line[0])
        tupc_copy_elem(tupc_red_dst_of(dst, MYTHREAD), line + RESULT_AT, ty->size);
}

/* Each member reduces its piece; rank 0 combines them. The caller has made
 * sure that t's members hold every piece (tupc_red_covers). */
static void all_partials(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                         tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                         size_t blk_size, tupc_red_fn f, upc_flag_t flags, enum tupc_sync in,
                         enum tupc_sync out)
{
    const int T = tupc_team_n(t), me = tupc_team_my_rank(t), root = 0;
    const int each = out == TUPC_MYSYNC;
    struct tupc_coll c;
    tupc_red_enter(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f, TUPC_RED_ALL,
                   NULL);
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, op == UPC_NONCOMM_FUNC);
    /* An index range may lie in any partition; the root may write every dst[i]. */
    if (in == TUPC_MYSYNC && (L.chunk || (!each && me == root)))
        for (int j = 0; j < T; j++)
            tupc_coll_need(&c, j);

    union tupc_red_val mine;
    int have = tupc_red_partial(ty, &L, tupc_red_key(&L, tupc_impl_mythread), op, f, &mine);
    if (me != root) {
        tupc_red_eager_send(ty, &c, have, &mine);
        if (each)
            take_result(ty, &c, dst, root);
    } else {
        union tupc_red_val acc;
        int any = tupc_red_eager_combine(ty, &c, t, &L, op, f, &mine, &acc);
        hand_out(ty, &c, t, dst, &acc, any, each);
    }

    /* OUT_MYSYNC: my src was read by me, or (CHUNK) by threads that posted
     * their partials before the root posted the result I waited for; my
     * dst[i] was written by me. OUT_ALLSYNC: the root finishes after every
     * read and write. */
    c.out = TUPC_MYSYNC;
    if (out == TUPC_ALLSYNC)
        tupc_coll_leave_for(&c, &root, me != root);
    else
        tupc_coll_leave_alone(&c);
}

/* The pointer checks of all_small, made once per distinct call between
 * frees (heap/range_check.h), as reduce.c's check_ptrs_once: the key covers
 * every argument they read (dst's phase is 0 by then). */
static __attribute__((noinline)) void check_ptrs_slow(const struct tupc_red_type *ty,
                                                      const char *func, tupc_sptr_t dst,
                                                      tupc_sptr_t src, size_t nelems,
                                                      size_t blk_size, uint64_t key, uint32_t gen)
{
    (void)tupc_red_check_areas(ty, func, TUPC_RED_DST_EVERY, dst, src, nelems, blk_size, 0);
    tupc_red_alloc_checks(func, dst, TUPC_RED_DST_EVERY, src, nelems, blk_size, ty->size);
    tupc_call_seen(key, gen);
}

/* Small calls (TUPC_RED_DIRECT_MAX bytes of src, at most TUPC_TEAM_SCAN_MAX
 * threads), as reduce.c's reduce_one_block does them and for the same
 * reasons: inlined with the type's size a constant, they enter first and
 * check after (a bad argument still stops the run before this thread
 * touches data or waits), a thread that touches no data (OUT_NOSYNC,
 * OUT_ALLSYNC) stores its finish with its entry, and the worker reads every
 * element itself: one run when src lies in one block. */
static inline __attribute__((always_inline)) void
all_small(const struct tupc_red_type *ty, const char *func, struct tupc_team *t, tupc_sptr_t dst,
          tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
          upc_flag_t flags)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    tupc_coll_flags(func, flags, &in, &out);
    const int T = tupc_team_n(t), me = tupc_team_my_rank(t);
    /* src.thread is read only when there are elements (it is checked then);
     * on a team src may lie with a non-member (-1), whose data counts as
     * ready at entry, and rank 0 works. */
    const int held = nelems ? tupc_team_rank_in(t, (int)src.thread) : 0;
    const int holder = held >= 0 ? held : 0;
    /* Each thread writes its own dst[i] (OUT_MYSYNC) where the worker waits
     * for nobody before it reads: then it runs ahead and the others take
     * its result as it comes. Where it must wait for others' entries, it
     * writes every dst[i] and the role rotates, so that back-to-back calls
     * cost one transfer each, as reduce.c explains. */
    const int one = blk_size == 0 || src.phase + nelems <= blk_size; /* all on holder */
    const int each = out == TUPC_MYSYNC && one && in != TUPC_ALLSYNC;
    const int rotate = !each && out != TUPC_NOSYNC;
    dst.phase = 0; /* item 11 */
    struct tupc_coll c;
    int worker = tupc_red_begin(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f,
                                rotate ? TUPC_RED_ROTATE : holder, NULL);
    if (me != worker && !each)
        tupc_coll_finish(&c); /* nothing to touch: in the same burst as the entry */
    tupc_red_check_op(func, ty, op, f);
    uint64_t key = tupc_red_check_key(func, c.args, dst, src);
    uint32_t gen;
    if (__builtin_expect(tupc_call_unseen(key, &gen), 0))
        check_ptrs_slow(ty, func, dst, src, nelems, blk_size, key, gen);
    if (me != worker) {
        if (each) {
            take_result(ty, &c, dst, worker);
            tupc_coll_finish(&c);
        } else if (out != TUPC_NOSYNC) {
            tupc_coll_wait_finished(&c, worker);
        }
        return;
    }
    if (!each) /* start taking every dst[i] for writing while the others enter */
        for (int r = 0; r < T; r++)
            __builtin_prefetch(tupc_red_dst_of(dst, tupc_team_thread_of(t, r)), 1);
    tupc_red_wait_in(&c, t, in, worker);
    union tupc_red_val acc;
    if (one) {
        if (in == TUPC_MYSYNC)
            for (int j = 0; j < T; j++)
                if (!each || j == held)
                    tupc_coll_need(&c, j);
        if (nelems == 1) /* one element reduces to itself, whatever op is */
            tupc_copy_elem(&acc, src.addr, ty->size);
        else if (nelems)
            ty->reduce(op, f, src.addr, nelems, &acc);
    } else { /* several blocks: the worker writes every dst[i] (each is 0) */
        if (in == TUPC_MYSYNC)
            for (int j = 0; j < T; j++)
                tupc_coll_need(&c, j);
        /* What tupc_red_range reads of a layout, without lay_init's division. */
        const struct tupc_red_lay L = {
            .src = src, .n = nelems, .B = blk_size, .es = ty->size, .T = tupc_impl_threads};
        tupc_red_range(ty, &L, 0, nelems, op, f, &acc);
    }
    hand_out(ty, &c, t, dst, &acc, nelems != 0, each);
    /* OUT_ALLSYNC: every thread has entered, as upc_all_reduceT's worker
     * sees it (reduce.c, reduce_direct). */
    if (out == TUPC_ALLSYNC && in != TUPC_ALLSYNC)
        for (int j = 0; j < T; j++)
            if (j != me)
                tupc_coll_wait_entered(&c, j);
    tupc_coll_finish(&c);
}

static int all_is_small(size_t nelems, size_t esize)
{
    return nelems <= TUPC_RED_DIRECT_MAX / esize;
}

/* Traced calls, and those with more threads or more bytes than all_small takes. */
static __attribute__((noinline)) void all_checked(const struct tupc_red_type *ty, const char *func,
                                                  struct tupc_team *t, tupc_sptr_t dst,
                                                  tupc_sptr_t src, upc_op_t op, size_t nelems,
                                                  size_t blk_size, tupc_red_fn f, upc_flag_t flags)
{
    /* Every traced call comes here (alg.red_direct). */
    TUPC_TRACE_VOID(all_checked(ty, func, t, dst, src, op, nelems, blk_size, f, flags), func,
                    (uint64_t)nelems * ty->size, flags, t == &tupc_team_all_ ? 0 : (int)t->id);
    tupc_require_thread(func);
    enum tupc_sync in, out;
    dst = tupc_red_check_call(ty, func, TUPC_RED_DST_EVERY, dst, src, op, nelems, blk_size, f,
                              flags, 0, &in, &out, NULL);
    if (all_is_small(nelems, ty->size) && tupc_team_scans(t))
        all_small(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
    else
        all_partials(ty, func, t, dst, src, op, nelems, blk_size, f, flags, in, out);
}

static inline __attribute__((always_inline)) void
reduce_all(const struct tupc_red_type *ty, const char *func, struct tupc_team *t, tupc_sptr_t dst,
           tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f,
           upc_flag_t flags)
{
    if (all_is_small(nelems, ty->size) && t->alg.red_direct)
        all_small(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
    else
        all_checked(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
}

/* On a team: 0, having done nothing, where the members do not hold every
 * piece that all_partials would have them reduce (tupc_red_pieces_fit). */
static inline __attribute__((always_inline)) int
reduce_all_on(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
              tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
              tupc_red_fn f, upc_flag_t flags)
{
    if (!(all_is_small(nelems, ty->size) && tupc_team_scans(t)) &&
        !tupc_red_pieces_fit(t, src, op, nelems, blk_size, ty->size))
        return 0;
    reduce_all(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
    return 1;
}

#if TUPC_HAVE_MPI
/* Across processes: reduce.c's seam (mpi/hier_prefix.c). */
#define TUPC_REDUCE_ALL_MPI(T)                                                                     \
    if (__builtin_expect(tupc_procs_ > 1, 0)) {                                                    \
        tupc_red_mpi(&tupc_red_##T, "upc_all_reduce_all" #T, TUPC_RED_DST_EVERY, dst, src, op,     \
                     nelems, blk_size, (tupc_red_fn)func, mode);                                   \
        return;                                                                                    \
    }
#else
#define TUPC_REDUCE_ALL_MPI(T)
#endif

#define TUPC_DEFINE_REDUCE_ALL(T, TYPE, ARITH, KIND)                                               \
    void upc_all_reduce_all##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,       \
                               size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t mode)         \
    {                                                                                              \
        TUPC_REDUCE_ALL_MPI(T)                                                                     \
        reduce_all(&tupc_red_##T, "upc_all_reduce_all" #T, &tupc_team_all_, dst, src, op, nelems,  \
                   blk_size, (tupc_red_fn)func, mode);                                             \
    }                                                                                              \
    int tupc_red_reduce_all_on##T(const char *func, struct tupc_team *t, tupc_sptr_t dst,          \
                                  tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,    \
                                  tupc_red_fn f, upc_flag_t flags)                                 \
    {                                                                                              \
        return reduce_all_on(&tupc_red_##T, func, t, dst, src, op, nelems, blk_size, f, flags);    \
    }
TUPC_REDUCE_TYPES(TUPC_DEFINE_REDUCE_ALL)
