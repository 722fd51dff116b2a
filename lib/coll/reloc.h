/* Argument checks and block addressing shared by the six relocalization
 * collectives (UPC 1.3 7.4.2).
 *
 * Every check of the arguments runs before tupc_coll_begin, so bad input
 * stops the run before any thread waits on another. They read only
 * single-valued arguments and the heap's records, never shared data, which
 * another thread may still be writing until the entry synchronization
 * (upc_all_permute checks its perm entry after it). */
#ifndef TUPC_COLL_RELOC_H
#define TUPC_COLL_RELOC_H

#include "check/error.h"
#include "coll/async.h"
#include "coll/copy.h"
#include "coll/syncmode.h"
#include "heap/heap.h"
#include "sync/barrier.h"
#if TUPC_HAVE_MPI
#include "mpi/team.h"
#endif

#include <upc.h>
#include <upc_collective.h>

#include <stdint.h>
#include <string.h>

/* First: THREADS and MYTHREAD mean nothing outside a run, no collective may
 * run between upc_notify and upc_wait (UPC 1.3 7.4 para 5), and bad flags
 * fail before the other checks. The flags are parsed here, once, for
 * tupc_coll_begin. */
static inline void tupc_reloc_start(const char *func, upc_flag_t flags, enum tupc_sync *in,
                                    enum tupc_sync *out)
{
    tupc_require_thread(func);
    tupc_check_not_split(func);
    tupc_coll_flags(func, flags, in, out);
}

/* nbytes > 0 (para 3 of each function). */
static inline void tupc_reloc_check_nbytes(const char *func, const char *section, size_t nbytes)
{
    if (nbytes == 0)
        tupc_fail(func, section, "nbytes is 0; expected nbytes > 0");
}

/* nbytes * THREADS, refused when it overflows size_t. */
static inline size_t tupc_reloc_total(const char *func, size_t nbytes)
{
    size_t T = (size_t)tupc_impl_threads, total;
    /* A multiply that reports overflow: no division on every call's path. */
    if (__builtin_mul_overflow(nbytes, T, &total))
        tupc_fail(func, "UPC 1.3 7.4.2",
                  "nbytes * THREADS (%zu * %zu) overflows size_t; expected a size that fits",
                  nbytes, T);
    return total;
}

/* The pointer is in the heap, has affinity to thread 0, and `len` bytes from
 * it fit in thread 0's partition (whether they are allocated is checked
 * apart, see tupc_reloc_check_allocs). Every partition has the same size and a
 * phase-0 pointer with affinity to thread 0 puts each thread's block at the
 * same offset, so this covers every thread's block. */
static inline void tupc_reloc_check_thread0(const char *func, const char *section, const char *arg,
                                            tupc_sptr_t p, size_t len)
{
    tupc_check_sptr(func, arg, p, 0);
    if (p.thread != 0)
        tupc_fail(func, section,
                  "%s has affinity to thread %u; expected the target of %s to have affinity to "
                  "thread 0",
                  arg, p.thread, arg);
    (void)tupc_check_in_partition(func, arg, p, len);
}

/* An area a relocalization reads or writes: `all` for one with a block at
 * p's offset in every partition (p on thread 0), which must lie in a
 * symmetric allocation; else a range of p's partition, in any allocation. */
struct tupc_reloc_area {
    const char *arg;
    tupc_sptr_t p;
    size_t len;
    int all;
};

/* TUPC_CHECKS=full: areas[0] (dst) must not overlap the others. */
void tupc_reloc_check_overlaps(const char *func, const struct tupc_reloc_area *areas, int n);

/* The allocation checks (heap/range_check.h) of a call's areas, made now
 * (tupc_reloc_check_allocs: once per distinct call between frees). */
static inline void tupc_reloc_check_allocs_now(const char *func,
                                               const struct tupc_reloc_area *areas, int n)
{
    if (tupc_checks_ == TUPC_CHECK_OFF)
        return;
    for (int i = 0; i < n; i++) {
        const struct tupc_reloc_area *a = &areas[i];
        /* With one thread an `all` area's one block may come from upc_alloc. */
        int t = a->all ? (tupc_impl_threads == 1 ? 0 : -1) : (int)a->p.thread;
        size_t off =
            (size_t)(a->p.addr - tupc_heap_base_) - (size_t)a->p.thread * tupc_impl_partition_size;
        tupc_check_range(func, a->arg, t, off, off + a->len);
    }
    if (tupc_checks_ == TUPC_CHECK_FULL)
        tupc_reloc_check_overlaps(func, areas, n);
}

/* The same, of a call whose single-valued arguments have signature `sig`,
 * made once per distinct call between frees: sig and the function cover
 * every argument the checks read. */
static inline void tupc_reloc_check_allocs(const char *func, uint64_t sig,
                                           const struct tupc_reloc_area *areas, int n)
{
    uint64_t key = tupc_call_key(func, sig);
    uint32_t gen;
    if (__builtin_expect(!tupc_call_unseen(key, &gen), 1))
        return;
    tupc_reloc_check_allocs_now(func, areas, n);
    tupc_call_seen(key, gen);
}

/* Block `i` of a phase-0 pointer with affinity to thread 0 and a block size
 * that fills one course (shared [nbytes] or shared [nbytes * THREADS]): the
 * same offset in thread i's partition. The phase is ignored, as the spec says
 * ("treated as if it has phase 0"). */
static inline char *tupc_reloc_on(tupc_sptr_t p, int i)
{
    return p.addr + (size_t)i * tupc_impl_partition_size;
}

/* Whether a call that reads and writes `copies` blocks of nbytes each (all
 * threads together) streams its copies; saturates instead of overflowing. */
static inline int tupc_reloc_streams(size_t nbytes, size_t copies)
{
    return tupc_copy_streams(nbytes > SIZE_MAX / copies ? SIZE_MAX : nbytes * copies);
}

/* Signature of a relocalization call's single-valued arguments. */
static inline uint64_t tupc_reloc_sig(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes)
{
    return tupc_calls_args("*dst,*src,nbytes", (uintptr_t)dst.addr, (uintptr_t)src.addr, nbytes, 0,
                           0, 0);
}

/* Leaves call c of a collective whose one rooted area (on thread `root`) is
 * touched by every thread and whose other data is touched only by its owner
 * (broadcast, scatter, gather): under OUT_MYSYNC the root waits for every
 * thread, the others for nobody. */
static inline void tupc_reloc_leave_rooted(const struct tupc_coll *c, int root)
{
    if (tupc_impl_mythread == root)
        tupc_coll_leave_everyone(c);
    else
        tupc_coll_leave_alone(c);
}

/* ---- One pipeline per verb: check, enter, copy or record, leave ---------
 *
 * Each relocalization is written once (relocalize.c, permute.c): its
 * checks and entry (tupc_reloc_begin), then its copies through
 * tupc_reloc_put and its exit through tupc_reloc_end, on a team whose ranks
 * stand for threads. Its 1.3 function runs it on &tupc_team_all_, a
 * constant, so that ranks fold to threads and nothing is recorded; its
 * team form (a tupc extension) on any team, and with UPC_ASYNC the same
 * copies are recorded in a request (coll/async.h) that completes later.
 *
 * The team forms' areas are the 1.3 ones: a pointer with affinity to thread
 * 0 designates one block in every partition at the same offset (an array
 * from upc_all_alloc), and the block of rank r is the one in the partition
 * of the thread of rank r, so one array serves every team at once. The
 * root areas (broadcast's and scatter's src, gather's dst) are n blocks in
 * one partition, block r at r * nbytes; gather_all's dst and exchange's src
 * and dst hold n blocks per member thread. permute's perm is a shared int
 * array of THREADS entries, block size 1: the entry of the thread of rank r
 * holds r's target rank. */

/* A call in progress: its entry, team, the caller's rank, and its request
 * when it posts (UPC_ASYNC). */
struct tupc_reloc_call {
    struct tupc_coll c;
    struct tupc_team *t;
    struct tupc_coll_self *self; /* the caller's state on t; unset by a 1.3 function */
    struct tupc_coll_request *req;
    int me;
#if TUPC_HAVE_MPI
    struct tupc_mpi_call mpi; /* the call across processes (tupc_reloc_mpi) */
#endif
};

/* A team form's call on the team that handle `team` names: the team and the
 * caller's state on it (the _x forms too, reloc_x.c). */
static inline void tupc_reloc_join(struct tupc_reloc_call *k, const char *func, upc_team_t team)
{
    k->self = tupc_team_member(func, team);
    k->t = k->self->team;
    if (team != UPC_TEAM_ALL && k->t == &tupc_team_all_)
        __builtin_unreachable(); /* no other handle names it */
}

/* How a form names itself in messages: its function and the sections its
 * nbytes and area checks cite. */
struct tupc_reloc_form {
    const char *func, *sec_nbytes, *sec_area;
    int team; /* a team form (1, or TUPC_FORM_SPLIT): folds the team's size in */
};
/* fm->team of a team form's instance for blocking calls on a split team
 * (the handle is not UPC_TEAM_ALL, the flags have no UPC_ASYNC): the
 * engine's tests for &tupc_team_all_ and for posting fold. The instance
 * with 1 takes the rest: UPC_ASYNC, and posted calls on UPC_TEAM_ALL. */
#define TUPC_FORM_SPLIT 2

/* An area a call checks: p, of one block (nbytes) or of n blocks (n *
 * nbytes, n the team's size), at the same offset in every partition (`all`,
 * a pointer with affinity to thread 0) or in one partition (a root area);
 * or of `len` bytes when not 0 (permute's perm: one int). */
struct tupc_reloc_arg {
    const char *arg;
    tupc_sptr_t p;
    int n_blocks, all;
    size_t len;
};

/* What every form does first: the caller, the flags, the team (k->t),
 * nbytes; *total gets n * nbytes where an area holds n blocks (`blocks`),
 * checked against overflow at THREADS * nbytes as the 1.3 function does,
 * and nbytes otherwise. */
static inline __attribute__((always_inline)) void
tupc_reloc_front(struct tupc_reloc_call *k, const struct tupc_reloc_form *fm, upc_flag_t flags,
                 upc_team_t team, size_t nbytes, int blocks, enum tupc_sync *in,
                 enum tupc_sync *out, size_t *total)
{
    tupc_reloc_start(fm->func, fm->team == 1 ? flags & ~UPC_ASYNC : flags, in, out);
    if (fm->team)
        tupc_reloc_join(k, fm->func, team);
    else
        k->t = &tupc_team_all_; /* the 1.3 functions leave k->self unset */
    const struct tupc_team *t = k->t;
    tupc_reloc_check_nbytes(fm->func, fm->sec_nbytes, nbytes);
    *total = nbytes;
    if (blocks) {
        size_t all_threads = tupc_reloc_total(fm->func, nbytes);
        *total = t == &tupc_team_all_ ? all_threads : nbytes * (size_t)t->n; /* n <= THREADS */
    }
}

/* The call's team, read again after calls that k escaped to: for a 1.3
 * function the constant &tupc_team_all_ (fm is a constant there), so that
 * its team lookups fold as they did before teams (k->t, a load after any
 * call that took k, would not). */
static inline struct tupc_team *tupc_reloc_team(const struct tupc_reloc_call *k,
                                                const struct tupc_reloc_form *fm)
{
    if (fm->team == TUPC_FORM_SPLIT && k->t == &tupc_team_all_)
        __builtin_unreachable();
    return fm->team ? k->t : &tupc_team_all_;
}

/* The checks of one area (its length: its own, n blocks or one). */
static inline size_t tupc_reloc_area_len(const struct tupc_reloc_arg *a, size_t nbytes,
                                         size_t total)
{
    return a->len ? a->len : a->n_blocks ? total : nbytes;
}
static inline __attribute__((always_inline)) void
tupc_reloc_check_arg(const struct tupc_reloc_form *fm, const struct tupc_reloc_arg *a,
                     size_t nbytes, size_t total)
{
    size_t len = tupc_reloc_area_len(a, nbytes, total);
    if (a->all)
        tupc_reloc_check_thread0(fm->func, fm->sec_area, a->arg, a->p, len);
    else
        (void)tupc_check_in_partition(fm->func, a->arg, a->p, len);
}

/* The allocation checks of areas a[0..na-1], once per distinct call: the
 * key inline, the checks out of line (their areas built only then). A
 * team's extents depend on its size, which its key folds in. */
void tupc_reloc_allocs_slow(const char *func, uint64_t key, uint32_t gen,
                            const struct tupc_reloc_arg *a, int na, size_t nbytes, size_t total);
static inline uint64_t tupc_reloc_allocs_key(const struct tupc_reloc_call *k,
                                             const struct tupc_reloc_form *fm, uint64_t sig)
{
    return k->t == &tupc_team_all_ ? tupc_call_key(fm->func, sig)
                                   : tupc_call_key_on(fm->func, sig, (uint64_t)k->self->size);
}

/* Whether a call of form fm goes across processes (mpi/layer.h): every
 * form with more than one process. Its checks are made as in one process;
 * then instead of the entry k->mpi holds the call, and the verb runs its
 * mpi/layer.h function (the 1.3 functions, in two phases) or
 * mpi/team_coll.c's (the team forms on a split team: k->mpi.team).
 * Without MPI: 0, which folds away. */
static inline int tupc_reloc_mpi(const struct tupc_reloc_form *fm)
{
    (void)fm;
#if TUPC_HAVE_MPI
    return __builtin_expect(tupc_procs_ > 1, 0);
#else
    return 0;
#endif
}

#if TUPC_HAVE_MPI
/* A relocalization across processes: a team form's on its team, else the
 * 1.3 function's `call`. */
#define TUPC_RELOC_MPI_VERB(k, verb, dst, src, nbytes, in_place, call)                             \
    ((k).mpi.team ? (void)tupc_mpi_team_reloc(&(k).mpi, verb, dst, src, (tupc_sptr_t){0}, nbytes,  \
                                              in_place, NULL)                                      \
                  : (void)(call))
#endif

/* In a verb, after its checks: runs `call` (its mpi/layer.h function, on
 * k.mpi) and returns when the call goes across processes. */
#if TUPC_HAVE_MPI
#define TUPC_RELOC_MPI(fm, call)                                                                   \
    do {                                                                                           \
        if (tupc_reloc_mpi(fm)) {                                                                  \
            call;                                                                                  \
            return UPC_HANDLE_COMPLETE;                                                            \
        }                                                                                          \
    } while (0)
#else
#define TUPC_RELOC_MPI(fm, call) (void)0
#endif

/* What every form does last (the _x forms too, reloc_x.h): the entry to
 * the call on team t (k->t) with the caller's state self (k->self), its
 * rank, and its request where it posts. A 1.3 function passes constants,
 * and stores no state of its own in k. */
static inline __attribute__((always_inline)) void
tupc_reloc_enter_as(struct tupc_reloc_call *k, struct tupc_team *t, struct tupc_coll_self *self,
                    const char *func, int posts, upc_flag_t flags, enum tupc_sync in,
                    enum tupc_sync out, uint64_t sig)
{
    tupc_coll_begin_team(&k->c, t, self, func, flags, in, out, sig);
    k->me = t == &tupc_team_all_ ? tupc_impl_mythread : self->me;
    k->req = posts ? tupc_async_begin(t, k->me, func, out) : NULL;
}

/* A 1.3 function or team form's entry (across processes, the call for
 * mpi/layer.h). */
static inline __attribute__((always_inline)) void
tupc_reloc_enter(struct tupc_reloc_call *k, const struct tupc_reloc_form *fm, upc_flag_t flags,
                 enum tupc_sync in, enum tupc_sync out, uint64_t sig)
{
#if TUPC_HAVE_MPI
    if (tupc_reloc_mpi(fm)) {
        /* A posted call runs as the blocking one (its handle complete at
         * once), but those relocalize.c posts (TUPC_RELOC_POSTS). */
        k->mpi = (struct tupc_mpi_call){
            fm->func,
            (unsigned)flags,
            tupc_sig(sig, (uint64_t)(unsigned)flags),
            (int)in,
            (int)out,
            fm->team && tupc_reloc_team(k, fm) != &tupc_team_all_ ? tupc_reloc_team(k, fm) : NULL};
        return;
    }
#endif
    tupc_reloc_enter_as(k, tupc_reloc_team(k, fm), fm->team ? k->self : tupc_coll_self_, fm->func,
                        fm->team == 1 && (flags & UPC_ASYNC), flags, in, out, sig);
}

/* Whether the call blocks (its copies made now, not recorded for later):
 * known for every form but the team form's generic instance. */
static inline int tupc_reloc_blocking(const struct tupc_reloc_call *k,
                                      const struct tupc_reloc_form *fm)
{
    return fm->team != 1 || !k->req;
}

/* The checks of every form, in the order of its areas (flags, nbytes, the
 * areas, their allocations), then the entry to the call on `team`. */
static inline __attribute__((always_inline)) void
tupc_reloc_begin(struct tupc_reloc_call *k, const struct tupc_reloc_form *fm, upc_flag_t flags,
                 upc_team_t team, size_t nbytes, const struct tupc_reloc_arg *a, int na,
                 uint64_t sig, size_t *total)
{
    enum tupc_sync in, out;
    int blocks = 0;
    for (int i = 0; i < na; i++)
        blocks |= a[i].n_blocks;
    tupc_reloc_front(k, fm, flags, team, nbytes, blocks, &in, &out, total);
    for (int i = 0; i < na; i++)
        tupc_reloc_check_arg(fm, &a[i], nbytes, *total);
    uint64_t key = tupc_reloc_allocs_key(k, fm, sig);
    uint32_t gen;
    if (__builtin_expect(tupc_call_unseen(key, &gen), 0))
        tupc_reloc_allocs_slow(fm->func, key, gen, a, na, nbytes, *total);
    tupc_reloc_enter(k, fm, flags, in, out, sig);
}

/* tupc_reloc_begin for the calls of a dst and a src area (all but
 * permute), each of a shape: TUPC_AREA_BLOCKS (n blocks, not one), and
 * TUPC_AREA_ALL (a block in every partition, not one root area); src
 * checked first when src_first, dst alone when na is 1 (in place). The
 * areas are checked one by one and put in an array only for the
 * allocation checks, which a call makes once: every call pays for its
 * arguments, not for the array. */
#define TUPC_AREA_BLOCKS 1
#define TUPC_AREA_ALL 2
static inline __attribute__((always_inline)) void
tupc_reloc_begin_ds(struct tupc_reloc_call *k, const struct tupc_reloc_form *fm, upc_flag_t flags,
                    upc_team_t team, size_t nbytes, tupc_sptr_t dst, int dst_shape, tupc_sptr_t src,
                    int src_shape, int src_first, int na, size_t *total)
{
    enum tupc_sync in, out;
    const struct tupc_reloc_arg d = {"dst", dst, dst_shape & TUPC_AREA_BLOCKS,
                                     (dst_shape & TUPC_AREA_ALL) != 0, 0},
                                s = {"src", src, src_shape & TUPC_AREA_BLOCKS,
                                     (src_shape & TUPC_AREA_ALL) != 0, 0};
    tupc_reloc_front(k, fm, flags, team, nbytes, d.n_blocks | (na > 1 ? s.n_blocks : 0), &in, &out,
                     total);
    if (src_first && na > 1)
        tupc_reloc_check_arg(fm, &s, nbytes, *total);
    tupc_reloc_check_arg(fm, &d, nbytes, *total);
    if (!src_first && na > 1)
        tupc_reloc_check_arg(fm, &s, nbytes, *total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes), key = tupc_reloc_allocs_key(k, fm, sig);
    uint32_t gen;
    if (__builtin_expect(tupc_call_unseen(key, &gen), 0)) {
        const struct tupc_reloc_arg a[2] = {src_first ? s : d, src_first ? d : s};
        tupc_reloc_allocs_slow(fm->func, key, gen, a, na, nbytes, *total);
    }
    tupc_reloc_enter(k, fm, flags, in, out, sig);
}

/* Block r (a rank) of an area at the same offset in every partition. */
static inline char *tupc_reloc_block(const struct tupc_team *t, tupc_sptr_t p, int r)
{
    return tupc_reloc_on(p, tupc_team_thread_of(t, r));
}

/* The caller's own block of such an area: in its partition, on any team. */
static inline char *tupc_reloc_mine(tupc_sptr_t p)
{
    return tupc_reloc_on(p, tupc_impl_mythread);
}

/* Copies n bytes, or records the copy when the call posts. */
static inline void tupc_reloc_put(struct tupc_reloc_call *k, void *d, const void *s, size_t n,
                                  int stream)
{
    if (k->req)
        tupc_async_add(k->req, d, s, n, stream);
    else
        tupc_copy(d, s, n, stream);
}

enum tupc_reloc_leave { TUPC_LEAVE_ALONE, TUPC_LEAVE_EVERYONE, TUPC_LEAVE_SYMMETRIC };

/* Ends the call, the OUT sync waiting for nobody, every member, or the
 * members as a barrier; a posting call leaves it to its completion. */
static inline upc_coll_handle_t tupc_reloc_end(struct tupc_reloc_call *k, enum tupc_reloc_leave how)
{
    if (k->req) {
        tupc_coll_finish(&k->c);
        return tupc_async_post(k->req);
    }
    if (how == TUPC_LEAVE_ALONE)
        tupc_coll_leave_alone(&k->c);
    else if (how == TUPC_LEAVE_EVERYONE)
        tupc_coll_leave_everyone(&k->c);
    else
        tupc_coll_leave_symmetric(&k->c);
    return UPC_HANDLE_COMPLETE;
}

/* A rooted call (scatter, gather): every member needs the root, if a
 * member; under OUT_MYSYNC the root waits for every member, the others for
 * nobody. */
static inline upc_coll_handle_t tupc_reloc_rooted(struct tupc_reloc_call *k, int root_thread,
                                                  void *d, const void *s, size_t nbytes, int stream)
{
    int root = tupc_team_rank_in(k->t, root_thread);
    if (root >= 0)
        tupc_coll_need(&k->c, root);
    tupc_reloc_put(k, d, s, nbytes, stream);
    return tupc_reloc_end(k, k->me == root ? TUPC_LEAVE_EVERYONE : TUPC_LEAVE_ALONE);
}

/* The 1.3 function upc_all_VERB and its team form tupc_team_VERB, both
 * running the file's VERB (dst, src, nbytes, flags: all but permute). The
 * trace counts TRACE_BYTES for the 1.3 function, nbytes for the team form;
 * the checks cite SEC's paragraph 3 (nbytes) and AREA_PARA (the areas). */
#define TUPC_RELOC_FORMS(VERB, SEC, AREA_PARA, TRACE_BYTES)                                        \
    void upc_all_##VERB(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)         \
    {                                                                                              \
        TUPC_TRACE_VOID(upc_all_##VERB(dst, src, nbytes, flags), __func__, TRACE_BYTES, flags, 0); \
        static const struct tupc_reloc_form fm = {__func__, SEC " para 3", SEC " " AREA_PARA, 0};  \
        (void)VERB(&fm, dst, src, nbytes, flags, UPC_TEAM_ALL);                                    \
    }                                                                                              \
    static const struct tupc_reloc_form VERB##_team_form = {                                       \
        "tupc_team_" #VERB, SEC " para 3, on a team", SEC " " AREA_PARA ", on a team", 1};         \
    /* Posted calls, on any team: apart, so that the blocking calls on a                           \
     * split team have an instance that folds (TUPC_FORM_SPLIT). */                                \
    static __attribute__((noinline)) upc_coll_handle_t VERB##_posted(                              \
        tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags, upc_team_t team)        \
    {                                                                                              \
        return VERB(&VERB##_team_form, dst, src, nbytes, flags, team);                             \
    }                                                                                              \
    upc_coll_handle_t tupc_team_##VERB(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,            \
                                       upc_flag_t flags, upc_team_t team)                          \
    {                                                                                              \
        TUPC_TEAM_FORM_ON_ALL(team, flags, "upc_all_" #VERB, __func__,                             \
                              upc_all_##VERB(dst, src, nbytes, flags));                            \
        TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_##VERB(dst, src, nbytes, flags, team),      \
                          __func__, nbytes, flags, team);                                          \
        if (team == UPC_TEAM_ALL || (flags & UPC_ASYNC))                                           \
            return VERB##_posted(dst, src, nbytes, flags, team);                                   \
        static const struct tupc_reloc_form fm = {                                                 \
            __func__, SEC " para 3, on a team", SEC " " AREA_PARA ", on a team", TUPC_FORM_SPLIT}; \
        return VERB(&fm, dst, src, nbytes, flags, team);                                           \
    }

/* Member me fills its n blocks of dst from block `from` of each member's src
 * area (gather_all: 0, exchange: me * nbytes), starting after its own block
 * so that the members do not all read rank 0 first; every member's data is
 * read by every member, so OUT_MYSYNC is a barrier. */
static inline upc_coll_handle_t tupc_reloc_fill_mine(struct tupc_reloc_call *k, tupc_sptr_t dst,
                                                     tupc_sptr_t src, size_t from, size_t nbytes,
                                                     int stream)
{
    const int me = k->me, n = tupc_team_n(k->t);
    char *mine = tupc_reloc_mine(dst);
    for (int i = 1; i <= n; i++) {
        int j = me + i < n ? me + i : me + i - n;
        tupc_coll_need(&k->c, j);
        tupc_reloc_put(k, mine + (size_t)j * nbytes, tupc_reloc_block(k->t, src, j) + from, nbytes,
                       stream);
    }
    return tupc_reloc_end(k, TUPC_LEAVE_SYMMETRIC);
}

/* A blocking broadcast's copies and exit on team t, once checked and
 * entered (call c, the caller's rank me): upc_all_broadcast on
 * &tupc_team_all_ and tupc_team_broadcast on any other team. `mine` is the
 * caller's dst block. src may lie with a non-member, whose data counts as
 * ready at entry and whom nobody waits for.
 *
 * Small payloads under OUT_MYSYNC: with a single copy the root may return
 * only after every member has read src, so each call costs a cache-line
 * round trip (root enters -> reader copies -> root sees it done). For
 * payloads that fit an engine eager line (56 bytes) the root instead copies
 * src into its line and posts it; the readers copy from the line. The
 * root's own data is then touched by the root alone and it returns at once,
 * and the payload travels in the line that signals it: one transfer instead
 * of two. Larger payloads keep the single copy. */
static inline __attribute__((always_inline)) void
tupc_reloc_broadcast_run(struct tupc_coll *c, const struct tupc_team *t, int me, char *mine,
                         tupc_sptr_t src, size_t nbytes)
{
    const int root = tupc_team_rank_in(t, (int)src.thread);
    if (c->out == TUPC_MYSYNC && c->in != TUPC_NOSYNC && nbytes <= TUPC_EAGER_BYTES && root >= 0) {
        if (me == root) {
            memcpy(tupc_coll_eager_claim(c), src.addr, nbytes);
            tupc_coll_eager_post(c);
            memcpy(mine, src.addr, nbytes);
        } else {
            memcpy(mine, tupc_coll_eager_wait(c, root), nbytes);
        }
        tupc_coll_leave_alone(c); /* each member's data was touched by itself only */
        return;
    }
    if (root >= 0)
        tupc_coll_need(c, root);
    tupc_copy(mine, src.addr, nbytes, tupc_reloc_streams(nbytes, (size_t)tupc_team_n(t) + 1));
    if (me == root)
        tupc_coll_leave_everyone(c);
    else
        tupc_coll_leave_alone(c);
}

#endif
