/* The partitioned shared heap: one mapping of THREADS partitions. */
#ifndef TUPC_HEAP_HEAP_H
#define TUPC_HEAP_HEAP_H

#include <upc.h>

#include <stddef.h>
#include <stdint.h>

extern char *tupc_heap_base_;

int tupc_heap_init(int threads, size_t part_size, const int *node_of_thread, char *err,
                   size_t errlen);
void tupc_heap_fini(void);

static inline char *tupc_partition(int t)
{
    return tupc_heap_base_ + (size_t)t * tupc_partition_size_;
}

/* Fails, naming func and arg, unless p designates a byte of the heap with
 * its thread field right, and [p, p + n) stays in that thread's partition.
 * Inline, as every collective call checks its pointers: the test below
 * accepts exactly what the out-of-line one does (a null or foreign address
 * gives an offset of at least a partition), which then explains a refusal. */
void tupc_check_sptr_fail(const char *func, const char *arg, tupc_sptr_t p, size_t n);
static inline void tupc_check_sptr(const char *func, const char *arg, tupc_sptr_t p, size_t n)
{
    size_t off = (size_t)((uintptr_t)p.addr - (uintptr_t)tupc_heap_base_) -
                 (size_t)p.thread * tupc_partition_size_;
    if (__builtin_expect(p.thread >= (uint32_t)tupc_threads_ || off >= tupc_partition_size_ ||
                             n > tupc_partition_size_ - off,
                         0))
        tupc_check_sptr_fail(func, arg, p, n);
}

/* Offset of p within its thread's partition. */
static inline size_t tupc_offset(tupc_sptr_t p)
{
    return (size_t)(p.addr - tupc_partition((int)p.thread));
}

#endif
