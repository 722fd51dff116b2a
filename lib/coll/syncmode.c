#include "coll/syncmode.h"

#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdlib.h>
#include <string.h>

struct coll_thread {
    struct tupc_coll_line k;
    _Alignas(TUPC_CACHELINE) unsigned char scratch[TUPC_SCRATCH_SLOTS][TUPC_SCRATCH_BYTES];
    struct eager_line {
        tupc_word seq; /* the call whose payload this line holds */
        unsigned char data[TUPC_EAGER_BYTES];
    } __attribute__((aligned(TUPC_CACHELINE))) eager[TUPC_SCRATCH_SLOTS];
    struct tupc_mailbox mailbox[TUPC_SCRATCH_SLOTS];
};

_Static_assert(sizeof(struct eager_line) == TUPC_CACHELINE, "one line per eager slot");

static int nthreads;
static struct coll_thread *ct;

_Thread_local struct tupc_coll_self tupc_coll_self_ __attribute__((tls_model("initial-exec")));
/* Per-thread: the newest call that every thread is known to have finished
 * (saves rescanning in tupc_coll_scratch_claim). */
static _Thread_local uint32_t all_finished_known __attribute__((tls_model("initial-exec")));

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

int tupc_coll_init(int threads)
{
    nthreads = threads;
    ct = aligned_alloc(TUPC_CACHELINE, sizeof *ct * (size_t)threads);
    if (!ct)
        return -1;
    memset(ct, 0, sizeof *ct * (size_t)threads);
    return 0;
}

void tupc_coll_fini(void)
{
    free(ct);
    ct = NULL;
}

void tupc_coll_flags_fail(const char *func, upc_flag_t flags)
{
    const upc_flag_t in_bits = UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC;
    const upc_flag_t out_bits = UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
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

/* Compares thread j's call with ours, if j is still in it (a thread that
 * ran ahead may be rewriting the slot: nothing to compare then). Called
 * after an acquire wait saw j enter (or finish) call tupc_calls_self_.n, so
 * j's slot stores of that call are visible. The running signatures cover
 * every call before this one too: a NOSYNC call that went wrong is found
 * here, and check/calls.c says which. */
static void check_peer(int j)
{
    struct coll_thread *t = &ct[j];
    const uint32_t s = tupc_calls_self_.n;
    const char *f = atomic_load_explicit(&t->k.sig[s % 2].func, memory_order_relaxed);
    uint64_t a = atomic_load_explicit(&t->k.sig[s % 2].sig, memory_order_relaxed);
    /* Pairs with the writer's release fence before it rewrites the slot
     * (tupc_coll_begin): had we read a value of call s + 2, its entry to
     * s + 1 would be visible below, and we would not compare. */
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&t->k.entered.value, memory_order_relaxed) != s)
        return;
    if (f != tupc_coll_self_.func || a != tupc_coll_self_.sig)
        tupc_calls_differ(tupc_coll_self_.func, j);
}

void tupc_coll_compare(int j)
{
    check_peer(j);
}

/* The check of an engine wait that goes to sleep on thread j: those of
 * tupc_wait_peer (j returned, or sits in a barrier this thread has not
 * reached), and, when j is in the call of the same number, a comparison
 * of the two calls: two threads in different collectives may each wait for
 * the other (a gather's root for a broadcast's reader, which waits for the
 * root's eager line), and would never get to a point that compares them. */
void tupc_coll_check_wait(int j, tupc_word *w, uint32_t target)
{
    tupc_wait_check_peer(w, target, j, tupc_coll_self_.func);
    if (atomic_load_explicit(&ct[j].k.entered.value, memory_order_acquire) == tupc_calls_self_.n)
        check_peer(j);
}

static void coll_stuck(const void *arg, tupc_word *w, uint32_t target)
{
    tupc_coll_check_wait((int)(intptr_t)arg, w, target);
}

/* Waits until thread j's counter w reaches target (acquire). */
static inline uint32_t coll_wait(tupc_word *w, uint32_t target, int j)
{
    return tupc_wait_checked(w, target, coll_stuck, (const void *)(intptr_t)j);
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
    tupc_coll_self_ = (struct tupc_coll_self){.line = &ct[tupc_mythread_].k};
    all_finished_known = 0;
}

void tupc_coll_begin_barrier_(const struct tupc_coll *c)
{
    /* The barrier compares the running signatures of the threads it hears
     * from, this call's included: no other check is needed here. */
    tupc_barrier_all(c->func);
}

uint32_t tupc_coll_entered(int j)
{
    return atomic_load_explicit(&ct[j].k.entered.value, memory_order_acquire);
}

void tupc_coll_wait_entered(int j, uint32_t s)
{
    coll_wait(&ct[j].k.entered, s, j); /* acquire: j's writes before entering */
    if (s == tupc_calls_self_.n)
        check_peer(j);
}

void tupc_coll_wait_finished(int j, uint32_t s)
{
    coll_wait(&ct[j].k.finished, s, j); /* acquire: j's accesses in call s */
    if (s == tupc_calls_self_.n)
        check_peer(j);
}

void tupc_coll_publish(const struct tupc_coll *c)
{
    /* seq_cst store (release): the scratch slot written before is visible
     * to a thread whose acquire wait sees published >= seq. */
    tupc_word_set(&ct[tupc_mythread_].k.published, c->seq);
}

void tupc_coll_wait_published(int j, uint32_t s)
{
    coll_wait(&ct[j].k.published, s, j); /* acquire: j's slot of call s */
}

void tupc_coll_need(const struct tupc_coll *c, int j)
{
    if (c->in == TUPC_MYSYNC && j != tupc_mythread_)
        tupc_coll_wait_entered(j, c->seq);
}

void tupc_coll_leave(const struct tupc_coll *c, const int *touchers, int n, int all_symmetric)
{
    int me = tupc_mythread_;
    tupc_coll_finish(c);
    if (c->out == TUPC_ALLSYNC) {
        tupc_barrier_all(c->func);
    } else if (c->out == TUPC_MYSYNC) {
        if (!touchers && all_symmetric) {
            tupc_barrier_all(c->func);
        } else if (!touchers) {
            for (int k = 1; k < nthreads; k++) {
                int j = me + k < nthreads ? me + k : me + k - nthreads;
                tupc_coll_wait_finished(j, c->seq);
            }
        } else {
            for (int k = 0; k < n; k++)
                if (touchers[k] != me)
                    tupc_coll_wait_finished(touchers[k], c->seq);
        }
    }
}

void *tupc_coll_scratch(const struct tupc_coll *c, int j)
{
    return ct[j].scratch[c->seq % TUPC_SCRATCH_SLOTS];
}

/* Waits until every other thread has finished call c->seq - TUPC_SCRATCH_SLOTS,
 * the last call that could read this thread's slots of the same index. */
static void claim_wait(const struct tupc_coll *c)
{
    uint32_t prev = c->seq - TUPC_SCRATCH_SLOTS;
    if (c->seq > TUPC_SCRATCH_SLOTS && !tupc_reached(all_finished_known, prev)) {
        /* Wait for half the ring rather than one slot: a thread that runs
         * ahead then reads the others' finished lines once every
         * SLOTS / 2 calls instead of every call, and they keep those lines
         * in their caches. Safe: every call before seq is complete on our
         * side, so no thread needs us in order to finish it. */
        uint32_t want = c->seq - TUPC_SCRATCH_SLOTS / 2;
        uint32_t newest = c->seq - 1; /* lowest finished count seen, at most seq - 1 */
        for (int j = 0; j < nthreads; j++) {
            if (j == tupc_mythread_)
                continue;
            uint32_t f = coll_wait(&ct[j].k.finished, want, j);
            if ((int32_t)(f - newest) < 0)
                newest = f;
        }
        all_finished_known = newest;
    }
}

void *tupc_coll_scratch_claim(const struct tupc_coll *c)
{
    claim_wait(c);
    return ct[tupc_mythread_].scratch[c->seq % TUPC_SCRATCH_SLOTS];
}

struct tupc_mailbox *tupc_coll_mailbox(const struct tupc_coll *c, int t)
{
    return &ct[t].mailbox[c->seq % TUPC_SCRATCH_SLOTS];
}

void *tupc_coll_eager_claim(const struct tupc_coll *c)
{
    claim_wait(c);
    return ct[tupc_mythread_].eager[c->seq % TUPC_SCRATCH_SLOTS].data;
}

void tupc_coll_eager_post(const struct tupc_coll *c)
{
    /* seq_cst store (release): the payload written before is visible to a
     * reader whose acquire wait sees this call's number. */
    tupc_word_set(&ct[tupc_mythread_].eager[c->seq % TUPC_SCRATCH_SLOTS].seq, c->seq);
}

const void *tupc_coll_eager_wait(const struct tupc_coll *c, int j)
{
    struct eager_line *line = &ct[j].eager[c->seq % TUPC_SCRATCH_SLOTS];
    /* Acquire: the payload. The line cannot move on to call seq + SLOTS
     * before this thread finishes call seq (claim_wait), so reaching seq
     * means holding exactly this call's payload. */
    coll_wait(&line->seq, c->seq, j);
    /* A poster that runs ahead has often filled the next line already:
     * start its transfer now so that it overlaps this call's work. */
    __builtin_prefetch(&ct[j].eager[(c->seq + 1) % TUPC_SCRATCH_SLOTS]);
    return line->data;
}
