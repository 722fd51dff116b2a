/* upc_all_permute (UPC 1.3 7.4.2.6): the block of src on thread i to the
 * block of dst on thread perm[i].
 *
 * Checks: nbytes > 0; src, dst and perm in the heap with affinity to thread
 * 0, the blocks fitting the partition; perm[MYTHREAD] in 0..THREADS-1 (each
 * thread checks its own entry, once the entry synchronization lets it read
 * it); no value twice: each thread claims its destination thread in a
 * per-run table with one atomic exchange, and the second claimer of a thread
 * sees the first one's claim. With every entry in range, "no value twice"
 * is "a permutation". O(1) per thread.
 *
 * Touches (push): thread i reads its own perm entry and src block and writes
 * the dst block of thread perm[i]. Pulling would need the inverse of perm,
 * O(THREADS) reads; pushing is O(1). So thread i needs perm[i]; the data of
 * thread t is touched by t and by the thread i with perm[i] == t (its dst).
 * OUT_MYSYNC must wait for that i only. The table says when: i stores the
 * call number in t's slot ("done") right after its copy, and t waits for
 * that store. One cache-line transfer after the copy, where finding i and
 * then waiting for i's finished counter would take two.
 *
 * The table is the engine's mailboxes: one per destination thread and slot,
 * slot seq % TUPC_SCRATCH_SLOTS for call seq, reused under the engine's
 * scratch rule (tupc_coll_scratch_claim: every thread has finished the call
 * that used the slot before). So a slot only ever holds claims of its own
 * call while that call runs, however far apart NOSYNC lets the threads
 * drift: a duplicate is always found, and never falsely.
 *
 * Copy: one memcpy per thread (streaming for large calls, coll/copy.h).
 *
 * In place (UPC_IN_PLACE as src or in flags, Extended Collectives 0.3
 * 5.2): the block of dst on thread i moves to thread perm[i]. Each thread
 * copies its block into a private buffer and publishes that it did, then
 * waits until its target has done the same and writes the buffer there:
 * the blocks form cycles, so one of each cycle must be saved anyway. */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc.h"

#include <upc_collective_ext.h>

#include <stdlib.h>

#include "sync/wait.h"

#include <stdatomic.h>

#define FUNC "upc_all_permute"
#define SEC "UPC 1.3 7.4.2.6"

/* A sleeping OUT_MYSYNC wait for our writer: the check of an engine wait
 * on the writer once it has claimed our mailbox. Before that the writer is
 * not known, but a wait that can never end shows in some thread that has
 * not made this call: it returned, or sits in a barrier this thread has not
 * reached; or in one that made another call of the same number. */
struct writer_wait {
    const struct tupc_coll *c;
    const struct tupc_mailbox *mine;
};

static void writer_lost(const void *arg, tupc_word *w, uint32_t target)
{
    const struct writer_wait *ww = arg;
    const uint32_t seq = ww->c->seq;
    /* Relaxed: a stale claim only sends us to the scan below. */
    uint64_t claim = atomic_load_explicit(&ww->mine->claim, memory_order_relaxed);
    if ((uint32_t)(claim >> 32) == seq) {
        tupc_coll_check_wait(ww->c, (int)(uint32_t)claim, w, target);
        return;
    }
    for (int t = 0; t < THREADS; t++) {
        if (t == MYTHREAD)
            continue;
        uint32_t e = tupc_coll_entered(ww->c, t);
        if (e == seq)
            tupc_coll_compare(ww->c, t);
        if (tupc_reached(e, seq))
            continue;
        /* Acquire: the gone mark follows the thread's last entry. */
        if (atomic_load_explicit(&tupc_gone_[t], memory_order_acquire) &&
            !tupc_reached(tupc_coll_entered(ww->c, t), seq))
            tupc_fail(FUNC, "UPC 1.3 6.6.1, 7.4 para 3",
                      "thread %d returned from its entry function without making collective call "
                      "%u; expected every thread to make the same collective calls",
                      t, (unsigned)seq);
        /* Acquire in peer_ahead: t enters a call before it notifies. */
        if (tupc_calls_peer_ahead(t) && !tupc_reached(tupc_coll_entered(ww->c, t), seq))
            tupc_calls_fail_ahead(t, FUNC);
    }
}

void upc_all_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                     upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_permute(dst, src, perm, nbytes, flags), __func__, nbytes, flags, 0);
    enum tupc_sync in, out;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    tupc_reloc_start(FUNC, flags & ~UPC_IN_PLACE, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    /* dst first: in place, it is also the source, and a refusal names it. */
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "dst", dst, nbytes);
    if (in_place)
        src = dst; /* a decoy src is not read */
    else
        tupc_reloc_check_thread0(FUNC, SEC " para 6", "src", src, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "perm", perm, sizeof(int));
    uint64_t sig = tupc_calls_args("*dst,*src,nbytes,*perm", (uintptr_t)dst.addr,
                                   (uintptr_t)src.addr, nbytes, (uintptr_t)perm.addr, 0, 0);
    tupc_reloc_check_allocs(FUNC, sig,
                            (const struct tupc_reloc_area[]){{"dst", dst, nbytes, 1},
                                                             {"perm", perm, sizeof(int), 1},
                                                             {"src", src, nbytes, 1}},
                            in_place ? 2 : 3);
    int me = MYTHREAD, T = THREADS;

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    /* perm is shared int * (block size 1): perm[me] is on this thread. Read
     * only now: under IN_ALLSYNC any thread may write it up to its own entry
     * (Collectives 1.0 section 3), under IN_MYSYNC this thread up to ours. */
    int to = *(const int *)tupc_reloc_on(perm, me);
    if (to < 0 || to >= T)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] is %d; expected perm to hold the THREADS distinct values 0..%d", me, to,
                  T - 1);
    /* Slot seq % SLOTS was last used by call seq - SLOTS, which every thread
     * has finished once this returns (usually without waiting). */
    (void)tupc_coll_scratch_claim(&c);
    struct tupc_mailbox *mine = tupc_coll_mailbox(&c, me);
    struct tupc_mailbox *theirs = tupc_coll_mailbox(&c, to);
    /* Relaxed: only claimers read the claim, through this exchange, whose
     * atomicity alone makes the second claimer see the first. */
    uint64_t old = atomic_exchange_explicit(&theirs->claim, (uint64_t)c.seq << 32 | (uint32_t)me,
                                            memory_order_relaxed);
    if ((uint32_t)(old >> 32) == c.seq)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] and perm[%u] are both %d; expected perm to hold the THREADS distinct "
                  "values 0..%d",
                  me, (unsigned)(uint32_t)old, to, T - 1);

    if (in_place) {
        tupc_permute_move(&c, tupc_reloc_on(dst, me), tupc_reloc_on(dst, to), nbytes, to);
    } else {
        tupc_coll_need(&c, to);
        tupc_copy(tupc_reloc_on(dst, to), tupc_reloc_on(src, me), nbytes,
                  tupc_reloc_streams(nbytes, 2 * (size_t)T));
    }

    if (out == TUPC_MYSYNC) {
        /* Release (tupc_word_set): publishes the copy above, and wakes t. */
        tupc_word_set(&theirs->done, c.seq);
        /* Our writer's copy into our dst block, the only access to our data
         * by another thread. The slot's done only grows past seq once we
         * have finished seq, so reaching seq means "is seq". Acquire
         * (tupc_wait_checked): the writer's copy is complete and visible. */
        struct writer_wait ww = {&c, mine};
        tupc_wait_checked(&mine->done, c.seq, NULL, writer_lost, &ww);
    }
    /* Every OUT_MYSYNC wait this call needs was the one above. */
    tupc_coll_leave_alone(&c);
}
