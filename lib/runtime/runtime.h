/* State of the current run, shared by the modules of the library. */
#ifndef TUPC_RUNTIME_H
#define TUPC_RUNTIME_H

#include <upc.h>

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>

/* The check level of the run (TUPC_CHECKS, tupc_options.checks): what the
 * collectives verify beyond what keeps the library itself sound. */
enum tupc_check_level { TUPC_CHECK_OFF, TUPC_CHECK_DEFAULT, TUPC_CHECK_FULL };

struct tupc_run_state {
    int threads; /* THREADS of the run */
    int cpus;    /* CPUs the process may use */
    /* Threads that compete for those CPUs: THREADS in one process; across
     * processes this process's own, or its share of its node's where the
     * processes there share CPUs (mpi/barrier.c), whichever is more. */
    int crowd;
    int active;          /* a run is in progress */
    int return_on_error; /* errors end the run, not the process */
    int quiet;           /* errors are not printed */
    int main_mode;       /* started by the library's main: exit() ends the process */
    size_t heap_size;    /* bytes per partition */
    int *cpu_of_thread;  /* -1 where not pinned */
    int *node_of_thread; /* NUMA node of each thread (0 without NUMA) */
    /* Threads that have returned from their entry function: a flag per
     * thread, set after the thread's last store to any counter. */
    _Atomic int *gone;
};

/* Written before the UPC threads start and after they end; read-only while
 * they run (pthread_create and pthread_join order those accesses). */
extern struct tupc_run_state tupc_run_;

/* Two more parameters of the run, kept apart from tupc_run_ because every
 * collective's inlined checks read them: as fields of tupc_run_ they made
 * the 8-byte NO|NO upc_all_broadcast 13% slower (0.91 -> 1.04 of 7452e8c,
 * bench_small, the same instructions). Set before the UPC threads start;
 * read-only while they run. The check level (TUPC_CHECKS,
 * tupc_options.checks), and where the shared heap starts (tupc_impl.h has
 * each partition's size), set by heap/heap.c, so that the modules below
 * the heap (the call ledger's messages) can place an address without
 * calling up into it. */
extern int tupc_checks_;
extern char *tupc_heap_base_;

/* How the run ends, written while it runs. */
struct tupc_run_end {
    /* Whether the run is being stopped (an error or upc_global_exit
     * elsewhere); waits check it so that no thread hangs on a thread that
     * is gone. Set after status, the status given by the first
     * tupc_stop_run (INT_MIN for upc_global_exit(0)), 0 while nobody
     * stopped the run. */
    _Atomic int stopping, status;
    _Atomic int gone; /* how many threads have returned (tupc_run_.gone) */
    /* Threads that left through tupc_thread_leave (a stopped run), so that
     * upc_global_exit can tell when every other thread is out of the run. */
    _Atomic int left;
    /* Across processes, from the run's end on (mpi/stop.c, every process
     * alike): whether the run stopped in any process. What a stopped run
     * keeps for the MPI requests it may have left in flight (communicators,
     * buffers, the heap's range) follows it, not this process's stopping:
     * a process whose threads had all returned before the stop reached it
     * freed communicators that the others kept, and MPI_Comm_free is
     * collective. Plain: written and read by the thread that ends the run. */
    int stopped_anywhere;
};
extern struct tupc_run_end tupc_end_;
/* Whether the run's MPI state is to be kept (see stopped_anywhere).
 * Relaxed: stopping was set before the threads ended. */
static inline int tupc_run_keeps_mpi_state(void)
{
    return tupc_end_.stopped_anywhere ||
           atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed);
}

/* The run's exit status of a stop's status (tupc_end_.status, not 0). */
static inline int tupc_stop_exit_status(int stopped)
{
    return stopped == INT_MIN ? 0 : stopped;
}

/* Leaves the calling UPC thread because the run is stopping. */
_Noreturn void tupc_thread_leave(void);

/* Stops the run with `status`: every UPC thread leaves at its next wait. */
void tupc_stop_run(int status);

/* The threads of this process, and how many processes the run has: with
 * more than one (-Dmpi, under mpirun), the MPI layer's paths (lib/mpi/)
 * take over where the data or the threads of another process are
 * concerned. Without MPI: every thread, one process. */
#if TUPC_HAVE_MPI
#define tupc_first_thread_ tupc_impl_first_thread
#define tupc_local_threads_ tupc_impl_local_threads
extern int tupc_procs_;
#else
#define tupc_first_thread_ 0
#define tupc_local_threads_ (tupc_run_.threads)
#define tupc_procs_ 1
#endif

/* Main mode: set by the library's main before tupc_run_opts. */
void tupc_impl_set_main_mode(void);

/* Parses a size with an optional K, M or G suffix; returns 0 when malformed. */
size_t tupc_parse_size(const char *s);

#endif
