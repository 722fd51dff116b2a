#include "sync/wait.h"

#include "check/error.h"
#include "runtime/config.h"
#include "runtime/runtime.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Atomic int tupc_wait_asym_;

static long membarrier(int cmd)
{
    return syscall(SYS_membarrier, cmd, 0, 0);
}

/* Registers the process for expedited membarrier once; 0 if the kernel (or
 * a seccomp filter) refuses, and then waits fence with seq_cst instead. */
static int asym_fences(void)
{
    /* 0 unknown, 1 yes, -1 no. Relaxed: runs may start from different
     * threads, and two that raced would both register, which is harmless. */
    static _Atomic int state;
    int st = atomic_load_explicit(&state, memory_order_relaxed);
    if (st == 0) {
        long q = membarrier(MEMBARRIER_CMD_QUERY);
        st = q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                     membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0
                 ? 1
                 : -1;
        atomic_store_explicit(&state, st, memory_order_relaxed);
    }
    return st > 0;
}

/* How long a wait spins, yields and naps before it sleeps. Relaxed: the
 * limits are written before the UPC threads start (pthread_create orders
 * them) and only read while they run. */
static struct wait_limits {
    _Atomic unsigned spin, yield, nap;
} limits_ = {.spin = 4096, .yield = 64, .nap = 0};
#define NAP_NS (10 * 1000)

void tupc_wait_tune(int over, int naps)
{
    /* With more threads than CPUs the thread we wait for may need our CPU:
     * spinning only delays it, so give the CPU up at once. Yielding hands
     * it to a runnable thread on the same CPU, but a waiter that keeps
     * yielding stays runnable and takes a turn in every round of the CPU's
     * threads; after a few yields it naps (a timed sleep of NAP_NS), which
     * leaves the CPU to the threads that have not arrived yet, and wakes by
     * itself, so the thread that ends the wait pays no wake-up. Past the
     * naps (a long wait) it sleeps on the futex. Measured at 64 threads on
     * 2 CPUs (docs/design.md, "Waiting with more threads than CPUs"): 16
     * spins and 1000 yields took 1.2-2.0x the time of a central barrier
     * whose waiters yield 4 times and then usleep(20), 16 spins before the
     * yields 1.4-1.6x; these settings with the threads pinned in blocks
     * take 0.73x. With threads <= CPUs the thread we wait for runs: spin,
     * then yield. */
    unsigned spin = over ? 0u : 20000u, yield = over ? 8u : 200u, nap = over && naps ? 100u : 0u;
    /* Tuning knobs, mainly for measuring (README, environment table),
     * validated by tupc_run. */
    const long spin_env = tupc_config_.spin, yield_env = tupc_config_.yield,
               nap_env = tupc_config_.nap;
    if (spin_env >= 0)
        spin = (unsigned)spin_env;
    if (yield_env >= 0)
        yield = (unsigned)yield_env;
    if (nap_env >= 0)
        nap = (unsigned)nap_env;
    atomic_store_explicit(&limits_.spin, spin, memory_order_relaxed);
    atomic_store_explicit(&limits_.yield, yield, memory_order_relaxed);
    atomic_store_explicit(&limits_.nap, nap, memory_order_relaxed);
    if (tupc_config_.verbose)
        fprintf(stderr, "tupc: waits spin %u times, yield %u, nap %u (%s)\n", spin, yield, nap,
                over ? "more threads than CPUs" : "a CPU per thread");
    /* TUPC_FENCE=symmetric: seq_cst on both sides (tupc_run has refused
     * any value but asymmetric and symmetric). */
    int asym = !tupc_config_.fence_symmetric && asym_fences();
    atomic_store_explicit(&tupc_wait_asym_, asym, memory_order_relaxed);
}

void tupc_backoff(unsigned step)
{
    if (step < atomic_load_explicit(&limits_.spin, memory_order_relaxed))
        tupc_cpu_relax();
    else
        sched_yield();
}

/* Sleeps that ran out their timeout although the value had reached the
 * target: a wake-up that never came (or a waker stalled for 50 ms between
 * its store and its wake). Relaxed: a statistic, read by tests only. */
_Atomic unsigned long tupc_wait_lost_wakeups_;

/* Returns 1 if the sleep ran out its timeout. */
static int futex_wait(_Atomic uint32_t *addr, uint32_t expected)
{
    /* The timeout bounds how long a sleeper takes to notice that the run
     * is stopping; a normal wake-up comes from tupc_word_wake_. */
    struct timespec ts = {0, 50 * 1000 * 1000};
    return syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0) != 0 &&
           errno == ETIMEDOUT;
}

void tupc_word_wake_(tupc_word *w)
{
    syscall(SYS_futex, (uint32_t *)&w->value, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* One sleep on w until it may have reached target (or *stop is set, when
 * stop is not NULL): the sleeper's half of the Dekker pattern of wait.h.
 * Returns whether the futex timed out. */
static int sleep_once(tupc_word *w, uint32_t target, _Atomic int *stop)
{
    atomic_fetch_add_explicit(&w->sleepers, 1, memory_order_seq_cst);
    /* The setters' half of the fence (top of wait.h); it fails only if
     * registration did, and then they use seq_cst. */
    if (atomic_load_explicit(&tupc_wait_asym_, memory_order_relaxed))
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    uint32_t v = atomic_load_explicit(&w->value, memory_order_seq_cst);
    int timed_out = !tupc_reached(v, target) &&
                    !(stop && atomic_load_explicit(stop, memory_order_seq_cst)) &&
                    futex_wait(&w->value, v);
    atomic_fetch_sub_explicit(&w->sleepers, 1, memory_order_relaxed);
    return timed_out;
}

uint32_t tupc_wait_idle(tupc_word *w, uint32_t target, _Atomic int *stop)
{
    for (;;) {
        uint32_t v = atomic_load_explicit(&w->value, memory_order_acquire);
        if (tupc_reached(v, target) || atomic_load_explicit(stop, memory_order_acquire))
            return v;
        (void)sleep_once(w, target, stop);
    }
}

static void check_stopping(void)
{
    /* Relaxed: the flag only tells us to leave; nothing is read through it. */
    if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
        tupc_thread_leave();
}

/* The waited-for thread has returned from its entry function: unless it
 * advanced the counter before it went, the wait can never end. */
static void check_gone(tupc_word *w, uint32_t target, int peer, const char *func)
{
    /* Acquire: a thread marks itself gone after its last store to any
     * counter, so once we see the mark, one more look at the counter is
     * final. */
    if (atomic_load_explicit(&tupc_end_.gone, memory_order_acquire) == 0)
        return;
    int gone = -1;
    if (peer >= 0)
        gone = atomic_load_explicit(&tupc_run_.gone[peer], memory_order_acquire) ? peer : -1;
    else
        for (int t = 0; t < tupc_run_.threads && gone < 0; t++)
            if (atomic_load_explicit(&tupc_run_.gone[t], memory_order_acquire))
                gone = t;
    if (gone < 0 || tupc_reached(atomic_load_explicit(&w->value, memory_order_acquire), target))
        return;
    tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3",
              "thread %d returned from its entry function while this thread waits for it; "
              "expected every thread to reach the same barriers and collective calls",
              gone);
}

/* The hooks of wait.h. Relaxed: written before the UPC threads start and
 * after they end, which pthread_create and pthread_join order. */
static struct wait_hooks {
    _Atomic(const struct tupc_wait_policy *) policy;
    _Atomic(const struct tupc_wait_observer *) observers[TUPC_WAIT_OBSERVERS];
    _Atomic int n_observers;
    /* Whether an observer has begin or end: only then is the slow path
     * bracketed (the watchdog alone watches sleeps only). */
    _Atomic int timed;
} hooks_;

void tupc_wait_set_policy(const struct tupc_wait_policy *p)
{
    atomic_store_explicit(&hooks_.policy, p, memory_order_relaxed);
}

static void count_timed(void)
{
    int n = atomic_load_explicit(&hooks_.n_observers, memory_order_relaxed), any = 0;
    for (int i = 0; i < n; i++) {
        const struct tupc_wait_observer *o =
            atomic_load_explicit(&hooks_.observers[i], memory_order_relaxed);
        any |= o->begin || o->end;
    }
    atomic_store_explicit(&hooks_.timed, any, memory_order_relaxed);
}

int tupc_wait_observe(const struct tupc_wait_observer *o)
{
    int n = atomic_load_explicit(&hooks_.n_observers, memory_order_relaxed);
    for (int i = 0; i < n; i++) /* a run that failed to start left it on */
        if (atomic_load_explicit(&hooks_.observers[i], memory_order_relaxed) == o)
            return 0;
    if (n == TUPC_WAIT_OBSERVERS)
        return -1;
    atomic_store_explicit(&hooks_.observers[n], o, memory_order_relaxed);
    atomic_store_explicit(&hooks_.n_observers, n + 1, memory_order_relaxed);
    count_timed();
    return 0;
}

void tupc_wait_unobserve(const struct tupc_wait_observer *o)
{
    int n = atomic_load_explicit(&hooks_.n_observers, memory_order_relaxed);
    for (int i = 0; i < n; i++) {
        if (atomic_load_explicit(&hooks_.observers[i], memory_order_relaxed) != o)
            continue;
        /* Keep the order of the others: they are told in registration order. */
        for (int j = i + 1; j < n; j++)
            atomic_store_explicit(&hooks_.observers[j - 1],
                                  atomic_load_explicit(&hooks_.observers[j], memory_order_relaxed),
                                  memory_order_relaxed);
        atomic_store_explicit(&hooks_.n_observers, n - 1, memory_order_relaxed);
        break;
    }
    count_timed();
}

enum hook { BEGIN, END, SLEEP, WOKE };

/* Tells every observer that has hook h, in registration order. */
static void notify(enum hook h, struct tupc_wait_event *e)
{
    int n = atomic_load_explicit(&hooks_.n_observers, memory_order_relaxed);
    for (int i = 0; i < n; i++) {
        const struct tupc_wait_observer *o =
            atomic_load_explicit(&hooks_.observers[i], memory_order_relaxed);
        void (*f)(struct tupc_wait_event *) = h == BEGIN   ? o->begin
                                              : h == END   ? o->end
                                              : h == SLEEP ? o->sleep
                                                           : o->woke;
        if (f)
            f(e);
    }
}

void tupc_wait_napping(struct tupc_wait_event *e)
{
    notify(SLEEP, e);
}

void tupc_wait_napped(struct tupc_wait_event *e)
{
    notify(WOKE, e);
}

void tupc_wait_check_peer(tupc_word *w, uint32_t target, int peer, const char *func)
{
    check_gone(w, target, peer, func);
    const struct tupc_wait_policy *p = atomic_load_explicit(&hooks_.policy, memory_order_relaxed);
    /* Acquire in peer_ahead: the peer stores its counters before it
     * notifies, so one more look at ours is final. */
    if (peer >= 0 && p && p->peer_ahead(peer) &&
        !tupc_reached(atomic_load_explicit(&w->value, memory_order_acquire), target))
        p->fail_ahead(peer, func);
}

static uint32_t wait_slow(tupc_word *w, uint32_t target, int peer, tupc_wait_check check,
                          const void *arg, struct tupc_wait_event *e)
{
    const char *func = e->func;
    uint32_t v;
    unsigned spins = atomic_load_explicit(&limits_.spin, memory_order_relaxed);
    unsigned yields = atomic_load_explicit(&limits_.yield, memory_order_relaxed);
    for (unsigned i = 0; i < spins; i++) {
        tupc_cpu_relax();
        v = atomic_load_explicit(&w->value, memory_order_acquire);
        if (tupc_reached(v, target))
            return v;
    }
    for (unsigned i = 0; i < yields; i++) {
        sched_yield();
        v = atomic_load_explicit(&w->value, memory_order_acquire);
        if (tupc_reached(v, target))
            return v;
    }
    unsigned naps = atomic_load_explicit(&limits_.nap, memory_order_relaxed);
    if (naps) {
        struct timespec ts = {0, NAP_NS};
        for (unsigned i = 0; i < naps; i++) {
            nanosleep(&ts, NULL);
            v = atomic_load_explicit(&w->value, memory_order_acquire);
            if (tupc_reached(v, target))
                return v;
        }
    }
    /* Only a wait that goes to sleep can be part of a hang: the watchdog
     * learns of it here, where two clock reads are nothing beside a futex
     * call (at the slow path's start they cost 8-byte ALL|ALL calls 20 %). */
    notify(SLEEP, e);
    for (;;) {
        check_stopping();
        if (peer != TUPC_NO_PEER)
            tupc_wait_check_peer(w, target, peer, func);
        if (check)
            check(arg, w, target);
        int timed_out = sleep_once(w, target, NULL);
        v = atomic_load_explicit(&w->value, memory_order_acquire);
        if (tupc_reached(v, target)) {
            if (timed_out)
                atomic_fetch_add_explicit(&tupc_wait_lost_wakeups_, 1, memory_order_relaxed);
            notify(WOKE, e);
            return v;
        }
    }
}

uint32_t tupc_wait_slow(tupc_word *w, uint32_t target, int peer, const char *func,
                        tupc_wait_check check, const void *arg)
{
    /* Only waits that did not find their value at once come here: the
     * trace's waits are these, timed from the first poll to the last. */
    struct tupc_wait_event e = {func, peer >= 0 ? peer : -1, 0};
    if (__builtin_expect(!atomic_load_explicit(&hooks_.timed, memory_order_relaxed), 1))
        return wait_slow(w, target, peer, check, arg, &e);
    notify(BEGIN, &e);
    uint32_t v = wait_slow(w, target, peer, check, arg, &e);
    notify(END, &e);
    return v;
}
