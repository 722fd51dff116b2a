/* upc_lock_t as an MCS queue lock: each waiter spins (or sleeps) on its own
 * queue node, and the holder hands the lock to the next in line, so the lock
 * is fair and a release touches one waiter's cache line only.
 *
 * Queue nodes come from a per-thread free list: a node is reusable as soon as
 * upc_unlock returns, because by then the successor has linked itself in and
 * been granted the lock, and nobody else refers to the node. */
#include "sync/lock.h"

#include "observe/trace.h"
#include "observe/watchdog.h"
#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct qnode {
    _Atomic(struct qnode *) next;
    tupc_word granted;       /* 0 while waiting, 1 once the lock is ours */
    struct qnode *free_next; /* this thread's free list */
    struct qnode *all_next;  /* every node of the run, to free at its end */
    int owner;               /* the thread whose free list it is on */
} __attribute__((aligned(TUPC_CACHELINE)));

/* A lock's state, in a slot of the process's lock table. The program holds
 * a number, not this address (see lock_of). */
struct tupc_lock {
    _Atomic(struct qnode *) tail;
    struct qnode *holder_node; /* written and read by the holder only */
    _Atomic int holder;        /* thread holding the lock, -1 if none: for checks */
    /* Odd while the slot holds a live lock: bumped by every allocation and
     * every free, so a freed lock's number stays recognisable until 2^31
     * more locks have been made in its slot. */
    _Atomic uint32_t gen;
    uint32_t next_free; /* under table_lock: the next free slot + 1, 0 at the end */
} __attribute__((aligned(TUPC_CACHELINE)));

/* The lock table: chunks of slots, made as needed and kept for the life of
 * the process, so that the number of a lock freed in an earlier run (or
 * this one) still names its slot, whose generation refuses it. A chunk's
 * pointer is published once (release) and never changes. */
#define CHUNK_LOCKS 256
#define MAX_CHUNKS 65536
static struct lock_table {
    _Atomic uint32_t nslots; /* slots made; release with each new chunk */
    uint32_t free_head;      /* free slot + 1, 0 if none */
    pthread_mutex_t table_lock;
    pthread_mutex_t nodes_lock;
    struct qnode *all_nodes;
    _Atomic(struct tupc_lock *) chunks[MAX_CHUNKS];
} locks_ = {.table_lock = PTHREAD_MUTEX_INITIALIZER, .nodes_lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local struct qnode *free_nodes __attribute__((tls_model("initial-exec")));

static struct tupc_lock *slot(uint32_t i)
{
    return &atomic_load_explicit(&locks_.chunks[i / CHUNK_LOCKS],
                                 memory_order_acquire)[i % CHUNK_LOCKS];
}

/* A lock's number: generation << 32 | slot << 1 | 1 (odd, so no address of
 * an object looks like one, and never NULL). */
static upc_lock_t *number_of(uint32_t i, uint32_t gen)
{
    return (upc_lock_t *)(uintptr_t)((uint64_t)gen << 32 | (uint64_t)i << 1 | 1);
}

/* Frees every lock a run left allocated: their numbers go stale. */
static void free_slot(uint32_t i)
{
    struct tupc_lock *l = slot(i);
    atomic_fetch_add_explicit(&l->gen, 1, memory_order_release);
    atomic_store_explicit(&l->tail, NULL, memory_order_relaxed);
    atomic_store_explicit(&l->holder, -1, memory_order_relaxed);
    l->next_free = locks_.free_head;
    locks_.free_head = i + 1;
}

void tupc_lock_fini(void)
{
    pthread_mutex_lock(&locks_.table_lock);
    uint32_t n = atomic_load_explicit(&locks_.nslots, memory_order_relaxed);
    for (uint32_t i = 0; i < n; i++)
        if (atomic_load_explicit(&slot(i)->gen, memory_order_relaxed) & 1)
            free_slot(i);
    pthread_mutex_unlock(&locks_.table_lock);
    pthread_mutex_lock(&locks_.nodes_lock);
    while (locks_.all_nodes) {
        struct qnode *q = locks_.all_nodes;
        locks_.all_nodes = q->all_next;
        free(q);
    }
    pthread_mutex_unlock(&locks_.nodes_lock);
}

static struct qnode *get_node(void)
{
    struct qnode *q = free_nodes;
    if (q) {
        free_nodes = q->free_next;
        return q;
    }
    q = aligned_alloc(TUPC_CACHELINE, sizeof *q);
    if (!q)
        tupc_fail("upc_lock", NULL, "out of memory for a lock queue node");
    memset(q, 0, sizeof *q);
    q->owner = tupc_impl_mythread;
    /* Kept on a run-wide list so that tupc_lock_fini frees them all, also
     * those of threads that left the run early. */
    pthread_mutex_lock(&locks_.nodes_lock);
    q->all_next = locks_.all_nodes;
    locks_.all_nodes = q;
    pthread_mutex_unlock(&locks_.nodes_lock);
    return q;
}

static void put_node(struct qnode *q)
{
    q->free_next = free_nodes;
    free_nodes = q;
}

static upc_lock_t *new_lock(const char *func)
{
    pthread_mutex_lock(&locks_.table_lock);
    if (!locks_.free_head) {
        uint32_t n = atomic_load_explicit(&locks_.nslots, memory_order_relaxed);
        struct tupc_lock *c = n / CHUNK_LOCKS < MAX_CHUNKS
                                  ? aligned_alloc(TUPC_CACHELINE, sizeof *c * CHUNK_LOCKS)
                                  : NULL;
        if (!c) {
            pthread_mutex_unlock(&locks_.table_lock);
            tupc_fail(func, "UPC 1.3 7.2.4", "out of memory for a lock (%u locks are live)", n);
        }
        memset(c, 0, sizeof *c * CHUNK_LOCKS);
        /* Release: the zeroed chunk, to lock_of's acquire. */
        atomic_store_explicit(&locks_.chunks[n / CHUNK_LOCKS], c, memory_order_release);
        for (uint32_t k = CHUNK_LOCKS; k-- > 0;) {
            c[k].next_free = locks_.free_head;
            locks_.free_head = n + k + 1;
        }
        atomic_store_explicit(&locks_.nslots, n + CHUNK_LOCKS, memory_order_release);
    }
    uint32_t i = locks_.free_head - 1;
    struct tupc_lock *l = slot(i);
    locks_.free_head = l->next_free;
    atomic_store_explicit(&l->tail, NULL, memory_order_relaxed);
    atomic_store_explicit(&l->holder, -1, memory_order_relaxed);
    /* Release: the lock's reset, to whoever validates its number. The
     * number reaches other threads through the program's own
     * synchronization (a barrier, a shared variable) in any case. */
    uint32_t gen = atomic_fetch_add_explicit(&l->gen, 1, memory_order_release) + 1;
    pthread_mutex_unlock(&locks_.table_lock);
    return number_of(i, gen);
}

upc_lock_t *upc_global_lock_alloc(void)
{
    tupc_require_thread("upc_global_lock_alloc");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) /* a lock word in the heap (mpi/lock.c) */
        return tupc_mpi_global_lock_alloc();
#endif
    return new_lock("upc_global_lock_alloc");
}

upc_lock_t *upc_all_lock_alloc(void)
{
    TUPC_TRACE_RETURN(upc_lock_t *, upc_all_lock_alloc(), __func__, 0, -1, -1);
    tupc_require_thread("upc_all_lock_alloc");
    tupc_check_not_split("upc_all_lock_alloc");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1)
        return tupc_mpi_all_lock_alloc();
#endif
    upc_lock_t *l = tupc_impl_mythread == 0 ? new_lock("upc_all_lock_alloc") : NULL;
    return tupc_barrier_bcast("upc_all_lock_alloc", l);
}

/* The lock that number h names, or a failure naming func: h is decoded and
 * checked against the table, never dereferenced. */
/* Why lock_of refused h: out of line, so that the check costs the lock
 * calls a few instructions. */
static _Noreturn __attribute__((noinline, cold)) void
bad_lock(const char *func, const char *section, upc_lock_t *h, int freed)
{
    if (!h)
        tupc_fail(func, section, "lock is NULL; expected a lock from upc_*_lock_alloc");
    if (!freed)
        tupc_fail(func, section,
                  "lock (%p) is no lock that upc_global_lock_alloc or upc_all_lock_alloc "
                  "returned; expected one of theirs, not freed",
                  (void *)h);
    tupc_fail(func, "UPC 1.3 7.2.4.2",
              "lock (%p) was freed by upc_lock_free or upc_all_lock_free (or by the end of an "
              "earlier run) before this call; expected a live lock (after its free, any use of a "
              "lock is undefined)",
              (void *)h);
}

/* The lock that number h names, or a failure naming func: h is decoded and
 * checked against the table, never dereferenced. */
static inline struct tupc_lock *lock_of(const char *func, const char *section, upc_lock_t *h)
{
    uintptr_t v = (uintptr_t)h;
    uint32_t i = (uint32_t)v >> 1, gen = (uint32_t)(v >> 32), c = i / CHUNK_LOCKS;
    /* Acquire: the chunk's zeroed slots (a chunk not made yet is NULL). */
    struct tupc_lock *chunk =
        c < MAX_CHUNKS ? atomic_load_explicit(&locks_.chunks[c], memory_order_acquire) : NULL;
    if (__builtin_expect(!(v & 1) || !(gen & 1) || !chunk, 0))
        bad_lock(func, section, h, 0);
    struct tupc_lock *l = &chunk[i % CHUNK_LOCKS];
    /* Relaxed: a match needs no ordering (see new_lock); a mismatch means
     * the lock was freed, by this thread or one synchronized with it. */
    if (__builtin_expect(atomic_load_explicit(&l->gen, memory_order_relaxed) != gen, 0))
        bad_lock(func, section, h, 1);
    return l;
}

static void free_lock(const char *func, upc_lock_t *h)
{
    struct tupc_lock *l = lock_of(func, "UPC 1.3 7.2.4.2", h);
    int t = atomic_load_explicit(&l->holder, memory_order_relaxed);
    if (t >= 0 && t != tupc_impl_mythread)
        tupc_fail(func, "UPC 1.3 7.2.4",
                  "lock is held by thread %d; expected a lock that no other thread holds", t);
    pthread_mutex_lock(&locks_.table_lock);
    /* Checked again under the table's lock: of two frees at once, one wins. */
    if (atomic_load_explicit(&l->gen, memory_order_relaxed) != (uint32_t)((uintptr_t)h >> 32)) {
        pthread_mutex_unlock(&locks_.table_lock);
        (void)lock_of(func, "UPC 1.3 7.2.4.2", h);
    }
    free_slot((uint32_t)(uintptr_t)h >> 1);
    pthread_mutex_unlock(&locks_.table_lock);
}

void upc_lock_free(upc_lock_t *l)
{
    tupc_require_thread("upc_lock_free");
    if (!l)
        return; /* UPC 1.3 7.2.4.2: a null lock is no action */
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_lock_free("upc_lock_free", l);
        return;
    }
#endif
    free_lock("upc_lock_free", l);
}

void upc_all_lock_free(upc_lock_t *l)
{
    TUPC_TRACE_VOID(upc_all_lock_free(l), __func__, 0, -1, -1);
    tupc_require_thread("upc_all_lock_free");
    /* Every thread must be done with the lock before it goes. */
    tupc_barrier_all("upc_all_lock_free");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        if (l && tupc_impl_mythread == 0)
            tupc_mpi_lock_free("upc_all_lock_free", l);
        return;
    }
#endif
    if (l && tupc_impl_mythread == 0)
        free_lock("upc_all_lock_free", l);
}

static void became_holder(struct tupc_lock *l, struct qnode *q)
{
    l->holder_node = q;
    atomic_store_explicit(&l->holder, tupc_impl_mythread, memory_order_relaxed);
}

/* A sleeping waiter's check: the predecessor in the queue grants us the
 * lock once it has held it. Gone without granting, it returned from its
 * entry function holding the lock, and nobody can ever release it. */
static void pred_gone(const void *arg, tupc_word *w, uint32_t target)
{
    int t = ((const struct qnode *)arg)->owner;
    /* Acquire: a thread marks itself gone after its last store, so one more
     * look at granted after seeing the mark is final. */
    if (!atomic_load_explicit(&tupc_run_.gone[t], memory_order_acquire) ||
        tupc_reached(atomic_load_explicit(&w->value, memory_order_acquire), target))
        return;
    tupc_fail("upc_lock", "UPC 1.3 7.2.4.3",
              "thread %d returned from its entry function holding the lock this thread waits "
              "for; expected every thread to upc_unlock the locks it holds",
              t);
}

void upc_lock(upc_lock_t *h)
{
    TUPC_TRACE_VOID(upc_lock(h), __func__, 0, -1, -1);
    tupc_require_thread("upc_lock");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_lock(h);
        return;
    }
#endif
    struct tupc_lock *l = lock_of("upc_lock", "UPC 1.3 7.2.4.3", h);
    if (atomic_load_explicit(&l->holder, memory_order_relaxed) == tupc_impl_mythread)
        tupc_fail("upc_lock", "UPC 1.3 7.2.4.3",
                  "lock is already held by this thread; expected a lock it does not hold");
    struct qnode *q = get_node();
    atomic_store_explicit(&q->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&q->granted.value, 0, memory_order_relaxed);
    /* acq_rel: acquire the predecessor's node initialisation, release ours. */
    struct qnode *pred = atomic_exchange_explicit(&l->tail, q, memory_order_acq_rel);
    if (pred) {
        /* release: the predecessor reads our node through this pointer. */
        atomic_store_explicit(&pred->next, q, memory_order_release);
        /* acquire (inside): the previous holder's critical section happens
         * before ours. */
        tupc_watch_lock(pred->owner);
        tupc_wait_checked(&q->granted, 1, NULL, pred_gone, pred);
        tupc_watch_lock(-1);
    }
    became_holder(l, q);
}

int upc_lock_attempt(upc_lock_t *h)
{
    tupc_require_thread("upc_lock_attempt");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1)
        return tupc_mpi_lock_attempt(h);
#endif
    struct tupc_lock *l = lock_of("upc_lock_attempt", "UPC 1.3 7.2.4.4", h);
    if (atomic_load_explicit(&l->holder, memory_order_relaxed) == tupc_impl_mythread)
        return 0;
    struct qnode *q = get_node();
    atomic_store_explicit(&q->next, NULL, memory_order_relaxed);
    struct qnode *expected = NULL;
    /* acquire on success: the previous holder's unlock released the lock. */
    if (!atomic_compare_exchange_strong_explicit(&l->tail, &expected, q, memory_order_acq_rel,
                                                 memory_order_relaxed)) {
        put_node(q);
        return 0;
    }
    became_holder(l, q);
    return 1;
}

void upc_unlock(upc_lock_t *h)
{
    tupc_require_thread("upc_unlock");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_unlock(h);
        return;
    }
#endif
    struct tupc_lock *l = lock_of("upc_unlock", "UPC 1.3 7.2.4.5", h);
    int holder = atomic_load_explicit(&l->holder, memory_order_relaxed);
    if (holder != tupc_impl_mythread)
        tupc_fail("upc_unlock", "UPC 1.3 7.2.4.5",
                  holder < 0
                      ? "lock is not held; expected a lock held by this thread"
                      : "lock is held by another thread; expected a lock held by this thread");
    struct qnode *q = l->holder_node;
    atomic_store_explicit(&l->holder, -1, memory_order_relaxed);
    struct qnode *next = atomic_load_explicit(&q->next, memory_order_acquire);
    if (!next) {
        struct qnode *expected = q;
        /* release: the next locker's acquire sees our critical section. */
        if (atomic_compare_exchange_strong_explicit(&l->tail, &expected, NULL, memory_order_release,
                                                    memory_order_relaxed)) {
            put_node(q);
            return;
        }
        /* A successor swapped itself in; wait for it to link to us. */
        for (unsigned n = 0; !(next = atomic_load_explicit(&q->next, memory_order_acquire)); n++)
            tupc_backoff(n);
    }
    tupc_word_set(&next->granted, 1); /* release: hands over our critical section */
    put_node(q);
}
