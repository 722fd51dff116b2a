/* The one wait primitive of the library: every wait (barriers, sync modes,
 * locks) waits for a monotonic 32-bit counter to reach a target.
 *
 * A waiter spins with a pause instruction, then yields, then sleeps on a futex.
 * The setter makes a system call only when a waiter sleeps: the waiter counts
 * itself in `sleepers` before its last look at `value`, the setter stores
 * `value` before it looks at `sleepers`, so that one of the two always sees
 * the other (the Dekker pattern). That needs a full fence on both sides.
 *
 * The setter is on every critical path (each barrier arrival, each collective
 * entry and exit), the sleeper on none: it has spun and yielded already. So
 * where Linux offers it, the fence is asymmetric, as in liburcu's membarrier
 * flavour: the setter does a plain release store and a compiler-only fence,
 * and the sleeper, after counting itself, calls membarrier(2), which runs a
 * full fence on every running thread of the process (a thread that is not
 * running passed one when it was switched out). Either the setter's load of
 * `sleepers` comes after that fence, and so after the count, or its store of
 * `value` came before it, and the sleeper's look sees it. On x86 this saves
 * the setter a locked instruction that waits for its line to be exclusive,
 * about one cache-line transfer whenever a waiter is reading that line.
 * Without membarrier both sides use seq_cst, as the C11 model alone allows. */
#ifndef TUPC_SYNC_WAIT_H
#define TUPC_SYNC_WAIT_H

#include "runtime/runtime.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TUPC_CACHELINE 64

typedef struct tupc_word {
    _Atomic uint32_t value;
    _Atomic uint32_t sleepers;
} tupc_word;

/* A word alone on its cache line, for words that different threads write. */
typedef struct tupc_pword {
    _Alignas(TUPC_CACHELINE) tupc_word w;
} tupc_pword;

/* Whether counter value v has reached target t, wrap-around safe. */
static inline int tupc_reached(uint32_t v, uint32_t t)
{
    return (int32_t)(v - t) >= 0;
}

/* How long a waiter spins, yields and naps before it sleeps; set per run
 * from whether more threads than CPUs share the CPUs this process may use
 * (`over`) and whether naps pay there (`naps`; else a crowded waiter goes
 * from its yields to the futex), or from TUPC_SPIN, TUPC_YIELD and TUPC_NAP
 * (runtime/config.h); and the fence (TUPC_FENCE). */
void tupc_wait_tune(int over, int naps);

/* Who a wait depends on, for tupc_wait_peer. */
#define TUPC_NO_PEER (-2)  /* nobody in particular: no check */
#define TUPC_ANY_PEER (-1) /* every thread of the run */

/* A check that a sleeping waiter runs before each sleep, to find that its
 * wait can never end (and fail the run, saying why). */
typedef void (*tupc_wait_check)(const void *arg, tupc_word *w, uint32_t target);

/* The wait's policy and observers are hooks (Concurrency Kit's ck_ec ops),
 * so that the wait calls nothing above it: the call ledger (check/calls.c)
 * sets the policy, the trace and the hang watchdog observe. Both are set
 * before the UPC threads start and cleared after they end (pthread_create
 * and pthread_join order that), so the waits read them with relaxed loads.
 * None of them is on the fast path: a wait that finds its value at once
 * never looks at them. */

/* Policy: before each sleep of a wait for thread `peer`, whether that peer
 * sits in a barrier this thread has not reached (then the wait can never
 * end, and fail_ahead, which does not return, stops the run naming func). */
struct tupc_wait_policy {
    int (*peer_ahead)(int peer);
    void (*fail_ahead)(int peer, const char *func);
};
void tupc_wait_set_policy(const struct tupc_wait_policy *p);

/* A wait that did not find its value at once, as its observers see it. */
struct tupc_wait_event {
    const char *func; /* the library function waiting, or NULL */
    int peer;         /* the thread waited for; -1: several or unknown */
    uint64_t t0;      /* for the observers: begin's time stamp, if one takes it */
};

/* An observer: any hook may be NULL. begin and end bracket the slow path
 * (spins included: the trace's waits), sleep and woke the waits that went
 * to sleep on the futex (the watchdog's; woke is not called for a wait
 * that ends the thread instead). They run on the waiting thread. */
struct tupc_wait_observer {
    void (*begin)(struct tupc_wait_event *e);
    void (*end)(struct tupc_wait_event *e);
    void (*sleep)(struct tupc_wait_event *e);
    void (*woke)(struct tupc_wait_event *e);
};
#define TUPC_WAIT_OBSERVERS 4
/* Adds o, once (returns -1 when TUPC_WAIT_OBSERVERS are registered
 * already), or removes it. */
int tupc_wait_observe(const struct tupc_wait_observer *o);
void tupc_wait_unobserve(const struct tupc_wait_observer *o);

/* A wait that polls instead of sleeping on a futex (the MPI layer's
 * barrier and lock, which wait on other processes) as its observers see
 * it: napping when it starts to sleep between polls, napped when it ends
 * after that. So the hang watchdog sees it as a sleeping wait. */
void tupc_wait_napping(struct tupc_wait_event *e);
void tupc_wait_napped(struct tupc_wait_event *e);

/* Slow path of the waits below. */
uint32_t tupc_wait_slow(tupc_word *w, uint32_t target, int peer, const char *func,
                        tupc_wait_check check, const void *arg);

/* Waits until w->value has reached target; returns the value seen. The load is
 * acquire: what the setter wrote before tupc_word_set is visible after return. */
static inline uint32_t tupc_wait_reach(tupc_word *w, uint32_t target)
{
    uint32_t v = atomic_load_explicit(&w->value, memory_order_acquire);
    if (tupc_reached(v, target))
        return v;
    return tupc_wait_slow(w, target, TUPC_NO_PEER, NULL, NULL, NULL);
}

/* As tupc_wait_reach, running check(arg, w, target) before each sleep;
 * `func` (or NULL) names the wait for the hang watchdog. */
static inline uint32_t tupc_wait_checked(tupc_word *w, uint32_t target, const char *func,
                                         tupc_wait_check check, const void *arg)
{
    uint32_t v = atomic_load_explicit(&w->value, memory_order_acquire);
    if (tupc_reached(v, target))
        return v;
    return tupc_wait_slow(w, target, TUPC_NO_PEER, func, check, arg);
}

/* As tupc_wait_reach, for a counter that thread `peer` (or, with
 * TUPC_ANY_PEER, any thread) must advance in a barrier or collective call.
 * Should that thread return from its entry function first, or wait in a
 * barrier that this thread has not reached, the wait could never end: it
 * fails instead, naming `func`. Checked only once the waiter sleeps, so it
 * costs the fast path nothing. */
static inline uint32_t tupc_wait_peer(tupc_word *w, uint32_t target, int peer, const char *func)
{
    uint32_t v = atomic_load_explicit(&w->value, memory_order_acquire);
    if (tupc_reached(v, target))
        return v;
    return tupc_wait_slow(w, target, peer, func, NULL, NULL);
}

/* The checks of tupc_wait_peer's sleeps, for a tupc_wait_check that finds
 * out which thread it waits for only while it waits. */
void tupc_wait_check_peer(tupc_word *w, uint32_t target, int peer, const char *func);

/* Whether sleepers fence with membarrier (see the top of this file). Set
 * before the UPC threads start (pthread_create orders it), so relaxed. */
extern _Atomic int tupc_wait_asym_;

/* Stores v and wakes the sleepers, if any. The store is a release, so it
 * publishes what this thread wrote before; it must also be ordered before
 * the load of sleepers (see the top of this file). */
void tupc_word_wake_(tupc_word *w);
static inline __attribute__((always_inline)) void tupc_word_set(tupc_word *w, uint32_t v)
{
    uint32_t sleeping;
    if (atomic_load_explicit(&tupc_wait_asym_, memory_order_relaxed)) {
        atomic_store_explicit(&w->value, v, memory_order_release);
        /* Keeps the compiler from hoisting the load above the store; the
         * sleeper's membarrier stands in for the CPU fence. */
        atomic_signal_fence(memory_order_seq_cst);
        sleeping = atomic_load_explicit(&w->sleepers, memory_order_relaxed);
    } else {
        atomic_store_explicit(&w->value, v, memory_order_seq_cst);
        sleeping = atomic_load_explicit(&w->sleepers, memory_order_seq_cst);
    }
    if (sleeping != 0)
        tupc_word_wake_(w);
}

/* Adds 1 to w->value and wakes the sleepers, if any: for a counter that
 * several threads advance (the asynchronous completions, coll/async.c).
 * The read-modify-write and the load of sleepers are seq_cst, which orders
 * them against a sleeper in either fence mode. */
static inline void tupc_word_add(tupc_word *w)
{
    atomic_fetch_add_explicit(&w->value, 1, memory_order_seq_cst);
    if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst) != 0)
        tupc_word_wake_(w);
}

/* For a thread that is no UPC thread (the progress thread of coll/async.c):
 * sleeps until w->value reaches target or *stop is set, with no spinning
 * (it must not take a CPU from the threads of the run); returns the value. */
uint32_t tupc_wait_idle(tupc_word *w, uint32_t target, _Atomic int *stop);

/* One step of a short busy wait (for a store that another thread is about
 * to make): pause, and past the spin limit give the CPU away. */
void tupc_backoff(unsigned step);

/* A pause in a busy wait: lets the core's other hardware thread run and
 * spares the memory system a stream of loads. */
static inline void tupc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* tupc_end_.stopping (runtime/runtime.h) ends every wait of a run that stops. */

#endif
