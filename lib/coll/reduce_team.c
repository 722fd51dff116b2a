/* upc_all_reduceT, upc_all_prefix_reduceT and upc_all_reduce_allT on a
 * team (tupc extensions): tupc_team_reduceT, tupc_team_prefix_reduceT and
 * tupc_team_reduce_allT.
 *
 * The arrays are those of the 1.3 functions (any blocked layout over all
 * THREADS, their elements on any threads); the members of the team do the
 * work and synchronize among themselves. Member r takes the r-th of n
 * balanced index ranges, reduces it and publishes the partial in its
 * scratch slot. For a reduction, the member that holds dst (or rank 0 when
 * no member does) combines the partials in rank order, which is index order:
 * UPC_NONCOMM_FUNC holds. For a prefix reduction, member r combines the
 * partials of ranks below r into a seed and scans its range from it
 * (inclusive, or exclusive with UPC_EXCLUSIVE_PREFIX_REDUCE). For
 * reduce_all, rank 0 combines the partials once and writes the one result
 * to the element of dst of every member's thread (dst as in
 * upc_all_reduce_allT: one element at the same offset in every partition,
 * from thread 0), so every member's element holds the same bits.
 *
 * Sync: data with affinity to a non-member counts as ready at entry;
 * IN_MYSYNC waits for every member, as any member may read any element;
 * OUT_MYSYNC waits for every member to finish, for the same reason. On
 * UPC_TEAM_ALL each calls the 1.3 function.
 *
 * With UPC_ASYNC (a tupc extension, on any team, UPC_TEAM_ALL included) a
 * call posts: each member checks and enters as above (IN_MYSYNC waits for
 * every member at posting), and the member that would combine (rank 0 for
 * a prefix) records the members' computation as jobs: for a reduction one
 * per range, the last to finish combining the partials in rank order; for
 * a prefix one that walks the ranges in rank order. The same operations in
 * the same order as the blocking team form: the same bits (in one process;
 * across processes a posted call groups by processes or by blocks, the
 * blocking one by ranges: index order either way, floating-point bits
 * fixed for each form). Whoever runs chunks runs them (the progress
 * thread, members in completion calls), so the user's function may be
 * called on another thread than the posting one. */
#include "observe/trace.h"
#include "coll/reduce_types.h"

#include "check/error.h"
#include "coll/async.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#if TUPC_HAVE_MPI
#include "mpi/team.h"
#endif

#include <upc_collective_ext.h>

#include <stdlib.h>
#include <string.h>

enum what { REDUCE, PREFIX, ALL };

/* How a reduction's work is cut, the blocking form's way (the same bits):
 * RANGES the team's own (n balanced index ranges, in rank order), PIECES
 * the 1.3 paths' pieces (tupc_red_covers; in key order), ONE the 1.3 small
 * calls' (one thread reads all of src). */
enum cut { RANGES, PIECES, ONE };

/* A reduction's plan: its cut and what each piece reads. A blocking call
 * on the team's own path runs piece `me` on each member now and combines
 * in rank order; a posted one records one job per piece (take_piece) and
 * the last to finish combines them (combine_pieces): the same steps, so the
 * same bits. */
struct plan {
    const struct tupc_red_type *ty;
    struct tupc_red_lay L;
    tupc_sptr_t dst;
    upc_op_t op;
    tupc_red_fn f;
    enum cut cut;
    int n; /* pieces */
};

/* Piece k's partial into *part; 0 for an empty piece. */
static int take_piece(const struct plan *p, int k, union tupc_red_val *part)
{
    const struct tupc_red_type *ty = p->ty;
    if (p->cut == PIECES)
        return tupc_red_partial(ty, &p->L, k, p->op, p->f, part);
    size_t lo, m;
    if (p->cut == ONE)
        lo = 0, m = p->L.n;
    else
        tupc_red_range_of(p->L.n, p->n, k, &lo, &m);
    if (m && p->cut == ONE)
        tupc_red_range(ty, &p->L, 0, m, p->op, p->f, part);
    else if (m)
        tupc_red_walk(ty, &p->L, p->dst, lo, m, p->op, p->f, 0, NULL, part);
    return m != 0;
}

/* The combined result acc written where the call puts it: for ALL every
 * member's element of dst, else dst's one element. */
static void put_result(const struct tupc_red_type *ty, enum what what, const struct tupc_team *t,
                       tupc_sptr_t dst, const union tupc_red_val *acc)
{
    if (what == ALL)
        for (int r = 0, n = tupc_team_n(t); r < n; r++)
            memcpy(tupc_red_dst_of(dst, tupc_team_thread_of(t, r)), acc, ty->size);
    else
        memcpy(dst.addr, acc, ty->size);
}

/* An asynchronous call's computation (see the top); its request frees it. */
struct job {
    struct plan p;
    tupc_sptr_t src;
    enum what what;
    int excl, in_place;
    enum tupc_sync out;
    const struct tupc_team *t;
    _Atomic int pending;         /* REDUCE, ALL: pieces whose partial is not taken yet */
    struct tupc_red_part part[]; /* REDUCE, ALL: by piece */
};

/* REDUCE and ALL, one job per piece, run by anyone, maybe at once; the
 * last job to finish combines the partials in piece order and writes the
 * result, as the blocking form's combiner does. */
static void run_range(void *arg, size_t k)
{
    struct job *j = arg;
    const struct tupc_red_type *ty = j->p.ty;
    j->part[k].have = take_piece(&j->p, (int)k, &j->part[k].v);
    /* Acq_rel: every job's partial happens before its decrement, and so
     * before the last one's combine below. */
    if (atomic_fetch_sub_explicit(&j->pending, 1, memory_order_acq_rel) != 1)
        return;
    union tupc_red_val acc;
    int any = 0;
    for (int r = 0; r < j->p.n; r++) {
        if (!j->part[r].have)
            continue;
        if (any)
            ty->combine(j->p.op, j->p.f, &acc, &j->part[r].v);
        else
            memcpy(&acc, &j->part[r].v, ty->size);
        any = 1;
    }
    if (any)
        put_result(ty, j->what, j->t, j->p.dst, &acc);
}

/* PREFIX, one job: what the members of the blocking form do, one range
 * after another (a range's scan needs the partials of all before it): a
 * range's partial is taken before the range is scanned (in place, it is
 * its source), and folded into the seed of the next ones. */
static void run_prefix(void *arg, size_t k)
{
    (void)k;
    struct job *j = arg;
    const struct tupc_red_type *ty = j->p.ty;
    const struct plan *p = &j->p;
    if (tupc_red_prefix_serial(ty, j->t, p->dst, j->src, p->op, p->L.n, p->L.B, p->f, j->in_place,
                               j->excl, j->out))
        return;
    union tupc_red_val seed, part;
    int any = 0;
    for (int r = 0; r < p->n; r++) {
        size_t lo, m;
        tupc_red_range_of(p->L.n, p->n, r, &lo, &m);
        if (!m)
            continue;
        int last = r + 1 == p->n;
        if (!last)
            tupc_red_walk(ty, &p->L, p->dst, lo, m, p->op, p->f, 0, NULL, &part);
        tupc_red_walk(ty, &p->L, p->dst, lo, m, p->op, p->f, j->excl ? 2 : 1, any ? &seed : NULL,
                      NULL);
        if (last)
            break;
        if (any)
            ty->combine(p->op, p->f, &seed, &part);
        else
            memcpy(&seed, &part, ty->size);
        any = 1;
    }
}

/* The plan of a call on team t of n members, as its blocking form cuts it:
 * a reduction that the 1.3 paths take (one thread reads all of src, or the
 * pieces each thread holds) cut their way, else (and every prefix) the
 * team's n ranges in rank order. */
static struct plan plan_of(const struct tupc_red_type *ty, const struct tupc_team *t,
                           enum what what, const struct tupc_red_lay *L, tupc_sptr_t dst,
                           tupc_sptr_t src, upc_op_t op, size_t blk_size, tupc_red_fn f, int n)
{
    struct plan p = {.ty = ty, .L = *L, .dst = dst, .op = op, .f = f, .cut = RANGES, .n = n};
    if (what == PREFIX)
        return p;
    if (tupc_red_is_direct(t, L->n, ty->size)) {
        p.cut = ONE;
        p.n = 1;
        return p;
    }
    tupc_red_lay_init(&p.L, src, L->n, blk_size, ty->size, op == UPC_NONCOMM_FUNC);
    if (tupc_red_covers(t, &p.L)) {
        p.cut = PIECES;
        p.n = p.L.T;
    } else {
        p.L = *L;
    }
    return p;
}

/* Records the jobs of an asynchronous call in req. */
static void post_jobs(struct tupc_coll_request *req, const char *func, const struct job *proto)
{
    int prefix = proto->what == PREFIX, n = proto->p.n;
    struct job *j = malloc(sizeof *j + (prefix ? 0 : sizeof(struct tupc_red_part) * (size_t)n));
    if (!j)
        tupc_fail(func, "", "out of memory for an asynchronous reduction");
    memcpy(j, proto, sizeof *j);
    atomic_init(&j->pending, n);
    if (prefix)
        tupc_async_add_job(req, run_prefix, j, 0);
    else
        for (int r = 0; r < n; r++)
            tupc_async_add_job(req, run_range, j, (size_t)r);
}

/* A posted call's entry is made: the combiner records the jobs, the cut
 * its blocking call takes (the same bits), and every member posts. */
static upc_coll_handle_t post(const struct tupc_red_type *ty, const char *func, struct tupc_coll *c,
                              struct tupc_team *t, const struct tupc_red_lay *L, tupc_sptr_t dst,
                              tupc_sptr_t src, upc_op_t op, size_t blk_size, tupc_red_fn f,
                              enum what what, int in_place, int excl, enum tupc_sync out,
                              int combiner)
{
    const int me = tupc_coll_state(c)->me, n = tupc_coll_state(c)->size;
    struct tupc_coll_request *req = tupc_async_begin(t, me, func, out);
    if (combiner && L->n) {
        struct job proto = {.p = plan_of(ty, t, what, L, dst, src, op, blk_size, f, n),
                            .src = src,
                            .what = what,
                            .excl = excl,
                            .in_place = in_place,
                            .out = out,
                            .t = t};
        post_jobs(req, func, &proto);
    }
    tupc_coll_finish(c);
    return tupc_async_post(req);
}

#if TUPC_HAVE_MPI
/* How a reduction posted across processes runs (mpi/): by processes, each
 * folding its elements (hier_post_reduce.c: commuting operators, where the
 * team's processes hold the elements and a reduction's dst); by blocks,
 * their totals combined in index order (hier_post_blocks.c: the same
 * processes, UPC_NONCOMM_FUNC and the prefix reductions whose dst and src
 * share their layout); else by the blocking team cut's index ranges, a job
 * in steps (team_post_ranges.c; on UPC_TEAM_ALL its part, for a prefix
 * whose dst and src lie apart). */
enum post_how { BY_PROCESSES, BY_BLOCKS, BY_RANGES };

/* The post (kind: 0 a reduction, 1 a prefix reduction, 2 reduce_all) on
 * team t: the leader's request runs the job; every request is done once
 * the post's mark is set. */
static __attribute__((noinline)) upc_coll_handle_t
post_reduction(const struct tupc_red_type *ty, const struct tupc_mpi_call *mc, struct tupc_team *t,
               enum post_how how, int kind, int excl, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
               size_t nelems, size_t blk_size, tupc_red_fn f)
{
    struct tupc_coll_request *r =
        tupc_async_begin(t, tupc_team_rank_in(t, tupc_impl_mythread), mc->func, TUPC_NOSYNC);
    void (*const fn)(void) = (void (*)(void))f;
    void *job;
    tupc_word *mark;
    uint32_t p;
    if (how == BY_PROCESSES) {
        p = tupc_mpi_reduce_post(mc, ty, kind == 2, dst, src, op, nelems, blk_size, fn, &job,
                                 &mark);
        return tupc_async_post_also(r, tupc_mpi_reduce_post_job, job, mark, p);
    }
    if (how == BY_BLOCKS) {
        p = tupc_mpi_reduce_post_blocks(mc, ty, kind, excl, dst, src, op, nelems, blk_size, fn,
                                        &job, &mark);
        return tupc_async_post_also(r, tupc_mpi_reduce_blocks_job, job, mark, p);
    }
    struct tupc_mpi_call on = *mc;
    on.team = t; /* UPC_TEAM_ALL's part too */
    p = tupc_mpi_team_reduce_post_ranges(&on, ty, kind, excl, dst, src, op, nelems, blk_size, fn,
                                         &job, &mark);
    _Static_assert((int)TUPC_MPI_STEP_KEEP == (int)TUPC_ASYNC_KEEP_ARG,
                   "the step's and the queue's keep");
    if (job)
        tupc_async_add_steps(r, tupc_mpi_team_ranges_step, job);
    return tupc_async_post_also(r, NULL, NULL, mark, p);
}
#endif

static upc_coll_handle_t team_reduce(const struct tupc_red_type *ty, const char *func,
                                     tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                                     size_t blk_size, tupc_red_fn f, upc_flag_t flags,
                                     upc_team_t team, enum what what, tupc_red_on_fn *on)
{
    TUPC_TRACE_RETURN(
        upc_coll_handle_t,
        team_reduce(ty, func, dst, src, op, nelems, blk_size, f, flags, team, what, on), func,
        (uint64_t)nelems * ty->size, flags, team);
    tupc_require_thread(func);
    /* Blocking calls take the 1.3 paths, every tuned one, on the team,
     * unless those need pieces that lie with non-members. */
    if (!(flags & UPC_ASYNC) && tupc_procs_ == 1 &&
        (what == PREFIX
             ? tupc_red_prefix_on(ty, func, tupc_team_get(func, team), dst, src, op, nelems,
                                  blk_size, f, flags)
             : on(func, tupc_team_get(func, team), dst, src, op, nelems, blk_size, f, flags)))
        return UPC_HANDLE_COMPLETE;
    enum tupc_sync in, out;
    struct tupc_team *t = tupc_team_get(func, team);
    const int prefix = what == PREFIX;
    /* A prefix reduction may run in place (each member reads each element
     * of its range before it writes it), and exclusive; a reduction has no
     * such forms. */
    int in_place = prefix && (tupc_is_in_place(src) || (flags & UPC_IN_PLACE));
    int excl = prefix && (flags & UPC_EXCLUSIVE_PREFIX_REDUCE);
    const int async = (flags & UPC_ASYNC) != 0;
    if (in_place)
        src = dst; /* a decoy src is not read */
    /* The 1.3 function's checks; a prefix's dst and src may lie apart (the
     * cut below reads and writes each in its own layout). */
    dst = tupc_red_check_call(
        ty, func,
        prefix        ? TUPC_RED_DST_ARRAY
        : what == ALL ? TUPC_RED_DST_EVERY
                      : TUPC_RED_DST_ONE,
        dst, src, op, nelems, blk_size, f,
        flags & ~(UPC_ASYNC | (prefix ? UPC_IN_PLACE | UPC_EXCLUSIVE_PREFIX_REDUCE : 0)), in_place,
        &in, &out, NULL);
    uint64_t sig = tupc_red_sig(dst, src, op, nelems, blk_size, f);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) { /* posted where it can post; else run now, the handle complete */
        const upc_flag_t bflags = flags & ~UPC_ASYNC;
        const struct tupc_mpi_call mc = {
            func,    (unsigned)flags, tupc_sig(sig, (uint64_t)(unsigned)flags),
            (int)in, (int)out,        t == &tupc_team_all_ ? NULL : t};
        const int kind = prefix ? 1 : what == ALL ? 2 : 0;
        if (async && out != TUPC_ALLSYNC) { /* OUT_ALLSYNC runs now, as below */
            const int holds =
                !mc.team || tupc_mpi_team_reduce_posts(&mc, kind != 0, dst, src, nelems, blk_size);
            const int same_layout =
                !nelems || (dst.thread == src.thread && (!blk_size || dst.phase == src.phase));
            const enum post_how how = !holds || (prefix && !same_layout) ? BY_RANGES
                                      : prefix || op == UPC_NONCOMM_FUNC ? BY_BLOCKS
                                                                         : BY_PROCESSES;
            return post_reduction(ty, &mc, t, how, kind, excl, dst, src, op, nelems, blk_size, f);
        }
        if (!mc.team) { /* OUT_ALLSYNC: the 1.3 function's path */
            if (prefix)
                (void)tupc_red_prefix_on(ty, func, t, dst, src, op, nelems, blk_size, f, bflags);
            else
                tupc_red_mpi(ty, func, what == ALL ? TUPC_RED_DST_EVERY : TUPC_RED_DST_ONE, dst,
                             src, op, nelems, blk_size, f, bflags);
            return UPC_HANDLE_COMPLETE;
        }
        tupc_mpi_team_reduce(&mc, ty, kind, dst, src, op, nelems, blk_size, (void (*)(void))f,
                             in_place, excl);
        return UPC_HANDLE_COMPLETE;
    }
#endif

    struct tupc_coll c;
    tupc_coll_begin_team(&c, t, tupc_coll_self_on(t), func, flags, in, out, sig);
    const int me = tupc_coll_state(&c)->me, n = tupc_coll_state(&c)->size;
    if (in == TUPC_MYSYNC)
        for (int j = 0; j < n; j++)
            tupc_coll_need(&c, j);
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, 0);
    int dst_rank = tupc_team_rank_in(t, (int)dst.thread);
    int combiner = prefix || what == ALL ? 0 : dst_rank >= 0 ? dst_rank : 0;
    if (async)
        return post(ty, func, &c, t, &L, dst, src, op, blk_size, f, what, in_place, excl, out,
                    me == combiner);
    /* A blocking reduction or reduce_all (tupc_red_prefix_on took every
     * blocking prefix reduction) that the 1.3 paths did not take: the
     * plan's ranges, one per member, combined by the combiner. */
    const struct plan p = {.ty = ty, .L = L, .dst = dst, .op = op, .f = f, .cut = RANGES, .n = n};
    struct tupc_red_part *mine = tupc_coll_scratch_claim(&c);
    mine->have = take_piece(&p, me, &mine->v);
    /* Release: the partial, for the readers' acquire waits below. */
    tupc_coll_publish(&c);
    if (me == combiner) {
        union tupc_red_val acc;
        if (tupc_red_combine_ranks(ty, &c, op, f, n, &acc)) /* nelems == 0: dst as it was */
            put_result(ty, what, t, dst, &acc);
    }
    tupc_coll_leave_everyone(&c);
    return UPC_HANDLE_COMPLETE;
}

/* reduce.c's tupc_team_reduceT, for the calls its inlined 1.3 path does not
 * take. */
static upc_coll_handle_t reduce_path(const struct tupc_red_type *ty, const char *func,
                                     tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                                     size_t blk_size, tupc_red_fn f, upc_flag_t flags,
                                     upc_team_t team, tupc_red_on_fn *on)
{
    return team_reduce(ty, func, dst, src, op, nelems, blk_size, f, flags, team, REDUCE, on);
}

void tupc_red_team_attach(void)
{
    tupc_red_team_reduce_path_ = reduce_path;
}

/* On UPC_TEAM_ALL, a blocking call is the 1.3 function's. */
#define TUPC_DEFINE_TEAM_RED(T, TYPE, ARITH, KIND)                                                 \
    upc_coll_handle_t tupc_team_prefix_reduce##T(                                                  \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t flags, upc_team_t team)                               \
    {                                                                                              \
        static const char name[] = "tupc_team_prefix_reduce" #T;                                   \
        TUPC_TEAM_FORM_ON_ALL(                                                                     \
            team, flags, "upc_all_prefix_reduce" #T, name,                                         \
            upc_all_prefix_reduce##T(dst, src, op, nelems, blk_size, func, flags));                \
        if (tupc_red_team_direct(name, flags) &&                                                   \
            tupc_red_prefix_on(&tupc_red_##T, name, tupc_team_get(name, team), dst, src, op,       \
                               nelems, blk_size, (tupc_red_fn)func, flags))                        \
            return UPC_HANDLE_COMPLETE;                                                            \
        return team_reduce(&tupc_red_##T, name, dst, src, op, nelems, blk_size, (tupc_red_fn)func, \
                           flags, team, PREFIX, NULL);                                             \
    }
TUPC_REDUCE_TYPES_13(TUPC_DEFINE_TEAM_RED)

#define TUPC_DEFINE_TEAM_RED_ALL(T, TYPE, ARITH, KIND)                                             \
    upc_coll_handle_t tupc_team_reduce_all##T(                                                     \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t flags, upc_team_t team)                               \
    {                                                                                              \
        static const char name[] = "tupc_team_reduce_all" #T;                                      \
        TUPC_TEAM_FORM_ON_ALL(team, flags, "upc_all_reduce_all" #T, name,                          \
                              upc_all_reduce_all##T(dst, src, op, nelems, blk_size, func, flags)); \
        if (tupc_red_team_direct(name, flags) &&                                                   \
            tupc_red_reduce_all_on##T(name, tupc_team_get(name, team), dst, src, op, nelems,       \
                                      blk_size, (tupc_red_fn)func, flags))                         \
            return UPC_HANDLE_COMPLETE;                                                            \
        return team_reduce(&tupc_red_##T, name, dst, src, op, nelems, blk_size, (tupc_red_fn)func, \
                           flags, team, ALL, tupc_red_reduce_all_on##T);                           \
    }
TUPC_REDUCE_TYPES(TUPC_DEFINE_TEAM_RED_ALL)
