/* The barrier of a team, in one of two forms chosen when the team is made,
 * as sync/barrier.c chooses for all threads, or, for UPC_TEAM_ALL, that
 * barrier of all threads itself (which also serves upc_barrier):
 *
 * flat: each member stores its episode in its own line and waits for every
 *   other member's: one cache-line transfer on the critical path, the least
 *   a barrier needs, while every member has a CPU and they are at most 6
 *   (tupc_barrier_flat_for, sync/barrier.c's rule).
 *   (An earlier flat form, where rank 0 gathered the arrivals and released
 *   the others, paid two transfers and took 8-byte ALL|ALL team calls to
 *   1.6-1.7x the calls on all threads; this one reads what all threads' flat
 *   barrier reads.)
 * counter: a counter of arrivals that is never reset and a release word,
 *   for more members or more members than CPUs, where a waiter must sleep
 *   on one word. Episode e is complete when the counter reaches e * n, as no
 *   member can arrive at e + 1 before e is released; its last arriver stores
 *   e in the release word, on which the others wait (one futex wake for all
 *   of them when they sleep).
 *
 * Before it arrives, each member leaves in its own line, in slot e % 2, its
 * count of calls on the team, their running signature and the function that
 * arrived. Flat: every member compares each other member's slot with its own
 * as it reads its arrival. Counter: each arrival folds a digest of them into
 * the counter's line, and the last arriver reads the slots only when two
 * digests differ. A slot is rewritten at e + 2 only, after every member has
 * left e.
 *
 * Below the sync-mode engine, which calls it for ALLSYNC on a team; team.c
 * (split, free) is above the engine. */
#include "coll/team.h"

#include "check/calls.h"
#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdio.h>

#define SEC "Extended Collectives 0.3 section 4 item 9"

void tupc_team_barrier_choose(struct tupc_team *t)
{
    t->alg.barrier = tupc_barrier_flat_for(t->n) ? TUPC_TEAM_BAR_FLAT : TUPC_TEAM_BAR_COUNTER;
}

/* UPC_TEAM_ALL's instance: here, at the bottom of the team files, so that
 * the engine (syncmode.c) and team.c both build on this file alone. */
struct tupc_team tupc_team_all_;

/* Here, beside the instance it names, so that the barrier's messages need
 * nothing above it. */
const char *tupc_team_describe(const struct tupc_team *t, char *buf, size_t len)
{
    if (t == &tupc_team_all_)
        snprintf(buf, len, "UPC_TEAM_ALL");
    else
        snprintf(buf, len, "the team of %d members split with colour %d (rank 0 is thread %d)",
                 t->n, t->colour, t->thread[0]);
    return buf;
}

const char *tupc_team_algos_describe(const struct tupc_team *t, char *buf, size_t len)
{
    static const char *const barrier[] = {
        [TUPC_TEAM_BAR_COUNTER] = "a counter of arrivals",
        [TUPC_TEAM_BAR_FLAT] = "flat",
        [TUPC_TEAM_BAR_ALL] = "the barrier of all threads",
    };
    snprintf(buf, len, "barrier: %s; reductions' IN_ALLSYNC: %s; small reductions: %s",
             barrier[t->alg.barrier], t->alg.scan_in ? "each member's entry read" : "a barrier",
             t->alg.red_direct ? "one member reads every piece" : "partials combined");
    return buf;
}

_Noreturn void tupc_team_calls_differ(const struct tupc_team *t, int me, const char *func, int j)
{
    if (t == &tupc_team_all_)
        tupc_calls_differ(func, j);
    tupc_calls_differ_team(func, t->id, t->self[me]->ledger.n, tupc_team_thread_of(t, j), j);
}

struct bar_wait {
    const struct tupc_team *t;
    uint32_t e;
    const char *func;
};

/* A sleeping waiter at episode e: a member that has not arrived and has
 * returned, or sits in a barrier of all threads that this thread has not
 * reached, can never arrive. */
static void bar_stuck(const void *arg, tupc_word *w, uint32_t target)
{
    const struct bar_wait *b = arg;
    for (int r = 0; r < b->t->n; r++) {
        uint32_t got =
            atomic_load_explicit(&b->t->bar[r].slot[b->e % 2].episode, memory_order_acquire);
        if (got != b->e)
            tupc_wait_check_peer(w, target, tupc_team_thread_of(b->t, r), b->func);
    }
}

static void bar_check(const struct tupc_team *t, int me, uint32_t e, const char *func)
{
    const struct tupc_coll_self *a = t->self[me];
    for (int r = 0; r < t->n; r++) {
        /* Relaxed: the arrivals' acq_rel increments order these stores
         * before our last increment. */
        uint32_t n = atomic_load_explicit(&t->bar[r].slot[e % 2].calls, memory_order_relaxed);
        uint64_t s = atomic_load_explicit(&t->bar[r].slot[e % 2].sig, memory_order_relaxed);
        const char *f = atomic_load_explicit(&t->bar[r].slot[e % 2].func, memory_order_relaxed);
        /* Where they are first: a member in a call's barrier and another
         * in tupc_team_barrier also differ in their counts. */
        if (f != func) {
            char team[160];
            tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3; " SEC,
                      "member %d of %s (thread %d) is in %s while this member is in %s; "
                      "expected every member to reach the same barriers and calls on the team",
                      r, tupc_team_describe(t, team, sizeof team), tupc_team_thread_of(t, r), f,
                      func);
        }
        if (n != a->ledger.n || s != a->ledger.sig)
            tupc_team_calls_differ(t, me, func, r);
    }
}

/* The flat form: our arrival in our line, then every other member's, each
 * compared with ours as it is read. */
static void bar_flat(struct tupc_team *t, int rank, uint32_t e, const char *func)
{
    const struct tupc_coll_self *s = t->self[rank];
    /* Release (tupc_word_set): our slot, and every access of our calls on
     * the team, visible to each member whose acquire wait sees e. */
    tupc_word_set(&t->bar[rank].arrive, e);
    for (int r = 0; r < t->n; r++) {
        if (r == rank)
            continue;
        struct tupc_team_bar *b = &t->bar[r];
        tupc_wait_peer(&b->arrive, e, tupc_team_thread_of(t, r), func); /* acquire */
        /* Relaxed: ordered by the acquire above; r cannot rewrite the slot
         * before e + 2, which needs our arrival at e + 1. */
        if (atomic_load_explicit(&b->slot[e % 2].calls, memory_order_relaxed) != s->ledger.n ||
            atomic_load_explicit(&b->slot[e % 2].sig, memory_order_relaxed) != s->ledger.sig ||
            atomic_load_explicit(&b->slot[e % 2].func, memory_order_relaxed) != func)
            bar_check(t, rank, e, func); /* fails, naming who differs */
    }
}

void tupc_team_barrier_own_(struct tupc_team *t, int rank, const char *func)
{
    struct tupc_coll_self *s = t->self[rank];
    uint32_t e = ++s->episode;
    struct tupc_team_bar *b = &t->bar[rank];
    atomic_store_explicit(&b->slot[e % 2].calls, s->ledger.n, memory_order_relaxed);
    atomic_store_explicit(&b->slot[e % 2].sig, s->ledger.sig, memory_order_relaxed);
    atomic_store_explicit(&b->slot[e % 2].func, func, memory_order_relaxed);
    atomic_store_explicit(&b->slot[e % 2].episode, e, memory_order_relaxed);
    if (t->alg.barrier == TUPC_TEAM_BAR_FLAT) {
        bar_flat(t, rank, e, func);
        return;
    }
    /* What we say, folded into the counter's line, so that the last
     * arriver reads no member's line unless two arrivals differ (as the
     * nodes of the barrier of all threads do). Never 0, the empty value.
     * Relaxed: the fetch_add below orders them. */
    const int k = (int)(e % 2);
    uint64_t digest = tupc_sig(tupc_sig(s->ledger.sig, s->ledger.n), (uintptr_t)func) | (uint64_t)1
                                                                                            << 63;
    uint64_t seen = 0;
    if (!atomic_compare_exchange_strong_explicit(&t->digest[k], &seen, digest, memory_order_relaxed,
                                                 memory_order_relaxed) &&
        seen != digest)
        atomic_store_explicit(&t->differ[k], 1, memory_order_relaxed);
    /* acq_rel: our stores before it (the slot, and every access of our
     * calls on the team) are visible to the last arriver, whose release of
     * the word passes them on to every member. */
    uint32_t got = atomic_fetch_add_explicit(&t->arrived, 1, memory_order_acq_rel) + 1;
    if (got == e * (uint32_t)t->n) {
        uint32_t differ = atomic_load_explicit(&t->differ[k], memory_order_relaxed);
        /* Nobody arrives at e + 2, which reuses them, before e + 1 ends,
         * after our release of e. */
        atomic_store_explicit(&t->digest[k], 0, memory_order_relaxed);
        atomic_store_explicit(&t->differ[k], 0, memory_order_relaxed);
        if (differ)
            bar_check(t, rank, e, func); /* fails, naming who differs */
        tupc_word_set(&t->release, e);
    } else {
        struct bar_wait bw = {t, e, func};
        tupc_wait_checked(&t->release, e, NULL, bar_stuck, &bw); /* acquire */
    }
}
