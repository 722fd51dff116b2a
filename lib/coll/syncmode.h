/* The sync-mode engine of the collectives (Collectives 1.0 section 3).
 *
 * Each thread publishes two monotonic counters, together on a cache line
 * that only it writes: the number of collective calls it has entered and
 * the number it has finished. All threads make the same sequence of collective calls, so call
 * number s is the same call everywhere, and "thread j has entered call s" is
 * entered[j] >= s. Counters never reset (no reset race) and are compared
 * wrap-around safe.
 *
 *   IN_ALLSYNC   a barrier before the first access
 *   IN_MYSYNC    tupc_coll_need(c, j) before touching data of thread j
 *   IN_NOSYNC    nothing
 *   OUT_ALLSYNC  a barrier after the last access
 *   OUT_MYSYNC   wait for finished[j] >= s for each j that touched my data
 *   OUT_NOSYNC   nothing
 *
 * The barrier is the one of sync/barrier.c, so ALLSYNC waits scale as it does. */
#ifndef TUPC_COLL_SYNCMODE_H
#define TUPC_COLL_SYNCMODE_H

#include <upc.h>
#include <upc_types.h>

#include "check/calls.h"
#include "coll/team.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdint.h>

enum tupc_sync { TUPC_NOSYNC, TUPC_MYSYNC, TUPC_ALLSYNC };

struct tupc_coll {
    uint32_t seq; /* this call's number on its team, the same in every member */
    int turn;     /* seq % team size, kept without a division */
    enum tupc_sync in, out;
    const char *func; /* for error messages */
    uint64_t args;    /* signature of the single-valued arguments */
    /* The caller's state on the call's team, which also names the team,
     * the caller's rank and the team's size; on UPC_TEAM_ALL the one the
     * thread's tupc_coll_self_ points to. */
    struct tupc_coll_self *self;
    struct tupc_coll_line *line; /* self->line, kept: every call's exit stores there */
};

/* Each UPC thread's own state on UPC_TEAM_ALL (team.h's tupc_coll_self_
 * points to it) holds, as a member's state on any team does, its ledger of calls (the
 * count, which is also the number of the call it is in, and the running
 * signature: what every barrier of the team compares), its count of calls %
 * the team's size, that call's function (for the messages of its waits and
 * to compare peers' calls with), and its line. */

/* The caller's state on call c's team. */
static inline struct tupc_coll_self *tupc_coll_state(const struct tupc_coll *c)
{
    return c->self;
}

/* Every thread must make the same collective calls with the same
 * (single-valued) arguments. Each call is counted in the member's ledger on
 * its team, which folds its signature into the running signature, and
 * recorded in check/calls.h's ring, for the messages; the running
 * signature, stored beside the counters, is compared by every thread that
 * waits for another in the same call (IN_MYSYNC, OUT_MYSYNC), and the
 * barriers compare it too, so calls under NOSYNC, which wait for nobody, are
 * checked at the next point where the threads meet. Callers fold each
 * argument into the call's signature with tupc_sig. */

int tupc_coll_init(int threads);
void tupc_coll_fini(void);
/* Sets up the calling UPC thread's state (thread_main, before the entry). */
void tupc_coll_thread_start(void);

/* The one constructor of every team's parts (UPC_TEAM_ALL's in
 * tupc_coll_init, the others' in team.c): for n members, their lines and
 * scratch, their own states, their barrier lines (all zeroed) and the maps, every
 * rank and thread unplaced (-1) for the caller to fill; the algorithms
 * chosen for n. -1 when out of memory, with nothing kept. unmake frees
 * them. */
int tupc_coll_team_make(struct tupc_team *t, int n);
void tupc_coll_team_unmake(struct tupc_team *t);

/* The line of counters of one thread: only it writes them, and a thread
 * that waits for one of them (a finished call) often waits next for
 * another (the next call entered): one transfer brings both. */
struct tupc_coll_line {
    tupc_word entered;
    tupc_word finished;
    tupc_word published; /* partial result in the scratch slot of this call */
    /* The function of call s and the running signature of calls 1..s, in
     * sig[s % 2], written before entered = s. Read back only while
     * entered == s: slot s % 2 is rewritten in call s + 2, after
     * entered = s + 1. */
    struct {
        _Atomic(const char *) func;
        _Atomic uint64_t sig;
    } sig[2];
} __attribute__((aligned(TUPC_CACHELINE)));

/* Parses flags without entering, or fails naming func. Inline, as every
 * collective call parses its flags: one look in a table of the 64 values
 * the six bits can take; the out-of-line half explains a refusal. */
extern const signed char tupc_coll_modes_[64];
_Noreturn void tupc_coll_flags_fail(const char *func, upc_flag_t flags);
static inline void tupc_coll_flags(const char *func, upc_flag_t flags, enum tupc_sync *in,
                                   enum tupc_sync *out)
{
    /* Unsigned: upc_flag_t is an int, and a negative value must fail the
     * range test, not index the table from below. */
    int m = (unsigned)flags < 64u ? tupc_coll_modes_[(unsigned)flags] : -1;
    if (__builtin_expect(m < 0, 0))
        tupc_coll_flags_fail(func, flags);
    *in = (enum tupc_sync)(m & 3);
    *out = (enum tupc_sync)(m >> 2);
}

/* Counts a call to func with arguments args (their signature, flags
 * included) in the member's ledger on team team_id (0: UPC_TEAM_ALL) and
 * records it in the thread's ring; returns its number on the team. The
 * paths across processes (mpi/) enter through this too. */
static inline uint32_t tupc_coll_note(struct tupc_coll_self *self, int team_id, const char *func,
                                      unsigned flags, uint64_t args)
{
    uint32_t seq = ++self->ledger.n;
    self->ledger.sig = tupc_sig(self->ledger.sig, args ^ (uintptr_t)func);
    self->func = func;
    tupc_calls_record_(&tupc_calls_self_, func, flags, args, team_id, seq);
    return seq;
}

/* What every entry stores, on UPC_TEAM_ALL (tupc_coll_begin) or another team
 * (tupc_coll_begin_team): the call is counted in the member's ledger
 * (tupc_calls_note refuses it across processes, where mpi/'s paths run
 * instead), and its number, function and running signature are stored in
 * the caller's line, for a team of n members. */
static inline void tupc_coll_post_entry_(struct tupc_coll *c, struct tupc_coll_self *self,
                                         int team_id, int n, const char *func, unsigned flags)
{
    const uint32_t seq = ++self->ledger.n;
    const uint64_t sig = tupc_sig(self->ledger.sig, c->args ^ (uintptr_t)func);
    const int turn = self->calls_mod + 1 == n ? 0 : self->calls_mod + 1;
    self->calls_mod = turn;
    tupc_calls_note(func, flags, c->args, team_id, seq);
    c->seq = seq;
    c->turn = turn;
    self->func = func;
    self->ledger.sig = sig;
    struct tupc_coll_line *l = self->line;
    c->line = l;
    /* Stored under NOSYNC too: a thread that passes NOSYNC where the others
     * pass MYSYNC is compared by them (test_coll_mismatch). Release fence:
     * our entry to the previous call is stored before these, see
     * check_peer in syncmode.c. */
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&l->sig[seq % 2].func, func, memory_order_relaxed);
    atomic_store_explicit(&l->sig[seq % 2].sig, sig, memory_order_relaxed);
    /* Release: what this thread wrote before the call (and the slot) is
     * visible to a thread that sees entered >= seq (IN_MYSYNC). */
    tupc_word_set(&l->entered, seq);
}

/* Checks that the caller is not between upc_notify and upc_wait and starts
 * call c, whose flags the caller has checked and parsed into in and out
 * already (in may be stronger than the flags say). IN_ALLSYNC waits here.
 * Argument checks of the collective come before this, so bad arguments
 * stop the run before any thread waits on another (reduce.c's small path
 * has a reason to check after; it waits for nobody before it checks). */
void tupc_coll_begin_barrier_(const struct tupc_coll *c);
/* TUPC_CHECKS=full: compares call c with that of every member already in
 * it, so that NOSYNC calls are compared when they are made. */
void tupc_coll_compare_all(const struct tupc_coll *c);
static inline void tupc_coll_begin(struct tupc_coll *c, const char *func, upc_flag_t flags,
                                   enum tupc_sync in, enum tupc_sync out, uint64_t args)
{
    struct tupc_coll_self *self = tupc_coll_self_;
    tupc_check_not_split(func);
    c->self = self;
    c->in = in;
    c->out = out;
    c->func = func;
    c->args = tupc_sig(args, (uint64_t)(unsigned)flags);
    tupc_coll_post_entry_(c, self, 0, THREADS, func, (unsigned)flags);
    if (__builtin_expect(tupc_checks_ == TUPC_CHECK_FULL, 0))
        tupc_coll_compare_all(c);
    if (in == TUPC_ALLSYNC)
        tupc_coll_begin_barrier_(c);
}

/* The barrier of call c's team. */
void tupc_coll_barrier(const struct tupc_coll *c);

/* The caller's state on team t (a member): tupc_team_member's, for a caller
 * that holds the team only; the lookup's cache has it when t is the team
 * this thread named last, as it is right after tupc_team_get. */
static inline struct tupc_coll_self *tupc_coll_self_on(struct tupc_team *t)
{
    if (t == &tupc_team_all_)
        return tupc_coll_self_;
    if (__builtin_expect(t == tupc_team_cache_.team, 1))
        return tupc_team_cache_.self;
    return t->self[tupc_team_my_rank(t)];
}

/* As tupc_coll_begin, on team t, where self is the caller's state
 * (tupc_team_member, tupc_coll_self_on). Inline, as tupc_coll_begin is: a
 * team's calls take the paths of all threads'. */
static inline __attribute__((always_inline)) void
tupc_coll_begin_team(struct tupc_coll *c, struct tupc_team *t, struct tupc_coll_self *self,
                     const char *func, upc_flag_t flags, enum tupc_sync in, enum tupc_sync out,
                     uint64_t args)
{
    if (t == &tupc_team_all_) {
        tupc_coll_begin(c, func, flags, in, out, args);
        return;
    }
    tupc_check_not_split(func);
    c->self = self;
    c->in = in;
    c->out = out;
    c->func = func;
    c->args = tupc_sig(args, (uint64_t)(unsigned)flags);
    tupc_coll_post_entry_(c, self, t->id, self->size, func, (unsigned)flags);
    if (__builtin_expect(tupc_checks_ == TUPC_CHECK_FULL, 0))
        tupc_coll_compare_all(c);
    if (in == TUPC_ALLSYNC)
        tupc_coll_barrier(c);
}

/* The caller's rank in call c on team t: the thread on UPC_TEAM_ALL (t, a
 * constant there, folds), else its state's, two loads where the team's
 * rank map takes three after the entry's fences. */
static inline int tupc_coll_rank(const struct tupc_coll *c, const struct tupc_team *t)
{
    return t == &tupc_team_all_ ? tupc_impl_mythread : c->self->me;
}

/* Checks the caller's thread and flags and starts call c (the three steps
 * above, for collectives with no reason to split them). */
void tupc_coll_enter(struct tupc_coll *c, const char *func, upc_flag_t flags, uint64_t args);

/* IN_MYSYNC: waits until member j has entered call c; no-op in other modes.
 * (j is a rank in c's team; on UPC_TEAM_ALL, a thread.) The mode's test is
 * inline, so that the other modes pay no call; tupc_coll_need_ waits. */
void tupc_coll_need_(const struct tupc_coll *c, int j);
static inline void tupc_coll_need(const struct tupc_coll *c, int j)
{
    if (c->in == TUPC_MYSYNC)
        tupc_coll_need_(c, j);
}

/* Stores that this thread is done with its reads and writes of call c, for
 * a thread that then waits by itself (tupc_coll_leave stores it otherwise).
 * A thread that touches no data stores it right after tupc_coll_begin: its
 * line is then written once per call, and a peer that has just read its
 * entry does not lose the line again to a second store. */
static inline __attribute__((always_inline)) void tupc_coll_finish(const struct tupc_coll *c)
{
    /* Release: our reads and writes of call seq happen before any thread
     * that sees finished >= seq goes on. */
    tupc_word_set(&c->line->finished, c->seq);
}

/* Ends call c: stores that this thread is done (tupc_coll_finish) and runs
 * the OUT sync. OUT_ALLSYNC is a barrier; what OUT_MYSYNC waits for is
 * what the caller knows of who touched its data in this call:
 *   leave_alone     nobody but itself
 *   leave_for       the members in touchers[0..n-1]
 *   leave_everyone  possibly every member: waits for each one's finish
 *   leave_symmetric every member, in a call where that holds for every
 *                   member: a barrier replaces the scan */
void tupc_coll_leave_(const struct tupc_coll *c, const int *touchers, int n, int everyone);
static inline void tupc_coll_leave_alone(const struct tupc_coll *c)
{
    tupc_coll_leave_(c, NULL, 0, 0);
}
static inline void tupc_coll_leave_for(const struct tupc_coll *c, const int *touchers, int n)
{
    tupc_coll_leave_(c, touchers, n, 0);
}
static inline void tupc_coll_leave_everyone(const struct tupc_coll *c)
{
    tupc_coll_leave_(c, NULL, 0, 1);
}
static inline void tupc_coll_leave_symmetric(const struct tupc_coll *c)
{
    tupc_coll_leave_(c, NULL, 0, 2);
}

/* Fails if member j is in call c with another function or arguments (or
 * other calls before it); nothing if j is in another call. */
void tupc_coll_compare(const struct tupc_coll *c, int j);

/* What an engine wait on member j's counter w runs before it sleeps:
 * fails if j returned, sits in a barrier this thread has not reached, or is
 * in the call of this number with another function or arguments. */
void tupc_coll_check_wait(const struct tupc_coll *c, int j, tupc_word *w, uint32_t target);

/* How many calls member j has entered on c's team (acquire: what j wrote
 * before entering the last of them is visible). */
uint32_t tupc_coll_entered(const struct tupc_coll *c, int j);

/* Waits until member j has entered / finished call c (any mode). */
void tupc_coll_wait_entered(const struct tupc_coll *c, int j);
void tupc_coll_wait_finished(const struct tupc_coll *c, int j);

/* A third counter, for collectives whose threads hand a partial result to
 * others in the middle of a call (the reductions): after writing its scratch
 * slot for call c, a thread publishes; a reader waits until thread j has
 * published call s (or a later one, which j makes only after publishing s
 * when it publishes in s at all). */
void tupc_coll_publish(const struct tupc_coll *c);
void tupc_coll_wait_published(const struct tupc_coll *c, int j);

/* Scratch for partial results: TUPC_SCRATCH_SLOTS slots of TUPC_SCRATCH_BYTES
 * per thread, slot (s % TUPC_SCRATCH_SLOTS) belongs to call s. Before writing
 * its own slot for call s, a thread calls tupc_coll_scratch_claim, which waits
 * until every thread has finished call s - TUPC_SCRATCH_SLOTS (the last call
 * that could read the slot), so back-to-back NOSYNC calls never clobber a
 * slot that is still being read. */
#define TUPC_SCRATCH_SLOTS 8
#define TUPC_SCRATCH_BYTES 256
void *tupc_coll_scratch_claim(const struct tupc_coll *c);
void *tupc_coll_scratch(const struct tupc_coll *c, int j);

/* Mailboxes: one cache line per thread and slot, zero when the run starts,
 * slot (s % TUPC_SCRATCH_SLOTS) for call s, reused under the scratch rule
 * (claim with tupc_coll_scratch_claim first). Any thread may take the claim
 * of thread t's mailbox with an atomic exchange and signal its `done`:
 * upc_all_permute uses them to find duplicates in perm and to tell each
 * thread that its block has landed. */
struct tupc_mailbox {
    tupc_word done;
    _Atomic uint64_t claim;
} __attribute__((aligned(TUPC_CACHELINE)));
struct tupc_mailbox *tupc_coll_mailbox(const struct tupc_coll *c, int t);

/* Eager lines: for payloads of at most TUPC_EAGER_BYTES, a thread can hand
 * data to the others inside one cache line that also carries the signal, so
 * a reader pays one cache-line transfer. Same reuse rule as the scratch slots.
 * The owner claims its line (tupc_coll_eager_claim), writes the payload and
 * posts it; readers wait for thread j's post of this call and read. */
#define TUPC_EAGER_BYTES 56
void *tupc_coll_eager_claim(const struct tupc_coll *c);
void tupc_coll_eager_post(const struct tupc_coll *c);
const void *tupc_coll_eager_wait(const struct tupc_coll *c, int j);

#endif
