/* Checks that a range a collective (or upc_mem*) reads or writes lies inside
 * one live allocation (UPC 1.3 7.2.2: a program may use what an allocator
 * handed out and has not yet been freed), so that a count too large is
 * refused instead of overwriting the array that happens to follow.
 *
 * The heap's lists of allocations are guarded by locks, so each thread keeps
 * the last allocations it found in a small cache, valid while no block has
 * been freed since (tupc_heap_gen_ counts frees). A call on arrays seen
 * before costs a few compares per range; the first call on an array looks
 * it up under the heap's lock. */
#ifndef TUPC_HEAP_RANGE_CHECK_H
#define TUPC_HEAP_RANGE_CHECK_H

#include <upc.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Bumped by every free. Relaxed loads suffice: a free that happens before
 * a check (a barrier between them, as the program must have for the check
 * to mean anything) is seen by coherence alone. */
extern _Atomic uint32_t tupc_heap_gen_;

#define TUPC_SEEN 6     /* allocations a thread remembers */
#define TUPC_SEEN_HOT 2 /* looked at inline: a call's src and dst */

struct tupc_seen {
    size_t lo, hi;   /* offsets within a partition: a full partition's bytes */
    size_t hi_short; /* of a symmetric allocation: the end on threads short_from on */
    uint32_t gen;    /* tupc_heap_gen_ when found; 0 for an empty entry */
    int thread;      /* the partition, or -1 for a symmetric allocation */
    int short_from;  /* the first thread left out of the last round of blocks */
};
extern _Thread_local struct tupc_seen tupc_seen_[TUPC_SEEN]
    __attribute__((tls_model("initial-exec")));

void tupc_check_range_slow(const char *func, const char *arg, int thread, size_t lo, size_t hi);

/* Whether entry e, valid in generation gen, holds [lo, hi) of thread's
 * partition (thread -1: of every partition). A symmetric allocation whose
 * nblocks is no multiple of THREADS has fewer bytes on the threads left out
 * of its last round; (unsigned)-1 is past every short_from. */
static inline int tupc_seen_holds(const struct tupc_seen *e, uint32_t gen, int thread, size_t lo,
                                  size_t hi)
{
    if (e->gen != gen || lo < e->lo)
        return 0;
    if (e->thread >= 0)
        return e->thread == thread && hi <= e->hi;
    return hi <= ((unsigned)thread < (unsigned)e->short_from ? e->hi : e->hi_short);
}

/* Fails, naming func and arg, unless offsets [lo, hi) of thread `thread`'s
 * partition lie in one live allocation, in bytes that partition has of it;
 * thread -1 asks for a symmetric allocation (upc_all_alloc,
 * upc_global_alloc) that has the range in every partition. lo < hi.
 * tupc_range_seen is its inline half: whether an allocation this thread
 * found lately holds the range. */
static inline int tupc_range_seen(int thread, size_t lo, size_t hi)
{
    uint32_t gen = atomic_load_explicit(&tupc_heap_gen_, memory_order_relaxed);
    for (int i = 0; i < TUPC_SEEN_HOT; i++)
        if (tupc_seen_holds(&tupc_seen_[i], gen, thread, lo, hi))
            return 1;
    return 0;
}

static inline void tupc_check_range(const char *func, const char *arg, int thread, size_t lo,
                                    size_t hi)
{
    if (!tupc_range_seen(thread, lo, hi))
        tupc_check_range_slow(func, arg, thread, lo, hi);
}

/* A collective's allocation checks depend on its arguments and on which
 * blocks are live only, so a thread that makes the same call again (a loop)
 * skips them while no block has been freed since: each thread remembers the
 * keys (a signature of the function and every argument the checks read) of
 * the last two calls it checked. tupc_call_unseen says whether the call
 * with `key` needs its checks, and gives the generation to pass to
 * tupc_call_seen once they have passed. */
struct tupc_seen_call {
    uint64_t key;
    uint32_t gen;
};
extern _Thread_local struct tupc_seen_call tupc_seen_calls_[2]
    __attribute__((tls_model("initial-exec")));

static inline uint64_t tupc_call_key(const char *func, uint64_t args)
{
    return args ^ (uintptr_t)func; /* each collective names itself with its own literal */
}

/* The key of a call on a team of n members, whose extents depend on n: n's
 * product is computed beside the arguments' signature and joins it by one
 * xor, not a multiply after it (this is on the path of every call). */
static inline uint64_t tupc_call_key_on(const char *func, uint64_t args, uint64_t n)
{
    return tupc_call_key(func, args ^ (n * 0xff51afd7ed558ccdull));
}

static inline int tupc_call_unseen(uint64_t key, uint32_t *gen)
{
    uint32_t g = atomic_load_explicit(&tupc_heap_gen_, memory_order_relaxed);
    const struct tupc_seen_call *s = tupc_seen_calls_;
    *gen = g;
    /* TUPC_CHECKS=full never fills the cache (tupc_call_seen), so it
     * checks every call. */
    return !((s[0].key == key && s[0].gen == g) || (s[1].key == key && s[1].gen == g));
}

void tupc_call_seen(uint64_t key, uint32_t gen);

/* For a blocked array at p of nelems elements of esize bytes, block size
 * blk_size (0: indefinite): fails unless every thread's part of it lies in
 * one live allocation. The caller has checked p, the phase, and that the
 * far ends lie in their partitions (so no offset below overflows). */
void tupc_check_range_array(const char *func, const char *arg, tupc_sptr_t p, size_t nelems,
                            size_t blk_size, size_t esize);

#endif
