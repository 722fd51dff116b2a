/* The timeline trace (TUPC_TRACE=file.json): a span per collective call,
 * barrier, lock acquisition and allocation on each UPC thread, with the
 * waits for other threads inside them, written at the end of the run as
 * Chrome trace-event JSON (Perfetto, chrome://tracing).
 *
 * Off, it costs a call site two thread-local loads and a compare (the
 * depth saved at entry and compared at exit by TUPC_TRACE_SCOPE) and one
 * relaxed load of tupc_trace_on_ where a span would begin. */
#ifndef TUPC_CHECK_TRACE_H
#define TUPC_CHECK_TRACE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Set before the UPC threads start and cleared after they end (pthread
 * create and join order it), so relaxed loads are enough. */
extern _Atomic int tupc_trace_on_;

/* How many spans this thread has open. */
extern _Thread_local int tupc_trace_depth_ __attribute__((tls_model("initial-exec")));

/* Opens a span on this thread: name (a string that outlives the run),
 * bytes moved or allocated (0: none), flags (-1: none) and team (-1:
 * none). Closed by the TUPC_TRACE_SCOPE of the enclosing block. */
void tupc_trace_begin_(const char *name, uint64_t bytes, int flags, int team);
static inline void tupc_trace_begin(const char *name, uint64_t bytes, int flags, int team)
{
    if (__builtin_expect(atomic_load_explicit(&tupc_trace_on_, memory_order_relaxed), 0))
        tupc_trace_begin_(name, bytes, flags, team);
}

/* Closes this thread's spans down to `depth`. */
void tupc_trace_close_(int depth);
static inline void tupc_trace_scope_end_(const int *depth)
{
    if (__builtin_expect(tupc_trace_depth_ > *depth, 0))
        tupc_trace_close_(*depth);
}

/* Declares that the spans opened in the enclosing block end with it, on
 * every return path. */
#define TUPC_TRACE_SCOPE                                                                           \
    const int tupc_trace_scope_ __attribute__((cleanup(tupc_trace_scope_end_), unused)) =          \
        tupc_trace_depth_

/* A wait inside the current span, from t0 (tupc_trace_now) to now, for
 * thread `peer` (-1: several or unknown). */
void tupc_trace_wait(uint64_t t0, int peer);
uint64_t tupc_trace_now(void);

/* Run start and end (runtime/run.c): start allocates the threads' buffers
 * when TUPC_TRACE names a file; end writes the file and frees them. Returns
 * -1 with a message in err if the file cannot be written. */
int tupc_trace_start(int threads, const char *path, char *err, size_t errlen);
int tupc_trace_finish(char *err, size_t errlen);

#endif
