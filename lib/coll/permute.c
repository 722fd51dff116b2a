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
 * the blocks form cycles, so one of each cycle must be saved anyway.
 *
 * tupc_team_permute (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h); perm's entry of rank r's thread holds r's target
 * rank. With UPC_ASYNC the copy is recorded and the completion waits for
 * every member (in place, the blocks move at posting). */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc.h"

#include <upc_collective_ext.h>

#include <stdlib.h>

#include "sync/wait.h"

#include <stdatomic.h>

#define SEC "UPC 1.3 7.4.2.6"

/* A sleeping OUT_MYSYNC wait for our writer: the check of an engine wait
 * on the writer once it has claimed our mailbox. Before that the writer is
 * not known, but a wait that can never end shows in some member that has
 * not made this call: it returned, or sits in a barrier this thread has not
 * reached; or in one that made another call of the same number. */
struct writer_wait {
    const struct tupc_coll *c;
    const struct tupc_team *t;
    const struct tupc_mailbox *mine;
    const char *func;
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
    const int n = tupc_team_n(ww->t), me = tupc_coll_rank(ww->c, ww->t);
    for (int r = 0; r < n; r++) {
        if (r == me)
            continue;
        int th = tupc_team_thread_of(ww->t, r);
        uint32_t e = tupc_coll_entered(ww->c, r);
        if (e == seq)
            tupc_coll_compare(ww->c, r);
        if (tupc_reached(e, seq))
            continue;
        /* Acquire: the gone mark follows the thread's last entry. */
        if (atomic_load_explicit(&tupc_run_.gone[th], memory_order_acquire) &&
            !tupc_reached(tupc_coll_entered(ww->c, r), seq))
            tupc_fail(ww->func, "UPC 1.3 6.6.1, 7.4 para 3",
                      "thread %d returned from its entry function without making collective call "
                      "%u; expected every thread to make the same collective calls",
                      th, (unsigned)seq);
        /* Acquire in peer_ahead: th enters a call before it notifies. */
        if (tupc_calls_peer_ahead(th) && !tupc_reached(tupc_coll_entered(ww->c, r), seq))
            tupc_calls_fail_ahead(th, ww->func);
    }
}

/* A bad entry of perm: out of range (other < 0) or the same as rank
 * other's. */
static _Noreturn void bad_perm(const struct tupc_reloc_form *fm, int me, int thread, int to,
                               int other, int n)
{
    if (!fm->team && other < 0)
        tupc_fail(fm->func, SEC " para 4",
                  "perm[%d] is %d; expected perm to hold the THREADS distinct values 0..%d", me, to,
                  n - 1);
    if (!fm->team)
        tupc_fail(fm->func, SEC " para 4",
                  "perm[%d] and perm[%d] are both %d; expected perm to hold the THREADS distinct "
                  "values 0..%d",
                  me, other, to, n - 1);
    if (other < 0)
        tupc_fail(fm->func, SEC " para 4, on a team",
                  "perm's entry of rank %d (thread %d) is %d; expected the team's ranks 0..%d, "
                  "each once",
                  me, thread, to, n - 1);
    tupc_fail(fm->func, SEC " para 4, on a team",
              "the entries of ranks %d and %d of perm are both %d; expected the team's ranks "
              "0..%d, each once",
              me, other, to, n - 1);
}

#if TUPC_HAVE_MPI
/* A permute posted across processes (mpi/hier_reloc.c on UPC_TEAM_ALL,
 * mpi/team_coll.c on another team): the leader's request finishes
 * MPI_Ialltoallv and the process's copies; every request is done once the
 * post's mark is set. A bad perm is refused at posting (on UPC_TEAM_ALL by
 * the leaders, on another team by every member). */
static __attribute__((noinline)) upc_coll_handle_t
post_across(const struct tupc_reloc_form *fm, const struct tupc_mpi_call *c, tupc_sptr_t dst,
            tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes, int in_place)
{
    struct tupc_team *t = c->team ? c->team : &tupc_team_all_;
    struct tupc_coll_request *r =
        tupc_async_begin(t, tupc_team_rank_in(t, tupc_impl_mythread), c->func, TUPC_NOSYNC);
    void *job;
    tupc_word *mark;
    int bad[3];
    uint32_t p;
    if (c->team) { /* mpi/team_coll.c */
        p = tupc_mpi_team_permute_post(c, dst, src, perm, nbytes, bad, &job, &mark);
    } else {
        p = tupc_mpi_permute_post(c, dst, src, perm, nbytes, in_place, bad, &job);
        mark = tupc_mpi_post_word(p);
    }
    if (!p)
        bad_perm(fm, bad[0], tupc_team_thread_of(t, bad[0]), bad[1], bad[2], tupc_team_n(t));
    return tupc_async_post_also(r, tupc_mpi_post_job, job, mark, p);
}
#endif

static inline __attribute__((always_inline)) upc_coll_handle_t
permute(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
        size_t nbytes, upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    if (in_place)
        src = dst; /* a decoy src is not read; dst first: a refusal names it */
    const struct tupc_reloc_arg a[] = {
        {"dst", dst, 0, 1, 0}, {"src", src, 0, 1, 0}, {"perm", perm, 0, 1, sizeof(int)}};
    /* In place the areas are dst and perm. */
    const struct tupc_reloc_arg a_in_place[] = {{"dst", dst, 0, 1, 0},
                                                {"perm", perm, 0, 1, sizeof(int)}};
    tupc_reloc_begin(&k, fm, flags & ~UPC_IN_PLACE, team, nbytes, in_place ? a_in_place : a,
                     in_place ? 2 : 3,
                     tupc_calls_args("*dst,*src,nbytes,*perm", (uintptr_t)dst.addr,
                                     (uintptr_t)src.addr, nbytes, (uintptr_t)perm.addr, 0, 0),
                     &total);
#if TUPC_HAVE_MPI
    /* Posted on any team (not OUT_ALLSYNC, which runs at posting). */
    if (tupc_reloc_mpi(fm) && (flags & UPC_ASYNC) && k.mpi.out != TUPC_ALLSYNC)
        return post_across(fm, &k.mpi, dst, src, perm, nbytes, in_place);
    int bad[3]; /* perm's bad entry: its index, its value, the equal one's index or -1 */
    TUPC_RELOC_MPI(fm,
                   if (k.mpi.team ? tupc_mpi_team_reloc(&k.mpi, TUPC_MPI_PERMUTE, dst, src, perm,
                                                        nbytes, in_place, bad)
                                  : tupc_mpi_permute(&k.mpi, dst, src, perm, nbytes, in_place, bad))
                       bad_perm(fm, bad[0], k.mpi.team ? tupc_team_thread_of(k.t, bad[0]) : bad[0],
                                bad[1], bad[2], k.mpi.team ? tupc_team_n(k.t) : THREADS));
#endif
    struct tupc_coll *c = &k.c;
    const struct tupc_team *t = k.t;
    const int me = k.me, n = tupc_team_n(t);
    /* perm is shared int * (block size 1): the entry of my thread is here.
     * Read only now: under IN_ALLSYNC any thread may write it up to its own
     * entry (Collectives 1.0 section 3), under IN_MYSYNC this thread up to
     * ours. */
    int to = *(const int *)tupc_reloc_mine(perm);
    if (to < 0 || to >= n)
        bad_perm(fm, me, tupc_impl_mythread, to, -1, n);
    /* Slot seq % SLOTS was last used by call seq - SLOTS, which every member
     * has finished once this returns (usually without waiting). */
    (void)tupc_coll_scratch_claim(c);
    struct tupc_mailbox *mine = tupc_coll_mailbox(c, me);
    struct tupc_mailbox *theirs = tupc_coll_mailbox(c, to);
    /* Relaxed: only claimers read the claim, through this exchange, whose
     * atomicity alone makes the second claimer see the first. */
    uint64_t old = atomic_exchange_explicit(&theirs->claim, (uint64_t)c->seq << 32 | (uint32_t)me,
                                            memory_order_relaxed);
    if ((uint32_t)(old >> 32) == c->seq)
        bad_perm(fm, me, tupc_impl_mythread, to, (int)(uint32_t)old, n);

    if (in_place) { /* at posting too */
        tupc_permute_move(c, tupc_reloc_mine(dst), tupc_reloc_block(t, dst, to), nbytes, to);
    } else {
        tupc_coll_need(c, to);
        tupc_reloc_put(&k, tupc_reloc_block(t, dst, to), tupc_reloc_mine(src), nbytes,
                       tupc_reloc_streams(nbytes, 2 * (size_t)n));
    }
    if (!tupc_reloc_blocking(&k, fm)) /* the completion waits for every member's copy */
        return tupc_reloc_end(&k, TUPC_LEAVE_EVERYONE);
    if (c->out == TUPC_MYSYNC) {
        /* Release (tupc_word_set): publishes the copy above, and wakes our
         * target. */
        tupc_word_set(&theirs->done, c->seq);
        /* Our writer's copy into our dst block, the only access to our data
         * by another member. The slot's done only grows past seq once we
         * have finished seq, so reaching seq means "is seq". Acquire
         * (tupc_wait_checked): the writer's copy is complete and visible. */
        struct writer_wait ww = {c, t, mine, fm->func};
        tupc_wait_checked(&mine->done, c->seq, NULL, writer_lost, &ww);
    }
    /* Every OUT_MYSYNC wait this call needs was the one above. */
    return tupc_reloc_end(&k, TUPC_LEAVE_ALONE);
}

void upc_all_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                     upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_permute(dst, src, perm, nbytes, flags), __func__, nbytes, flags, 0);
    static const struct tupc_reloc_form fm = {__func__, SEC " para 3", SEC " para 6", 0};
    (void)permute(&fm, dst, src, perm, nbytes, flags, UPC_TEAM_ALL);
}

upc_coll_handle_t tupc_team_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
                                    size_t nbytes, upc_flag_t flags, upc_team_t team)
{
    TUPC_TEAM_FORM_ON_ALL(team, flags, "upc_all_permute", __func__,
                          upc_all_permute(dst, src, perm, nbytes, flags));
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_permute(dst, src, perm, nbytes, flags, team),
                      __func__, nbytes, flags, team);
    static const struct tupc_reloc_form fm = {__func__, SEC " para 3, on a team",
                                              SEC " para 6, on a team", 1};
    return permute(&fm, dst, src, perm, nbytes, flags, team);
}
