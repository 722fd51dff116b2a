/* How a run across processes ends early without ending the job, and the
 * status every process's run returns.
 *
 * With return_on_error, an error in one process stops that process's run
 * as in one process, and that process sends each of the others a stop
 * message: the run's status and the line that reported the error. So does
 * upc_global_exit outside tupc_main (where tupc_run returns its status).
 * Each process receives it in tupc_mpi_stop_poll, which its progress
 * thread calls every TUPC_MPI_PROGRESS microseconds and its waiting
 * threads call between naps, and stops its own run as a local error
 * would: every wait of the library ends and tupc_run returns. Without
 * return_on_error an error still ends the job (mpi/proc.c, abort).
 *
 * Every run across processes ends with one MPI_Allreduce (the job's
 * status: a stop's, else the lowest failing thread's) and the receipt of
 * every stop message still in flight, so that none reaches the next run.
 * Messages are matched with MPI_Improbe/MPI_Mrecv: the progress thread and
 * a waiting thread may look at once, and a matched probe hands a message
 * to one of them only. */
#include "mpi/layer.h"

#include "runtime/runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { STOP_TAG = 0x7570 }; /* on tupc_mpi_comm_, which carries nothing else point to point */

struct stop_msg {
    int status; /* as tupc_stop_run takes it */
    char line[1020];
};

static struct stop_msg out;                 /* this process's, while its sends are in flight */
static MPI_Request sends[TUPC_MAX_THREADS]; /* one per other process (procs <= THREADS) */
static _Atomic int sent;                    /* this process sent its stop in this run */
static _Atomic int received;                /* stops received in this run */
static pthread_mutex_t line_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_line[1020]; /* the first stop's line, under line_lock */

void tupc_mpi_stop_others(int status, const char *line)
{
    int no = 0;
    /* One stop per process and run: the first failing thread's. Relaxed:
     * the flag guards only itself; the run's end reads it after joins. */
    if (!atomic_compare_exchange_strong_explicit(&sent, &no, 1, memory_order_relaxed,
                                                 memory_order_relaxed))
        return;
    int procs = tupc_procs_;
    out.status = status;
    snprintf(out.line, sizeof out.line, "%s", line);
    for (int r = 0; r < procs; r++) {
        sends[r] = MPI_REQUEST_NULL;
        if (r != tupc_mpi_rank_)
            MPI_Isend(&out, sizeof out, MPI_BYTE, r, STOP_TAG, tupc_mpi_comm_, &sends[r]);
    }
}

/* Receives one stop message where one is here: 1, else 0. */
static int receive(struct stop_msg *m)
{
    int flag = 0;
    MPI_Message msg;
    MPI_Improbe(MPI_ANY_SOURCE, STOP_TAG, tupc_mpi_comm_, &flag, &msg, MPI_STATUS_IGNORE);
    if (!flag)
        return 0;
    MPI_Mrecv(m, sizeof *m, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    pthread_mutex_lock(&line_lock);
    if (!first_line[0])
        memcpy(first_line, m->line, sizeof first_line);
    pthread_mutex_unlock(&line_lock);
    /* Release: counted after the line is kept (the run's end reads both). */
    atomic_fetch_add_explicit(&received, 1, memory_order_release);
    return 1;
}

void tupc_mpi_stop_poll(void)
{
    struct stop_msg m;
    /* A stop that lands while the run ends is one that run's end drains
     * anyway; the next run starts with the flags cleared. */
    if (receive(&m))
        tupc_stop_run(m.status);
}

int tupc_mpi_run_status(int stopped, int first_failed, int status, char *line, size_t len)
{
    int mine = atomic_load_explicit(&sent, memory_order_relaxed);
    /* MINLOC over (key, value) pairs: a stop's status first, an error's
     * (key 0) before an exit's (key 1, where upc_global_exit(0) is
     * INT_MIN), else the lowest failing thread with its status; then how
     * many stops were sent, all processes together. */
    struct {
        int key, value;
    } in[2] = {{!stopped                    ? 2
                : stopped == TUPC_RUN_ERROR ? 0
                                            : 1,
                stopped},
               {first_failed, status}},
      res[2];
    MPI_Allreduce(in, res, 2, MPI_2INT, MPI_MINLOC, tupc_mpi_comm_);
    tupc_end_.stopped_anywhere = res[0].key < 2;
    int senders;
    MPI_Allreduce(&mine, &senders, 1, MPI_INT, MPI_SUM, tupc_mpi_comm_);
    /* Every stop sent to this process arrives before the next run. */
    struct stop_msg m;
    while (atomic_load_explicit(&received, memory_order_acquire) < senders - mine)
        if (!receive(&m))
            nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
    /* This process's sends complete after the drains: a receiver takes
     * them in only now where it has no progress thread, and a send that
     * waits for its receiver (no eager delivery) would wait forever in
     * a collective before them. */
    if (mine)
        for (int r = 0; r < tupc_procs_; r++) /* not MPI_Waitall: gcc 12 misreads MPICH's */
            MPI_Wait(&sends[r], MPI_STATUS_IGNORE);
    pthread_mutex_lock(&line_lock);
    snprintf(line, len, "%s", first_line);
    first_line[0] = '\0';
    pthread_mutex_unlock(&line_lock);
    atomic_store_explicit(&sent, 0, memory_order_relaxed);
    atomic_store_explicit(&received, 0, memory_order_relaxed);
    if (res[0].key < 2)
        return tupc_stop_exit_status(res[0].value);
    return res[1].key == INT_MAX ? 0 : res[1].value;
}
