/* The partitioned shared heap and its allocators (UPC 1.3 7.2.2).
 *
 * Each partition holds two arenas: the symmetric one grows up from the
 * partition's start and serves upc_all_alloc and upc_global_alloc (the same
 * offset in every partition, so that block i of a distributed array sits on
 * thread i % THREADS at a fixed offset); the local one grows down from the
 * partition's end and serves upc_alloc. They may meet anywhere.
 *
 * Locks: each partition's local arena has its own mutex, so upc_alloc takes
 * no process-wide lock, and the symmetric arena has one; no thread ever
 * holds more than one of them (a run of 64 THREADS or more under
 * ThreadSanitizer must not hold THREADS + 1 locks at once). The two kinds
 * meet where "symmetric top + local top <= partition size" would break:
 * each arena publishes its top in an atomic, and an allocation that raises
 * a top publishes the new one and then looks at the other kind's (seq_cst
 * both, the Dekker pattern): of two growths that would overlap, at least
 * one sees the other and takes its allocation back. Both may, which makes
 * one of them fail needlessly; that only happens to a partition about to be
 * full. */
#include "heap/heap.h"

#include "observe/trace.h"
#include "check/error.h"
#include "heap/arena.h"
#include "runtime/config.h"
#include "runtime/placement.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Frees so far (heap/range_check.h); from 1, so that a zeroed cache entry
 * never matches. */
_Atomic uint32_t tupc_heap_gen_ = 1;

struct partition {
    pthread_mutex_t lock;
    struct tupc_arena local;
    _Atomic size_t local_top; /* local.top, published (see the top) */
} __attribute__((aligned(64)));

/* The run's heap: its mapping, each partition's local arena, and the
 * symmetric arena of the upc_all_alloc and upc_global_alloc blocks. */
static struct heap_state {
    size_t map_len;
    struct partition *parts;
    pthread_mutex_t sym_lock;
    struct tupc_arena sym;
    int huge_pages;         /* TUPC_HUGEPAGES is not 0 */
    _Atomic size_t sym_top; /* sym.top, published (see the top) */
} heap_ = {.sym_lock = PTHREAD_MUTEX_INITIALIZER};

/* Transparent huge pages make large collectives 15-30% faster (fewer TLB
 * misses and page faults), but a partition advised as a whole commits 2 MiB
 * at its first touch: 2 GiB for a trivial program at 1024 THREADS. So only
 * allocations of HUGE_MIN bytes or more per partition are advised, over the
 * 2 MiB pages they reach (docs/benchmarks.md has the figures). */
#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_MIN ((size_t)1 << 20)

/* Advises bytes [off, off + len) of partition t (every partition for t < 0)
 * for huge pages, rounded out to whole huge pages within the partition.
 * Advice only: a failure changes nothing. */
static void advise_huge(int t, size_t off, size_t len)
{
    if (!heap_.huge_pages || len < HUGE_MIN)
        return;
    for (int p = t < 0 ? 0 : t; p < (t < 0 ? tupc_run_.threads : t + 1); p++) {
        uintptr_t part = (uintptr_t)tupc_partition(p), end = part + tupc_impl_partition_size;
        uintptr_t a = (part + off) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t b = (part + off + len + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        a = a < part ? part : a;
        b = b > end ? end : b;
        madvise((void *)a, b - a, MADV_HUGEPAGE);
    }
}

static _Thread_local char alloc_error[200];

const char *tupc_alloc_error(void)
{
    return alloc_error;
}

int tupc_heap_init(int threads, size_t part_size, const int *node_of_thread, char *err,
                   size_t errlen)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t part = (part_size + page - 1) / page * page;
    if (part < part_size || part > SIZE_MAX / (size_t)threads) {
        snprintf(err, errlen,
                 "a shared heap of %d partitions of %zu bytes (UPC_SHARED_HEAP_SIZE or "
                 "tupc_options.heap_size, per thread) overflows size_t; expected a smaller size",
                 threads, part_size);
        return -1;
    }
    heap_.map_len = part * (size_t)threads;
    void *m;
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        /* At one address in every process, this process's partitions only
         * accessible (mpi/window.c). */
        char *at;
        size_t first = (size_t)tupc_first_thread_ * part;
        if (tupc_mpi_map_heap(heap_.map_len, first, (size_t)tupc_local_threads_ * part, &at, err,
                              errlen) != 0)
            return -1;
        tupc_mpi_regions(part);
        m = at;
    } else
#endif
        m = mmap(NULL, heap_.map_len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        snprintf(err, errlen,
                 "cannot map a shared heap of %d x %zu bytes; lower UPC_SHARED_HEAP_SIZE", threads,
                 part);
        return -1;
    }
    heap_.huge_pages = tupc_config_.hugepages;
    heap_.parts = aligned_alloc(64, sizeof *heap_.parts * (size_t)threads);
    if (!heap_.parts) {
        munmap(m, heap_.map_len);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    tupc_heap_base_ = m;
    tupc_impl_partition_size = part;
    for (int t = 0; t < threads; t++) {
        /* Before first touch, so that pages come from the thread's node. */
        tupc_bind_memory(tupc_heap_base_ + (size_t)t * part, part, node_of_thread[t]);
        pthread_mutex_init(&heap_.parts[t].lock, NULL);
        tupc_arena_init(&heap_.parts[t].local);
        atomic_init(&heap_.parts[t].local_top, 0);
    }
    tupc_arena_init(&heap_.sym);
    atomic_init(&heap_.sym_top, 0);
    /* Relaxed: the UPC threads start after this (pthread_create orders it). */
    atomic_fetch_add_explicit(&tupc_heap_gen_, 1, memory_order_relaxed);
    return 0;
}

void tupc_heap_fini(void)
{
    if (!heap_.parts)
        return;
    for (int t = 0; t < tupc_run_.threads; t++) {
        tupc_arena_fini(&heap_.parts[t].local);
        pthread_mutex_destroy(&heap_.parts[t].lock);
    }
    free(heap_.parts);
    heap_.parts = NULL;
    tupc_arena_fini(&heap_.sym);
#if TUPC_HAVE_MPI
    /* A run across processes that stopped early may leave a collective in
     * flight (a leader's MPI_Ibcast cannot be cancelled) whose late bytes
     * land in its dst: the next run's heap must not lie there, as it could
     * if the range were unmapped (the next mapping may take the same
     * address). The range stays reserved, its pages dropped, where the run
     * stopped in any process. */
    if (tupc_procs_ > 1 && tupc_run_keeps_mpi_state())
        madvise(tupc_heap_base_, heap_.map_len, MADV_DONTNEED);
    else
#endif
        munmap(tupc_heap_base_, heap_.map_len);
    tupc_heap_base_ = NULL;
    tupc_impl_partition_size = 0;
}

void tupc_check_sptr_fail(const char *func, const char *arg, char *addr, uint32_t thread, size_t n)
{
    tupc_sptr_t p = {addr, thread, 0};
    if (!p.addr)
        tupc_fail(func, "UPC 1.3 6.4", "%s is a null pointer-to-shared; expected shared memory",
                  arg);
    if (p.addr < tupc_heap_base_ || p.addr >= tupc_heap_base_ + heap_.map_len)
        tupc_fail(func, "UPC 1.3 6.4",
                  "%s (address %p) does not point into the shared heap; expected a pointer from "
                  "a upc_*alloc function",
                  arg, (void *)p.addr);
    /* Compare against the partition the pointer names: no division on the
     * path every collective call takes. */
    char *start = tupc_heap_base_ + (size_t)p.thread * tupc_impl_partition_size;
    if (p.thread >= (uint32_t)tupc_run_.threads || p.addr < start ||
        p.addr >= start + tupc_impl_partition_size) {
        size_t t = (size_t)(p.addr - tupc_heap_base_) / tupc_impl_partition_size;
        tupc_fail(func, "UPC 1.3 6.4",
                  "%s says thread %u but its address is in thread %zu's partition; expected a "
                  "pointer made by tupc_ptr_add or an allocator",
                  arg, p.thread, t);
    }
    size_t t = p.thread;
    size_t off = (size_t)(p.addr - start);
    if (n > tupc_impl_partition_size - off)
        tupc_fail(func, strncmp(func, "upc_mem", 7) == 0 ? "UPC 1.3 7.2.5" : "UPC 1.3 7.4",
                  "%s + %zu bytes runs past the end of thread %zu's partition (%zu bytes from its "
                  "end); expected the range to have affinity to one thread",
                  arg, n, t, tupc_impl_partition_size - off);
}

int tupc_heap_find(int t, size_t x, struct tupc_alloc_span *s)
{
    struct tupc_range r;
    pthread_mutex_lock(&heap_.sym_lock);
    int found = tupc_arena_find(&heap_.sym, x, &r);
    pthread_mutex_unlock(&heap_.sym_lock);
    if (found) {
        s->lo = r.off;
        s->full = s->hi = r.off + r.asked;
        s->sym = 1;
        s->nblocks = r.nblocks;
        s->block = r.block;
        s->short_from = tupc_run_.threads;
        if (r.block && r.nblocks % (size_t)tupc_run_.threads) {
            /* Threads past the last round's blocks have one block fewer. */
            s->short_from = (int)(r.nblocks % (size_t)tupc_run_.threads);
            if (t < 0 || t >= s->short_from)
                s->hi -= r.block;
        }
        return x < s->full;
    }
    /* upc_alloc blocks count their offsets down from the partition's end:
     * the block [end - off - len, end - off) holds x when off <= end - x - 1. */
    struct partition *p = &heap_.parts[t < 0 ? 0 : t];
    pthread_mutex_lock(&p->lock);
    found = tupc_arena_find(&p->local, tupc_impl_partition_size - x - 1, &r);
    pthread_mutex_unlock(&p->lock);
    if (!found)
        return 0;
    s->lo = tupc_impl_partition_size - r.off - r.len;
    s->full = s->hi = s->lo + r.asked;
    s->sym = 0;
    s->nblocks = s->block = 0;
    s->short_from = tupc_run_.threads;
    return x < s->hi;
}

static tupc_sptr_t fail_alloc(const char *func, size_t want, size_t largest)
{
    snprintf(alloc_error, sizeof alloc_error,
             "%s: %zu bytes per partition asked, %zu free in one piece (UPC_SHARED_HEAP_SIZE "
             "is %zu per thread)",
             func, want, largest, tupc_impl_partition_size);
    return TUPC_NULL;
}

/* Symmetric allocation of `len` bytes in every partition, holding nblocks
 * blocks of nbytes dealt round-robin from thread 0. */
static tupc_sptr_t sym_alloc(const char *func, size_t len, size_t nblocks, size_t nbytes)
{
    size_t rounded = tupc_arena_round(len);
    if (rounded == 0)
        return fail_alloc(func, len, 0);
    pthread_mutex_lock(&heap_.sym_lock);
    /* Relaxed: a guess of the room left, made exact below. */
    size_t max_local = 0;
    for (int t = 0; t < tupc_run_.threads; t++) {
        size_t l = atomic_load_explicit(&heap_.parts[t].local_top, memory_order_relaxed);
        max_local = l > max_local ? l : max_local;
    }
    size_t limit = tupc_impl_partition_size - max_local, old_top = heap_.sym.top;
#if TUPC_HAVE_MPI
    /* Across processes the arena has a region of its own: another
     * process's upc_alloc blocks are not in parts[]. */
    if (tupc_procs_ > 1)
        limit = tupc_mpi_sym_end_;
#endif
    size_t off;
    int rc = tupc_arena_alloc(&heap_.sym, rounded, len, limit, &off);
    if (rc == 0 && heap_.sym.top > old_top) {
        /* seq_cst store, then seq_cst loads: the Dekker pattern with
         * upc_alloc (the top of this file). */
        atomic_store_explicit(&heap_.sym_top, heap_.sym.top, memory_order_seq_cst);
        int clash = 0;
        for (int t = 0; t < tupc_run_.threads && !clash; t++)
            clash = atomic_load_explicit(&heap_.parts[t].local_top, memory_order_seq_cst) >
                    tupc_impl_partition_size - heap_.sym.top;
        if (clash) {
            tupc_arena_free(&heap_.sym, off);
            atomic_store_explicit(&heap_.sym_top, heap_.sym.top, memory_order_seq_cst);
            rc = -1;
        }
    }
    if (rc == 0)
        tupc_arena_set_blocks(&heap_.sym, off, nblocks, nbytes);
    size_t largest = rc ? tupc_arena_largest(&heap_.sym, limit) : 0;
    pthread_mutex_unlock(&heap_.sym_lock);
    /* Report what the caller asked for, not the size rounded to the alignment. */
    if (rc)
        return fail_alloc(func, len, largest);
    alloc_error[0] = '\0';
    advise_huge(-1, off, len);
    return (tupc_sptr_t){tupc_heap_base_ + off, 0, 0};
}

/* Bytes per partition for nblocks blocks of nbytes dealt round-robin. */
static size_t per_thread(const char *func, size_t nblocks, size_t nbytes)
{
    if (nbytes != 0 && nblocks > SIZE_MAX / nbytes)
        tupc_fail(func, "UPC 1.3 7.2.2",
                  "nblocks * nbytes (%zu * %zu) overflows size_t; expected a size that fits",
                  nblocks, nbytes);
    size_t rows = nblocks / (size_t)tupc_run_.threads + (nblocks % (size_t)tupc_run_.threads != 0);
    return rows * nbytes;
}

tupc_sptr_t upc_global_alloc(size_t nblocks, size_t nbytes)
{
    TUPC_TRACE_RETURN(tupc_sptr_t, upc_global_alloc(nblocks, nbytes), __func__,
                      (uint64_t)nblocks * nbytes, -1, -1);
    tupc_require_thread("upc_global_alloc");
    size_t len = per_thread("upc_global_alloc", nblocks, nbytes);
    if (len == 0) {
        alloc_error[0] = '\0';
        return TUPC_NULL;
    }
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        /* One thread calls: the offset comes from rank 0's count, the same
         * in every partition and unknown to the other processes' arenas. */
        size_t rounded = tupc_arena_round(len);
        size_t off = rounded ? tupc_mpi_global_offset(rounded) : SIZE_MAX;
        if (off == SIZE_MAX) {
            snprintf(alloc_error, sizeof alloc_error,
                     "upc_global_alloc: %zu bytes per partition asked; across processes its "
                     "region (%zu bytes of UPC_SHARED_HEAP_SIZE) is full",
                     len, tupc_mpi_local_from_ - tupc_mpi_sym_end_);
            return TUPC_NULL;
        }
        alloc_error[0] = '\0';
        return (tupc_sptr_t){tupc_heap_base_ + off, 0, 0};
    }
#endif
    return sym_alloc("upc_global_alloc", len, nblocks, nbytes);
}

/* What thread 0 hands the others in upc_all_alloc: its arguments (to check
 * that they are single-valued) and the result. One slot per call parity:
 * slot k is written again two calls later, after a barrier that every
 * thread passes only once done reading it. */
struct all_alloc {
    size_t nblocks, nbytes;
    tupc_sptr_t result;
    char error[200];
};
static struct all_alloc all_alloc_slot[2];
static _Thread_local unsigned all_alloc_calls __attribute__((tls_model("initial-exec")));

tupc_sptr_t upc_all_alloc(size_t nblocks, size_t nbytes)
{
    TUPC_TRACE_RETURN(tupc_sptr_t, upc_all_alloc(nblocks, nbytes), __func__,
                      (uint64_t)nblocks * nbytes, -1, -1);
    tupc_require_thread("upc_all_alloc");
    tupc_check_not_split("upc_all_alloc");
    size_t len = per_thread("upc_all_alloc", nblocks, nbytes);
    struct all_alloc *slot = &all_alloc_slot[all_alloc_calls++ % 2];
    /* Across processes each process's first thread keeps its copy of the
     * arena, alike in every process (the same calls in the same order). */
    if (tupc_impl_mythread == tupc_first_thread_) {
        slot->nblocks = nblocks;
        slot->nbytes = nbytes;
        slot->result = len ? sym_alloc("upc_all_alloc", len, nblocks, nbytes) : TUPC_NULL;
        snprintf(slot->error, sizeof slot->error, "%s", len ? alloc_error : "");
    }
    tupc_barrier_bcast("upc_all_alloc", slot);
    if (slot->nblocks != nblocks || slot->nbytes != nbytes)
        tupc_fail("upc_all_alloc", "UPC 1.3 7.2.2.2",
                  "nblocks, nbytes are %zu, %zu here but %zu, %zu on thread %d; expected "
                  "single-valued arguments",
                  nblocks, nbytes, slot->nblocks, slot->nbytes, tupc_first_thread_);
    snprintf(alloc_error, sizeof alloc_error, "%s", slot->error);
    return slot->result;
}

tupc_sptr_t upc_alloc(size_t nbytes)
{
    TUPC_TRACE_RETURN(tupc_sptr_t, upc_alloc(nbytes), __func__, nbytes, -1, -1);
    tupc_require_thread("upc_alloc");
    if (nbytes == 0) {
        alloc_error[0] = '\0';
        return TUPC_NULL;
    }
    size_t rounded = tupc_arena_round(nbytes);
    if (rounded == 0)
        return fail_alloc("upc_alloc", nbytes, 0);
    int me = tupc_impl_mythread;
    struct partition *p = &heap_.parts[me];
    pthread_mutex_lock(&p->lock);
    /* Relaxed: a guess of the room left, made exact below. */
    size_t limit =
        tupc_impl_partition_size - atomic_load_explicit(&heap_.sym_top, memory_order_relaxed);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) /* the region from local_from up (mpi/layer.h) */
        limit = tupc_impl_partition_size - tupc_mpi_local_from_;
#endif
    size_t off, old_top = p->local.top;
    int rc = tupc_arena_alloc(&p->local, rounded, nbytes, limit, &off);
    if (rc == 0 && p->local.top > old_top) {
        /* seq_cst store, then seq_cst load: the Dekker pattern with
         * sym_alloc (the top of this file). */
        atomic_store_explicit(&p->local_top, p->local.top, memory_order_seq_cst);
        if (atomic_load_explicit(&heap_.sym_top, memory_order_seq_cst) >
            tupc_impl_partition_size - p->local.top) {
            tupc_arena_free(&p->local, off);
            atomic_store_explicit(&p->local_top, p->local.top, memory_order_seq_cst);
            rc = -1;
        }
    }
    size_t largest = rc ? tupc_arena_largest(&p->local, limit) : 0;
    pthread_mutex_unlock(&p->lock);
    if (rc) /* the size asked, not the rounded one */
        return fail_alloc("upc_alloc", nbytes, largest);
    alloc_error[0] = '\0';
    /* Local offsets count down from the partition's end. */
    advise_huge(me, tupc_impl_partition_size - off - rounded, rounded);
    return (tupc_sptr_t){tupc_partition(me) + tupc_impl_partition_size - off - rounded,
                         (uint32_t)me, 0};
}

static void free_block(const char *func, tupc_sptr_t ptr)
{
    tupc_check_sptr(func, "ptr", ptr, 0);
    size_t off = tupc_offset(ptr);
    struct partition *p = &heap_.parts[ptr.thread];
    size_t freed = 0;
    /* Relaxed: only a guess of which arena to try first (a symmetric top
     * being published may be above a local block for a moment); the arenas
     * themselves say, under their locks. */
    int sym_first = off < atomic_load_explicit(&heap_.sym_top, memory_order_relaxed);
    for (int pass = 0; pass < 2 && !freed; pass++) {
        if ((pass == 0) == sym_first) {
            if (ptr.thread != 0)
                continue;
            pthread_mutex_lock(&heap_.sym_lock);
            freed = tupc_arena_free(&heap_.sym, off);
            if (freed) {
                /* Relaxed: see range_check.h. */
                atomic_fetch_add_explicit(&tupc_heap_gen_, 1, memory_order_relaxed);
                atomic_store_explicit(&heap_.sym_top, heap_.sym.top, memory_order_seq_cst);
            }
            pthread_mutex_unlock(&heap_.sym_lock);
        } else {
            pthread_mutex_lock(&p->lock);
            /* The arena counts local offsets down from the end: the block
             * starting at off is the range whose far end is there. */
            struct tupc_arena *a = &p->local;
            size_t from_end = tupc_impl_partition_size - off;
            struct tupc_range r;
            if (tupc_arena_find(a, from_end - 1, &r) && r.off + r.len == from_end) {
                freed = tupc_arena_free(a, r.off);
                atomic_fetch_add_explicit(&tupc_heap_gen_, 1, memory_order_relaxed);
                atomic_store_explicit(&p->local_top, a->top, memory_order_seq_cst);
            }
            pthread_mutex_unlock(&p->lock);
        }
    }
    if (!freed)
        tupc_fail(func, "UPC 1.3 7.2.2.4",
                  "ptr (thread %u, offset %zu) is not the start of a live allocation; expected a "
                  "pointer returned by upc_alloc, upc_global_alloc or upc_all_alloc, freed once",
                  ptr.thread, off);
}

void upc_free(tupc_sptr_t ptr)
{
    TUPC_TRACE_VOID(upc_free(ptr), __func__, 0, -1, -1);
    tupc_require_thread("upc_free");
    if (tupc_isnull(ptr))
        return;
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_check_sptr("upc_free", "ptr", ptr, 0);
        size_t off = tupc_offset(ptr);
        if (off >= tupc_mpi_sym_end_ && off < tupc_mpi_local_from_)
            return; /* upc_global_alloc's region: rank 0 only counts, its space stays */
        if (off < tupc_mpi_sym_end_)
            tupc_mpi_refuse("upc_free", "upc_free of a upc_all_alloc block (every process keeps "
                                        "its copy of their arena: free it with upc_all_free)");
        if (!tupc_impl_is_local(ptr.thread))
            tupc_mpi_refuse("upc_free", "upc_free of another process's upc_alloc block");
    }
#endif
    free_block("upc_free", ptr);
}

/* A pointer-to-shared's address as a message names it. */
static const char *describe_ptr(const char *addr, char *buf, size_t len)
{
    if (!addr)
        snprintf(buf, len, "a null pointer");
    else if (addr < tupc_heap_base_ || addr >= tupc_heap_base_ + heap_.map_len)
        snprintf(buf, len, "address %p, outside the shared heap", (const void *)addr);
    else {
        size_t at = (size_t)(addr - tupc_heap_base_);
        snprintf(buf, len, "offset %zu of thread %zu's partition", at % tupc_impl_partition_size,
                 at / tupc_impl_partition_size);
    }
    return buf;
}

void upc_all_free(tupc_sptr_t ptr)
{
    TUPC_TRACE_VOID(upc_all_free(ptr), __func__, 0, -1, -1);
    tupc_require_thread("upc_all_free");
    tupc_check_not_split("upc_all_free");
    /* Every thread's cache of allocations it has seen (heap/range_check.h)
     * goes stale now, not when the block goes: the count of frees moves
     * before the barrier, which orders it before every thread's next
     * check. Relaxed: the barrier is the release and the acquire. */
    if (tupc_impl_mythread == tupc_first_thread_)
        atomic_fetch_add_explicit(&tupc_heap_gen_, 1, memory_order_relaxed);
    /* No thread may still use the block when it goes; and every thread
     * must name the same block (single-valued), or blocks would leak or go
     * while in use. */
    char *first = tupc_barrier_bcast("upc_all_free", ptr.addr);
    if (first != ptr.addr) {
        char here[96], there[96];
        tupc_fail("upc_all_free", "UPC 1.3 7.2.2.5",
                  "ptr is %s here but %s on thread %d; expected the same pointer on every "
                  "thread (a single-valued argument)",
                  describe_ptr(ptr.addr, here, sizeof here),
                  describe_ptr(first, there, sizeof there), tupc_first_thread_);
    }
    if (tupc_impl_mythread != tupc_first_thread_ || tupc_isnull(ptr))
        return;
#if TUPC_HAVE_MPI
    /* Across processes: upc_global_alloc's blocks stay (rank 0 only
     * counts them), and a upc_alloc block goes in its owner's process. */
    if (tupc_procs_ > 1 && tupc_offset(ptr) >= tupc_mpi_sym_end_ &&
        (tupc_offset(ptr) < tupc_mpi_local_from_ || !tupc_impl_is_local(ptr.thread)))
        return;
#endif
    free_block("upc_all_free", ptr);
}
