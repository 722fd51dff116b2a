/* The partitioned shared heap: one mapping of THREADS partitions. */
#ifndef TUPC_HEAP_HEAP_H
#define TUPC_HEAP_HEAP_H

#include "heap/range_check.h"

#include <upc.h>

#include <stddef.h>
#include <stdint.h>

extern char *tupc_heap_base_;

int tupc_heap_init(int threads, size_t part_size, const int *node_of_thread, char *err,
                   size_t errlen);
void tupc_heap_fini(void);

static inline char *tupc_partition(int t)
{
    return tupc_heap_base_ + (size_t)t * tupc_impl_partition_size;
}

/* The live allocation that holds offset x of thread t's partition: sets
 * [*lo, *hi) (the bytes asked for) and *sym (1 for a symmetric allocation,
 * which every partition has at those offsets, 0 for t's upc_alloc block).
 * Returns 0 when x lies in no live allocation. Takes the heap's locks. */
int tupc_heap_find(int t, size_t x, size_t *lo, size_t *hi, int *sym);

/* Fails, naming func and arg, unless p designates a byte of the heap with
 * its thread field right, and [p, p + n) stays in that thread's partition
 * (tupc_check_in_partition, which returns p's offset there) and, for
 * tupc_check_sptr with n > 0, in one live allocation (heap/range_check.h).
 * Inline, as every collective call checks its pointers: the test below
 * accepts exactly what the out-of-line one does (a null or foreign address
 * gives an offset of at least a partition), which then explains a refusal. */
void tupc_check_sptr_fail(const char *func, const char *arg, tupc_sptr_t p, size_t n);
/* Whether [p, p + n) is in p's thread's partition, with its offset there. */
static inline int tupc_in_partition(tupc_sptr_t p, size_t n, size_t *off)
{
    *off = (size_t)((uintptr_t)p.addr - (uintptr_t)tupc_heap_base_) -
           (size_t)p.thread * tupc_impl_partition_size;
    return p.thread < (uint32_t)tupc_impl_threads && *off < tupc_impl_partition_size &&
           n <= tupc_impl_partition_size - *off;
}

static inline size_t tupc_check_in_partition(const char *func, const char *arg, tupc_sptr_t p,
                                             size_t n)
{
    size_t off;
    if (__builtin_expect(!tupc_in_partition(p, n, &off), 0))
        tupc_check_sptr_fail(func, arg, p, n);
    return off;
}

static inline void tupc_check_sptr(const char *func, const char *arg, tupc_sptr_t p, size_t n)
{
    size_t off = tupc_check_in_partition(func, arg, p, n);
    if (n)
        tupc_check_range(func, arg, (int)p.thread, off, off + n);
}

/* Offset of p within its thread's partition. */
static inline size_t tupc_offset(tupc_sptr_t p)
{
    return (size_t)(p.addr - tupc_partition((int)p.thread));
}

#endif
