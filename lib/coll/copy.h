/* Bulk copies of the relocalization collectives: through the caches, or with
 * streaming (non-temporal) stores once a call's data outgrows the last-level
 * cache.
 *
 * A plain copy reads each destination line before writing it (the write
 * allocates the line in the cache) and later evicts it: three memory
 * transfers per line when nothing fits the cache. A streaming store writes
 * the line straight to memory: two. glibc's memcpy streams only beyond
 * 3/4 of the shared cache size *per copy*; a collective's threads copy at
 * once, so the cache is full long before one copy reaches that size.
 * Measured on the 2-core development VM (32 MiB L3, two threads each copying
 * 16 MiB): memcpy 2.26 ms, streaming 1.47 ms; at 4 MiB each memcpy is 2x
 * faster, as both copies fit the cache. */
#ifndef TUPC_COLL_COPY_H
#define TUPC_COLL_COPY_H

#include <stddef.h>
#include <string.h>

/* memcpy of one element: a constant size in each branch, so the copy is
 * inlined where a size known only at run time costs a library call; the
 * branch goes the same way throughout a call. */
static inline void tupc_copy_elem(void *dst, const void *src, size_t size)
{
    switch (size) {
    case 1:
        memcpy(dst, src, 1);
        break;
    case 2:
        memcpy(dst, src, 2);
        break;
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    case 16:
        memcpy(dst, src, 16);
        break;
    default:
        memcpy(dst, src, size);
    }
}

/* Swaps n bytes at a and b through a buffer on the stack (no allocation:
 * the in-place exchanges need no memory, and an error that ends the thread
 * in the middle leaks none). */
static inline void tupc_swap(void *a, void *b, size_t n)
{
    unsigned char tmp[512], *x = a, *y = b;
    for (size_t k = 0; k < n; k += sizeof tmp) {
        size_t m = n - k < sizeof tmp ? n - k : sizeof tmp;
        memcpy(tmp, x + k, m);
        memcpy(x + k, y + k, m);
        memcpy(y + k, tmp, m);
    }
}

/* Sets the working set (bytes read plus bytes written by all threads) from
 * which a call streams: TUPC_STREAM_MIN (runtime/config.h), or else 1.5x
 * the size of the last-level cache. */
void tupc_copy_init(void);

/* Whether a call whose threads read and write `working_set` bytes in all
 * streams. The same answer on every thread (a single-valued input). */
int tupc_copy_streams(size_t working_set);

/* memcpy(dst, src, n), with streaming stores if `stream`. Returns after the
 * streaming stores are ordered before the caller's later stores (sfence), so
 * a release store that follows publishes the copied bytes. */
void tupc_copy(void *dst, const void *src, size_t n, int stream);

#endif
