/* Starting and stopping THREADS: the run function. */
#include "runtime/runtime.h"

#include "check/calls.h"
#include "check/error.h"
#include "observe/trace.h"
#include "observe/watchdog.h"
#include "coll/async.h"
#include "coll/copy.h"
#include "coll/reduce_types.h"
#include "coll/scan_lines.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "heap/heap.h"
#include "runtime/config.h"
#include "runtime/placement.h"
#include "sync/barrier.h"
#include "sync/lock.h"
#include "sync/wait.h"

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#include "mpi/team.h"
#endif

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_HEAP_SIZE ((size_t)64 << 20)

/* Per-run bookkeeping private to this file: what each thread runs, and
 * where it leaves its result; main_mode is the process's. */
static struct run_call {
    int (*entry)(void *);
    void *arg;
    int *status; /* what each thread's entry returned */
    int main_mode;
    int hang_timeout_s;  /* the run's, for start_watchdog */
    _Atomic int claimed; /* one run at a time in a process: runs share the library's state */
} run_;

void tupc_impl_set_main_mode(void)
{
    run_.main_mode = 1;
}

_Noreturn void upc_global_exit(int status)
{
    tupc_require_thread("upc_global_exit");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        if (tupc_run_.main_mode) /* every process ends, with the status as mpirun's */
            tupc_mpi_abort(status);
        tupc_mpi_stop_others(status, ""); /* every process's tupc_run returns it */
    }
#endif
    tupc_stop_run(status);
    /* In main, exit() ends the process at once, unless the trace or the
     * stats are on: then, once every other thread has left (those in the
     * library's waits see the stop at once), the run ends as any stopped
     * run does, writing both, and main exits with the status. A thread
     * that stays in user code cannot be waited for. */
    if (tupc_run_.main_mode) {
        int out = tupc_run_.threads - 1;
        if (tupc_config_.trace_path || tupc_config_.stats) {
            for (int ms = 0; ms < 2000; ms++) {
                if (atomic_load_explicit(&tupc_end_.gone, memory_order_acquire) +
                        atomic_load_explicit(&tupc_end_.left, memory_order_acquire) >=
                    out)
                    tupc_thread_leave();
                nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
            }
            fprintf(stderr,
                    "tupc: upc_global_exit (thread %d of %d): a thread still runs user code "
                    "after 2 s; the process exits without writing the trace or the stats\n",
                    MYTHREAD, THREADS);
        }
        fflush(NULL);
        exit(status);
    }
    tupc_thread_leave();
}

static void *thread_main(void *p)
{
    tupc_impl_mythread = (int)(intptr_t)p;
    tupc_calls_thread_start(tupc_impl_mythread);
    tupc_coll_thread_start();
    run_.status[tupc_impl_mythread] = run_.entry(run_.arg);
    if (tupc_notified_)
        tupc_fail("upc_notify", "UPC 1.3 6.6.1 para 7",
                  "this thread returned from its entry function between upc_notify and upc_wait; "
                  "expected each thread to end the barrier it notified with upc_wait before it "
                  "returns");
    tupc_calls_thread_end();
    /* Release: whoever sees the mark sees every counter this thread set. */
    atomic_store_explicit(&tupc_run_.gone[tupc_impl_mythread], 1, memory_order_release);
    atomic_fetch_add_explicit(&tupc_end_.gone, 1, memory_order_release);
    return NULL;
}

/* Reports an error found before any UPC thread of this run started. It must
 * not touch tupc_run_: a refused nested run is reported inside another run. */
static int run_error(const tupc_options *o, const char *fmt, const char *detail)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, detail);
    if (o->return_on_error) {
        /* Record the message the way tupc_fail does, without exiting. */
        tupc_record_error_(msg);
        if (!o->quiet)
            fprintf(stderr, "%s\n", msg);
        return TUPC_RUN_ERROR;
    }
    fprintf(stderr, "%s\n", msg);
    fflush(NULL);
    exit(1);
}

static int resolve_threads(const tupc_options *o, int *threads)
{
    if (o->threads != 0) {
        *threads = o->threads;
        return o->threads >= 1 && o->threads <= TUPC_MAX_THREADS ? 0 : -1;
    }
    if (!tupc_config_.threads_env) {
        *threads = tupc_allowed_cpus();
        return 0;
    }
    *threads = tupc_config_.threads;
    return *threads > 0 ? 0 : -1;
}

/* The modules of a run: each starts from tupc_run_ and tupc_config_ once
 * the run's state is set, in the order of `modules`, and they stop in the
 * reverse order. Every stop tolerates a module that never started, so a
 * run that fails part way stops them all. */
struct module {
    int (*start)(char *err, size_t len); /* 0, or -1 with a message in err */
    void (*stop)(void);
};

static int sync_state_oom(char *err, size_t len)
{
    snprintf(err, len, "out of memory for the synchronization state of %d threads",
             tupc_run_.threads);
    return -1;
}
#if TUPC_HAVE_MPI
/* With the heap, across processes: the windows over it and the barrier
 * (mpi/layer.h). */
static int start_heap(char *err, size_t len)
{
    if (tupc_heap_init(tupc_run_.threads, tupc_run_.heap_size, tupc_run_.node_of_thread, err,
                       len) != 0)
        return -1;
    if (tupc_procs_ == 1)
        return 0;
    if (tupc_mpi_window_start(err, len) || tupc_mpi_barrier_start(err, len))
        return -1;
    return tupc_mpi_hier_start(err, len) || tupc_mpi_team_start(err, len) ? -1 : 0;
}
static void stop_heap(void)
{
    if (tupc_procs_ > 1) {
        tupc_mpi_team_stop();
        tupc_mpi_post_drop_spares();
        tupc_mpi_hier_stop();
        tupc_mpi_barrier_stop();
        tupc_mpi_window_stop();
    }
    tupc_heap_fini();
}
#else
static int start_heap(char *err, size_t len)
{
    return tupc_heap_init(tupc_run_.threads, tupc_run_.heap_size, tupc_run_.node_of_thread, err,
                          len);
}
#define stop_heap tupc_heap_fini
#endif
static int start_calls(char *err, size_t len)
{
    return tupc_calls_init(tupc_run_.threads) ? sync_state_oom(err, len) : 0;
}
static int start_barrier(char *err, size_t len)
{
    return tupc_barrier_init(tupc_run_.threads) ? sync_state_oom(err, len) : 0;
}
static int start_coll(char *err, size_t len)
{
    tupc_red_team_attach();
    return tupc_coll_init(tupc_run_.threads) ? sync_state_oom(err, len) : 0;
}
static int start_team(char *err, size_t len)
{
    return tupc_team_init(tupc_run_.threads) ? sync_state_oom(err, len) : 0;
}
static int start_trace(char *err, size_t len)
{
    return tupc_trace_start(tupc_run_.threads, tupc_config_.trace_path, tupc_config_.stats, err,
                            len);
}
/* A run ends its trace itself, after its end checks (the file shows how the
 * run ended); this stop is for a run that failed to start, and a no-op
 * after that. */
static void stop_trace(void)
{
    char terr[200];
    (void)tupc_trace_finish(terr, sizeof terr);
}
static int start_watchdog(char *err, size_t len)
{
    return tupc_watchdog_start(tupc_run_.threads, run_.hang_timeout_s, err, len);
}
static int start_async(char *err, size_t len)
{
    (void)err, (void)len;
    tupc_async_init();
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) /* the window's progress thread runs: it rescues stalled posts */
        tupc_mpi_set_idle_work(tupc_async_help_stalled);
#endif
    return 0;
}
static void stop_async(void)
{
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1)
        tupc_mpi_set_idle_work(NULL);
#endif
    tupc_async_fini();
}
static const struct module modules[] = {
    {start_heap, stop_heap},
    {start_calls, tupc_calls_fini},
    {start_barrier, tupc_barrier_fini},
    {start_coll, tupc_coll_fini},
    {start_team, tupc_team_fini},
    {NULL, tupc_lock_fini}, /* locks start on demand */
    {start_trace, stop_trace},
    {start_watchdog, tupc_watchdog_stop},
    {start_async, stop_async},
};
#define NMODULES (sizeof modules / sizeof modules[0])

static int start_modules(char *err, size_t len)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i].start && modules[i].start(err, len) != 0)
            return -1;
    return 0;
}

/* Frees what a run set up. */
static void release_run(int *cpu, int *node, int *status, pthread_t *tid, _Atomic int *gone)
{
    for (size_t i = NMODULES; i-- > 0;)
        modules[i].stop();
    free(cpu);
    free(node);
    free(status);
    free(tid);
    free((void *)gone);
    tupc_run_ = (struct tupc_run_state){0};
    tupc_impl_threads = 0;
#if TUPC_HAVE_MPI
    tupc_procs_ = 1;
    tupc_impl_first_thread = tupc_impl_local_threads = 0;
#endif
}

static int run_claimed_opts(const tupc_options *opts, const char *bad_size, int (*entry)(void *),
                            void *arg);

/* The size of the first layout of tupc_options (threads, heap_size,
 * return_on_error, quiet), which (tupc_run_opts)(...) and callers compiled
 * before any field was added pass. */
#define OPTIONS_V0_SIZE (offsetof(tupc_options, quiet) + sizeof(int))

int(tupc_run_opts)(const tupc_options *opts, int (*entry)(void *), void *arg)
{
    return tupc_impl_run_opts(opts, OPTIONS_V0_SIZE, entry, arg);
}

int tupc_impl_run_opts(const tupc_options *opts, size_t size, int (*entry)(void *), void *arg)
{
    tupc_options o = {0};
    /* Reported once the run is claimed, as every error of a run is. */
    char bad_size[160] = "";
    if (opts) {
        /* A caller compiled with fewer fields leaves the rest zero, their
         * defaults; one compiled with fields this library lacks is refused
         * unless they are zero, which asks for nothing. The fields that
         * fit are read even from a short struct, for its return_on_error. */
        memcpy(&o, opts, size < sizeof o ? size : sizeof o);
        if (size < OPTIONS_V0_SIZE)
            snprintf(bad_size, sizeof bad_size,
                     "the caller's tupc_options has %zu bytes; expected at least %zu", size,
                     (size_t)OPTIONS_V0_SIZE);
        for (size_t i = sizeof o; i < size && !bad_size[0]; i++)
            if (((const unsigned char *)opts)[i] != 0)
                snprintf(bad_size, sizeof bad_size,
                         "tupc_options has %zu bytes and sets fields this libtupc (%zu bytes) "
                         "does not know; expected a libtupc at least as new as <upc.h>",
                         size, sizeof o);
    }
    int expected = 0;
    /* acq_rel: a run that starts sees everything the previous one left. */
    if (!atomic_compare_exchange_strong_explicit(&run_.claimed, &expected, 1, memory_order_acq_rel,
                                                 memory_order_relaxed)) {
        const char *msg = "tupc: tupc_run: a run is already in progress in this process; runs "
                          "neither nest nor overlap";
        if (!o.return_on_error)
            return run_error(&o, "%s", msg);
        tupc_record_refusal_(msg);
        if (!o.quiet)
            fprintf(stderr, "%s\n", msg);
        return TUPC_RUN_ERROR;
    }
    int rc = run_claimed_opts(&o, bad_size, entry, arg);
    atomic_store_explicit(&run_.claimed, 0, memory_order_release);
    return rc;
}

/* The options and the environment judged before anything is set up: 0 with
 * the run's THREADS and heap size, or -1 with *rc what the run returns. */
static int judge_run(const tupc_options *o, const char *bad_size, int (*entry)(void *),
                     int *threads, size_t *heap, int *rc)
{
    char detail[160];
    tupc_clear_last_error_();
    if (bad_size[0])
        return *rc = run_error(o, "tupc: tupc_run_opts: %s", bad_size), -1;
    if (!entry)
        return *rc = run_error(o, "tupc: tupc_run: %s", "entry is NULL; expected a function"), -1;
    if (o->checks < 0 || o->checks > TUPC_CHECKS_FULL) {
        snprintf(detail, sizeof detail,
                 "checks is %d; expected 0 (TUPC_CHECKS or the default), TUPC_CHECKS_OFF, "
                 "TUPC_CHECKS_DEFAULT or TUPC_CHECKS_FULL",
                 o->checks);
        return *rc = run_error(o, "tupc: tupc_run_opts: %s", detail), -1;
    }
    if (tupc_config_read(detail, sizeof detail) != 0)
        return *rc = run_error(o, "tupc: tupc_run: %s", detail), -1;
    if (resolve_threads(o, threads) != 0) {
        if (o->threads != 0)
            snprintf(detail, sizeof detail, "threads is %d; expected 1 to %d", o->threads,
                     TUPC_MAX_THREADS);
        else
            snprintf(detail, sizeof detail, "UPC_THREADS is \"%s\"; expected a number from 1 to %d",
                     tupc_config_.threads_env, TUPC_MAX_THREADS);
        return *rc = run_error(o, "tupc: tupc_run: %s", detail), -1;
    }
    *heap = o->heap_size;
    if (*heap == 0 && !tupc_config_.heap_env)
        *heap = DEFAULT_HEAP_SIZE;
    else if (*heap == 0 && (*heap = tupc_config_.heap_size) == 0) {
        snprintf(detail, sizeof detail,
                 "UPC_SHARED_HEAP_SIZE is \"%s\"; expected a size such as 64M or 1G",
                 tupc_config_.heap_env);
        return *rc = run_error(o, "tupc: tupc_run: %s", detail), -1;
    }
    return 0;
}

/* The run's state, before any module starts (pthread_create orders it
 * before the threads' reads). */
static void set_run_state(const tupc_options *o, int threads, size_t heap, int *cpu, int *node,
                          _Atomic int *gone)
{
    tupc_run_ = (struct tupc_run_state){
        .threads = threads,
        .cpus = tupc_allowed_cpus(),
        .crowd = threads,
        .return_on_error = o->return_on_error,
        .quiet = o->quiet,
        .main_mode = run_.main_mode,
        .heap_size = heap,
        .cpu_of_thread = cpu,
        .node_of_thread = node,
        .gone = gone,
    };
    /* The options' level, else the environment's, else the default. */
    tupc_checks_ = o->checks > 0              ? o->checks - TUPC_CHECKS_OFF
                   : tupc_config_.checks >= 0 ? (int)tupc_config_.checks
                                              : TUPC_CHECK_DEFAULT;
    tupc_impl_threads = threads;
    atomic_store_explicit(&tupc_end_.stopping, 0, memory_order_relaxed);
    tupc_end_.stopped_anywhere = 0;
    atomic_store_explicit(&tupc_end_.gone, 0, memory_order_relaxed);
    atomic_store_explicit(&tupc_end_.left, 0, memory_order_relaxed);
    atomic_store_explicit(&tupc_end_.status, 0, memory_order_relaxed);
    /* Across processes the MPI layer tunes again by its crowd (mpi/barrier.c):
     * THREADS counts other nodes' threads. */
    tupc_wait_tune(tupc_run_.crowd > tupc_run_.cpus, 1);
    /* The options' timeout, else the environment's, else 60 s. */
    run_.hang_timeout_s = o->hang_timeout > 0              ? o->hang_timeout
                          : o->hang_timeout < 0            ? 0
                          : tupc_config_.hang_timeout >= 0 ? (int)tupc_config_.hang_timeout
                                                           : 60;
}

/* Starts the UPC threads, each pinned where cpu says; returns how many
 * started (on a failure, err says why and the run is stopping). */
static int start_threads(int threads, const int *cpu, pthread_t *tid, char *err, size_t len)
{
    int started = 0;
    /* This process's threads: all of them without MPI. */
    for (int t = tupc_first_thread_; t < tupc_first_thread_ + tupc_local_threads_; t++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        if (cpu[t] >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu[t], &set);
            pthread_attr_setaffinity_np(&attr, sizeof set, &set);
        }
        int rc = pthread_create(&tid[t], &attr, thread_main, (void *)(intptr_t)t);
        pthread_attr_destroy(&attr);
        if (rc != 0) {
            snprintf(err, len, "cannot start thread %d of %d: %s", t, threads, strerror(rc));
            tupc_stop_run(TUPC_RUN_ERROR);
            break;
        }
        started++;
    }
    return started;
}

/* After the threads are joined: the end checks, the trace, and the run's
 * result from the stop status or the threads' own. */
static int end_run(int threads, int started, const int *status, char *err, size_t len)
{
    tupc_watchdog_stop();
    tupc_run_.active = 0;
    /* Every thread returned: their collective calls must agree, as at a
     * barrier (NOSYNC calls at the end of a run are checked only here). */
    /* Across processes the other processes' calls are not here to check:
     * every barrier compared the kinds of arrival already. */
    if (started == tupc_local_threads_ && tupc_procs_ == 1 &&
        !atomic_load_explicit(&tupc_end_.status, memory_order_relaxed))
        if (!tupc_calls_check_end(threads, err, len) && !tupc_team_check_end(err, len))
            tupc_async_check_end(threads, err, len);
    /* The trace is written whatever ended the run: it shows how. */
    char terr[200];
    if (tupc_trace_finish(terr, sizeof terr) != 0 && !err[0])
        snprintf(err, len, "%s", terr);
    int stopped = atomic_load_explicit(&tupc_end_.status, memory_order_relaxed);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) { /* a stop anywhere, else the lowest failing thread of any process */
        int first = INT_MAX;
        for (int t = threads; t-- > 0;)
            first = status[t] != 0 ? t : first;
        char line[1020];
        int rc = tupc_mpi_run_status(stopped, first, first == INT_MAX ? 0 : status[first], line,
                                     sizeof line);
        if (line[0]) /* another process's error: this process's tupc_last_error too */
            tupc_record_error_(line);
        return rc;
    }
#endif
    if (stopped)
        return tupc_stop_exit_status(stopped);
    for (int t = 0; t < threads; t++)
        if (status[t] != 0)
            return status[t];
    return 0;
}

static int run_claimed_opts(const tupc_options *opts, const char *bad_size, int (*entry)(void *),
                            void *arg)
{
    tupc_options o = *opts;
    int threads, rc;
    size_t heap;
    if (judge_run(&o, bad_size, entry, &threads, &heap, &rc) != 0)
        return rc;
#if TUPC_HAVE_MPI
    {
        /* threads is this process's; THREADS the job's (mpi/proc.c). */
        char merr[300];
        if (tupc_mpi_start(&threads, heap, merr, sizeof merr) != 0) {
            if (tupc_procs_ > 1) {
                fprintf(stderr, "tupc: tupc_run: %s\n", merr);
                tupc_mpi_abort(1);
            }
            return run_error(&o, "tupc: tupc_run: %s", merr);
        }
    }
#endif
    tupc_copy_init();
    tupc_scan_init();

    int *cpu = calloc((size_t)threads, sizeof *cpu);
    int *node = calloc((size_t)threads, sizeof *node);
    int *status = calloc((size_t)threads, sizeof *status);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    _Atomic int *gone = calloc((size_t)threads, sizeof *gone);
    char err[900] = "";
    if (!cpu || !node || !status || !tid || !gone) {
        snprintf(err, sizeof err, "out of memory for %d threads", threads);
        goto fail;
    }
    if (tupc_place_threads(threads, cpu, node, err, sizeof err) != 0)
        goto fail;
    set_run_state(&o, threads, heap, cpu, node, gone);
    if (start_modules(err, sizeof err) != 0)
        goto fail;
    run_.entry = entry;
    run_.arg = arg;
    run_.status = status;
    tupc_run_.active = 1;

    int started = start_threads(threads, cpu, tid, err, sizeof err);
    for (int t = 0; t < started; t++)
        pthread_join(tid[tupc_first_thread_ + t], NULL);
    int result = end_run(threads, started, status, err, sizeof err);
    release_run(cpu, node, status, tid, gone);

    if (err[0]) {
        char line[1000];
        snprintf(line, sizeof line, "tupc: tupc_run: %s", err);
        tupc_record_error_(line);
        if (!o.quiet)
            fprintf(stderr, "%s\n", line);
        result = TUPC_RUN_ERROR;
    }
    if (result == TUPC_RUN_ERROR && !o.return_on_error) {
        fflush(NULL);
        exit(1);
    }
    return result;

fail:
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) { /* the other processes would wait for this one */
        fprintf(stderr, "tupc: tupc_run: %s\n", err);
        tupc_mpi_abort(1);
    }
#endif
    release_run(cpu, node, status, tid, gone);
    return run_error(&o, "tupc: tupc_run: %s", err);
}

int tupc_run(int threads, int (*entry)(void *), void *arg)
{
    tupc_options o = {.threads = threads};
    if (threads <= 0) {
        /* Say what was passed rather than falling back to UPC_THREADS. */
        char detail[96];
        snprintf(detail, sizeof detail, "threads is %d; expected 1 to %d", threads,
                 TUPC_MAX_THREADS);
        return run_error(&o, "tupc: tupc_run: %s", detail);
    }
    return tupc_run_opts(&o, entry, arg);
}
