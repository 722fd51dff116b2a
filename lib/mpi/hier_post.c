/* A posted broadcast across processes (UPC_ASYNC on UPC_TEAM_ALL, hier.h):
 * the call's entry and IN sync at posting, as the blocking call's; the
 * leader posts MPI_Ibcast into its own dst block (on src's process MPI
 * sends from src), and the rest is a job of the leader's request
 * (coll/async.h) that the run's progress thread runs, or the leader in a
 * completion call, once (IN_MYSYNC) the process's threads have entered: it
 * tests the broadcast, yielding between tests, then
 * copies the bytes into the process's other dst blocks and marks the
 * post complete. Every thread's request is ready once that mark is set:
 * its dst is written, and on src's process src is read (OUT_MYSYNC, and
 * more than OUT_NOSYNC asks). So a 16 MiB broadcast moves while the
 * threads compute, as MPI_Ibcast does.
 *
 * The leader posts in call order, as the blocking calls post theirs
 * (every process alike, MPI 3.1 5.12); the job makes no MPI call but
 * MPI_Test. OUT_ALLSYNC, which asks every process's part done, is run
 * as the blocking call at posting instead (an MPI barrier from the job
 * would be a collective outside the call order). */
#include "mpi/hier.h"
#include "mpi/layer.h"

#include "check/error.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A post's job: what the leader's request finishes. */
struct post {
    MPI_Request r;
    uint32_t p;      /* the post's number in this process (on its team) */
    tupc_word *mark; /* set to p once it is complete here */
    const char *buf; /* where the bytes are: src, or the leader's dst block */
    char *dst;       /* dst's block of thread 0 */
    size_t n;
    const int *threads; /* the threads whose dst blocks it writes (NULL: this */
    int nthreads;       /* process's, by number) */
};

void *tupc_hier_post_job_new(const char *func, uint32_t p, tupc_word *mark, const char *buf,
                             char *dst, size_t n, const int *threads, int nthreads)
{
    struct post *j = malloc(sizeof *j);
    if (!j)
        tupc_fail(func, NULL, "out of memory for a posted broadcast");
    *j = (struct post){MPI_REQUEST_NULL, p, mark, buf, dst, n, threads, nthreads};
    return j;
}

MPI_Request *tupc_hier_post_request(void *job)
{
    return &((struct post *)job)->r;
}

tupc_word *tupc_mpi_post_word(uint32_t p)
{
    return &tupc_hier_.posted[p % TUPC_HIER_POSTS];
}

void tupc_mpi_post_job(void *arg, size_t k)
{
    (void)k;
    struct post *j = arg;
    for (;;) {
        int flag = 0;
        MPI_Test(&j->r, &flag, MPI_STATUS_IGNORE);
        if (flag)
            break;
        /* Relaxed: the flag only says that the run is ending, and then
         * nobody waits for this post. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            return;
        sched_yield();
    }
    const size_t S = tupc_impl_partition_size;
    for (int i = 0; i < j->nthreads; i++) {
        const int t = j->threads ? j->threads[i] : tupc_first_thread_ + i;
        char *mine = j->dst + (size_t)t * S;
        if (mine != j->buf)
            memcpy(mine, j->buf, j->n);
    }
    /* Release: every dst block of the process, for the requests' acquire. */
    tupc_word_set(j->mark, j->p);
}

uint32_t tupc_mpi_broadcast_post(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                                 size_t nbytes, void **job)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const int li = tupc_impl_mythread - tupc_first_thread_;
    const uint32_t s = tupc_hier_enter(c, me), p = ++me->posts;
    *job = NULL;
    if (li == 0) {
        const int root = tupc_mpi_rank_of(src.thread), at_root = root == tupc_mpi_rank_;
        char *lead = dst.addr + (size_t)tupc_first_thread_ * tupc_impl_partition_size;
        /* The post that last used p's mark is complete (its requests may
         * still be outstanding: their marks stay reached), and the
         * process's threads have read the leader's dst of every earlier
         * call. */
        if (p > TUPC_HIER_POSTS)
            tupc_wait_peer(tupc_mpi_post_word(p), p - TUPC_HIER_POSTS, TUPC_NO_PEER, c->func);
        tupc_hier_wait_done(c->func, s - 1);
        if (at_root) {
            tupc_hier_wait_entered(c, (int)(src.thread - (uint32_t)tupc_first_thread_), s);
            tupc_mpi_sync(); /* puts from other processes into src, in this process's view */
        }
        struct post *j =
            tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), at_root ? src.addr : lead,
                                   dst.addr, nbytes, NULL, tupc_local_threads_);
        MPI_Ibcast(at_root ? src.addr : lead, tupc_hier_count(c->func, nbytes), MPI_BYTE, root,
                   tupc_hier_.comm, &j->r);
        /* The job writes the process's other dst blocks: under IN_MYSYNC
         * not before their threads enter (while the bytes move). */
        for (int t = 1; t < tupc_local_threads_; t++)
            tupc_hier_wait_entered(c, t, s);
        *job = j;
    }
    /* The call's numbers as every call's; no OUT sync here (the requests'). */
    struct tupc_mpi_call nosync = *c;
    nosync.out = TUPC_NOSYNC;
    tupc_hier_leave(&nosync, me, s);
    return p;
}
