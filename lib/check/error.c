#include "check/error.h"

#include "runtime/runtime.h"

#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The process's last error (tupc_last_error). */
static struct error_state {
    pthread_mutex_t error_lock;
    char last_error[1024];
    /* The kept message is a refused tupc_run call, not an error of the run
     * in progress: an error of that run replaces it. */
    int last_is_refusal;
} error_ = {.error_lock = PTHREAD_MUTEX_INITIALIZER};

const char *tupc_last_error(void)
{
    return error_.last_error;
}

void tupc_clear_last_error_(void)
{
    pthread_mutex_lock(&error_.error_lock);
    error_.last_error[0] = '\0';
    error_.last_is_refusal = 0;
    pthread_mutex_unlock(&error_.error_lock);
}

void tupc_record_refusal_(const char *line)
{
    pthread_mutex_lock(&error_.error_lock);
    if (error_.last_error[0] == '\0' || error_.last_is_refusal) {
        snprintf(error_.last_error, sizeof error_.last_error, "%s", line);
        error_.last_is_refusal = 1;
    }
    pthread_mutex_unlock(&error_.error_lock);
}

/* The first error of a run is the one reported: later ones are usually
 * consequences of it. Returns whether this one was the first. */
int tupc_record_error_(const char *line)
{
    pthread_mutex_lock(&error_.error_lock);
    int first = error_.last_error[0] == '\0' || error_.last_is_refusal;
    if (first) {
        snprintf(error_.last_error, sizeof error_.last_error, "%s", line);
        error_.last_is_refusal = 0;
    }
    pthread_mutex_unlock(&error_.error_lock);
    return first;
}

_Thread_local const char *tupc_fail_as_[2] __attribute__((tls_model("initial-exec")));

_Noreturn void tupc_fail(const char *func, const char *section, const char *fmt, ...)
{
    if (tupc_fail_as_[0] && strcmp(func, tupc_fail_as_[0]) == 0)
        func = tupc_fail_as_[1];
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    char who[64];
    if (tupc_run_.active && tupc_impl_mythread >= 0)
        snprintf(who, sizeof who, "thread %d of %d", tupc_impl_mythread, tupc_run_.threads);
    else
        snprintf(who, sizeof who, "outside a run");

    char line[1024];
    if (section)
        snprintf(line, sizeof line, "tupc: %s (%s): %s (%s)", func, who, msg, section);
    else
        snprintf(line, sizeof line, "tupc: %s (%s): %s", func, who, msg);

    if (tupc_record_error_(line) && !tupc_run_.quiet)
        fprintf(stderr, "%s\n", line);
#if TUPC_HAVE_MPI
    /* Across processes an error ends the whole job, with its message
     * printed first: the other processes' threads would wait for this
     * one forever. With return_on_error, the other processes' runs stop
     * too (mpi/stop.c) and every tupc_run returns. */
    if (tupc_procs_ > 1 && tupc_run_.active) {
        if (!tupc_run_.return_on_error || tupc_impl_mythread < 0)
            tupc_mpi_abort(1);
        tupc_mpi_stop_others(TUPC_RUN_ERROR, line);
    }
#endif

    if (!tupc_run_.active || tupc_impl_mythread < 0) {
        fflush(NULL);
        exit(1);
    }
    tupc_stop_run(TUPC_RUN_ERROR);
    tupc_thread_leave();
}

void tupc_require_thread_fail(const char *func)
{
    tupc_fail(func, NULL, "called outside a UPC thread; start one with tupc_run or tupc_main");
}
