/* Barriers.
 *
 * upc_notify must publish a thread's arrival without waiting for anyone: a
 * thread may take locks or compute between upc_notify and upc_wait, so an
 * algorithm whose rounds need the other threads to be in upc_wait (a
 * dissemination barrier) could deadlock a valid program. Two algorithms that
 * do not, both on monotonic episode numbers (no reset, no sense reversal):
 *
 * flat: each thread stores its episode in its own cache line; upc_wait reads
 *   every other thread's line. With as many CPUs as threads this is one
 *   cache-line transfer on the critical path, the least any barrier needs; it
 *   is used while THREADS <= the CPUs of the run and <= FLAT_MAX.
 * tree: a combining tree of fan-in 4. The last arriver at a node goes on to
 *   its parent, the others go straight to upc_wait; the last arriver at the
 *   root stores the episode in one release word. Nobody waits during arrival,
 *   each counter has at most 4 writers, and a waiter sleeps at most once,
 *   on the release word, whose setter wakes all sleepers with one call. This
 *   is the algorithm for more threads than CPUs.
 *
 * Ids (UPC 1.3 6.6.1 para 10): a thread's upc_wait id must equal every id
 * given to upc_notify in that phase; a missing id matches anything. Each
 * thread leaves its notify id in its own line, in a slot chosen by episode
 * parity: a thread cannot reach episode e+2 before all threads have left
 * upc_wait of episode e, so slot e%2 is stable while episode e is read.
 *
 * Who arrives: beside its id, each thread leaves which function notified
 * (a user's upc_notify or upc_barrier, or a library call such as a
 * collective's entry or exit) and its running signature of collective calls
 * (check/calls.h). Threads that read each other's arrival compare them, so a
 * user barrier never completes a collective's synchronization, and
 * collective calls that differ are found at the next barrier whatever their
 * sync modes. */
#include "sync/barrier.h"

#include "observe/trace.h"
#include "check/calls.h"
#include "check/error.h"
#include "runtime/config.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Measured on 16 CPUs (bench_barrier): flat is faster at 2 and 4 threads,
 * the tree from 8 on (16 threads: 1.7 us flat, 1.2 us tree). */
#define FLAT_MAX 6
#define FANIN 4

#define NAMED 1 /* the notify gave an id */
#define USER 2  /* upc_notify or upc_barrier, not a library call */
/* upc_barrier or a library barrier: this thread's wait follows at once
 * (mpi/barrier.c may block for it in the arrival). */
#define WHOLE 4

struct bar_thread {
    tupc_word arrive;    /* last episode this thread notified (flat mode) */
    int32_t id[2];       /* notify id of episode e, in slot e % 2 */
    int32_t how[2];      /* NAMED | USER */
    void *bcast[2];      /* thread 0: value handed out by tupc_barrier_bcast */
    const char *func[2]; /* the function that notified */
    uint32_t sig[2];     /* the running signature of its collective calls */
} __attribute__((aligned(TUPC_CACHELINE)));

_Static_assert(sizeof(struct bar_thread) == TUPC_CACHELINE, "one line per thread");

/* What the arrivals of an episode said, for the checks: the first named
 * notify id and one that differs from it, and one arrival (ref) with one
 * that differs from it (odd); -1 threads where there is none. */
struct bar_ids {
    int32_t first_id, first_thread;
    int32_t other_id, other_thread;
    int32_t ref_thread, odd_thread;
    int32_t last; /* the thread whose arrival completed the tree: the last */
};

/* A tree node. Each arriver leaves a digest of its arrival (who notified,
 * and its running call signature) and its named id, if any, in the node's
 * line, which its fetch_add on `arrived` holds anyway: the first one sets
 * them, the later ones compare and set `differ` when theirs differs. The
 * node's last arriver carries them up the same way. So in a program whose
 * threads agree the checks cost no cache-line transfer beyond the
 * arrivals; where they differ, the releaser looks at every thread
 * (tree_scan) to say who. */
struct bar_node {
    _Atomic uint32_t arrived; /* arrivals in the current episode */
    _Atomic uint32_t differ;  /* two arrivals below disagree */
    _Atomic uint64_t digest;  /* arrival digest every one below matches; 0 none yet */
    _Atomic uint64_t named;   /* 1 << 63 | thread << 32 | id of a named notify below */
    uint32_t expected;
    int parent; /* -1 at the root */
} __attribute__((aligned(TUPC_CACHELINE)));

/* The barrier of all threads: each thread's arrivals, the tree's nodes
 * (the tree form), and the release word, a line of its own. */
static struct barrier_state {
    int use_tree;
    struct bar_thread *thr;
    struct bar_node *nodes;
    int *leaf_of; /* leaf node of each thread */
    tupc_pword release;
    struct bar_ids ids_of[2];
} bar_;

/* Per-thread split-phase state; new threads start with zeros. */
_Thread_local int tupc_notified_ __attribute__((tls_model("initial-exec")));

int tupc_barrier_flat_for(int n)
{
    if (tupc_config_.barrier != TUPC_BARRIER_AUTO)
        return tupc_config_.barrier == TUPC_BARRIER_FLAT;
    return n <= tupc_run_.cpus && n <= FLAT_MAX;
}

int tupc_barrier_init(int threads)
{
    bar_.use_tree = !tupc_barrier_flat_for(threads);

    bar_.thr = aligned_alloc(TUPC_CACHELINE, sizeof *bar_.thr * (size_t)threads);
    bar_.leaf_of = calloc((size_t)threads, sizeof *bar_.leaf_of);
    /* A tree of fan-in FANIN over `threads` leaves has fewer than `threads` nodes. */
    bar_.nodes = aligned_alloc(TUPC_CACHELINE, sizeof *bar_.nodes * (size_t)(threads + 1));
    if (!bar_.thr || !bar_.leaf_of || !bar_.nodes)
        return -1;
    memset(bar_.thr, 0, sizeof *bar_.thr * (size_t)threads);
    memset(bar_.nodes, 0, sizeof *bar_.nodes * (size_t)(threads + 1));
    atomic_store_explicit(&bar_.release.w.value, 0, memory_order_relaxed);
    atomic_store_explicit(&bar_.release.w.sleepers, 0, memory_order_relaxed);

    /* Level by level: `width` members, grouped FANIN to a node. */
    int width = threads, first = 0, n = 0;
    for (int t = 0; t < threads; t++)
        bar_.leaf_of[t] = t / FANIN;
    for (;;) {
        int count = (width + FANIN - 1) / FANIN;
        for (int i = 0; i < count; i++) {
            int members = width - i * FANIN < FANIN ? width - i * FANIN : FANIN;
            bar_.nodes[first + i].expected = (uint32_t)members;
            bar_.nodes[first + i].parent = count == 1 ? -1 : first + count + i / FANIN;
        }
        n = first + count;
        if (count == 1)
            break;
        first = n;
        width = count;
    }
    (void)n;
    return 0;
}

void tupc_barrier_fini(void)
{
    free(bar_.thr);
    free(bar_.nodes);
    free(bar_.leaf_of);
    bar_.thr = NULL;
    bar_.nodes = NULL;
    bar_.leaf_of = NULL;
}

/* How the arrivals of threads a and b at the episode of slot k differ: 0
 * alike, 1 one is a user barrier and the other a library call or two
 * different library calls, 2 other collective calls before it. */
static int arrivals_differ(int a, int b, int k)
{
    const struct bar_thread *x = &bar_.thr[a], *y = &bar_.thr[b];
    int ux = x->how[k] & USER, uy = y->how[k] & USER;
    if (ux != uy || (!ux && x->func[k] != y->func[k] && strcmp(x->func[k], y->func[k]) != 0))
        return 1;
    return x->sig[k] != y->sig[k] ? 2 : 0;
}

/* Fails if this thread's arrival at episode e differs from thread j's. */
static void check_arrival(const char *func, int j, uint32_t e)
{
    if (j == tupc_impl_mythread)
        return;
    int k = e % 2, d = arrivals_differ(tupc_impl_mythread, j, k);
    if (d == 2)
        tupc_calls_differ(func, j);
    if (d == 1) {
        const char *fj = bar_.thr[j].func[k];
        char cj[240] = "", cm[240] = "", d[230];
        if (!(bar_.thr[j].how[k] & USER) && tupc_calls_describe(j, fj, d, sizeof d))
            snprintf(cj, sizeof cj, " (%s)", d);
        if (!(bar_.thr[tupc_impl_mythread].how[k] & USER) &&
            tupc_calls_describe(tupc_impl_mythread, func, d, sizeof d))
            snprintf(cm, sizeof cm, " (%s)", d);
        tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3",
                  "thread %d %s %s%s while this thread is in %s%s; expected every thread to "
                  "reach the same barriers and collective calls",
                  j, strcmp(fj, "upc_notify") == 0 ? "has called" : "is in", fj, cj, func, cm);
    }
}

/* Tree mode, releaser of an episode whose arrivals differ: one look at
 * every thread, to say which differ. */
static void tree_scan(uint32_t e, struct bar_ids *r)
{
    int k = e % 2;
    *r = (struct bar_ids){0, -1, 0, -1, 0, -1, tupc_impl_mythread};
    for (int t = 0; t < tupc_run_.threads; t++) {
        if (r->odd_thread < 0 && t > 0 && arrivals_differ(0, t, k))
            r->odd_thread = t;
        if (!(bar_.thr[t].how[k] & NAMED))
            continue;
        if (r->first_thread < 0) {
            r->first_id = bar_.thr[t].id[k];
            r->first_thread = t;
        } else if (bar_.thr[t].id[k] != r->first_id && r->other_thread < 0) {
            r->other_id = bar_.thr[t].id[k];
            r->other_thread = t;
        }
    }
}

/* Leaves an arrival's digest and named word in node n (before the
 * fetch_add that releases them to the node's last arriver). Relaxed: that
 * fetch_add orders them. */
static void leave_in(struct bar_node *n, uint64_t digest, uint64_t named, uint32_t differ)
{
    uint64_t seen = 0;
    if (!atomic_compare_exchange_strong_explicit(&n->digest, &seen, digest, memory_order_relaxed,
                                                 memory_order_relaxed) &&
        seen != digest)
        differ = 1;
    seen = 0;
    if (named &&
        !atomic_compare_exchange_strong_explicit(&n->named, &seen, named, memory_order_relaxed,
                                                 memory_order_relaxed) &&
        (uint32_t)seen != (uint32_t)named)
        differ = 1;
    if (differ)
        atomic_store_explicit(&n->differ, 1, memory_order_relaxed);
}

static void tree_release(uint32_t e, uint64_t named, uint32_t differ)
{
    struct bar_ids r = {
        (int32_t)(uint32_t)named, named ? (int32_t)(named >> 32 & 0x7fffffff) : -1, 0, -1, 0, -1,
        tupc_impl_mythread};
    if (differ)
        tree_scan(e, &r);
    bar_.ids_of[e % 2] = r;
    /* Release store: the waiters' acquire load of the episode makes ids_of
     * and everything the threads wrote before upc_notify visible. */
    tupc_word_set(&bar_.release.w, e);
}

static void tree_arrive(uint32_t e)
{
    const int me = tupc_impl_mythread, k = e % 2;
    const struct bar_thread *t = &bar_.thr[me];
    /* Equal for arrivals that agree (arrivals_differ: a user barrier is
     * one kind whichever function notified), never 0. A library function
     * named by two different pointers gives two digests: the scan then
     * compares the names and finds no difference. */
    uint64_t digest = t->how[k] & USER ? tupc_sig(t->sig[k], 1)
                                       : tupc_sig(tupc_sig(t->sig[k], 2), (uintptr_t)t->func[k]);
    digest |= (uint64_t)1 << 63;
    uint64_t named =
        t->how[k] & NAMED ? (uint64_t)1 << 63 | (uint64_t)me << 32 | (uint32_t)t->id[k] : 0;
    uint32_t differ = 0;
    int n = bar_.leaf_of[me];
    for (;;) {
        struct bar_node *node = &bar_.nodes[n];
        leave_in(node, digest, named, differ);
        /* acq_rel: the last arriver acquires what the earlier arrivers wrote
         * (their digests, their data) and passes it on up with its own
         * release. */
        uint32_t old = atomic_fetch_add_explicit(&node->arrived, 1, memory_order_acq_rel);
        if (old + 1 != node->expected)
            return;
        digest = atomic_load_explicit(&node->digest, memory_order_relaxed);
        named = atomic_load_explicit(&node->named, memory_order_relaxed);
        differ = atomic_load_explicit(&node->differ, memory_order_relaxed);
        /* Nobody arrives here for episode e+1 before the release of e, which
         * this thread's later release orders after these resets. */
        atomic_store_explicit(&node->digest, 0, memory_order_relaxed);
        atomic_store_explicit(&node->named, 0, memory_order_relaxed);
        atomic_store_explicit(&node->differ, 0, memory_order_relaxed);
        atomic_store_explicit(&node->arrived, 0, memory_order_relaxed);
        if (node->parent < 0) {
            tree_release(e, named, differ);
            return;
        }
        n = node->parent;
    }
}

static void notify(const char *func, int how, int id)
{
    if (tupc_notified_)
        tupc_fail(func, "UPC 1.3 6.6.1 para 7",
                  "upc_notify called twice without upc_wait between them; expected "
                  "upc_notify and upc_wait to alternate");
    tupc_notified_ = 1;
    /* The thread's count of notified barriers is kept in check/calls.h,
     * where collective waits read it too (tupc_calls_peer_ahead). */
    uint32_t e = tupc_calls_self_.episode + 1;
    struct bar_thread *me = &bar_.thr[tupc_impl_mythread];
    me->id[e % 2] = id;
    me->how[e % 2] = how;
    me->func[e % 2] = func;
    me->sig[e % 2] = tupc_calls_sig32();
    tupc_calls_note_barrier(func);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_arrive(func, how & USER, how & NAMED, how & WHOLE, id, e);
        return;
    }
#endif
    if (bar_.use_tree)
        tree_arrive(e);
    else
        tupc_word_set(&me->arrive, e); /* release: publishes id and prior writes */
}

static void report_mismatch(const char *func, int id, int other_id, int other_thread)
{
    tupc_fail(func, "UPC 1.3 6.6.1 para 10",
              "barrier id %d differs from id %d that thread %d passed to upc_notify; "
              "expected every named id of a barrier phase to be equal",
              id, other_id, other_thread);
}

static void wait_phase(const char *func, int named, int id)
{
    if (!tupc_notified_)
        tupc_fail(func, "UPC 1.3 6.6.1 para 7",
                  "upc_wait called without a preceding upc_notify; expected "
                  "upc_notify and upc_wait to alternate");
    tupc_notified_ = 0;
    uint32_t e = tupc_calls_self_.episode;
    int me = tupc_impl_mythread;
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_depart(func, named, id, e); /* it sees a stopping run too */
        return;
    }
#endif
    if (bar_.use_tree) {
        if (atomic_load_explicit(&tupc_trace_on_, memory_order_relaxed)) {
            tupc_trace_blame_start();
            tupc_wait_peer(&bar_.release.w, e, TUPC_ANY_PEER, func);
            tupc_trace_blame(bar_.ids_of[e % 2].last); /* everyone waited for the last arriver */
        } else {
            tupc_wait_peer(&bar_.release.w, e, TUPC_ANY_PEER, func);
        }
        int odd = bar_.ids_of[e % 2].odd_thread;
        if (odd >= 0) { /* we differ from ref, or from odd, which differs from it */
            check_arrival(func, odd, e);
            check_arrival(func, bar_.ids_of[e % 2].ref_thread, e);
        }
        if (named) {
            struct bar_ids r = bar_.ids_of[e % 2];
            if (r.first_thread >= 0 && r.first_id != id)
                report_mismatch(func, id, r.first_id, r.first_thread);
            if (r.other_thread >= 0 && r.other_id != id)
                report_mismatch(func, id, r.other_id, r.other_thread);
        }
    } else {
        /* Start after ourselves so that threads do not all read thread 0 first.
         * n and thr in registers: the waits' acquire loads would reload them. */
        const int n = tupc_run_.threads;
        struct bar_thread *const thr = bar_.thr;
        for (int k = 1; k < n; k++) {
            int j = me + k < n ? me + k : me + k - n;
            tupc_wait_peer(&thr[j].arrive, e, j, func); /* acquire: j's writes before notify */
            check_arrival(func, j, e);
            if (named && (thr[j].how[e % 2] & NAMED) && thr[j].id[e % 2] != id)
                report_mismatch(func, id, thr[j].id[e % 2], j);
        }
        if (named && (bar_.thr[me].how[e % 2] & NAMED) && bar_.thr[me].id[e % 2] != id)
            report_mismatch(func, id, bar_.thr[me].id[e % 2], me);
    }
    /* Relaxed: the flag only says that the run is ending; see tupc_stop_run. */
    if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
        tupc_thread_leave();
}

void tupc_impl_notify(int named, int id)
{
    TUPC_TRACE_VOID(tupc_impl_notify(named, id), "upc_notify", 0, -1, -1);
    tupc_require_thread("upc_notify");
    notify("upc_notify", USER | (named ? NAMED : 0), id);
}

void tupc_impl_wait(int named, int id)
{
    TUPC_TRACE_VOID(tupc_impl_wait(named, id), "upc_wait", 0, -1, -1);
    tupc_require_thread("upc_wait");
    wait_phase("upc_wait", named, id);
}

void tupc_impl_barrier(int named, int id)
{
    TUPC_TRACE_VOID(tupc_impl_barrier(named, id), "upc_barrier", 0, -1, -1);
    tupc_require_thread("upc_barrier");
    if (tupc_notified_)
        tupc_fail("upc_barrier", "UPC 1.3 6.6.1 para 7",
                  "called between upc_notify and upc_wait; expected upc_wait first");
    notify("upc_barrier", USER | WHOLE | (named ? NAMED : 0), id);
    wait_phase("upc_barrier", named, id);
}

void tupc_check_not_split_fail(const char *func)
{
    tupc_fail(func, "UPC 1.3 7.4 para 5",
              "collective called between upc_notify and upc_wait; expected upc_wait first");
}

void tupc_barrier_all(const char *func)
{
    tupc_check_not_split(func);
    notify(func, WHOLE, 0);
    wait_phase(func, 0, 0);
}

void *tupc_barrier_bcast(const char *func, void *value)
{
    tupc_check_not_split(func);
    uint32_t e = tupc_calls_self_.episode + 1;
    /* Across processes, from this process's first thread (mpi/barrier.c
     * publishes it as notify's release does). */
    if (tupc_impl_mythread == tupc_first_thread_)
        bar_.thr[tupc_first_thread_].bcast[e % 2] = value; /* published by notify's release */
    notify(func, WHOLE, 0);
    wait_phase(func, 0, 0);
    return bar_.thr[tupc_first_thread_].bcast[e % 2];
}
