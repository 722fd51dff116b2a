/* What each thread has called: the collective calls it made and the
 * barriers it reached, kept so that threads that disagree are found and
 * the message says who called what (UPC 1.3 7.4 para 3 and 4: every thread
 * makes the same collective calls with the same single-valued arguments;
 * 6.6.1: every thread reaches the same barriers).
 *
 * Each thread folds the signature of every collective call it makes into a
 * running value. Every barrier (the user's, and those of collectives and of
 * upc_all_alloc and friends) compares those values, and so do the waits of
 * MYSYNC calls, so calls made under NOSYNC, which wait for nobody, are
 * checked at the next point where the threads meet anyway. Each thread
 * also keeps its last TUPC_CALLS_RING calls in a ring that only it writes
 * and that others read only to explain a disagreement.
 *
 * Sits below the barriers and the collectives, which both record into it. */
#ifndef TUPC_CHECK_CALLS_H
#define TUPC_CHECK_CALLS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TUPC_CALLS_RING 16

/* Folds value v into signature h. */
static inline uint64_t tupc_sig(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
}

struct tupc_call_rec {
    _Atomic uint32_t n;         /* call number, 0 for an empty entry */
    _Atomic(const char *) func; /* the collective */
    _Atomic uint64_t args;      /* signature of its arguments and flags */
};

/* Written by its thread only; read by others to explain or to find a wait
 * that can never end. */
struct tupc_calls_thread {
    _Atomic uint32_t episode;      /* barriers notified so far */
    _Atomic(const char *) barrier; /* the function that notified the last one */
    _Atomic uint32_t end_n;        /* calls made, once the thread has returned */
    _Atomic uint64_t end_sig;      /* and their running signature */
    struct tupc_call_rec ring[TUPC_CALLS_RING];
} __attribute__((aligned(64)));

struct tupc_calls_self {
    uint32_t n;   /* collective calls made */
    uint64_t sig; /* running fold of their signatures */
    uint32_t episode;
    struct tupc_calls_thread *mine;
};
extern _Thread_local struct tupc_calls_self tupc_calls_self_
    __attribute__((tls_model("initial-exec")));

int tupc_calls_init(int threads);
/* Thread `thread`'s record, for readers such as the hang watchdog. */
const struct tupc_calls_thread *tupc_calls_of(int thread);
void tupc_calls_fini(void);
void tupc_calls_thread_start(int thread);

/* Records collective call `func` with arguments `args` (flags included);
 * returns the running signature, this call included. Inline: every
 * collective call runs it. Relaxed stores: readers read the ring only
 * after an acquire that saw a later store of this thread (its entry
 * counter or its barrier arrival), or to explain an error already found,
 * where a torn view only words the message less precisely. */
static inline uint64_t tupc_calls_note(const char *func, uint64_t args)
{
    struct tupc_calls_self *s = &tupc_calls_self_;
    uint32_t n = ++s->n;
    s->sig = tupc_sig(s->sig, args ^ (uintptr_t)func);
    struct tupc_call_rec *r = &s->mine->ring[n % TUPC_CALLS_RING];
    atomic_store_explicit(&r->func, func, memory_order_relaxed);
    atomic_store_explicit(&r->args, args, memory_order_relaxed);
    atomic_store_explicit(&r->n, n, memory_order_relaxed);
    return s->sig;
}

/* The running signature folded to the 32 bits a barrier carries. */
static inline uint32_t tupc_calls_sig32(void)
{
    uint64_t h = tupc_calls_self_.sig;
    return (uint32_t)(h ^ (h >> 32));
}

/* Records that this thread notifies a barrier, in `func`. */
void tupc_calls_note_barrier(const char *func);

/* Fails the run explaining how thread j's collective calls differ from
 * this thread's, which a compared signature showed. `func` is the caller
 * (the barrier or collective that found it). */
_Noreturn void tupc_calls_differ(const char *func, int j);

/* A thread that returns from its entry function records its calls. The
 * end of a thread is a barrier (UPC 1.3 3, program termination), so once
 * every thread has returned, tupc_calls_check_end compares the records:
 * 1 and a message in buf when some thread's calls differ from thread 0's. */
void tupc_calls_thread_end(void);
int tupc_calls_check_end(int threads, char *buf, size_t len);

/* Whether thread `peer` has notified a barrier that this thread has not.
 * A wait for peer to act in a collective call can then never end: peer
 * cannot leave that barrier before this thread arrives, and this thread
 * cannot arrive before peer acts. A waiter that sleeps asks, looks at its
 * counter once more (acquire: peer stores its counters before it notifies),
 * and if still short fails with tupc_calls_fail_ahead, naming `func`. */
int tupc_calls_peer_ahead(int peer);
_Noreturn void tupc_calls_fail_ahead(int peer, const char *func);

#endif
