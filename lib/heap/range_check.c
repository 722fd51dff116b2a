#include "heap/range_check.h"

#include "check/error.h"
#include "heap/heap.h"
#include "runtime/runtime.h"

#include <upc.h>

#include <stdio.h>
#include <string.h>

_Thread_local struct tupc_seen tupc_seen_[TUPC_SEEN] __attribute__((tls_model("initial-exec")));

_Thread_local struct tupc_seen_call tupc_seen_calls_[2] __attribute__((tls_model("initial-exec")));

void tupc_call_seen(uint64_t key, uint32_t gen)
{
    if (tupc_checks_ == TUPC_CHECK_FULL)
        return;
    tupc_seen_calls_[1] = tupc_seen_calls_[0];
    tupc_seen_calls_[0] = (struct tupc_seen_call){key, gen};
}

/* Puts e first, moving the entries before position `from` down by one. */
static void to_front(struct tupc_seen e, int from)
{
    memmove(&tupc_seen_[1], &tupc_seen_[0], (size_t)from * sizeof tupc_seen_[0]);
    tupc_seen_[0] = e;
}

/* What an allocation holds, for a message: "upc_all_alloc(5, 8)". */
static const char *describe(const struct tupc_alloc_span *a, char *buf, size_t len)
{
    if (!a->sym)
        return "upc_alloc";
    if (!a->block)
        return "upc_all_alloc or upc_global_alloc";
    snprintf(buf, len, "upc_all_alloc or upc_global_alloc of %zu blocks of %zu bytes", a->nblocks,
             a->block);
    return buf;
}

static _Noreturn void refuse(const char *func, const char *arg, int thread, size_t lo, size_t hi)
{
    char where[64], what[120];
    if (thread < 0)
        snprintf(where, sizeof where, "every thread's partition");
    else
        snprintf(where, sizeof where, "thread %d's partition", thread);
    struct tupc_alloc_span a;
    if (!tupc_heap_find(thread, lo, &a))
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "%s starts at byte %zu of %s, which is in no live allocation; expected memory "
                  "from upc_all_alloc, upc_global_alloc or upc_alloc that has not been freed",
                  arg, lo, where);
    if (thread < 0 && !a.sym)
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "%s covers bytes %zu to %zu of every thread's partition, but thread 0's block "
                  "there is from upc_alloc, which has no such bytes on the other threads; "
                  "expected an array from upc_all_alloc or upc_global_alloc",
                  arg, lo, hi);
    if (hi <= a.full && a.hi < a.full) {
        /* In the bytes every partition reserves, past those of a thread left
         * out of the allocation's last round of blocks. */
        char has[96];
        int t = thread < 0 ? a.short_from : thread;
        const char *who = thread < 0 ? "threads %d and up have " : "thread %d has ";
        int n = snprintf(has, sizeof has, who, t);
        if (a.hi == a.lo)
            snprintf(has + n, sizeof has - (size_t)n, "none of it");
        else
            snprintf(has + n, sizeof has - (size_t)n, "only bytes %zu to %zu", a.lo, a.hi);
        tupc_fail(func, "UPC 1.3 7.2.2.2",
                  "%s covers bytes %zu to %zu of %s, but the %s deals its last round to threads "
                  "0 to %d only, so %s; expected the range to lie in the blocks the allocation "
                  "has",
                  arg, lo, hi, where, describe(&a, what, sizeof what), a.short_from - 1, has);
    }
    tupc_fail(func, "UPC 1.3 7.2.2",
              "%s covers bytes %zu to %zu of %s, past the end of its allocation (bytes %zu to "
              "%zu, from %s); expected the range to lie inside one allocation",
              arg, lo, hi, where, a.lo, a.hi, describe(&a, what, sizeof what));
}

/* Puts allocation a, found for thread's range, first in the cache. */
static void remember(const struct tupc_alloc_span *a, uint32_t gen, int thread)
{
    size_t short_end = a->short_from < tupc_impl_threads ? a->full - a->block : a->full;
    to_front((struct tupc_seen){a->lo, a->sym ? a->full : a->hi, short_end, gen,
                                a->sym ? -1 : thread, a->short_from},
             TUPC_SEEN - 1);
}

void tupc_check_range_slow(const char *func, const char *arg, int thread, size_t lo, size_t hi)
{
    uint32_t gen = atomic_load_explicit(&tupc_heap_gen_, memory_order_relaxed);
    for (int i = TUPC_SEEN_HOT; i < TUPC_SEEN; i++) {
        struct tupc_seen e = tupc_seen_[i];
        if (tupc_seen_holds(&e, gen, thread, lo, hi)) {
            to_front(e, i);
            return;
        }
    }
    struct tupc_alloc_span a;
    if (!tupc_heap_find(thread, lo, &a) || hi > a.hi || (thread < 0 && !a.sym))
        refuse(func, arg, thread, lo, hi);
    remember(&a, gen, thread);
}

/* The entry of a symmetric allocation found lately that holds offset x of
 * every partition's reserved bytes, moved to the front; else the allocation
 * looked up and entered, or a refusal of [x, hi). */
static const struct tupc_seen *sym_holding(const char *func, const char *arg, size_t x, size_t hi)
{
    uint32_t gen = atomic_load_explicit(&tupc_heap_gen_, memory_order_relaxed);
    for (int i = 0; i < TUPC_SEEN; i++) {
        struct tupc_seen e = tupc_seen_[i];
        if (e.gen == gen && e.thread < 0 && x >= e.lo && x < e.hi) {
            if (i > 0)
                to_front(e, i);
            return &tupc_seen_[0];
        }
    }
    struct tupc_alloc_span a;
    if (!tupc_heap_find(-1, x, &a) || !a.sym)
        refuse(func, arg, -1, x, hi);
    remember(&a, gen, -1);
    return &tupc_seen_[0];
}

void tupc_check_range_array(const char *func, const char *arg, tupc_sptr_t p, size_t nelems,
                            size_t blk_size, size_t esize)
{
    if (nelems == 0)
        return;
    size_t off = tupc_offset(p), T = (size_t)tupc_impl_threads, t0 = p.thread;
    if (blk_size == 0 || p.phase + nelems <= blk_size || T == 1) {
        /* One thread's contiguous run: with one thread, block k follows
         * block k - 1 in the same partition. */
        tupc_check_range(func, arg, (int)t0, off, off + nelems * esize);
        return;
    }
    /* Block k of the array lies on thread (t0 + k) % T, in course
     * (t0 + k) / T, at o0 + course * B bytes, where block 0 starts at o0 (p
     * itself is phase elements into it). One symmetric allocation must hold
     * it all: the one at the lowest offset any part starts at (o0 if block 1
     * is in course 0, else p's). Each thread's part is checked against the
     * bytes that thread has of it, as the allocation may give the threads
     * past its last round one block fewer; a thread's part runs from its
     * first block (at position g0 = t0 + k) to its last (at g1). */
    size_t B = blk_size * esize, ph = p.phase, nb = (ph + nelems + blk_size - 1) / blk_size;
    size_t o0 = off - ph * esize, g_last = t0 + nb - 1, c_last = g_last / T, t_last = g_last % T;
    size_t last_len = (ph + nelems - (nb - 1) * blk_size) * esize;
    size_t lo_all = t0 + 1 < T ? o0 : off;
    const struct tupc_seen *e = sym_holding(func, arg, lo_all, lo_all + esize);
    uint32_t gen = e->gen;
    for (size_t t = 0; t < T; t++) {
        size_t g0 = t >= t0 ? t : t + T;
        if (g0 > g_last)
            continue; /* no block of the array on t */
        size_t g1 = t <= t_last ? c_last * T + t : (c_last - 1) * T + t;
        size_t lo = g0 == t0 ? off : o0 + g0 / T * B;
        size_t hi = o0 + g1 / T * B + (g1 == g_last ? last_len : B);
        if (tupc_seen_holds(e, gen, (int)t, lo, hi))
            continue;
        if (lo < e->hi) /* starts in it: the message names its bytes on t */
            refuse(func, arg, (int)t, lo, hi);
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "%s covers bytes %zu to %zu of thread %zu's partition, past the end of the "
                  "allocation that holds its start (bytes %zu to %zu there); expected the array "
                  "to lie inside one allocation",
                  arg, lo, hi, t, e->lo,
                  (unsigned)t < (unsigned)e->short_from ? e->hi : e->hi_short);
    }
}
