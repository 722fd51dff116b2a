/* The processes of a run across MPI: start, agreement on the run, abort.
 *
 * MPI_THREAD_MULTIPLE: every UPC thread issues its own gets, puts and
 * atomics, at once; a lock around MPI in tupc would serialize them all,
 * which MPICH and Open MPI already do where they must. Both Debian MPIs
 * provide it; a library that does not is refused at start. */
#include "mpi/layer.h"

#include "runtime/runtime.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

MPI_Comm tupc_mpi_comm_ = MPI_COMM_NULL;
int tupc_mpi_rank_;
int tupc_procs_ = 1;
int tupc_impl_first_thread;
int tupc_impl_local_threads;

/* The process that started MPI: a child it forked (a test of an exit
 * status) exits without finalizing its parent's MPI, which would wait for
 * the launcher forever. */
static pid_t mpi_pid;

static void finalize(void)
{
    if (getpid() != mpi_pid)
        return;
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

static int init_once(char *err, size_t len)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited) {
#ifdef OPEN_MPI
        /* Open MPI 4.1 picks osc/rdma over the vader BTL on one node, whose
         * emulated compare-and-swap to the caller's own rank crashes, and
         * osc/pt2pt over TCP, which refuses MPI_THREAD_MULTIPLE; osc/ucx
         * does both right. A choice of the user's (OMPI_MCA_osc) stays. */
        setenv("OMPI_MCA_osc", "ucx", 0);
#endif
        int provided;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
            snprintf(err, len, "MPI_Init_thread failed");
            return -1;
        }
        mpi_pid = getpid();
        atexit(finalize);
        if (provided < MPI_THREAD_MULTIPLE) {
            snprintf(err, len,
                     "this MPI provides thread level %d, not MPI_THREAD_MULTIPLE; expected an MPI "
                     "built with thread support (every UPC thread calls MPI)",
                     provided);
            return -1;
        }
    }
    if (tupc_mpi_comm_ == MPI_COMM_NULL) {
        MPI_Comm_dup(MPI_COMM_WORLD, &tupc_mpi_comm_);
        MPI_Comm_rank(tupc_mpi_comm_, &tupc_mpi_rank_);
    }
    return 0;
}

int tupc_mpi_start(int *threads, size_t heap, char *err, size_t len)
{
    if (init_once(err, len) != 0)
        return -1;
    int procs;
    MPI_Comm_size(tupc_mpi_comm_, &procs);
    tupc_procs_ = procs;
    int t = *threads;
    if (procs == 1) {
        tupc_impl_first_thread = 0;
        tupc_impl_local_threads = t;
        return 0;
    }
    /* Every process must run the same threads with the same partitions:
     * the mapping from thread to process and the heap's layout are
     * computed alike everywhere. */
    unsigned long long mine[2] = {(unsigned long long)t, heap}, lo[2], hi[2];
    MPI_Allreduce(mine, lo, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, tupc_mpi_comm_);
    MPI_Allreduce(mine, hi, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, tupc_mpi_comm_);
    if (lo[0] != hi[0] || lo[1] != hi[1]) {
        snprintf(err, len,
                 "the processes ask %llu to %llu threads and %llu to %llu heap bytes per thread; "
                 "expected the same -n (or UPC_THREADS) and UPC_SHARED_HEAP_SIZE in every process",
                 lo[0], hi[0], lo[1], hi[1]);
        return -1;
    }
    if ((long long)t * procs > TUPC_MAX_THREADS) {
        snprintf(err, len, "%d processes x %d threads is more than TUPC_MAX_THREADS (%d)", procs, t,
                 TUPC_MAX_THREADS);
        return -1;
    }
    tupc_impl_first_thread = tupc_mpi_rank_ * t;
    tupc_impl_local_threads = t;
    *threads = t * procs;
    return 0;
}

/* How long the output of a failing process is given to reach the
 * launcher. MPICH's mpiexec (hydra) kills every proxy once a rank calls
 * MPI_Abort; on a loaded machine a proxy could be killed before it had
 * forwarded the message the rank wrote just before (CI saw a job end with
 * status 1 and no line at all). */
#define ABORT_GRACE_NS 200000000L

_Noreturn void tupc_mpi_abort(int status)
{
    fflush(NULL);
    struct timespec grace = {0, ABORT_GRACE_NS};
    nanosleep(&grace, NULL);
    MPI_Abort(MPI_COMM_WORLD, status);
    exit(status); /* MPI_Abort does not return; the compiler does not know */
}

int tupc_mpi_rank_of(uint32_t t)
{
    return (int)(t / (uint32_t)tupc_impl_local_threads);
}
