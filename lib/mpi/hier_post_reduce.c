/* Reductions posted across processes (UPC_ASYNC, every operator but
 * UPC_NONCOMM_FUNC, not OUT_ALLSYNC): upc_all_reduceT's and
 * upc_all_reduce_allT's work as a job of the leader's request, so that
 * the fold of a large src runs while the threads compute. On UPC_TEAM_ALL,
 * and on another team where every process that holds an element of src
 * (and a reduction's dst) holds a member (tupc_mpi_team_reduce_posts).
 *
 * At posting each thread makes the call's entry and IN sync as the
 * blocking call; the leader, once every member of its process has entered
 * under IN_MYSYNC (the job reads their elements and writes their dst),
 * records the job. The job (the run's progress thread, or a waiter) folds
 * the elements of each thread of its process, member or not, in index
 * order and combines the threads in thread order; it sends that partial
 * to the processes that combine (dst's for a reduction, all for
 * reduce_all) and, on those, receives the others' and combines them in
 * process order (the team communicator's), then writes dst (a
 * reduce_all's: each member's here) and sets the post's mark, which every
 * member's request waits for.
 *
 * The partials are messages, tagged by the post's number (the same in
 * every process: every member makes the same calls), on a communicator
 * that carries no other message (UPC_TEAM_ALL's: tupc_hier_.partials; a
 * team's: its own, whose other traffic is collective, which MPI keeps
 * apart), not a non-blocking collective: a job posts them whenever it
 * runs, and collectives posted from jobs would have to start in the same
 * order in every process, which the jobs do not (a waiter runs its own
 * request's first). A job that waits for a partial runs other queued
 * chunks meanwhile, so that a process whose only runner waits in a later
 * post's job still sends this one's partial. The order of the combination
 * is fixed for a fixed THREADS, team and process count, so are
 * floating-point results; they may differ from the blocking call's in the
 * last bits, as MPI's own reduction groups the processes its own way. */
#include "mpi/hier.h"
#include "mpi/layer.h"
#include "mpi/team.h"

#include "check/error.h"
#include "coll/async.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct red_post {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    tupc_sptr_t dst, src;
    size_t nelems, B;
    int every; /* reduce_all: every process combines */
    struct tupc_hier_where w;
    MPI_Request *r;             /* 2 (P - 1), after at */
    struct tupc_hier_pair at[]; /* by process */
};

/* The process's partial: each local thread's fold, in thread order. */
static struct tupc_hier_pair fold_process(const struct red_post *j)
{
    struct tupc_hier_pair acc = {0}, part;
    for (int t = 0; t < tupc_local_threads_; t++) {
        const uint32_t th = (uint32_t)(tupc_first_thread_ + t);
        if (!tupc_hier_holds(th, j->src, j->nelems, j->B))
            continue;
        tupc_hier_fold(j->ty, j->op, j->f, th, j->src, j->nelems, j->B, &part);
        if (part.has && acc.has)
            j->ty->combine(j->op, j->f, &acc.v, &part.v);
        else if (part.has)
            acc = part;
    }
    return acc;
}

int tupc_hier_test_msgs(MPI_Request *r, int n)
{
    /* One by one: a finished request becomes MPI_REQUEST_NULL, which tests
     * done (MPICH's MPI_STATUSES_IGNORE trips gcc's bounds check in
     * MPI_Testall). */
    int all = 1;
    for (int i = 0; i < n; i++) {
        int flag = 0;
        MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
        all &= flag;
    }
    tupc_mpi_polled();
    /* A message that never comes: the other process may have stopped, and
     * with no progress thread (TUPC_MPI_PROGRESS=0), or one that rests
     * while the threads poll, nobody else looks. Every 64th test that finds
     * them not in, as tupc_hier_finish's long waits look: each look is one
     * more MPI call (MPI_Improbe) on a job's wait. */
    static _Thread_local unsigned misses;
    if (!all && ++misses % 64 == 0)
        tupc_mpi_stop_poll();
    return all;
}

int tupc_hier_drop_msgs(MPI_Request *r, int n)
{
    /* A cancelled receive completes at once, so MPI writes nothing into
     * the job's memory once it is freed; a send that cannot be cancelled
     * waits for a receive that will never be posted (the other processes
     * stop too, and the stopped run's communicators are never freed, so
     * that no later run meets its messages: tupc_mpi_hier_stop): it is
     * given to MPI. A large send (past the eager limit) whose receive
     * matched before the receiver cancelled is still being read, by MPI
     * or by the receiver itself (Open MPI's single copy): its buffer must
     * outlive it, and so the caller keeps it. */
    for (int i = 0; i < n; i++)
        if (r[i] != MPI_REQUEST_NULL)
            MPI_Cancel(&r[i]);
    for (int k = 0; k < 1000 && !tupc_hier_test_msgs(r, n); k++)
        sched_yield();
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (r[i] != MPI_REQUEST_NULL) {
            MPI_Request_free(&r[i]);
            kept++;
        }
    return kept;
}

int tupc_hier_post_msgs(MPI_Request *r, int n)
{
    while (!tupc_hier_test_msgs(r, n)) {
        /* Relaxed: the flag only says that the run is ending. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            return tupc_hier_drop_msgs(r, n) ? -1 : 0;
        if (!tupc_async_help_any_())
            sched_yield();
    }
    return 1;
}

void tupc_mpi_reduce_post_job(void *arg, size_t k)
{
    (void)k;
    struct red_post *j = arg;
    const int P = j->w.P, me = j->w.me, tag = (int)(j->w.p % TUPC_HIER_TAGS);
    const int combines = j->every || me == j->w.root;
    j->at[me] = fold_process(j);
    int n = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        if (j->every || q == j->w.root)
            MPI_Isend(&j->at[me], (int)sizeof j->at[me], MPI_BYTE, q, tag, j->w.comm, &j->r[n++]);
        if (combines)
            MPI_Irecv(&j->at[q], (int)sizeof j->at[q], MPI_BYTE, q, tag, j->w.comm, &j->r[n++]);
    }
    if (tupc_hier_post_msgs(j->r, n) <= 0) /* the job's memory lives as long as the request */
        return;
    if (combines) {
        struct tupc_hier_pair all = {0};
        for (int q = 0; q < P; q++) {
            if (j->at[q].has && all.has)
                j->ty->combine(j->op, j->f, &all.v, &j->at[q].v);
            else if (j->at[q].has)
                all = j->at[q];
        }
        if (all.has && !j->every) /* none: dst is left as it was */
            memcpy(j->dst.addr, &all.v, j->ty->size);
        for (int i = 0; all.has && j->every && i < j->w.nd; i++)
            memcpy(j->dst.addr + (size_t)j->w.dth[i] * tupc_impl_partition_size, &all.v,
                   j->ty->size);
    }
    /* Release: dst, for the requests' acquire. */
    tupc_word_set(j->w.mark, j->w.p);
}

/* The job of a post whose partials go as w says. */
static struct red_post *job_new(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                int every, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                size_t nelems, size_t blk_size, void (*f)(void),
                                const struct tupc_hier_where *w)
{
    const size_t n = (size_t)w->P;
    struct red_post *j = malloc(sizeof *j + n * sizeof j->at[0] + 2 * n * sizeof(MPI_Request));
    if (!j)
        tupc_fail(c->func, NULL, "out of memory for a posted reduction");
    *j = (struct red_post){.ty = ty, .op = op, .f = (tupc_red_fn)f, .dst = dst, .src = src};
    j->nelems = nelems;
    j->B = blk_size;
    j->every = every;
    j->w = *w;
    j->r = (MPI_Request *)(j->at + n);
    return j;
}

/* UPC_TEAM_ALL's posting start: the call's number *s and the post's *p;
 * 1 on the leader, once p's mark is free and under IN_MYSYNC every thread
 * here has entered (its elements, and its dst). */
static int all_begin(const struct tupc_mpi_call *c, uint32_t *s, uint32_t *p)
{
    struct tupc_hier_member *me = tupc_hier_me();
    *s = tupc_hier_enter(c, me);
    *p = ++me->posts;
    if (tupc_impl_mythread != tupc_first_thread_)
        return 0;
    /* The post that last used p's mark is complete here. */
    if (*p > TUPC_HIER_POSTS)
        tupc_wait_peer(tupc_mpi_post_word(*p), *p - TUPC_HIER_POSTS, TUPC_NO_PEER, c->func);
    for (int t = 1; t < tupc_local_threads_; t++)
        tupc_hier_wait_entered(c, t, *s); /* its elements, and its dst */
    return 1;
}

int tupc_hier_post_red_begin(const struct tupc_mpi_call *c, tupc_sptr_t dst,
                             struct tupc_hier_posting *ps, struct tupc_hier_where *w)
{
    if (!c->team) {
        const int leader = all_begin(c, &ps->s, &ps->p);
        ps->mark = tupc_mpi_post_word(ps->p);
        *w = (struct tupc_hier_where){.comm = tupc_hier_.partials,
                                      .P = tupc_procs_,
                                      .me = tupc_mpi_rank_,
                                      .root = tupc_mpi_rank_of(dst.thread),
                                      .dth = tupc_mpi_team_all_->lthread,
                                      .nd = tupc_local_threads_,
                                      .mark = ps->mark,
                                      .p = ps->p};
        return leader;
    }
    tupc_mpi_team_post_begin(c, 1, &ps->tp);
    const struct tupc_mpi_team *g = c->team->mpi;
    ps->p = ps->tp.p;
    ps->mark = ps->tp.mark;
    *w = (struct tupc_hier_where){.comm = g->comm,
                                  .P = g->P,
                                  .me = ps->tp.rank,
                                  .root = g->of_proc[tupc_mpi_rank_of(dst.thread)],
                                  .dth = g->lthread,
                                  .nd = g->L,
                                  .mark = ps->mark,
                                  .p = ps->p,
                                  .of_proc = g->of_proc};
    return ps->tp.leader;
}

void tupc_hier_post_red_end(const struct tupc_mpi_call *c, const struct tupc_hier_posting *ps)
{
    if (c->team) {
        tupc_mpi_team_post_end(c, &ps->tp);
        return;
    }
    /* The call's numbers as every call's; no OUT sync here (the requests'). */
    struct tupc_mpi_call nosync = *c;
    nosync.out = TUPC_NOSYNC;
    tupc_hier_leave(&nosync, tupc_hier_me(), ps->s);
}

uint32_t tupc_mpi_reduce_post(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                              int every, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                              size_t nelems, size_t blk_size, void (*f)(void), void **job,
                              tupc_word **mark)
{
    struct tupc_hier_posting ps;
    struct tupc_hier_where w;
    *job = tupc_hier_post_red_begin(c, dst, &ps, &w)
               ? job_new(c, ty, every, dst, src, op, nelems, blk_size, f, &w)
               : NULL;
    tupc_hier_post_red_end(c, &ps);
    *mark = ps.mark;
    return ps.p;
}

int tupc_mpi_team_reduce_posts(const struct tupc_mpi_call *c, int every, tupc_sptr_t dst,
                               tupc_sptr_t src, size_t nelems, size_t blk_size)
{
    const struct tupc_mpi_team *g = c->team->mpi;
    /* The job makes no RMA call: the elements and dst it touches lie in
     * processes of the team. Every process decides alike. */
    if (!every && g->of_proc[tupc_mpi_rank_of(dst.thread)] < 0)
        return 0;
    for (uint32_t t = 0; t < (uint32_t)THREADS; t++)
        if (g->of_proc[tupc_mpi_rank_of(t)] < 0 && tupc_hier_holds(t, src, nelems, blk_size))
            return 0;
    return 1;
}
