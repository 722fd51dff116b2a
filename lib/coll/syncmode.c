#include "coll/syncmode.h"

#include "check/error.h"
#include "runtime/config.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <upc_collective_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tupc_coll_member {
    struct tupc_coll_line k;
    /* The member's own state on the team, beside its line, which the
     * member also writes in every call (UPC_TEAM_ALL's too: each thread
     * caches a pointer to its own, tupc_coll_self_). An array of the states apart, 128 bytes each,
     * made a split team's 64 KiB NO|NO broadcast at 2 THREADS 1.25-1.3 times UPC_TEAM_ALL's: the
     * root's copy slowed while the other member wrote its state two lines away (a prefetcher's
     * neighbour); states a page apart, or here ~3 KiB apart as the lines are, 0.97-1.03. */
    struct tupc_coll_self state;
    _Alignas(TUPC_CACHELINE) unsigned char scratch[TUPC_SCRATCH_SLOTS][TUPC_SCRATCH_BYTES];
    struct eager_line {
        tupc_word seq; /* the call whose payload this line holds */
        unsigned char data[TUPC_EAGER_BYTES];
    } __attribute__((aligned(TUPC_CACHELINE))) eager[TUPC_SCRATCH_SLOTS];
    struct tupc_mailbox mailbox[TUPC_SCRATCH_SLOTS];
};

_Static_assert(sizeof(struct eager_line) == TUPC_CACHELINE, "one line per eager slot");

_Thread_local struct tupc_coll_self *tupc_coll_self_ __attribute__((tls_model("initial-exec")));

/* IN and OUT mode of each flags value below 64, in | out << 2; -1 where the
 * value names two modes of one kind. A missing mode is ALLSYNC: 0 and a
 * lone IN or OUT flag (section 3). test_errors checks every entry. */
#define M_(b, no, my, all)                                                                         \
    ((b) == 0       ? TUPC_ALLSYNC                                                                 \
     : (b) == (no)  ? TUPC_NOSYNC                                                                  \
     : (b) == (my)  ? TUPC_MYSYNC                                                                  \
     : (b) == (all) ? TUPC_ALLSYNC                                                                 \
                    : 3)
#define IN_(f) M_((f)&7, UPC_IN_NOSYNC, UPC_IN_MYSYNC, UPC_IN_ALLSYNC)
#define OUT_(f) M_((f)&0x38, UPC_OUT_NOSYNC, UPC_OUT_MYSYNC, UPC_OUT_ALLSYNC)
#define MODES_(f) (IN_(f) == 3 || OUT_(f) == 3 ? -1 : IN_(f) | OUT_(f) << 2)
#define MODES4_(f) MODES_(f), MODES_((f) + 1), MODES_((f) + 2), MODES_((f) + 3)
#define MODES16_(f) MODES4_(f), MODES4_((f) + 4), MODES4_((f) + 8), MODES4_((f) + 12)
const signed char tupc_coll_modes_[64] = {MODES16_(0), MODES16_(16), MODES16_(32), MODES16_(48)};
_Static_assert(UPC_IN_NOSYNC == 1 && UPC_IN_MYSYNC == 2 && UPC_IN_ALLSYNC == 4 &&
                   UPC_OUT_NOSYNC == 8 && UPC_OUT_MYSYNC == 16 && UPC_OUT_ALLSYNC == 32,
               "the table above is indexed by these bits");

/* ---- Every team's parts: one constructor ------------------------------- */

void tupc_coll_team_unmake(struct tupc_team *t)
{
    free(t->member);
    free(t->self);
    free(t->bar);
    free(t->thread);
    free(t->rank);
    t->member = NULL;
    t->self = NULL;
    t->bar = NULL;
    t->thread = NULL;
    t->rank = NULL;
}

int tupc_coll_team_make(struct tupc_team *t, int n)
{
    const size_t N = (size_t)n, T = (size_t)tupc_run_.threads;
    t->n = n;
    t->member = aligned_alloc(_Alignof(struct tupc_coll_member), sizeof *t->member * N);
    t->self = malloc(sizeof *t->self * N);
    t->bar = aligned_alloc(TUPC_CACHELINE, sizeof *t->bar * N);
    t->thread = malloc(sizeof *t->thread * N);
    t->rank = malloc(sizeof *t->rank * T);
    if (!t->member || !t->self || !t->bar || !t->thread || !t->rank) {
        tupc_coll_team_unmake(t);
        return -1;
    }
    memset(t->member, 0, sizeof *t->member * N);
    memset(t->bar, 0, sizeof *t->bar * N);
    for (size_t i = 0; i < T; i++)
        t->rank[i] = -1;
    for (int r = 0; r < n; r++) {
        t->thread[r] = -1;
        t->member[r].state =
            (struct tupc_coll_self){.line = &t->member[r].k, .team = t, .me = r, .size = n};
        t->self[r] = &t->member[r].state;
    }
    tupc_team_barrier_choose(t);
    t->alg.scan_in = t->alg.red_direct = n <= TUPC_TEAM_SCAN_MAX;
    /* A trace or the stats: each small reduction takes the out-of-line path
     * that opens its span (the inlined paths test red_direct only). */
    if (tupc_config_.trace_path || tupc_config_.stats)
        t->alg.red_direct = 0;
    return 0;
}

int tupc_coll_init(int threads)
{
    /* UPC_TEAM_ALL: every thread, by number, and the barrier of all threads. */
    if (tupc_coll_team_make(&tupc_team_all_, threads) != 0)
        return -1;
    for (int i = 0; i < threads; i++)
        tupc_team_all_.thread[i] = tupc_team_all_.rank[i] = i;
    tupc_team_all_.alg.barrier = TUPC_TEAM_BAR_ALL;
    if (tupc_config_.verbose) {
        char algos[200];
        fprintf(stderr, "tupc: UPC_TEAM_ALL's calls: %s\n",
                tupc_team_algos_describe(&tupc_team_all_, algos, sizeof algos));
    }
    tupc_team_all_.id = UPC_TEAM_ALL;
    return 0;
}

void tupc_coll_fini(void)
{
    tupc_coll_team_unmake(&tupc_team_all_);
}

void tupc_coll_flags_fail(const char *func, upc_flag_t flags)
{
    const upc_flag_t in_bits = UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC;
    const upc_flag_t out_bits = UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
    /* A 1.3 function returns no handle: name the form that does. */
    if ((flags & ~(in_bits | out_bits)) == UPC_ASYNC && !strncmp(func, "upc_all_", 8) &&
        strcmp(func, "upc_all_sort"))
        tupc_fail(func, "Extended Collectives 0.3 section 4 item 7",
                  "flags 0x%x has UPC_ASYNC, which this UPC 1.3 function cannot take (it returns "
                  "no handle); expected UPC_IN_*SYNC | UPC_OUT_*SYNC, or the team form "
                  "tupc_team_%s(..., UPC_TEAM_ALL), which posts and returns a handle",
                  (unsigned)flags, func + 8);
    if (flags & ~(in_bits | out_bits))
        tupc_fail(func, "Collectives 1.0 section 3 para 5",
                  "flags is 0x%x, with bits 0x%x that are no sync mode; expected "
                  "UPC_IN_{NO,MY,ALL}SYNC | UPC_OUT_{NO,MY,ALL}SYNC",
                  (unsigned)flags, (unsigned)(flags & ~(in_bits | out_bits)));
    if (IN_(flags) == 3)
        tupc_fail(func, "Collectives 1.0 section 3 para 5",
                  "flags 0x%x names more than one UPC_IN_*SYNC mode; expected one",
                  (unsigned)flags);
    tupc_fail(func, "Collectives 1.0 section 3 para 5",
              "flags 0x%x names more than one UPC_OUT_*SYNC mode; expected one", (unsigned)flags);
}

/* Member j of call c's team (j < 0: the caller), and its line of counters. */
static inline struct tupc_coll_member *member_of(const struct tupc_coll *c, int j)
{
    const struct tupc_coll_self *me = tupc_coll_state(c);
    return &me->team->member[j < 0 ? me->me : j];
}

static inline struct tupc_coll_line *line_of(const struct tupc_coll *c, int j)
{
    return &member_of(c, j)->k;
}

/* Compares member j's call with ours, if j is still in it (a member that
 * ran ahead may be rewriting the slot: nothing to compare then). Called
 * after an acquire wait saw j enter (or finish) call c, so j's slot stores
 * of that call are visible. The running signatures cover every call before
 * this one too: a NOSYNC call that went wrong is found here, and
 * check/calls.c says which (on UPC_TEAM_ALL; team.c on other teams). */
static void check_peer(const struct tupc_coll *c, int j)
{
    const struct tupc_coll_self *me = tupc_coll_state(c);
    struct tupc_coll_line *k = line_of(c, j);
    const uint32_t s = c->seq;
    const char *f = atomic_load_explicit(&k->sig[s % 2].func, memory_order_relaxed);
    uint64_t a = atomic_load_explicit(&k->sig[s % 2].sig, memory_order_relaxed);
    /* Pairs with the writer's release fence before it rewrites the slot
     * (tupc_coll_begin): had we read a value of call s + 2, its entry to
     * s + 1 would be visible below, and we would not compare. */
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&k->entered.value, memory_order_relaxed) != s)
        return;
    if (f != me->func || a != me->ledger.sig)
        tupc_team_calls_differ(me->team, me->me, me->func, j);
}

void tupc_coll_compare(const struct tupc_coll *c, int j)
{
    check_peer(c, j);
}

void tupc_coll_compare_all(const struct tupc_coll *c)
{
    /* Seq_cst, after our entry's store and before the loads of theirs: of
     * two members that enter at once, at least one sees the other (the
     * store-buffering case), and that one compares. A member already one
     * call further (NOSYNC) is not compared here: its slot for this call
     * may be in rewrite. The running signatures it carries are compared at
     * the next call where the two meet, or at the next barrier. */
    atomic_thread_fence(memory_order_seq_cst);
    const struct tupc_coll_self *me = tupc_coll_state(c);
    for (int j = 0; j < me->size; j++)
        /* Acquire, as check_peer needs: j's slot for this call is written. */
        if (j != me->me &&
            atomic_load_explicit(&line_of(c, j)->entered.value, memory_order_acquire) == c->seq)
            check_peer(c, j);
}

/* The check of an engine wait that goes to sleep on member j: those of
 * tupc_wait_peer (j returned, or sits in a barrier this thread has not
 * reached), and, when j is in the call of the same number, a comparison
 * of the two calls: two threads in different collectives may each wait for
 * the other (a gather's root for a broadcast's reader, which waits for the
 * root's eager line), and would never get to a point that compares them. */
void tupc_coll_check_wait(const struct tupc_coll *c, int j, tupc_word *w, uint32_t target)
{
    const struct tupc_coll_self *me = tupc_coll_state(c);
    tupc_wait_check_peer(w, target, tupc_team_thread_of(me->team, j), me->func);
    if (atomic_load_explicit(&line_of(c, j)->entered.value, memory_order_acquire) == c->seq)
        check_peer(c, j);
}

struct stuck_arg {
    const struct tupc_coll *c;
    int j;
};

static void coll_stuck(const void *arg, tupc_word *w, uint32_t target)
{
    const struct stuck_arg *a = arg;
    tupc_coll_check_wait(a->c, a->j, w, target);
}

/* Waits until member j's counter w reaches target (acquire). */
static inline uint32_t coll_wait(const struct tupc_coll *c, tupc_word *w, uint32_t target, int j)
{
    struct stuck_arg a = {c, j};
    return tupc_wait_checked(w, target, NULL, coll_stuck, &a);
}

void tupc_coll_enter(struct tupc_coll *c, const char *func, upc_flag_t flags, uint64_t args)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    tupc_coll_flags(func, flags, &in, &out);
    tupc_coll_begin(c, func, flags, in, out, args);
}

void tupc_coll_thread_start(void)
{
    const int me = tupc_impl_mythread;
    tupc_coll_self_ = tupc_team_all_.self[me];
    /* The barrier of all threads, below the engine, compares the ledger. */
    tupc_calls_self_.all = &tupc_coll_self_->ledger;
}

void tupc_coll_barrier(const struct tupc_coll *c)
{
    /* Both barriers compare the running signatures of the members they hear
     * from, this call's included: no other check is needed here. */
    const struct tupc_coll_self *me = tupc_coll_state(c);
    tupc_team_barrier_(me->team, me->me, c->func);
}

void tupc_coll_begin_barrier_(const struct tupc_coll *c)
{
    tupc_barrier_all(c->func);
}

uint32_t tupc_coll_entered(const struct tupc_coll *c, int j)
{
    return atomic_load_explicit(&line_of(c, j)->entered.value, memory_order_acquire);
}

void tupc_coll_wait_entered(const struct tupc_coll *c, int j)
{
    /* Acquire: j's writes before entering. */
    coll_wait(c, &line_of(c, j)->entered, c->seq, j);
    check_peer(c, j);
}

void tupc_coll_wait_finished(const struct tupc_coll *c, int j)
{
    coll_wait(c, &line_of(c, j)->finished, c->seq, j); /* acquire: j's accesses */
    check_peer(c, j);
}

void tupc_coll_publish(const struct tupc_coll *c)
{
    /* Release: the scratch slot written before is visible to a thread
     * whose acquire wait sees published >= seq. */
    tupc_word_set(&tupc_coll_state(c)->line->published, c->seq);
}

void tupc_coll_wait_published(const struct tupc_coll *c, int j)
{
    /* Acquire: j's slot. Then the same comparison as the other waits: a
     * peer in another call must not have its partial taken for ours. */
    coll_wait(c, &line_of(c, j)->published, c->seq, j);
    check_peer(c, j);
}

void tupc_coll_need_(const struct tupc_coll *c, int j)
{
    if (j != tupc_coll_state(c)->me)
        tupc_coll_wait_entered(c, j);
}

void tupc_coll_leave_(const struct tupc_coll *c, const int *touchers, int n, int everyone)
{
    tupc_coll_finish(c);
    if (c->out == TUPC_ALLSYNC) {
        tupc_coll_barrier(c);
    } else if (c->out == TUPC_MYSYNC) {
        int me = tupc_coll_state(c)->me, T = tupc_coll_state(c)->size;
        if (everyone == 2) {
            tupc_coll_barrier(c);
        } else if (everyone) {
            for (int k = 1; k < T; k++) {
                int j = me + k < T ? me + k : me + k - T;
                tupc_coll_wait_finished(c, j);
            }
        } else {
            for (int k = 0; k < n; k++)
                if (touchers[k] != me)
                    tupc_coll_wait_finished(c, touchers[k]);
        }
    }
}

void *tupc_coll_scratch(const struct tupc_coll *c, int j)
{
    return member_of(c, j)->scratch[c->seq % TUPC_SCRATCH_SLOTS];
}

/* Waits until every other thread has finished call c->seq - TUPC_SCRATCH_SLOTS,
 * the last call that could read this thread's slots of the same index. */
static void claim_wait(const struct tupc_coll *c)
{
    uint32_t prev = c->seq - TUPC_SCRATCH_SLOTS;
    if (c->seq > TUPC_SCRATCH_SLOTS && !tupc_reached(tupc_coll_state(c)->finished, prev)) {
        /* Wait for half the ring rather than one slot: a thread that runs
         * ahead then reads the others' finished lines once every
         * SLOTS / 2 calls instead of every call, and they keep those lines
         * in their caches. Safe: every call before seq is complete on our
         * side, so no thread needs us in order to finish it. */
        uint32_t want = c->seq - TUPC_SCRATCH_SLOTS / 2;
        uint32_t newest = c->seq - 1; /* lowest finished count seen, at most seq - 1 */
        const struct tupc_coll_self *me = tupc_coll_state(c);
        for (int j = 0; j < me->size; j++) {
            if (j == me->me)
                continue;
            uint32_t f = coll_wait(c, &line_of(c, j)->finished, want, j);
            if ((int32_t)(f - newest) < 0)
                newest = f;
        }
        tupc_coll_state(c)->finished = newest;
    }
}

void *tupc_coll_scratch_claim(const struct tupc_coll *c)
{
    claim_wait(c);
    return member_of(c, -1)->scratch[c->seq % TUPC_SCRATCH_SLOTS];
}

struct tupc_mailbox *tupc_coll_mailbox(const struct tupc_coll *c, int t)
{
    return &member_of(c, t)->mailbox[c->seq % TUPC_SCRATCH_SLOTS];
}

void *tupc_coll_eager_claim(const struct tupc_coll *c)
{
    claim_wait(c);
    return member_of(c, -1)->eager[c->seq % TUPC_SCRATCH_SLOTS].data;
}

void tupc_coll_eager_post(const struct tupc_coll *c)
{
    /* Release: the payload written before is visible to a reader whose
     * acquire wait sees this call's number. */
    tupc_word_set(&member_of(c, -1)->eager[c->seq % TUPC_SCRATCH_SLOTS].seq, c->seq);
}

const void *tupc_coll_eager_wait(const struct tupc_coll *c, int j)
{
    struct eager_line *line = &member_of(c, j)->eager[c->seq % TUPC_SCRATCH_SLOTS];
    /* Acquire: the payload. The line cannot move on to call seq + SLOTS
     * before this thread finishes call seq (claim_wait), so reaching seq
     * means holding exactly this call's payload. */
    coll_wait(c, &line->seq, c->seq, j);
    /* A poster that runs ahead has often filled the next line already:
     * start its transfer now so that it overlaps this call's work. */
    __builtin_prefetch(&member_of(c, j)->eager[(c->seq + 1) % TUPC_SCRATCH_SLOTS]);
    return line->data;
}
