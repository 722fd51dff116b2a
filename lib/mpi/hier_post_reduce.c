/* Reductions posted across processes (UPC_ASYNC on UPC_TEAM_ALL, every
 * operator but UPC_NONCOMM_FUNC, not OUT_ALLSYNC): upc_all_reduceT's and
 * upc_all_reduce_allT's work as a job of the leader's request, so that
 * the fold of a large src runs while the threads compute.
 *
 * At posting each thread makes the call's entry and IN sync as the
 * blocking call; the leader, once every thread of its process has entered
 * under IN_MYSYNC (the job reads their elements and writes their dst),
 * records the job. The job (the run's progress thread, or a waiter) folds
 * each local thread's elements in index order and combines the threads in
 * thread order, as the blocking call's threads and leader do; it sends
 * that partial to the processes that combine (dst's for a reduction, all
 * for reduce_all) and, on those, receives the others' and combines them in
 * process order, then writes dst and sets the post's mark, which every
 * thread's request waits for.
 *
 * The partials are messages on a communicator of their own, tagged by the
 * post's number (the same in every process: every thread makes the same
 * calls), not a non-blocking collective: a job posts them whenever it
 * runs, and collectives posted from jobs would have to start in the same
 * order in every process, which the jobs do not (a waiter runs its own
 * request's first). A job that waits for a partial runs other queued
 * chunks meanwhile, so that a process whose only runner waits in a later
 * post's job still sends this one's partial. The order of the combination
 * is fixed for a fixed THREADS and process count, so are floating-point
 * results; they may differ from the blocking call's in the last bits, as
 * MPI's own reduction groups the processes its own way. */
#include "mpi/hier.h"
#include "mpi/layer.h"

#include "check/error.h"
#include "coll/async.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Posts in flight are at most TUPC_HIER_POSTS per process, and a process
 * runs at most that many ahead of another's receives (its mark ring waits
 * for its own earlier posts, each of which waited for the partials it
 * combines); MPI matches equal tags from one sender in order. */
#define TAGS 32768

struct red_post {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    tupc_sptr_t dst, src;
    size_t nelems, B;
    int every; /* reduce_all: every process combines */
    int root;  /* a reduction's: dst's process */
    uint32_t p;
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

/* Waits for the n messages of r, running queued chunks meanwhile; 0 if
 * the run stops first (nobody waits for the post then). */
static int finish(MPI_Request *r, int n)
{
    for (;;) {
        /* One by one: a finished request becomes MPI_REQUEST_NULL, which
         * tests done (MPICH's MPI_STATUSES_IGNORE trips gcc's bounds
         * check in MPI_Testall). */
        int all = 1;
        for (int i = 0; i < n; i++) {
            int flag = 0;
            MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
            all &= flag;
        }
        if (all)
            return 1;
        /* Relaxed: the flag only says that the run is ending. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            return 0;
        if (!tupc_async_help_any_())
            sched_yield();
    }
}

void tupc_mpi_reduce_post_job(void *arg, size_t k)
{
    (void)k;
    struct red_post *j = arg;
    const int P = tupc_procs_, me = tupc_mpi_rank_, tag = (int)(j->p % TAGS);
    const int combines = j->every || me == j->root;
    j->at[me] = fold_process(j);
    int n = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        if (j->every || q == j->root)
            MPI_Isend(&j->at[me], (int)sizeof j->at[me], MPI_BYTE, q, tag, tupc_hier_.partials,
                      &j->r[n++]);
        if (combines)
            MPI_Irecv(&j->at[q], (int)sizeof j->at[q], MPI_BYTE, q, tag, tupc_hier_.partials,
                      &j->r[n++]);
    }
    if (!finish(j->r, n))
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
        for (int t = 0; all.has && j->every && t < tupc_local_threads_; t++)
            memcpy(j->dst.addr + (size_t)(tupc_first_thread_ + t) * tupc_impl_partition_size,
                   &all.v, j->ty->size);
    }
    /* Release: dst, for the requests' acquire. */
    tupc_word_set(tupc_mpi_post_word(j->p), j->p);
}

uint32_t tupc_mpi_reduce_post(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                              int every, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                              size_t nelems, size_t blk_size, void (*f)(void), void **job)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me), p = ++me->posts;
    *job = NULL;
    if (tupc_impl_mythread == tupc_first_thread_) {
        /* The post that last used p's mark is complete here. */
        if (p > TUPC_HIER_POSTS)
            tupc_wait_peer(tupc_mpi_post_word(p), p - TUPC_HIER_POSTS, TUPC_NO_PEER, c->func);
        for (int t = 1; t < tupc_local_threads_; t++)
            tupc_hier_wait_entered(c, t, s); /* its elements, and its dst */
        const size_t P = (size_t)tupc_procs_;
        struct red_post *j = malloc(sizeof *j + P * sizeof j->at[0] + 2 * P * sizeof j->r[0]);
        if (!j)
            tupc_fail(c->func, NULL, "out of memory for a posted reduction");
        *j = (struct red_post){.ty = ty,
                               .op = op,
                               .f = (tupc_red_fn)f,
                               .dst = dst,
                               .src = src,
                               .nelems = nelems,
                               .B = blk_size,
                               .every = every,
                               .root = tupc_mpi_rank_of(dst.thread),
                               .p = p,
                               .r = (MPI_Request *)(j->at + P)};
        *job = j;
    }
    /* The call's numbers as every call's; no OUT sync here (the requests'). */
    struct tupc_mpi_call nosync = *c;
    nosync.out = TUPC_NOSYNC;
    tupc_hier_leave(&nosync, me, s);
    return p;
}
