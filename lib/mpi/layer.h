/* The MPI layer (built with -Dmpi=enabled): THREADS across processes.
 *
 * `mpirun -np P prog -n T` runs T UPC threads in each of P processes:
 * THREADS = P * T, MYTHREAD = rank * T + the thread's index in its process.
 * The shared heap is mapped at the same address in every process, each
 * backing only its own threads' partitions, so a pointer-to-shared means
 * the same byte everywhere; another process's bytes are reached through
 * one MPI-3 window over each process's partitions (passive target, locked
 * once). With one process (P = 1) none of this is used: the single-process
 * paths run as they do without MPI. docs/design.md, "Across processes". */
#ifndef TUPC_MPI_LAYER_H
#define TUPC_MPI_LAYER_H

#include <upc.h>

#include <limits.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- proc.c: the processes ---------------------------------------------- */

/* The library's own communicator (a duplicate of MPI_COMM_WORLD, so that
 * none of its messages meets the program's) and this process's rank. */
extern MPI_Comm tupc_mpi_comm_;
extern int tupc_mpi_rank_;

/* Starts MPI once per process (MPI_THREAD_MULTIPLE) and agrees on the run:
 * *threads is this process's count in and THREADS out; every process must
 * ask the same threads and heap size. Sets tupc_procs_, the first thread
 * and the local count. 0, or -1 with a message in err. */
int tupc_mpi_start(int *threads, size_t heap, char *err, size_t len);
/* Ends the whole job with `status`, after the message is printed. */
_Noreturn void tupc_mpi_abort(int status);
/* The MPI rank of thread t's process. */
int tupc_mpi_rank_of(uint32_t t);

/* ---- stop.c: a run that stops early, and the job's status -------------- */

/* Stops the other processes' runs (return_on_error, or upc_global_exit
 * outside tupc_main): `status` as tupc_stop_run takes it, `line` the
 * error's report ("" for none). Once per process and run. */
void tupc_mpi_stop_others(int status, const char *line);
/* Stops this process's run where another process's stop has arrived. */
void tupc_mpi_stop_poll(void);
/* At the end of a run, collective: the run's status on every process, a
 * stop's (`stopped`, tupc_end_.status's value; 0 where none here) if any
 * process stopped, else that of the lowest-numbered thread that failed
 * (first_failed, INT_MAX where none here), else 0. `line` gets the first
 * stop line this process received ("" for none). */
int tupc_mpi_run_status(int stopped, int first_failed, int status, char *line, size_t len);

/* ---- window.c: the heap's mapping and the RMA window --------------------- */

/* The window over each process's partitions, at byte displacements from
 * its first partition (the benchmark compares raw MPI on it). */
extern MPI_Win tupc_mpi_win_;

/* Maps len bytes at one address in every process (collective), with the
 * bytes [mine, mine + mine_len) readable and writable here, the rest not. */
int tupc_mpi_map_heap(size_t len, size_t mine, size_t mine_len, char **base, char *err,
                      size_t errlen);
/* The windows of a run, over this process's partitions (collective). */
int tupc_mpi_window_start(char *err, size_t len);
void tupc_mpi_window_stop(void);

/* n bytes between here and addr in thread t's partition, complete at the
 * target when the call returns. */
void tupc_mpi_get(void *dst, uint32_t t, const char *addr, size_t n);
void tupc_mpi_put(uint32_t t, char *addr, const void *src, size_t n);
/* Compare-and-swap of the 64-bit word at addr of thread t: the old value. */
uint64_t tupc_mpi_cas(uint32_t t, char *addr, uint64_t expected, uint64_t desired);
/* Compare-and-swap of the strict lock word of process `rank` (a word of
 * the run's own window, changed only so): the old value. */
uint64_t tupc_mpi_strict_cas(int rank, uint64_t expected, uint64_t desired);
/* Completes this process's transfers and syncs its view of its window
 * (UPC's fence, at barriers and locks too), and lets MPI progress. */
void tupc_mpi_fence(void);
/* The fence's memory side alone: for a caller inside an MPI call that
 * progresses anyway (a barrier's reduction). */
void tupc_mpi_sync(void);
/* Lets MPI progress the transfers that other processes make to this one. */
void tupc_mpi_progress(void);
/* A UPC thread has just let MPI progress (a test in a poll, a blocking
 * call): the progress thread's ticks lengthen while they do (window.c).
 * Relaxed: a count that only has to change; two threads that store the
 * same value lose nothing, since the count changed. */
extern _Atomic unsigned long tupc_mpi_polls_;
static inline void tupc_mpi_polled(void)
{
    atomic_store_explicit(&tupc_mpi_polls_,
                          atomic_load_explicit(&tupc_mpi_polls_, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}
/* What a thread that polls runs besides: the progress thread on every
 * tick, a long wait (tupc_mpi_idle) between naps. Set by the launcher
 * (the rescue of stalled posted work, coll/async.h) once the layer it
 * belongs to has started, cleared before that layer stops: clearing
 * waits for a run in progress to end. */
void tupc_mpi_set_idle_work(int (*work)(void));
/* MPI's progress and the idle work: for a thread that waits long. */
void tupc_mpi_idle(void);
/* The progress thread ticks every 200 us instead of 20 unless
 * TUPC_MPI_PROGRESS says: for a process whose CPUs are crowded. */
void tupc_mpi_progress_crowded(void);
/* Offset in upc_global_alloc's region of a new block of len bytes in every
 * partition, or SIZE_MAX when the region is full (rank 0 counts them). */
size_t tupc_mpi_global_offset(size_t len);

/* The partition's regions across processes: upc_all_alloc's arena (kept
 * alike in every process) below sym_end, upc_global_alloc's blocks from
 * there to local_from, upc_alloc's from there up to the end. */
extern size_t tupc_mpi_sym_end_;
extern size_t tupc_mpi_local_from_;
void tupc_mpi_regions(size_t part);

/* ---- barrier.c ----------------------------------------------------------- */

/* What a barrier's arrivals carry for its checks, folded with MAXLOC
 * (MPI_LONG_INT's layout): the largest and smallest named id and kind of
 * arrival, each with a thread that gave it (barrier.c). */
struct tupc_mpi_li {
    long v;
    int i;
};
enum { TUPC_MPI_ID_MAX, TUPC_MPI_ID_MIN, TUPC_MPI_KIND_MAX, TUPC_MPI_KIND_MIN, TUPC_MPI_NVALS };

/* MAXLOC as MPI does it: the larger value, and on a tie the lower index. */
static inline void tupc_mpi_li_fold(struct tupc_mpi_li *a, long v, int i)
{
    if (v > a->v || (v == a->v && i < a->i))
        *a = (struct tupc_mpi_li){v, i};
}

/* MAXLOC's identity in each of a fold's values. */
static inline void tupc_mpi_li_reset(struct tupc_mpi_li *a)
{
    for (int k = 0; k < TUPC_MPI_NVALS; k++)
        a[k] = (struct tupc_mpi_li){LONG_MIN, INT_MAX};
}

int tupc_mpi_barrier_start(char *err, size_t len);
void tupc_mpi_barrier_stop(void);
/* Whether a thread may wait for other processes inside a blocking MPI call:
 * never in a run that may stop early (the others may never make the call
 * waited for); and where the call polls without yielding (`yields` 0),
 * only where every thread of the node's processes has a CPU. One answer
 * for the job, from tupc_mpi_barrier_start. */
int tupc_mpi_may_block(int yields);
/* Whether every node of the job holds more processes than CPUs (from
 * tupc_mpi_barrier_start, one answer for the job). */
int tupc_mpi_node_oversubscribed(void);
/* Whether no other process of this node runs on this process's CPUs (it is
 * alone there, its share of the node's CPUs is pinned, or the launcher
 * bound the processes to sets that do not overlap); from
 * tupc_mpi_barrier_start. */
int tupc_mpi_own_cpus(void);
/* The polls a wait on CPUs of the process's own makes before it backs off,
 * where a yield would only hand the CPU to a thread of the process that
 * waits for the same thing (the leader's MPI call, the barrier's other
 * processes); the bound keeps a thread that computes from waiting long for
 * the CPU. */
#define TUPC_MPI_OWN_SPIN 512
/* One step of such a wait: a pause while `own` (the process's CPUs are its
 * own and the wait is one of those) and n < TUPC_MPI_OWN_SPIN, else the
 * backoff of every wait (tupc_backoff). */
void tupc_mpi_backoff(unsigned n, int own);
/* Episode e of this thread: arrival (user: a user's barrier, named and id
 * as the statement gave them, whole: this thread departs at once) and
 * departure. */
void tupc_mpi_arrive(const char *func, int user, int named, int whole, int id, uint32_t e);
void tupc_mpi_depart(const char *func, int named, int id, uint32_t e);

/* ---- shm_barrier.c: the barrier's meeting in the node's shared memory ---- */

/* Where `node` (this node's processes) holds every process of the job: 1
 * once the segment is shared, 0 where it cannot be (the path across nodes
 * then), -1 with a message in err. Collective over `node`. */
int tupc_mpi_shm_start(MPI_Comm node, char *err, size_t len);
void tupc_mpi_shm_stop(void);
/* The process's fold for episode e, by its last arriving thread. */
void tupc_mpi_shm_arrive(const struct tupc_mpi_li *fold, uint32_t e);
/* Episode e's fold of every process, or NULL while it is not complete. */
const struct tupc_mpi_li *tupc_mpi_shm_result(uint32_t e);

/* ---- lock.c: upc_lock_t across processes --------------------------------- */

upc_lock_t *tupc_mpi_global_lock_alloc(void);
upc_lock_t *tupc_mpi_all_lock_alloc(void);
void tupc_mpi_lock_free(const char *func, upc_lock_t *l);
void tupc_mpi_lock(upc_lock_t *l);
int tupc_mpi_lock_attempt(upc_lock_t *l);
void tupc_mpi_unlock(upc_lock_t *l);
/* A strict access to an object wider than a word, under the strict lock
 * of the process that owns p (heap/strict.c). */
void tupc_mpi_strict_copy(void *local, tupc_sptr_t p, size_t n, int put);

/* ---- access.c: upc_mem* across processes --------------------------------- */

void tupc_mpi_memcpy(tupc_sptr_t dst, tupc_sptr_t src, size_t n);
void tupc_mpi_memget(void *dst, tupc_sptr_t src, size_t n);
void tupc_mpi_memput(tupc_sptr_t dst, const void *src, size_t n);
void tupc_mpi_memset(tupc_sptr_t dst, int c, size_t n);

/* ---- hier.c, hier_reloc.c, hier_prefix.c: the collectives of UPC 1.3 -----
 *
 * Across processes each runs in two phases: the process's threads meet its
 * leader in memory, the leaders meet in an MPI collective (hier.c says how
 * each sync mode is kept). The caller has checked the arguments as the
 * single-process path does. */

/* A call: its function, flags, the signature of its single-valued
 * arguments (check/calls.h records it) and its parsed sync modes. */
struct tupc_team;
struct tupc_mpi_call {
    const char *func;
    unsigned flags;
    uint64_t args;
    int in, out;            /* enum tupc_sync */
    struct tupc_team *team; /* a team form's (mpi/team.h); NULL for the 1.3 functions */
};
struct tupc_red_type;

/* The leaders' communicator and the reductions' MPI ops (collective). */
int tupc_mpi_hier_start(char *err, size_t len);
void tupc_mpi_hier_stop(void);
void tupc_mpi_broadcast(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                        size_t nbytes);
void tupc_mpi_scatter(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                      size_t nbytes);
void tupc_mpi_gather(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                     size_t nbytes);
void tupc_mpi_gather_all(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                         size_t nbytes);
/* In place (UPC_IN_PLACE): src is dst. */
void tupc_mpi_exchange(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                       size_t nbytes, int in_place);
/* 0, or -1 for a bad entry of perm: bad[0] its index, bad[1] its value,
 * bad[2] the index of an equal entry or -1 for one out of range (the
 * caller words the error). */
int tupc_mpi_permute(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                     tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3]);
/* Every operator but UPC_NONCOMM_FUNC, which tupc_mpi_reduce_ordered takes. */
void tupc_mpi_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty, tupc_sptr_t dst,
                     tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void));
/* UPC_NONCOMM_FUNC: every block's total combined in index order. */
void tupc_mpi_reduce_ordered(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                             tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                             size_t blk_size, void (*f)(void));
/* upc_all_reduce_allT (0.3): the same bits in every dst[i]. */
void tupc_mpi_reduce_all(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                         tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                         size_t blk_size, void (*f)(void));
void tupc_mpi_prefix_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                            tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                            size_t blk_size, void (*f)(void), int in_place, int excl);
struct tupc_word;
/* A relocalization posted on UPC_TEAM_ALL (UPC_ASYNC, not OUT_ALLSYNC;
 * verb: mpi/team.h's enum tupc_mpi_team_verb, a broadcast, scatter,
 * gather, gather_all or exchange, in place too), hier_post.c: the entry and
 * IN sync, and on the leader the non-blocking MPI collective, whose rest
 * is *job (NULL elsewhere), to run once as tupc_mpi_post_job(*job, 0).
 * Returns p: every thread's part is done once tupc_mpi_post_word(p)
 * reaches p. */
uint32_t tupc_mpi_reloc_post(const struct tupc_mpi_call *c, int verb, tupc_sptr_t dst,
                             tupc_sptr_t src, size_t nbytes, void **job);
void tupc_mpi_post_job(void *arg, size_t k);
/* A permute posted on UPC_TEAM_ALL (hier_reloc.c), as tupc_mpi_reloc_post:
 * p, or on the leader 0 with bad[] as tupc_mpi_permute gives it (the
 * caller refuses the call); its job runs as tupc_mpi_post_job. */
uint32_t tupc_mpi_permute_post(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                               tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3],
                               void **job);
/* A reduction (every 0) or reduce_all (1) posted (UPC_ASYNC, not
 * OUT_ALLSYNC, not UPC_NONCOMM_FUNC), hier_post_reduce.c, on
 * UPC_TEAM_ALL (c->team NULL), or on c->team where
 * tupc_mpi_team_reduce_posts says so: the entry and IN sync, and on the
 * leader *job (NULL elsewhere), to run once as
 * tupc_mpi_reduce_post_job(*job, 0); every member's part is done once
 * *mark reaches the result. */
uint32_t tupc_mpi_reduce_post(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                              int every, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                              size_t nelems, size_t blk_size, void (*f)(void), void **job,
                              struct tupc_word **mark);
void tupc_mpi_reduce_post_job(void *arg, size_t k);
/* By blocks (hier_post_blocks.c), on UPC_TEAM_ALL or, where
 * tupc_mpi_team_reduce_posts says so, on c->team: a reduction (what 0) or
 * reduce_all (2) with UPC_NONCOMM_FUNC, or a prefix reduction (1,
 * exclusive with excl; in place where src is dst) whose dst and src share
 * their layout; every block's total combined in index order, as the
 * blocking call's general path does. *job to run once as
 * tupc_mpi_reduce_blocks_job(*job, 0); *mark as tupc_mpi_reduce_post's. */
uint32_t tupc_mpi_reduce_post_blocks(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                     int what, int excl, tupc_sptr_t dst, tupc_sptr_t src,
                                     upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void),
                                     void **job, struct tupc_word **mark);
void tupc_mpi_reduce_blocks_job(void *arg, size_t k);
/* Frees the buffers that finished posts left for the next ones (the run's
 * end, run.c: every post is complete). */
void tupc_mpi_post_drop_spares(void);
struct tupc_word *tupc_mpi_post_word(uint32_t p);
/* Calls fn(arg, index, address, run) for each run of the elements of array
 * p (shared [B], elements of es bytes) below m that have affinity to this
 * thread, in index order. */
void tupc_mpi_my_runs(tupc_sptr_t p, size_t m, size_t B, size_t es,
                      void (*fn)(void *, size_t, char *, size_t), void *arg);

/* ---- refuse.c ------------------------------------------------------------ */

/* What part 1 does not carry across processes (a collective). */
_Noreturn void tupc_mpi_refuse(const char *func, const char *what);

#endif
