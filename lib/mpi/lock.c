/* upc_lock_t across processes: a 64-bit word in the shared heap, 0 while
 * free, else the holder's thread + 1, changed only by MPI's
 * compare-and-swap (never by a plain store once the lock is handed out:
 * MPI atomics are atomic only with each other).
 *
 * The program holds the word's address, which is the same in every process
 * (mpi/window.c). upc_global_lock_alloc takes it from the caller's
 * partition (upc_alloc), upc_all_lock_alloc from upc_all_alloc, so that
 * every thread gets the same one. A test-and-set with backoff, not a
 * queue: a remote queue node would need a window of its own per waiter. */
#include "mpi/layer.h"

#include "check/error.h"
#include "heap/heap.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* The lock word behind l, checked: in the heap, 8-byte aligned. */
static tupc_sptr_t word_of(const char *func, upc_lock_t *l)
{
    char *a = (char *)l;
    size_t map = (size_t)tupc_impl_threads * tupc_impl_partition_size;
    if (!l)
        tupc_fail(func, "UPC 1.3 7.2.4", "lock is NULL; expected a lock from upc_*_lock_alloc");
    if (a < tupc_heap_base_ || a >= tupc_heap_base_ + map || ((uintptr_t)a & 7))
        tupc_fail(func, "UPC 1.3 7.2.4",
                  "lock (%p) is no lock that upc_global_lock_alloc or upc_all_lock_alloc "
                  "returned; expected one of theirs",
                  (void *)l);
    uint32_t t = (uint32_t)((size_t)(a - tupc_heap_base_) / tupc_impl_partition_size);
    return (tupc_sptr_t){a, t, 0};
}

upc_lock_t *tupc_mpi_global_lock_alloc(void)
{
    tupc_sptr_t w = upc_alloc(sizeof(uint64_t));
    if (tupc_isnull(w))
        tupc_fail("upc_global_lock_alloc", "UPC 1.3 7.2.4", "no room for a lock: %s",
                  tupc_alloc_error());
    /* This thread's own partition, not handed out yet: a plain store, seen
     * by the others after whatever hands them the lock (a barrier, a put:
     * each syncs the window). */
    *(uint64_t *)w.addr = 0;
    return (upc_lock_t *)w.addr;
}

upc_lock_t *tupc_mpi_all_lock_alloc(void)
{
    tupc_sptr_t w = upc_all_alloc(1, sizeof(uint64_t));
    if (tupc_isnull(w))
        tupc_fail("upc_all_lock_alloc", "UPC 1.3 7.2.4", "no room for a lock: %s",
                  tupc_alloc_error());
    if (tupc_impl_mythread == 0)
        *(uint64_t *)w.addr = 0; /* thread 0's partition; the barrier publishes it */
    tupc_barrier_all("upc_all_lock_alloc");
    return (upc_lock_t *)w.addr;
}

void tupc_mpi_lock_free(const char *func, upc_lock_t *l)
{
    tupc_sptr_t w = word_of(func, l);
    uint64_t held = tupc_mpi_cas(w.thread, w.addr, 0, 0);
    if (held && held != (uint64_t)tupc_impl_mythread + 1)
        tupc_fail(func, "UPC 1.3 7.2.4",
                  "lock is held by thread %llu; expected a lock that no other thread holds",
                  (unsigned long long)held - 1);
    /* The word stays: upc_all_alloc's arena must stay alike in every
     * process, and a upc_alloc word may be another process's. A lock
     * costs 8 bytes of the heap until the run ends. */
}

/* The pause after failed try n of a wait for a lock word (upc_lock's, a
 * process's strict lock): it leaves when the run stops; it backs off, then
 * naps, as each try is a round trip to the owner, taking in another
 * process's stop where no progress thread does (TUPC_MPI_PROGRESS=0,
 * mpi/stop.c). From its first nap the hang watchdog sees the wait (ev);
 * waited_until ends it there after the last try. */
enum { SPIN_TRIES = 64 };
static void pause_after(unsigned n, struct tupc_wait_event *ev)
{
    /* Relaxed: the flag only says that the run is ending. */
    if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
        tupc_thread_leave();
    if (n < SPIN_TRIES) {
        tupc_backoff(n);
        return;
    }
    if (n == SPIN_TRIES)
        tupc_wait_napping(ev);
    nanosleep(&(struct timespec){.tv_nsec = 10000}, NULL);
    tupc_mpi_stop_poll();
}

static void waited_until(unsigned tries, struct tupc_wait_event *ev)
{
    if (tries > SPIN_TRIES)
        tupc_wait_napped(ev);
}

/* One try: 1 if this thread now holds the lock. */
static int try_take(const char *func, tupc_sptr_t w)
{
    uint64_t me = (uint64_t)tupc_impl_mythread + 1;
    uint64_t old = tupc_mpi_cas(w.thread, w.addr, 0, me);
    if (old == me)
        tupc_fail(func, "UPC 1.3 7.2.4.3",
                  "lock is already held by this thread; expected a lock it does not hold");
    if (old)
        return 0;
    /* The previous holder's writes are complete (it fenced before its
     * release); this fence brings them into this thread's view. */
    tupc_mpi_fence();
    return 1;
}

void tupc_mpi_lock(upc_lock_t *l)
{
    tupc_sptr_t w = word_of("upc_lock", l);
    struct tupc_wait_event ev = {"upc_lock", -1, 0};
    unsigned n = 0;
    for (; !try_take("upc_lock", w); n++)
        pause_after(n, &ev);
    waited_until(n, &ev);
}

int tupc_mpi_lock_attempt(upc_lock_t *l)
{
    tupc_sptr_t w = word_of("upc_lock_attempt", l);
    uint64_t me = (uint64_t)tupc_impl_mythread + 1;
    uint64_t old = tupc_mpi_cas(w.thread, w.addr, 0, me);
    if (old)
        return 0; /* held, by this thread too (UPC 1.3 7.2.4.4) */
    tupc_mpi_fence();
    return 1;
}

void tupc_mpi_unlock(upc_lock_t *l)
{
    tupc_sptr_t w = word_of("upc_unlock", l);
    uint64_t me = (uint64_t)tupc_impl_mythread + 1;
    /* The critical section's writes, complete before the release. */
    tupc_mpi_fence();
    uint64_t old = tupc_mpi_cas(w.thread, w.addr, me, 0);
    if (old != me)
        tupc_fail("upc_unlock", "UPC 1.3 7.2.4.5",
                  old == 0 ? "lock is not held; expected a lock held by this thread"
                           : "lock is held by another thread; expected a lock held by this thread");
}

/* The strict lock of process `rank` (heap/strict.c): a test-and-set with
 * backoff, held for one copy. */
static void strict_lock(int rank)
{
    uint64_t me = (uint64_t)tupc_impl_mythread + 1;
    struct tupc_wait_event ev = {"a strict shared access", -1, 0};
    unsigned n = 0;
    for (; tupc_mpi_strict_cas(rank, 0, me); n++)
        pause_after(n, &ev);
    waited_until(n, &ev);
}

void tupc_mpi_strict_copy(void *local, tupc_sptr_t p, size_t n, int put)
{
    int owner = tupc_mpi_rank_of(p.thread), here = tupc_impl_is_local(p.thread);
    tupc_mpi_fence();
    strict_lock(owner);
    /* The last holder's copy is complete and flushed; this fence brings it
     * into this process's view of its own window. */
    tupc_mpi_fence();
    if (here)
        tupc_strict_pieces(p.addr, local, n, put);
    else if (put)
        tupc_mpi_put(p.thread, p.addr, local, n);
    else
        tupc_mpi_get(local, p.thread, p.addr, n);
    /* The copy complete (a put is flushed) before the next holder's. */
    tupc_mpi_fence();
    (void)tupc_mpi_strict_cas(owner, (uint64_t)tupc_impl_mythread + 1, 0);
}
