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

#include "runtime/runtime.h"

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TUPC_CALLS_RING 16
#define TUPC_CALL_ARGS 6

/* Folds value v into signature h; tupc_sig_unfold gives h back from the
 * result and v (the multiplier is odd, so it has an inverse modulo 2^64). */
static inline uint64_t tupc_sig(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
}
static inline uint64_t tupc_sig_unfold(uint64_t s, uint64_t v)
{
    return ((s - 0x9e3779b97f4a7c15ull) * 0xce965057aff6957bull) ^ v;
}

/* A run of alike collective calls (the same function, arguments and flags
 * on one team, with consecutive numbers there): a loop that repeats a call
 * stores one word per call. Written by its thread as a seqlock: `keyseq`
 * is 0 while the entry is rewritten; extending the run stores keyseq only. */
struct tupc_call_rec {
    _Atomic uint64_t keyseq;    /* the thread's record number (low half, 0 for
                                   none) and the run's last call number */
    _Atomic(const char *) func; /* the collective */
    _Atomic uint64_t args;      /* signature of its arguments and flags */
    _Atomic uint64_t teamflags; /* the team's handle (high half), the flags */
    _Atomic uint32_t first;     /* the run's first call number on its team */
};

/* The raw single-valued arguments of a call, kept by their signature in a
 * small table: a loop that repeats a call finds them there and stores
 * nothing, so naming the argument that differs costs the fast path one
 * load. A seqlock too: `key` is 0 while the entry is rewritten. */
#define TUPC_CALL_VALS 32
struct tupc_call_vals {
    _Atomic uint64_t key;        /* the signature of v, 0 for none */
    _Atomic(const char *) names; /* "dst,*src,nbytes": see tupc_calls_args */
    _Atomic uint64_t v[TUPC_CALL_ARGS];
};

/* Written by its thread only; read by others to explain or to find a wait
 * that can never end. */
struct tupc_calls_thread {
    _Atomic uint32_t episode;      /* barriers notified so far */
    _Atomic(const char *) barrier; /* the function that notified the last one */
    _Atomic uint32_t end_n;        /* calls made, once the thread has returned */
    _Atomic uint64_t end_sig;      /* and their running signature */
    struct tupc_call_rec ring[TUPC_CALLS_RING];
    struct tupc_call_vals vals[TUPC_CALL_VALS];
} __attribute__((aligned(64)));

/* A member's ledger of its calls on one team: how many it has made and the
 * running fold of their signatures (tupc_sig of each call's arguments and
 * function). Every team's member state holds one (coll/team.h), UPC_TEAM_ALL's
 * too; the barrier of all threads, which sits below the teams and also
 * serves upc_barrier, compares UPC_TEAM_ALL's through tupc_calls_self_.all. */
struct tupc_ledger {
    uint32_t n;
    uint64_t sig;
};

struct tupc_calls_self {
    const struct tupc_ledger *all; /* the thread's ledger on UPC_TEAM_ALL, set by
                                      the engine when the thread starts */
    uint32_t rec;                  /* records written to the ring (calls on any team) */
    uint32_t episode;
    struct tupc_calls_thread *mine;
    uint64_t kept; /* the key of the last values kept */
    /* The run being recorded: its entry and what it holds. */
    struct tupc_call_rec *run;
    const char *run_func;
    uint64_t run_args, run_teamflags;
    uint32_t run_last;
};
extern _Thread_local struct tupc_calls_self tupc_calls_self_
    __attribute__((tls_model("initial-exec")));

int tupc_calls_init(int threads);
/* Thread `thread`'s record, for readers such as the hang watchdog. */
const struct tupc_calls_thread *tupc_calls_of(int thread);
void tupc_calls_fini(void);
void tupc_calls_thread_start(int thread);

/* Keeps values v under key h (out of line: new values only). Outside a UPC
 * thread, where the call is about to be refused, it keeps nothing. */
void tupc_calls_keep_(struct tupc_calls_self *s, uint64_t h, const char *names, const uint64_t *v);

/* Keeps the raw single-valued arguments of the collective call this
 * thread is about to make, so that a disagreement can name the argument
 * that differs; returns their signature, which the call then folds its
 * flags into (tupc_sig), so a reader finds the values again from a
 * record's signature and flags (tupc_sig is invertible). `names` lists them, comma
 * separated, each with a prefix for how to print it: '*' a shared address,
 * '&' a function, '#' hex, none decimal; an empty name skips a value.
 * Independent products rather than a chain: this is on the path of every
 * call. Odd multipliers keep any one differing argument from vanishing. */
static inline uint64_t tupc_calls_args(const char *names, uint64_t a0, uint64_t a1, uint64_t a2,
                                       uint64_t a3, uint64_t a4, uint64_t a5)
{
    /* TUPC_CHECKS=off: no comparison of single-valued arguments. */
    if (__builtin_expect(tupc_checks_ == TUPC_CHECK_OFF, 0))
        return 0;
    uint64_t h = ((a0 * 0x9e3779b97f4a7c15ull) ^ (a1 * 0xc2b2ae3d27d4eb4full) ^
                  (a2 * 0xd6e8feb86659fd93ull) ^ (a3 * 0xff51afd7ed558ccdull) ^
                  (a4 * 0x165667b19e3779f9ull) ^ (a5 * 0xc4ceb9fe1a85ec53ull)) |
                 1;
    struct tupc_calls_self *s = &tupc_calls_self_;
    if (__builtin_expect(h != s->kept, 0)) { /* not the values of the last call */
        const uint64_t v[TUPC_CALL_ARGS] = {a0, a1, a2, a3, a4, a5};
        tupc_calls_keep_(s, h, names, v);
    }
    return h;
}

/* Writes record s->rec + 1 (a new run) from call `seq` on team `team`.
 * The key is cleared first, and the release fence keeps a reader that
 * reads any of the new fields from trusting the old key (it reads the key
 * again after an acquire fence). */
void tupc_calls_new_run_(struct tupc_calls_self *s, const char *func, uint64_t args,
                         uint64_t teamflags, uint32_t seq);
static inline void tupc_calls_record_(struct tupc_calls_self *s, const char *func, unsigned flags,
                                      uint64_t args, int team, uint32_t seq)
{
    uint64_t tf = (uint64_t)(uint32_t)team << 32 | flags;
    if (__builtin_expect(func == s->run_func && args == s->run_args && tf == s->run_teamflags &&
                             seq == s->run_last + 1,
                         1)) {
        s->run_last = seq;
        /* Release: as for a new run; the other fields have not changed. */
        atomic_store_explicit(&s->run->keyseq, (uint64_t)seq << 32 | s->rec, memory_order_release);
        return;
    }
    tupc_calls_new_run_(s, func, args, tf, seq);
}

/* Records call `seq` on team `team` (0: UPC_TEAM_ALL) with arguments
 * `args` (their signature, flags included) in the thread's ring; the
 * member's ledger on the team (struct tupc_ledger) counts and folds it.
 * Inline: every collective call runs it. Readers read the ring only after an
 * acquire that saw a later store of this thread (its entry counter or its
 * barrier arrival), or to explain an error already found. */
static inline void tupc_calls_note(const char *func, unsigned flags, uint64_t args, int team,
                                   uint32_t seq)
{
#if TUPC_HAVE_MPI
    /* The collectives' engine reads other threads' counters and data in
     * place: across processes every collective takes mpi/'s paths before it
     * gets here (the 1.3 functions hier*.c, the teams' and the _x forms
     * team*.c, the sort its own); one that did not would be refused. */
    if (__builtin_expect(tupc_procs_ > 1, 0))
        tupc_mpi_refuse(func, team ? "a collective on a team" : "this collective");
#endif
    tupc_calls_record_(&tupc_calls_self_, func, flags, args, team, seq);
}

/* A consistent copy of one record. */
struct tupc_call_copy {
    uint32_t seq;   /* the call's number (of a run: its last) */
    uint32_t first; /* of a run: its first call's */
    int team;
    unsigned flags;
    const char *func, *names;
    uint64_t args, v[TUPC_CALL_ARGS];
};

/* Thread t's newest record: its number (> 0) and *c, or 0 when it has
 * made no call. */
uint32_t tupc_calls_last(int t, struct tupc_call_copy *c);

/* The calls thread t has made on team `team`, as far as its ring tells. */
uint32_t tupc_calls_made(int t, int team);

/* Writes a short account of call c into buf: its number and team, its
 * values that are not addresses, and its flags, e.g. "collective call 3:
 * nbytes 8, UPC_IN_MYSYNC | UPC_OUT_MYSYNC". */
void tupc_calls_format(const struct tupc_call_copy *c, char *buf, size_t len);

/* How messages name a team by its number: set by the teams' module (above
 * this one) so that a message says the team's size and colour; "team N"
 * until then. */
extern const char *(*tupc_calls_team_namer)(int team, char *buf, size_t len);

/* The running signature folded to the 32 bits a barrier carries. */
static inline uint32_t tupc_calls_sig32(void)
{
    uint64_t h = tupc_calls_self_.all->sig;
    return (uint32_t)(h ^ (h >> 32));
}

/* Records that this thread notifies a barrier, in `func`. */
void tupc_calls_note_barrier(const char *func);

/* Fails the run explaining how thread j's collective calls differ from
 * this thread's, which a compared signature showed. `func` is the caller
 * (the barrier or collective that found it). tupc_calls_differ_team does
 * it for the calls on team `team`, of which this thread has made n and
 * thread j is the member of rank `rank_j`. */
_Noreturn void tupc_calls_differ(const char *func, int j);
_Noreturn void tupc_calls_differ_team(const char *func, int team, uint32_t n, int j, int rank_j);

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

/* Thread t's newest call, as tupc_calls_format words it, if it is a call
 * of `func` (returns 1), else 0. The _mine form falls back on the call's
 * number. */
int tupc_calls_describe(int t, const char *func, char *buf, size_t len);
void tupc_calls_describe_mine(const char *func, char *buf, size_t len);

#endif
