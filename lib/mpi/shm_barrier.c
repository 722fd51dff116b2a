/* The barrier across the processes of one node, in memory they share.
 *
 * Where every process of the job is on this node, a barrier needs no MPI
 * call: the processes map one small shared-memory object and meet there as the threads of one
 * process meet in sync/barrier.c. The last arriving thread of each process leaves the process's
 * fold of the checks (barrier.c) in the process's slot and adds one to the node's count of
 * arrivals; the process whose add brings the count to a multiple of the processes completes the
 * episode: it folds every slot into the result of the episode's parity and publishes the episode in
 * `done`, which the departing threads read.
 *
 * Nobody waits during arrival, so upc_notify stays split from upc_wait,
 * and no process has to be inside a call for an episode to complete,
 * where MPI's non-blocking collectives (the path across nodes, barrier.c)
 * complete only while each process polls them: one atomic add per process
 * and a load per waiter, against MPI_Barrier's messages.
 *
 * The counters are C11 atomics on memory mapped into several processes:
 * lock-free atomics are address-free (C11 7.17.5), so they order the
 * processes' accesses as they order threads'. Without lock-free 64-bit
 * atomics, or where the object cannot be made, the path across nodes is
 * taken instead. */
#include "mpi/layer.h"

#include <fcntl.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64

struct seg {
    alignas(LINE) _Atomic uint64_t arrivals; /* process arrivals of the run */
    alignas(LINE) _Atomic uint32_t done;     /* the last complete episode */
    /* The fold of episode e in result[e % 2]: a thread reads it after its
     * departure from e, and episode e+2 cannot complete before every
     * thread has arrived at e+1, after that read. */
    alignas(LINE) struct tupc_mpi_li result[2][TUPC_MPI_NVALS];
};

/* A process's fold of its threads' arrivals. One slot is enough: the
 * process writes the next one only once the episode is complete, after
 * the completer's reads. */
struct slot {
    alignas(LINE) struct tupc_mpi_li v[TUPC_MPI_NVALS];
};

static struct seg *seg;
static size_t seg_len;
static struct slot *slots;
static int nprocs, mine;
static uint64_t arrivals; /* this process's, under barrier.c's lock */

int tupc_mpi_shm_start(MPI_Comm node, char *err, size_t len)
{
    (void)err;
    (void)len;
    int size, rank, fd = -1;
    MPI_Comm_size(node, &size);
    MPI_Comm_rank(node, &rank);
    size_t need = sizeof(struct seg) + (size_t)size * sizeof(struct slot);
    /* A POSIX shared-memory object of our own, not MPI_Win_allocate_shared:
     * with Open MPI the library keeps osc to ucx (mpi/proc.c says why),
     * which makes no shared windows (MPI_ERR_INTERN). Rank 0 names it; it
     * is unlinked once every process has it mapped, so a job that dies
     * leaves nothing behind after that. */
    char name[64] = "";
    if (rank == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        snprintf(name, sizeof name, "/tupc-barrier-%ld-%lx", (long)getpid(),
                 (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20));
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0 && ftruncate(fd, (off_t)need) != 0) { /* nothing left behind */
            shm_unlink(name);
            close(fd);
            fd = -1;
        }
        if (fd < 0)
            name[0] = '\0';
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, node);
    if (rank != 0 && name[0])
        fd = shm_open(name, O_RDWR, 0);
    void *m = fd >= 0 ? mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd);
    int ok = m != MAP_FAILED && ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node);
    if (rank == 0 && name[0])
        shm_unlink(name);
    if (!all) { /* every process takes the path across nodes */
        if (m != MAP_FAILED)
            munmap(m, need);
        return 0;
    }
    /* Zeros (ftruncate's) are the counts' start: nobody arrives before
     * the Allreduce above, which every process has left mapped. */
    seg = m;
    seg_len = need;
    slots = (struct slot *)(seg + 1);
    nprocs = size;
    mine = rank;
    arrivals = 0;
    return 1;
}

void tupc_mpi_shm_stop(void)
{
    if (seg)
        munmap(seg, seg_len);
    seg = NULL;
}

void tupc_mpi_shm_arrive(const struct tupc_mpi_li *fold, uint32_t e)
{
    memcpy(slots[mine].v, fold, sizeof slots[mine].v);
    arrivals++;
    /* acq_rel. Release: the slot, and this process's memory before its
     * threads arrived, go to whoever completes. Acquire, for the
     * completer: each earlier add is a release whose sequence the later
     * adds continue (C11 5.1.2.4), so all the slots are visible to it. */
    uint64_t before = atomic_fetch_add_explicit(&seg->arrivals, 1, memory_order_acq_rel);
    /* The arrivals at episode n take the count from (n-1) * P to n * P:
     * no process arrives at n+1 before n is complete. */
    if (before + 1 != arrivals * (uint64_t)nprocs)
        return;
    struct tupc_mpi_li *r = seg->result[e % 2];
    tupc_mpi_li_reset(r);
    for (int p = 0; p < nprocs; p++)
        for (int k = 0; k < TUPC_MPI_NVALS; k++)
            tupc_mpi_li_fold(&r[k], slots[p].v[k].v, slots[p].v[k].i);
    /* Release: the result and every process's memory before its arrival
     * (through the acquire above) to the departers' acquire. */
    atomic_store_explicit(&seg->done, e, memory_order_release);
}

const struct tupc_mpi_li *tupc_mpi_shm_result(uint32_t e)
{
    /* Acquire: the completer's release of the result. */
    uint32_t d = atomic_load_explicit(&seg->done, memory_order_acquire);
    return (int32_t)(d - e) >= 0 ? seg->result[e % 2] : NULL;
}
