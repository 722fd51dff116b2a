/* What the six _x relocalizations share (Extended Collectives 0.3 5.3): the
 * mode's parse, the reads of the argument arrays, the checks of each block,
 * and the copy.
 *
 * The arrays (pointers-to-shared, byte counts, perm) are indexed by team
 * rank and read as `shared [1]` arrays of n entries, or `shared [THREADS]`
 * arrays of n * n entries, as the spec's examples declare them. They are
 * shared data like the blocks: a thread reads an entry only once the sync
 * mode lets it (under IN_MYSYNC, after the entry's owner has entered, if a
 * member), and checks each block it copies when it reads its pointer.
 *
 * Who copies a block: its destination's owner (pull) or its source's owner
 * (push), as UPC_PULL and UPC_PUSH ask; each function picks one when the
 * mode names neither. A block whose chosen owner is not a member of the
 * team is copied by the other one.
 *
 * OUT_MYSYNC: a thread's data may be read or written by any member (the
 * areas are anywhere), so a thread leaves once every member has finished. */
#ifndef TUPC_COLL_RELOC_X_H
#define TUPC_COLL_RELOC_X_H

#include "check/error.h"
#include "coll/async.h"
#include "coll/copy.h"
#include "coll/reloc.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "heap/heap.h"

#include <upc.h>
#include <upc_collective_ext.h>

#include <stdint.h>
#include <stdio.h>

#define TUPC_X_SEC "Extended Collectives 0.3 section 4"

/* A call in progress: the relocalizations' call (reloc.h: its entry, team,
 * rank and request), run through the same seam (tupc_reloc_put and
 * tupc_reloc_end copy now or record for a posted call), and what the _x
 * mode adds. */
struct tupc_x {
    struct tupc_reloc_call k;
    const char *func;
    int push;     /* 1: a block is copied by its source's owner */
    int in_place; /* UPC_IN_PLACE, as src or in the mode */
    int n;        /* the team's size, from tupc_x_begin */
    int async;    /* UPC_ASYNC: the copies go to k.req, made after the call */
    int across;   /* across processes (reloc_x.c): the primitives below move the
                     bytes through the run's window, the team's barriers sync */
    enum tupc_sync out;
};

#if TUPC_HAVE_MPI
/* Across processes (tupc_procs_ > 1): the entry on the team's part
 * (mpi/team.h) with the IN sync as a team barrier, an entry of another
 * process's array read through the window, a copy between any two
 * partitions, and the exit. */
void tupc_x_begin_across(struct tupc_x *x, upc_flag_t mode, enum tupc_sync in, enum tupc_sync out,
                         uint64_t sig);
const void *tupc_x_fetch(tupc_sptr_t e, size_t esize);
void tupc_x_copy_across(tupc_sptr_t d, tupc_sptr_t s, size_t n);
/* In place: blocks a and b trade their first out (a's) and back (b's)
 * bytes; a block moves from s to d once every member has read its own
 * (a team barrier between). */
void tupc_x_swap_across(tupc_sptr_t a, tupc_sptr_t b, size_t out, size_t back);
void tupc_x_move_across(struct tupc_x *x, tupc_sptr_t d, tupc_sptr_t s, size_t n);
void tupc_x_end_across(struct tupc_x *x);
#endif

/* Parses mode and finds the team: the sync flags as for every collective;
 * UPC_PUSH or UPC_PULL (not both; neither: `pull_default` decides);
 * UPC_IN_PLACE, in the mode or as *src, where `in_place_ok`; UPC_ASYNC is
 * refused. Fails before any thread waits on another. */
void tupc_x_start(struct tupc_x *x, const char *func, upc_flag_t mode, upc_team_t team,
                  int pull_default, int in_place_ok, tupc_sptr_t src, enum tupc_sync *in,
                  enum tupc_sync *out);

/* An argument array: `entries` entries of `esize` bytes at p, block size
 * `blk` (1 for n entries, THREADS for n * n, 0 for one area on one thread).
 * An array of 0 entries is not checked (a src that UPC_IN_PLACE replaces). */
struct tupc_x_array {
    const char *arg;
    tupc_sptr_t p;
    size_t entries, blk, esize;
};

/* Checks that each array lies in one live allocation: once per distinct
 * call (signature sig) between frees, as for the 1.3 relocalizations. */
void tupc_x_check_arrays(struct tupc_x *x, uint64_t sig, const struct tupc_x_array *a, int n);

/* Starts the call on x's team. */
static inline void tupc_x_begin(struct tupc_x *x, upc_flag_t mode, enum tupc_sync in,
                                enum tupc_sync out, uint64_t sig)
{
#if TUPC_HAVE_MPI
    if (__builtin_expect(tupc_procs_ > 1, 0)) {
        tupc_x_begin_across(x, mode, in, out, sig);
        return;
    }
#endif
    tupc_reloc_enter_as(&x->k, x->k.t, x->k.self, x->func, x->async, mode, in, out, sig);
    x->n = x->k.t->n;
}

/* The team rank of thread th, -1 for a non-member. */
static inline int tupc_x_rank_of(const struct tupc_x *x, int th)
{
    return tupc_team_rank_in(x->k.t, th);
}

/* IN_MYSYNC: before touching data of thread th, waits for it to enter, if
 * it is a member (a non-member's data counts as ready at entry). */
static inline void tupc_x_need(struct tupc_x *x, uint32_t th)
{
    if (x->k.c.in == TUPC_MYSYNC && (int)th != tupc_impl_mythread) {
        int r = tupc_x_rank_of(x, (int)th);
        if (r >= 0)
            tupc_coll_need(&x->k.c, r);
    }
}

/* Entry k of an array with block size blk, once its owner lets us read it. */
static inline const void *tupc_x_entry(struct tupc_x *x, tupc_sptr_t arr, size_t k, size_t blk,
                                       size_t esize)
{
    tupc_sptr_t e = tupc_ptr_add(arr, (ptrdiff_t)k, blk, esize);
#if TUPC_HAVE_MPI
    if (x->across && !tupc_impl_is_local(e.thread))
        return tupc_x_fetch(e, esize);
#endif
    tupc_x_need(x, e.thread);
    return e.addr;
}

static inline tupc_sptr_t tupc_x_ptr(struct tupc_x *x, tupc_sptr_t arr, size_t k, size_t blk)
{
    return *(const tupc_sptr_t *)tupc_x_entry(x, arr, k, blk, sizeof(tupc_sptr_t));
}

static inline size_t tupc_x_size(struct tupc_x *x, tupc_sptr_t arr, size_t k, size_t blk)
{
    return *(const size_t *)tupc_x_entry(x, arr, k, blk, sizeof(size_t));
}

/* Fails unless block `arg`[k] (p, n bytes) lies in one live allocation and,
 * for want >= 0, has affinity to thread `want`. */
_Noreturn void tupc_x_block_fail(struct tupc_x *x, const char *arg, size_t k, tupc_sptr_t p,
                                 size_t n, int want);
static inline void tupc_x_check_block(struct tupc_x *x, const char *arg, size_t k, tupc_sptr_t p,
                                      size_t n, int want)
{
    size_t off;
    if (__builtin_expect(!tupc_in_partition(p, n, &off) || (want >= 0 && (int)p.thread != want), 0))
        tupc_x_block_fail(x, arg, k, p, n, want);
#if TUPC_HAVE_MPI
    if (x->across && !tupc_impl_is_local(p.thread)) /* its allocations are its process's */
        return;
#endif
    if (tupc_range_seen((int)p.thread, off, off + n))
        return;
    char name[48];
    snprintf(name, sizeof name, "%s[%zu]", arg, k);
    tupc_check_range_slow(x->func, name, (int)p.thread, off, off + n);
}

/* Copies n bytes of block k: from s to d, after the owners of both have
 * entered (IN_MYSYNC). */
_Noreturn void tupc_x_overlap_fail(struct tupc_x *x, tupc_sptr_t d, tupc_sptr_t s, size_t n);
static inline void tupc_x_copy(struct tupc_x *x, tupc_sptr_t d, tupc_sptr_t s, size_t n)
{
    /* TUPC_CHECKS=full: a copy between overlapping areas is undefined, as
     * for the 1.3 relocalizations (whose areas are checked whole). */
    if (__builtin_expect(tupc_checks_ == TUPC_CHECK_FULL, 0) && d.addr < s.addr + n &&
        s.addr < d.addr + n)
        tupc_x_overlap_fail(x, d, s, n);
#if TUPC_HAVE_MPI
    if (x->across) {
        tupc_x_copy_across(d, s, n);
        return;
    }
#endif
    tupc_x_need(x, s.thread);
    tupc_x_need(x, d.thread);
    /* Streams once the blocks of this size, one per member read and one
     * written, outgrow the cache (coll/copy.h). */
    size_t copies = 2 * (size_t)x->n;
    int streams = tupc_copy_streams(n > SIZE_MAX / copies ? SIZE_MAX : n * copies);
    tupc_reloc_put(&x->k, d.addr, s.addr, n, streams);
}

/* Ends the call and gives its handle: OUT_MYSYNC waits for every member
 * (see the top); a posting call has touched nothing (but what it copied at
 * once, in place) and leaves the OUT sync to its completion (Extended
 * Collectives 0.3 section 4 item 7). */
static inline upc_coll_handle_t tupc_x_end(struct tupc_x *x)
{
#if TUPC_HAVE_MPI
    if (x->across) {
        tupc_x_end_across(x);
        return UPC_HANDLE_COMPLETE;
    }
#endif
    return tupc_reloc_end(&x->k, TUPC_LEAVE_EVERYONE);
}

/* The signature of an _x call's single-valued arguments. */
static inline uint64_t tupc_x_sig(tupc_sptr_t a, tupc_sptr_t b, tupc_sptr_t c, uint64_t d)
{
    return tupc_calls_args("*dst,*src,*nbytes,nbytes", (uintptr_t)a.addr, (uintptr_t)b.addr,
                           (uintptr_t)c.addr, d, 0, 0);
}

#endif
