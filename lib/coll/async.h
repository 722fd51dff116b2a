/* Asynchronous collectives (Extended Collectives 0.3 section 4 item 7,
 * 5.4): a posting call does its checks, its entry (the IN sync) and reads
 * its arguments as the blocking call would, but instead of copying it
 * records its copies as chunks of a request and returns the request as its
 * handle. Anybody may then execute a chunk: the run's progress thread,
 * which sleeps while nothing is posted, and the owner when it waits or
 * tests. A request is done when its last chunk is; the completing call
 * returns once the OUT sync holds: the owner's part done (OUT_NOSYNC), or
 * every member's part of the same operation (OUT_MYSYNC, OUT_ALLSYNC: a
 * member's data may be touched by any member's part). docs/design.md,
 * "Asynchronous collectives", says why it is built this way. */
#ifndef TUPC_COLL_ASYNC_H
#define TUPC_COLL_ASYNC_H

#include "coll/handle.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "sync/wait.h"

#include <upc_collective_ext.h>

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Requests a member may have outstanding on one team. */
#define TUPC_ASYNC_MAX 256

/* A copy of n bytes from src to dst, or, when job is set, a call of
 * job(dst, n) (a piece of a reduction, coll/reduce_team.c). */
struct tupc_async_chunk {
    char *dst;
    const char *src;
    size_t n;
    void (*job)(void *arg, size_t k);
    int (*step)(void *arg); /* a job in steps (tupc_async_add_steps) */
};

struct tupc_coll_request {
    /* index + 1 of the newest request of this slot whose chunks are all
     * done: monotonic (a slot holds requests index, index + MAX, ...). */
    _Alignas(TUPC_CACHELINE) _Atomic uint32_t done;
    _Atomic uint32_t next; /* chunks claimed */
    _Atomic uint32_t left; /* chunks not done */
    /* Written by the owner before the request is posted, read-only after
     * (the queue's lock, or the owner itself, orders them). */
    _Alignas(TUPC_CACHELINE) uint32_t nchunks;
    uint32_t index; /* the owner's count of posts on the team, from 0 */
    int streams;    /* copy with streaming stores */
    enum tupc_sync out;
    struct tupc_team *team;
    int owner; /* the owner's thread */
    const char *func;
    struct tupc_async_chunk *chunk;
    uint32_t cap;
    void *job_arg; /* a job's argument: freed when the slot is reused */
    /* Across processes: the word that must also reach also_at before the
     * request is done (mpi/hier_post.c); NULL for none. Owner only. */
    tupc_word *also;
    uint32_t also_at;
    int active;                      /* owner only: posted and not completed */
    upc_coll_handle_t handle;        /* owner only: its handle (coll/handle.h) */
    struct tupc_coll_request *qnext; /* under the queue's lock */
    int queued;                      /* under the queue's lock */
    /* A job in steps between two of its steps, parked (under the queue's
     * lock): the request's chunk `parked_k`, in the list of parked jobs. */
    struct tupc_coll_request *pnext;
    uint32_t parked_k;
};

/* A member's requests on a team: a row of TUPC_ASYNC_MAX, made by the
 * member at its first post (NULL before), indexed by its count of posts
 * modulo TUPC_ASYNC_MAX; `posted` is that count. Both written by the
 * member alone, with release, for the others' acquire loads. */
struct tupc_async_member {
    _Alignas(TUPC_CACHELINE) _Atomic(struct tupc_coll_request *) row;
    _Atomic uint32_t posted;
};

/* A team's members' requests, by rank. */
struct tupc_async_ring {
    struct tupc_async_member *member;
};

/* Whether member j of r's team has done its part of r's operation
 * (acquire: its copies are visible), and whether it has posted it. */
static inline int tupc_async_peer_done(const struct tupc_coll_request *r, int j)
{
    const struct tupc_async_ring *a = atomic_load_explicit(&r->team->async, memory_order_acquire);
    const struct tupc_coll_request *row =
        atomic_load_explicit(&a->member[j].row, memory_order_acquire);
    return row && tupc_reached(atomic_load_explicit(&row[r->index % TUPC_ASYNC_MAX].done,
                                                    memory_order_acquire),
                               r->index + 1);
}

static inline int tupc_async_peer_posted(const struct tupc_coll_request *r, int j)
{
    const struct tupc_async_ring *a = atomic_load_explicit(&r->team->async, memory_order_acquire);
    return tupc_reached(atomic_load_explicit(&a->member[j].posted, memory_order_acquire),
                        r->index + 1);
}

/* Takes this member's next request on team t (rank `rank`) for a posting
 * call of func, whose completion runs the OUT sync `out`. Fails, naming
 * func, when TUPC_ASYNC_MAX of this member's requests on t are still
 * outstanding. */
struct tupc_coll_request *tupc_async_begin(struct tupc_team *t, int rank, const char *func,
                                           enum tupc_sync out);

/* Records a copy of n bytes from src to dst, to be made later, with
 * streaming stores if `streams` (as the blocking call would). */
void tupc_async_add(struct tupc_coll_request *r, void *dst, const void *src, size_t n, int streams);

/* Records a call of job(arg, k), to be made once, later, by whoever runs
 * r's chunks, maybe at the same time as r's other jobs: it must not need
 * the calling thread (it may run on another). arg (from malloc, the same
 * for every job of r) is r's until r's slot is reused or its team freed. */
void tupc_async_add_job(struct tupc_coll_request *r, void (*job)(void *arg, size_t k), void *arg,
                        size_t k);

/* Records a job in steps: step(arg) is called, later, by whoever runs
 * queued chunks, again and again until it returns 1; between two calls it
 * is parked, and the runners take parked jobs in turn. A step never waits
 * for another job (another process's included): it returns 0 to be called
 * again, so that jobs never wait inside each other (coll/async.c). arg as
 * tupc_async_add_job's, but a step that ends with TUPC_ASYNC_KEEP_ARG
 * (done) leaves arg allocated for good: a stopped run's send that MPI may
 * still read from it. */
enum { TUPC_ASYNC_KEEP_ARG = 2 };
void tupc_async_add_steps(struct tupc_coll_request *r, int (*step)(void *arg), void *arg);

/* Posts r (its copies go to the progress thread) and returns it as the
 * caller's handle. */
upc_coll_handle_t tupc_async_post(struct tupc_coll_request *r);

/* Posts r, posted across processes (mpi/): its one job (if job is not
 * NULL) runs fn(job, 0); r is done once *also reaches at as well. */
upc_coll_handle_t tupc_async_post_also(struct tupc_coll_request *r, void (*fn)(void *arg, size_t k),
                                       void *job, tupc_word *also, uint32_t at);

/* For the completion calls (complete.c): the word that counts completed
 * requests; the owner's help with its own chunks, and with any queued
 * chunk (0 when there was none); and the removal of a request from the
 * queue before its owner reuses it. */
tupc_word *tupc_async_done_word_(void);
void tupc_async_help_(struct tupc_coll_request *r, uint32_t most);
int tupc_async_help_any_(void);
void tupc_async_unqueue_(struct tupc_coll_request *r);

/* The rescue of posted work that nobody runs, for a thread that polls
 * (the MPI layer's progress thread, a barrier's long wait): where no
 * progress thread runs the queue (no CPU free for one), queued chunks and
 * parked steps run only in completion calls, and a process whose threads
 * all wait in a barrier that another process reaches only after its own
 * completion call, which waits for a message from this process's job,
 * would wait forever (a legal order: completion calls are not collective).
 * Once no chunk or step has started for STALL_NS, runs one: 1 if it ran
 * one. Cheap to call often. */
int tupc_async_help_stalled(void);

/* Fails, naming func, when member `rank` has requests outstanding on t
 * (tupc_team_free). tupc_async_check_end: 1 and a message in buf when a
 * thread returned with requests outstanding on any team. */
void tupc_async_check_free(struct tupc_team *t, int rank, const char *func);
int tupc_async_check_end(int threads, char *buf, size_t len);

/* Frees team t's requests (when the team is freed, or the run ends). */
void tupc_async_team_free(struct tupc_team *t);

/* Chooses the progress thread's CPUs, before the UPC threads start. */
void tupc_async_init(void);

/* Ends the run's progress thread and frees UPC_TEAM_ALL's requests. */
void tupc_async_fini(void);

#endif
