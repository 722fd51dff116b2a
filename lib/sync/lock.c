/* upc_lock_t as an MCS queue lock: each waiter spins (or sleeps) on its own
 * queue node, and the holder hands the lock to the next in line, so the lock
 * is fair and a release touches one waiter's cache line only.
 *
 * Queue nodes come from a per-thread free list: a node is reusable as soon as
 * upc_unlock returns, because by then the successor has linked itself in and
 * been granted the lock, and nobody else refers to the node. */
#include "sync/lock.h"

#include "check/trace.h"
#include "check/watchdog.h"
#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

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

struct tupc_lock {
    _Atomic(struct qnode *) tail;
    struct qnode *holder_node;  /* written and read by the holder only */
    _Atomic int holder;         /* thread holding the lock, -1 if none: for checks */
    struct tupc_lock *all_next; /* every lock of the run, to free at its end */
    struct tupc_lock *all_prev;
} __attribute__((aligned(TUPC_CACHELINE)));

static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tupc_lock *all_locks;
static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct qnode *all_nodes;

static _Thread_local struct qnode *free_nodes __attribute__((tls_model("initial-exec")));

void tupc_lock_fini(void)
{
    pthread_mutex_lock(&all_lock);
    while (all_locks) {
        struct tupc_lock *l = all_locks;
        all_locks = l->all_next;
        free(l);
    }
    pthread_mutex_unlock(&all_lock);
    pthread_mutex_lock(&nodes_lock);
    while (all_nodes) {
        struct qnode *q = all_nodes;
        all_nodes = q->all_next;
        free(q);
    }
    pthread_mutex_unlock(&nodes_lock);
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
    pthread_mutex_lock(&nodes_lock);
    q->all_next = all_nodes;
    all_nodes = q;
    pthread_mutex_unlock(&nodes_lock);
    return q;
}

static void put_node(struct qnode *q)
{
    q->free_next = free_nodes;
    free_nodes = q;
}

static upc_lock_t *new_lock(const char *func)
{
    upc_lock_t *l = aligned_alloc(TUPC_CACHELINE, sizeof *l);
    if (!l)
        tupc_fail(func, "UPC 1.3 7.2.4", "out of memory for a lock");
    memset(l, 0, sizeof *l);
    atomic_init(&l->holder, -1);
    pthread_mutex_lock(&all_lock);
    l->all_next = all_locks;
    if (all_locks)
        all_locks->all_prev = l;
    all_locks = l;
    pthread_mutex_unlock(&all_lock);
    return l;
}

upc_lock_t *upc_global_lock_alloc(void)
{
    tupc_require_thread("upc_global_lock_alloc");
    return new_lock("upc_global_lock_alloc");
}

upc_lock_t *upc_all_lock_alloc(void)
{
    TUPC_TRACE_RETURN(upc_lock_t *, upc_all_lock_alloc(), __func__, 0, -1, -1);
    tupc_require_thread("upc_all_lock_alloc");
    tupc_check_not_split("upc_all_lock_alloc");
    upc_lock_t *l = tupc_impl_mythread == 0 ? new_lock("upc_all_lock_alloc") : NULL;
    return tupc_barrier_bcast("upc_all_lock_alloc", l);
}

static void check_lock(const char *func, upc_lock_t *l)
{
    if (!l)
        tupc_fail(func, "UPC 1.3 7.2.4", "lock is NULL; expected a lock from upc_*_lock_alloc");
}

static void free_lock(const char *func, upc_lock_t *l)
{
    int h = atomic_load_explicit(&l->holder, memory_order_relaxed);
    if (h >= 0 && h != tupc_impl_mythread)
        tupc_fail(func, "UPC 1.3 7.2.4",
                  "lock is held by thread %d; expected a lock that no other thread holds", h);
    pthread_mutex_lock(&all_lock);
    if (l->all_prev)
        l->all_prev->all_next = l->all_next;
    else
        all_locks = l->all_next;
    if (l->all_next)
        l->all_next->all_prev = l->all_prev;
    pthread_mutex_unlock(&all_lock);
    free(l);
}

void upc_lock_free(upc_lock_t *l)
{
    tupc_require_thread("upc_lock_free");
    if (!l)
        return; /* UPC 1.3 7.2.4.2: a null lock is no action */
    free_lock("upc_lock_free", l);
}

void upc_all_lock_free(upc_lock_t *l)
{
    TUPC_TRACE_VOID(upc_all_lock_free(l), __func__, 0, -1, -1);
    tupc_require_thread("upc_all_lock_free");
    /* Every thread must be done with the lock before it goes. */
    tupc_barrier_all("upc_all_lock_free");
    if (l && tupc_impl_mythread == 0)
        free_lock("upc_all_lock_free", l);
}

static void became_holder(upc_lock_t *l, struct qnode *q)
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
    if (!atomic_load_explicit(&tupc_gone_[t], memory_order_acquire) ||
        tupc_reached(atomic_load_explicit(&w->value, memory_order_acquire), target))
        return;
    tupc_fail("upc_lock", "UPC 1.3 7.2.4.3",
              "thread %d returned from its entry function holding the lock this thread waits "
              "for; expected every thread to upc_unlock the locks it holds",
              t);
}

void upc_lock(upc_lock_t *l)
{
    TUPC_TRACE_VOID(upc_lock(l), __func__, 0, -1, -1);
    tupc_require_thread("upc_lock");
    check_lock("upc_lock", l);
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

int upc_lock_attempt(upc_lock_t *l)
{
    tupc_require_thread("upc_lock_attempt");
    check_lock("upc_lock_attempt", l);
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

void upc_unlock(upc_lock_t *l)
{
    tupc_require_thread("upc_unlock");
    check_lock("upc_unlock", l);
    int h = atomic_load_explicit(&l->holder, memory_order_relaxed);
    if (h != tupc_impl_mythread)
        tupc_fail("upc_unlock", "UPC 1.3 7.2.4.5",
                  h < 0 ? "lock is not held; expected a lock held by this thread"
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
