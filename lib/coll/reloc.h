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
#include "coll/copy.h"
#include "coll/syncmode.h"
#include "heap/heap.h"
#include "sync/barrier.h"

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

/* The allocation checks (heap/range_check.h) of a call whose single-valued
 * arguments have signature `sig`, made once per distinct call between
 * frees: sig and the function cover every argument the checks read. */
static inline void tupc_reloc_check_allocs(const char *func, uint64_t sig,
                                           const struct tupc_reloc_area *areas, int n)
{
    uint64_t key = tupc_call_key(func, sig);
    uint32_t gen;
    if (__builtin_expect(!tupc_call_unseen(key, &gen), 1))
        return;
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
