#include "check/overlap.h"

#include "check/error.h"
#include "heap/heap.h"

/* The bytes [*lo, *hi) of thread t's partition that e covers; 0 if none. */
static int range_on(const struct tupc_extent *e, int t, size_t *lo, size_t *hi)
{
    size_t n = e->nelems, T = (size_t)tupc_impl_threads, t0 = e->p.thread;
    size_t off = tupc_offset(e->p);
    if (n == 0 || e->esize == 0)
        return 0;
    if (e->all) {
        *lo = off;
        *hi = off + n * e->esize;
        return 1;
    }
    size_t B = e->blk_size, ph = e->p.phase;
    if (B == 0 || ph + n <= B || T == 1) {
        if ((size_t)t != t0)
            return 0;
        *lo = off;
        *hi = off + n * e->esize;
        return 1;
    }
    /* Block k lies on thread (t0 + k) % T, course (t0 + k) / T, at o0 +
     * course * B * esize; block 0 starts ph elements before p. */
    size_t nb = (ph + n + B - 1) / B, first = ((size_t)t + T - t0) % T;
    if (first >= nb)
        return 0;
    size_t last = first + (nb - 1 - first) / T * T;
    size_t o0 = off - ph * e->esize, Bb = B * e->esize;
    *lo = o0 + (t0 + first) / T * Bb + (first == 0 ? ph * e->esize : 0);
    size_t last_len = last == nb - 1 ? (ph + n - (nb - 1) * B) * e->esize : Bb;
    *hi = o0 + (t0 + last) / T * Bb + last_len;
    return 1;
}

void tupc_check_overlap(const char *func, const char *sec, const struct tupc_extent *a,
                        const struct tupc_extent *b)
{
    for (int t = 0; t < tupc_impl_threads; t++) {
        size_t alo, ahi, blo, bhi;
        if (!range_on(a, t, &alo, &ahi) || !range_on(b, t, &blo, &bhi))
            continue;
        if (alo < bhi && blo < ahi)
            tupc_fail(func, sec,
                      "%s (bytes %zu to %zu of thread %d's partition) overlaps %s (bytes %zu to "
                      "%zu there); expected areas that do not overlap, where the behavior is "
                      "undefined (TUPC_CHECKS=full)",
                      a->arg, alo, ahi, t, b->arg, blo, bhi);
    }
}
