/* The partitioned shared heap: one mapping of THREADS partitions. */
#ifndef TUPC_HEAP_HEAP_H
#define TUPC_HEAP_HEAP_H

#include "heap/range_check.h"
#include "runtime/runtime.h"

#include <upc.h>

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int tupc_heap_init(int threads, size_t part_size, const int *node_of_thread, char *err,
                   size_t errlen);
void tupc_heap_fini(void);

static inline char *tupc_partition(int t)
{
    return tupc_heap_base_ + (size_t)t * tupc_impl_partition_size;
}

/* A live allocation as one thread's partition sees it. */
struct tupc_alloc_span {
    size_t lo, hi; /* the bytes of the partition asked: [lo, hi) */
    size_t full;   /* the end of a partition with all its blocks (>= hi) */
    int sym;       /* 1: symmetric (upc_all_alloc, upc_global_alloc); 0: upc_alloc */
    /* Of a symmetric allocation: blocks dealt round-robin from thread 0, and
     * the threads from short_from on have one block fewer (THREADS if none). */
    size_t nblocks, block;
    int short_from;
};

/* The live allocation whose reserved bytes hold offset x of thread t's
 * partition (t = -1: of every partition, for a symmetric one): returns 1 and
 * sets *s, with s->hi the end of t's own bytes (for t = -1 the smallest end
 * of any partition), which may be at or below x when t was left out of the
 * last round of blocks. Returns 0 when x lies in no live allocation. Takes
 * the heap's locks. */
int tupc_heap_find(int t, size_t x, struct tupc_alloc_span *s);

/* Fails, naming func and arg, unless p designates a byte of the heap with
 * its thread field right, and [p, p + n) stays in that thread's partition
 * (tupc_check_in_partition, which returns p's offset there) and, for
 * tupc_check_sptr with n > 0, in one live allocation (heap/range_check.h).
 * Inline, as every collective call checks its pointers: the test below
 * accepts exactly what the out-of-line one does (a null or foreign address
 * gives an offset of at least a partition), which then explains a refusal.
 * It takes p's fields, not p: gcc built the struct for the call on the
 * path that does not fail, through a 4-byte store read back as 8 bytes (a
 * store-forwarding stall: 1.4 of the 16 ns of an 8-byte NO|NO team
 * broadcast). */
void tupc_check_sptr_fail(const char *func, const char *arg, char *addr, uint32_t thread, size_t n);
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
        tupc_check_sptr_fail(func, arg, p.addr, p.thread, n);
    return off;
}

static inline void tupc_check_sptr(const char *func, const char *arg, tupc_sptr_t p, size_t n)
{
    size_t off = tupc_check_in_partition(func, arg, p, n);
#if TUPC_HAVE_MPI
    /* Across processes this process knows the symmetric arena (alike
     * everywhere) and its own threads' upc_alloc blocks, not the blocks of
     * upc_global_alloc (counted on rank 0) or another process's. */
    if (tupc_procs_ > 1 && off >= tupc_mpi_sym_end_ &&
        (off < tupc_mpi_local_from_ || !tupc_impl_is_local(p.thread)))
        return;
#endif
    if (n)
        tupc_check_range(func, arg, (int)p.thread, off, off + n);
}

/* Offset of p within its thread's partition. */
static inline size_t tupc_offset(tupc_sptr_t p)
{
    return (size_t)(p.addr - tupc_partition((int)p.thread));
}

/* A strict copy's bytes (heap/strict.c, mpi/lock.c): n bytes between local
 * memory and shared memory at sh, in naturally aligned pieces of up to 8
 * bytes on the shared side, each one atomic access. So a strict access of
 * an aligned member (the word path, one atomic) and a strict copy of the
 * object around it (under the strict lock) each see the other whole. The
 * lock and the fences around the copy order it: relaxed suffices. */
#define TUPC_STRICT_PIECE_(U)                                                                      \
    do {                                                                                           \
        U v_;                                                                                      \
        if (put) {                                                                                 \
            memcpy(&v_, local + i, sizeof v_);                                                     \
            __atomic_store_n((U *)(sh + i), v_, __ATOMIC_RELAXED);                                 \
        } else {                                                                                   \
            v_ = __atomic_load_n((U *)(sh + i), __ATOMIC_RELAXED);                                 \
            memcpy(local + i, &v_, sizeof v_);                                                     \
        }                                                                                          \
    } while (0)
static inline void tupc_strict_pieces(char *sh, char *local, size_t n, int put)
{
    for (size_t i = 0, s; i < n; i += s) {
        uintptr_t a = (uintptr_t)(sh + i);
        for (s = 8; s > 1 && ((a & (s - 1)) || n - i < s); s >>= 1)
            ;
        if (s == 8)
            TUPC_STRICT_PIECE_(uint64_t);
        else if (s == 4)
            TUPC_STRICT_PIECE_(uint32_t);
        else if (s == 2)
            TUPC_STRICT_PIECE_(uint16_t);
        else
            TUPC_STRICT_PIECE_(uint8_t);
    }
}

#endif
