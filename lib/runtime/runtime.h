/* State of the current run, shared by the modules of the library. */
#ifndef TUPC_RUNTIME_H
#define TUPC_RUNTIME_H

#include <upc.h>

#include <limits.h>
#include <stddef.h>

struct tupc_run_state {
    int threads;         /* THREADS of the run */
    int cpus;            /* CPUs the process may use */
    int active;          /* a run is in progress */
    int return_on_error; /* errors end the run, not the process */
    int quiet;           /* errors are not printed */
    int main_mode;       /* started by the library's main: exit() ends the process */
    size_t heap_size;    /* bytes per partition */
    int *cpu_of_thread;  /* -1 where not pinned */
    int *node_of_thread; /* NUMA node of each thread (0 without NUMA) */
};

/* Written before the UPC threads start and after they end; read-only while
 * they run (pthread_create and pthread_join order those accesses). */
extern struct tupc_run_state tupc_run_;

/* Threads that have returned from their entry function: a flag per thread,
 * and how many. Set after the thread's last store to any counter. */
extern _Atomic int *tupc_gone_;
extern _Atomic int tupc_gone_count_;
/* Threads that left through tupc_thread_leave (a stopped run), so that
 * upc_global_exit can tell when every other thread is out of the run. */
extern _Atomic int tupc_left_count_;

/* Whether the run is being stopped (an error or upc_global_exit elsewhere);
 * waits check it so that no thread hangs on a thread that is gone. Set
 * after tupc_stop_status_, the status given by the first tupc_stop_run
 * (INT_MIN for upc_global_exit(0)), 0 while nobody stopped the run. */
extern _Atomic int tupc_stopping_;
extern _Atomic int tupc_stop_status_;

/* The run's exit status of a stop's status (tupc_stop_status_, not 0). */
static inline int tupc_stop_exit_status(int stopped)
{
    return stopped == INT_MIN ? 0 : stopped;
}

/* Leaves the calling UPC thread because the run is stopping. */
_Noreturn void tupc_thread_leave(void);

/* Stops the run with `status`: every UPC thread leaves at its next wait. */
void tupc_stop_run(int status);

/* The check level of the run (TUPC_CHECKS, tupc_options.checks): what the
 * collectives verify beyond what keeps the library itself sound. */
enum tupc_check_level { TUPC_CHECK_OFF, TUPC_CHECK_DEFAULT, TUPC_CHECK_FULL };
/* Set before the UPC threads start; read-only while they run. */
extern int tupc_checks_;

/* Where the shared heap starts and each partition's size (tupc_impl.h):
 * state of the run, set by heap/heap.c before the UPC threads start, so
 * that the modules below the heap (the call ledger's messages) can place
 * an address without calling up into it. */
extern char *tupc_heap_base_;

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
