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

static _Noreturn void refuse(const char *func, const char *arg, int thread, size_t lo, size_t hi)
{
    char where[64];
    if (thread < 0)
        snprintf(where, sizeof where, "every thread's partition");
    else
        snprintf(where, sizeof where, "thread %d's partition", thread);
    size_t a_lo, a_hi;
    int sym;
    if (!tupc_heap_find(thread < 0 ? 0 : thread, lo, &a_lo, &a_hi, &sym))
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "%s starts at byte %zu of %s, which is in no live allocation; expected memory "
                  "from upc_all_alloc, upc_global_alloc or upc_alloc that has not been freed",
                  arg, lo, where);
    if (thread < 0 && !sym)
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "%s covers bytes %zu to %zu of every thread's partition, but thread 0's block "
                  "there is from upc_alloc, which has no such bytes on the other threads; "
                  "expected an array from upc_all_alloc or upc_global_alloc",
                  arg, lo, hi);
    tupc_fail(func, "UPC 1.3 7.2.2",
              "%s covers bytes %zu to %zu of %s, past the end of its allocation (bytes %zu to "
              "%zu, from %s); expected the range to lie inside one allocation",
              arg, lo, hi, where, a_lo, a_hi,
              sym ? "upc_all_alloc or upc_global_alloc" : "upc_alloc");
}

void tupc_check_range_slow(const char *func, const char *arg, int thread, size_t lo, size_t hi)
{
    uint32_t gen = atomic_load_explicit(&tupc_heap_gen_, memory_order_relaxed);
    for (int i = TUPC_SEEN_HOT; i < TUPC_SEEN; i++) {
        struct tupc_seen e = tupc_seen_[i];
        if (e.gen == gen && lo >= e.lo && hi <= e.hi && (e.thread < 0 || e.thread == thread)) {
            to_front(e, i);
            return;
        }
    }
    size_t a_lo, a_hi;
    int sym;
    if (!tupc_heap_find(thread < 0 ? 0 : thread, lo, &a_lo, &a_hi, &sym) || hi > a_hi ||
        (thread < 0 && !sym))
        refuse(func, arg, thread, lo, hi);
    to_front((struct tupc_seen){a_lo, a_hi, gen, sym ? -1 : thread}, TUPC_SEEN - 1);
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
     * itself is phase elements into it). The lowest offset is o0 if block 1
     * is in course 0, else p's; the highest end is that of the last block
     * or of the full block before it. */
    size_t B = blk_size * esize, ph = p.phase, nb = (ph + nelems + blk_size - 1) / blk_size;
    size_t o0 = off - ph * esize;
    size_t lo = t0 + 1 < T ? o0 : off;
    size_t last_len = (ph + nelems - (nb - 1) * blk_size) * esize;
    size_t hi = o0 + (t0 + nb - 1) / T * B + last_len;
    size_t before = o0 + (t0 + nb - 2) / T * B + B;
    tupc_check_range(func, arg, -1, lo, hi > before ? hi : before);
}
