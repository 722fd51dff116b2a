/* The one error path: every error the library detects ends here. */
#ifndef TUPC_CHECK_ERROR_H
#define TUPC_CHECK_ERROR_H

#include "runtime/runtime.h"

/* Reports `tupc: FUNC (thread T of N): MESSAGE (SECTION)` and stops the run:
 * the process exits with status 1, or, where the run was started with
 * return_on_error, the run returns TUPC_RUN_ERROR. The message names the
 * argument and what was expected. `section` may be NULL. */
_Noreturn void tupc_fail(const char *func, const char *section, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A team form called on UPC_TEAM_ALL runs its UPC 1.3 function, whose
 * refusals must name the function the program called: between
 * tupc_fail_as(runs, called) and tupc_fail_as(NULL, NULL), tupc_fail
 * reports a failure of `runs` as one of `called`. */
extern _Thread_local const char *tupc_fail_as_[2] __attribute__((tls_model("initial-exec")));
static inline void tupc_fail_as(const char *runs, const char *called)
{
    tupc_fail_as_[0] = runs;
    tupc_fail_as_[1] = called;
}

/* Fails unless a run is in progress and the caller is one of its threads
 * (inline: every library call starts with it). */
_Noreturn void tupc_require_thread_fail(const char *func);
static inline void tupc_require_thread(const char *func)
{
    if (__builtin_expect(!tupc_run_.active || tupc_impl_mythread < 0, 0))
        tupc_require_thread_fail(func);
}

/* Keeps `line` as the run's error unless one is kept already; returns 1 if kept. */
int tupc_record_error_(const char *line);

/* Keeps `line` as the message of a refused tupc_run call; an error of the
 * run in progress, if any, replaces it. */
void tupc_record_refusal_(const char *line);

/* Forgets the last error (a new run starts). */
void tupc_clear_last_error_(void);

#endif
