/* Barriers across processes: upc_notify is a local arrival, the last of
 * the process's threads to arrive arrives for the process, and upc_wait
 * waits for every process's arrival.
 *
 * Where every process is on one node, the processes meet in memory they
 * share (shm_barrier.c), without MPI. Across nodes the last arriver starts
 * one MPI_Iallreduce for the process. The non-blocking collective keeps
 * upc_notify from waiting for anyone (UPC 1.3 6.6.1). Every process posts
 * the same one for every episode: a blocking collective does not match a
 * non-blocking one (MPI 3.1 5.12), and two threads of one episode may
 * arrive through upc_barrier and upc_notify. Where the last arriver
 * departs at once (upc_barrier, the library's barriers: `whole`) it waits
 * for the reduction with MPI_Wait then and there, rather than in the
 * backing-off loop of the departure, where every thread has a CPU
 * (block_ok): MPI_Wait polls without yielding (MPICH always).
 * TUPC_MPI_BARRIER=mpi takes that path on one node too (its tests, and a
 * comparison).
 *
 * Either way the arrivals carry the checks of the barrier: MAXLOC over
 * (id, thread), (-id, thread), (kind, thread) and (-kind, thread) gives
 * the largest and the smallest named id and kind of arrival with a thread
 * that gave each, so that unequal ids (para 10) and a user barrier met by
 * a library call name a thread, as in one process. The threads of this
 * process fold theirs in under the process's lock first.
 *
 * MPI is called under that lock only (the Iallreduce and a whole
 * barrier's MPI_Wait by the last arriver, MPI_Test by whichever waiter
 * holds it), so no two threads ever touch the request at once. */
#include "mpi/layer.h"

#include "check/error.h"
#include "runtime/config.h"
#include "runtime/placement.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int arrived;                               /* this process's arrivals at the episode */
static struct tupc_mpi_li acc[TUPC_MPI_NVALS];    /* their fold */
static struct tupc_mpi_li out[2][TUPC_MPI_NVALS]; /* the job's, of episode e in out[e % 2] */
static MPI_Request req = MPI_REQUEST_NULL;
static uint32_t started;      /* the episode whose reduction runs, under lock */
static _Atomic uint32_t done; /* the last episode complete */

static int shm;           /* the processes meet in shared memory */
static MPI_Comm bar_comm; /* the reductions' own (not shm), so that nothing else meets them */
static unsigned long long posted; /* reductions this process posted in the run */
/* The last episode this process's threads all arrived at (shm). */
static _Atomic uint32_t here_arrived;
/* The last episode a thread of this process arrived at by upc_notify alone
 * (split phase): it may compute before its upc_wait. */
static _Atomic uint32_t split_at;
static MPI_Comm node; /* this node's processes */

/* Whether a whole barrier's last arriver may block in MPI_Wait (see the
 * top): only where every thread of the nodes' processes has a CPU of its
 * own. MPI_Wait polls without yielding (MPICH always), so with more
 * threads than CPUs the waiting processes take the CPUs from the ones they
 * wait for (mpi_coll at 3 x 2 on 2 CPUs ran past 120 s); there the
 * backing-off waits of the departure stay. One decision for the job. */
static int block_ok;
/* Whether no run of the job may stop early (the condition of block_ok
 * without the CPUs): an MPI call that yields may block then. */
static int stop_safe;
/* Whether every node holds more processes than CPUs (where Open MPI
 * yields in its blocking calls). */
static int node_oversubscribed;
/* Whether no other process of the node runs on this process's CPUs. */
static int own_cpus;

int tupc_mpi_node_oversubscribed(void)
{
    return node_oversubscribed;
}

int tupc_mpi_own_cpus(void)
{
    return own_cpus;
}

int tupc_mpi_may_block(int yields)
{
    return yields ? stop_safe : block_ok;
}

/* The CPUs the node's processes may use, together: the union of their
 * affinities (a Slurm cgroup or a taskset around mpirun holds fewer than
 * the node has online), else the node's online CPUs. *same: every process
 * of the node may use all of them (the launcher bound none), and the
 * union is in *all. */
static long node_cpus(cpu_set_t *all, int *same)
{
    cpu_set_t set;
    int ok = sched_getaffinity(0, sizeof set, &set) == 0, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, node);
    *same = 0;
    if (all_ok) {
        unsigned char bits[sizeof set];
        memcpy(bits, &set, sizeof bits);
        MPI_Allreduce(MPI_IN_PLACE, bits, (int)sizeof bits, MPI_UNSIGNED_CHAR, MPI_BOR, node);
        memcpy(all, bits, sizeof bits);
        int mine = CPU_EQUAL(&set, all);
        MPI_Allreduce(&mine, same, 1, MPI_INT, MPI_MIN, node);
        if (CPU_COUNT(all) > 0)
            return CPU_COUNT(all);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* Where every process of the node may use the same CPUs and they divide
 * evenly among the processes, each process's threads are pinned to a
 * share of its own by the rule that pins one process's threads
 * (tupc_place_index; other counts stay unpinned). Left to the
 * scheduler, 2 x 2 on 2 CPUs put the two leaders on one CPU in some runs
 * (their MPI calls then take turns): an 8-byte gather_all took 29 us
 * there, 11-13 us with each process on a CPU of its own, and the unpinned
 * runs went either way (9 or 28 us; tests/mpi/bench_loop, both MPIs).
 * Where the launcher bound the processes (--bind-to core, a taskset per
 * rank) it placed them: nothing changes. */
static int share_node(const cpu_set_t *all, long ncpu, int on_node)
{
    const int L = tupc_local_threads_, k = (int)(ncpu / on_node);
    if (tupc_config_.placement == TUPC_PLACE_NONE || on_node < 2 || ncpu % on_node != 0 ||
        tupc_place_index(0, L, k) < 0)
        return 0;
    /* The threads of every process of the node, by node rank: this
     * process pins its own; the others' CPUs keep its posted calls'
     * progress thread (coll/async.c) off their shares. Threads are
     * numbered by MPI rank, L per process. */
    int me, cpu_at[CPU_SETSIZE]; /* the union's CPUs in order */
    MPI_Comm_rank(node, &me);
    for (int c = 0, i = 0; c < CPU_SETSIZE && i < ncpu; c++)
        if (CPU_ISSET(c, all))
            cpu_at[i++] = c;
    int *q = malloc(sizeof *q * 2 * (size_t)on_node);
    if (!q)
        return 0; /* unpinned: the scheduler places them */
    int *rank_of = q + on_node;
    MPI_Group node_group, all_group;
    MPI_Comm_group(node, &node_group);
    MPI_Comm_group(tupc_mpi_comm_, &all_group);
    for (int i = 0; i < on_node; i++)
        q[i] = i;
    MPI_Group_translate_ranks(node_group, on_node, q, all_group, rank_of);
    MPI_Group_free(&node_group);
    MPI_Group_free(&all_group);
    for (int i = 0; i < on_node; i++)
        for (int j = 0; j < L; j++)
            tupc_run_.cpu_of_thread[rank_of[i] * L + j] = cpu_at[i * k + tupc_place_index(j, L, k)];
    free(q);
    const int from = cpu_at[me * k], to = cpu_at[me * k + k - 1];
    if (tupc_config_.verbose && from == to)
        fprintf(stderr,
                "tupc: the node's %d processes share its %ld CPUs: this process's %d threads "
                "pinned to CPU %d\n",
                on_node, ncpu, L, from);
    else if (tupc_config_.verbose)
        fprintf(stderr,
                "tupc: the node's %d processes share its %ld CPUs: this process's %d threads "
                "pinned to CPUs %d to %d\n",
                on_node, ncpu, L, from, to);
    return 1;
}

/* Shares the node's CPUs out where every process may use them all (same),
 * and returns whether no other process of the node runs on this process's
 * CPUs: it is alone on the node, every process's share is pinned, or the
 * launcher bound the processes to sets that do not overlap (their sizes add
 * up to the union's, cpus). Agreed on the node: a process that did not pin
 * (TUPC_PLACEMENT=none in its environment, or no memory) or could not read
 * its affinity leaves its threads free to run on the others' CPUs. */
static int place_on_node(const cpu_set_t *all, long cpus, int same, int on_node)
{
    if (same) {
        int pinned = share_node(all, cpus, on_node) || on_node == 1, every;
        MPI_Allreduce(&pinned, &every, 1, MPI_INT, MPI_MIN, node);
        return every;
    }
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    int v[2] = {n, n > 0 ? 0 : 1}, sum[2]; /* CPUs, and processes that could not say */
    MPI_Allreduce(v, sum, 2, MPI_INT, MPI_SUM, node);
    return sum[1] == 0 && sum[0] == cpus;
}

void tupc_mpi_backoff(unsigned n, int own)
{
    if (own && n < TUPC_MPI_OWN_SPIN)
        tupc_cpu_relax();
    else
        tupc_backoff(n);
}

int tupc_mpi_barrier_start(char *err, size_t len)
{
    int on_node = 1, all_here;
    if (MPI_Comm_split_type(tupc_mpi_comm_, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS) {
        snprintf(err, len, "cannot find the processes of this node (MPI_Comm_split_type)");
        return -1;
    }
    MPI_Comm_size(node, &on_node);
    const char *how = getenv("TUPC_MPI_BARRIER");
    int want = !(how && strcmp(how, "mpi") == 0);
    /* One decision for the job: the same environment everywhere is not
     * promised. */
    MPI_Allreduce(&want, &all_here, 1, MPI_INT, MPI_MIN, tupc_mpi_comm_);
    shm = 0;
    if (all_here && on_node == tupc_procs_) {
        shm = tupc_mpi_shm_start(node, err, len);
        if (shm < 0)
            return -1;
    }
    if (!shm)
        MPI_Comm_dup(tupc_mpi_comm_, &bar_comm);
    posted = 0;
    /* The process's threads on the CPUs it may use, and the node's on the
     * node's (each process may be bound to CPUs of its own). The progress
     * thread sleeps between its calls: not counted. */
    cpu_set_t all;
    int same;
    long cpus = node_cpus(&all, &same);
    own_cpus = place_on_node(&all, cpus, same, on_node);
    if (tupc_config_.verbose)
        fprintf(stderr, own_cpus
                            ? "tupc: no other process of the node runs on this process's CPUs\n"
                            : "tupc: other processes of the node may run on this process's CPUs\n");
    /* A run that may stop early (return_on_error, or upc_global_exit
     * outside tupc_main: mpi/stop.c) never blocks: the other processes
     * may never post the reduction waited for. */
    int mine[3] = {tupc_run_.main_mode && !tupc_run_.return_on_error, 0,
                   on_node > (cpus > 0 ? cpus : 1)};
    mine[1] = mine[0] && tupc_local_threads_ <= tupc_run_.cpus &&
              (long)on_node * tupc_local_threads_ <= (cpus > 0 ? cpus : 1);
    /* The threads that compete for this process's CPUs: its own, or its
     * share of the node's where the processes share the node's CPUs (by
     * THREADS, as tupc_run counted them, a job of 2 nodes of 16 threads on
     * 16 CPUs each yielded and napped in every wait, and a progress thread
     * never ran where CPUs were free). Per process: no agreement needed. */
    const long online = cpus > 0 ? cpus : 1;
    const long share = ((long)on_node * tupc_local_threads_ * tupc_run_.cpus + online - 1) / online;
    tupc_run_.crowd = (int)(share > tupc_local_threads_ ? share : tupc_local_threads_);
    /* Naps only where more than two threads share a CPU: at 2 x 2 on 2
     * CPUs a nap (10 us asked, up to 60 with the timer slack) outlived
     * most waits for the leader, whose MPI call waits in turn for the
     * other process's leader to get its CPU; 8-byte gather_all took 23-35
     * us with naps and 11-28 without (Open MPI), 43-134 and 15.5 (MPICH).
     * At 2 x 4 the naps paid (20-33 us against 16-37). */
    tupc_wait_tune(tupc_run_.crowd > tupc_run_.cpus, tupc_run_.crowd > 2 * tupc_run_.cpus);
    if (tupc_run_.crowd > tupc_run_.cpus)
        tupc_mpi_progress_crowded();
    int agreed[3];
    MPI_Allreduce(mine, agreed, 3, MPI_INT, MPI_MIN, tupc_mpi_comm_);
    stop_safe = agreed[0];
    block_ok = agreed[1];
    node_oversubscribed = agreed[2];
    arrived = 0;
    started = 0;
    atomic_store_explicit(&here_arrived, 0, memory_order_relaxed); /* before the threads */
    atomic_store_explicit(&split_at, 0, memory_order_relaxed);
    tupc_mpi_li_reset(acc);
    /* Relaxed: the UPC threads start after this (pthread_create orders it). */
    atomic_store_explicit(&done, 0, memory_order_relaxed);
    return 0;
}

void tupc_mpi_barrier_stop(void)
{
    if (shm) {
        tupc_mpi_shm_stop();
    } else {
        /* A run that stopped early may have left a process one reduction
         * ahead of the others: they post it, so that every one completes. */
        unsigned long long most;
        MPI_Allreduce(&posted, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, tupc_mpi_comm_);
        for (; posted < most; posted++) { /* non-blocking: it meets an Iallreduce */
            struct tupc_mpi_li scratch[TUPC_MPI_NVALS];
            MPI_Request r;
            tupc_mpi_li_reset(scratch);
            MPI_Iallreduce(MPI_IN_PLACE, scratch, TUPC_MPI_NVALS, MPI_LONG_INT, MPI_MAXLOC,
                           bar_comm, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        if (req != MPI_REQUEST_NULL)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Comm_free(&bar_comm);
    }
    MPI_Comm_free(&node);
}

/* The kind of an arrival, alike in every process: 1 for a user's barrier,
 * else a hash of the library function's name (not its address, which
 * differs between processes). */
static long kind_of(int user, const char *func)
{
    if (user)
        return 1;
    unsigned long h = 5381;
    for (const char *c = func; *c; c++)
        h = h * 33 + (unsigned char)*c;
    return 2 + (long)(h & 0x3fffffff);
}

/* Episode e is complete, its reduction in out[e % 2]; under the lock. */
static void complete(uint32_t e)
{
    /* What the other processes put here before they arrived. */
    tupc_mpi_sync();
    /* Release: the departers' acquire of done (tupc_mpi_depart). */
    atomic_store_explicit(&done, e, memory_order_release);
}

void tupc_mpi_arrive(const char *func, int user, int named, int whole, int id, uint32_t e)
{
    int me = tupc_impl_mythread;
    long kind = kind_of(user, func);
    pthread_mutex_lock(&lock);
    if (named) {
        tupc_mpi_li_fold(&acc[TUPC_MPI_ID_MAX], id, me);
        tupc_mpi_li_fold(&acc[TUPC_MPI_ID_MIN], -(long)id, me);
    }
    tupc_mpi_li_fold(&acc[TUPC_MPI_KIND_MAX], kind, me);
    tupc_mpi_li_fold(&acc[TUPC_MPI_KIND_MIN], -kind, me);
    /* Relaxed: read after here_arrived's acquire, which this lock's
     * release of the last arrival orders after this store. */
    if (!whole)
        atomic_store_explicit(&split_at, e, memory_order_relaxed);
    if (++arrived == tupc_local_threads_) {
        arrived = 0;
        /* This process's writes before the barrier are complete (every
         * put is flushed when it returns) and in its window's view. */
        tupc_mpi_sync();
        if (shm) {
            /* Release, before the process's arrival: see poll_shm. */
            atomic_store_explicit(&here_arrived, e, memory_order_release);
            tupc_mpi_shm_arrive(acc, e);
            tupc_mpi_li_reset(acc);
            pthread_mutex_unlock(&lock);
            return;
        }
        memcpy(out[e % 2], acc, sizeof acc);
        tupc_mpi_li_reset(acc);
        MPI_Iallreduce(MPI_IN_PLACE, out[e % 2], TUPC_MPI_NVALS, MPI_LONG_INT, MPI_MAXLOC, bar_comm,
                       &req);
        posted++;
        started = e;
        if (whole && block_ok) {
            /* The other threads of the process wait in depart, which finds
             * the lock taken until this completes. */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            tupc_mpi_polled();
            complete(e);
        }
    }
    pthread_mutex_unlock(&lock);
}

static _Noreturn void mismatch(const char *func, int id, long other, int thread)
{
    tupc_fail(func, "UPC 1.3 6.6.1 para 10",
              "barrier id %d differs from id %ld that thread %d passed to upc_notify; "
              "expected every named id of a barrier phase to be equal",
              id, other, thread);
}

/* Episode e's fold of every process, or NULL while it is not complete. */
static const struct tupc_mpi_li *poll_shm(uint32_t e)
{
    const struct tupc_mpi_li *r = tupc_mpi_shm_result(e);
    if (!r)
        return NULL;
    /* Acquire: the writes of this process's threads before they arrived.
     * The chain through the process that completed the episode orders
     * them already (C11 atomics are address-free), but a race detector
     * sees one process only; this edge is one it sees, and it costs a
     * load. The episode is complete, so the store of e is in place. */
    (void)atomic_load_explicit(&here_arrived, memory_order_acquire);
    tupc_mpi_sync(); /* what the other processes put here before they arrived */
    return r;
}

static const struct tupc_mpi_li *poll_mpi(uint32_t e)
{
    /* Acquire: the completer's release of out[e % 2] and of every write
     * the process's threads made before they arrived. */
    if ((int32_t)(atomic_load_explicit(&done, memory_order_acquire) - e) >= 0)
        return out[e % 2];
    if (pthread_mutex_trylock(&lock) == 0) {
        int flag = 0;
        if (started == e && (int32_t)(atomic_load_explicit(&done, memory_order_relaxed) - e) < 0)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        tupc_mpi_polled();
        if (flag)
            complete(e);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* Waits until episode e is complete; func names the wait for the hang
 * watchdog once it naps. */
static const struct tupc_mpi_li *await(const char *func, uint32_t e)
{
    struct tupc_wait_event ev = {func, -1, 0};
    /* On CPUs of the process's own, once every thread of the process has
     * arrived at a whole barrier, a yield would only hand the CPU to one of
     * them, which waits for the same episode and yields it back: poll a
     * while first (not after a split-phase arrival: that thread may be
     * computing before its upc_wait). */
    const int own = own_cpus && shm;
    for (unsigned n = 0;; n++) {
        const struct tupc_mpi_li *r = shm ? poll_shm(e) : poll_mpi(e);
        if (r) {
            if (n > 4096)
                tupc_wait_napped(&ev);
            return r;
        }
        /* Relaxed: the flag only says that the run is ending. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            tupc_thread_leave();
        if (n < 4096) {
            /* Acquire: the last local arrival's release in tupc_mpi_arrive,
             * so that split_at's store before it is seen. */
            tupc_mpi_backoff(
                n,
                own && n < TUPC_MPI_OWN_SPIN &&
                    (int32_t)(atomic_load_explicit(&here_arrived, memory_order_acquire) - e) >= 0 &&
                    atomic_load_explicit(&split_at, memory_order_relaxed) != e);
        } else { /* a long wait (a process computes): no core taken from it */
            if (n == 4096)
                tupc_wait_napping(&ev);
            nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
            tupc_mpi_idle(); /* where no progress thread does (TUPC_MPI_PROGRESS=0) */
        }
    }
}

void tupc_mpi_depart(const char *func, int named, int id, uint32_t e)
{
    const struct tupc_mpi_li *r = await(func, e);
    if (r[TUPC_MPI_KIND_MAX].v != -r[TUPC_MPI_KIND_MIN].v) {
        int a = r[TUPC_MPI_KIND_MAX].i, b = r[TUPC_MPI_KIND_MIN].i;
        tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3",
                  "thread %d is in %s while thread %d is in %s; expected every thread to reach "
                  "the same barriers and library calls",
                  a, r[TUPC_MPI_KIND_MAX].v == 1 ? "a upc_barrier or upc_notify" : "a library call",
                  b,
                  -r[TUPC_MPI_KIND_MIN].v == 1 ? "a upc_barrier or upc_notify" : "a library call");
    }
    if (named && r[TUPC_MPI_ID_MAX].v != LONG_MIN) {
        if (r[TUPC_MPI_ID_MAX].v != id)
            mismatch(func, id, r[TUPC_MPI_ID_MAX].v, r[TUPC_MPI_ID_MAX].i);
        if (-r[TUPC_MPI_ID_MIN].v != id)
            mismatch(func, id, -r[TUPC_MPI_ID_MIN].v, r[TUPC_MPI_ID_MIN].i);
    }
}
