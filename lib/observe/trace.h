/* The timeline trace (TUPC_TRACE=file.json): a span per collective call,
 * barrier, lock acquisition and allocation on each UPC thread, with the
 * waits for other threads inside them, written at the end of the run as
 * Chrome trace-event JSON (Perfetto, chrome://tracing).
 *
 * Off, it costs a call one relaxed load of tupc_trace_on_ and a branch
 * (TUPC_TRACE_VOID, TUPC_TRACE_RETURN). */
#ifndef TUPC_OBSERVE_TRACE_H
#define TUPC_OBSERVE_TRACE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Set before the UPC threads start and cleared after they end (pthread
 * create and join order it), so relaxed loads are enough. */
extern _Atomic int tupc_trace_on_ __attribute__((visibility("hidden")));

/* The name of the innermost open span of this thread (NULL: none), so that
 * the traced call of a function to itself does not open a second span.
 * Read only while the trace is on. */
extern _Thread_local const char *tupc_trace_in_ __attribute__((visibility("hidden")));

static inline int tupc_trace_wanted(const char *name)
{
    return __builtin_expect(atomic_load_explicit(&tupc_trace_on_, memory_order_relaxed), 0) &&
           tupc_trace_in_ != name;
}

/* Opens a span named name (a string that outlives the run) with bytes
 * moved or allocated (0: none), flags (-1: none) and team (-1: none), and
 * returns the depth to close back to. */
int tupc_trace_push_(const char *name, uint64_t bytes, int flags, int team);
void tupc_trace_pop_(int depth);

/* At the top of a traced function: with the trace on, runs `call` (the
 * function calling itself with its own arguments) inside a span and
 * returns what it returns. Off, one relaxed load and a branch, and the
 * function's body keeps its shape: a span closed by a cleanup at exit
 * turned its tail calls into calls (8-byte NO|NO reduce 1.07x). */
#define TUPC_TRACE_VOID(call, name, bytes, flags, team)                                            \
    do {                                                                                           \
        if (tupc_trace_wanted(name)) {                                                             \
            int tupc_trace_d_ = tupc_trace_push_((name), (bytes), (flags), (team));                \
            call;                                                                                  \
            tupc_trace_pop_(tupc_trace_d_);                                                        \
            return;                                                                                \
        }                                                                                          \
    } while (0)
#define TUPC_TRACE_RETURN(type, call, name, bytes, flags, team)                                    \
    do {                                                                                           \
        if (tupc_trace_wanted(name)) {                                                             \
            int tupc_trace_d_ = tupc_trace_push_((name), (bytes), (flags), (team));                \
            type tupc_trace_r_ = call;                                                             \
            tupc_trace_pop_(tupc_trace_d_);                                                        \
            return tupc_trace_r_;                                                                  \
        }                                                                                          \
    } while (0)

/* A wait inside the current span, from t0 (tupc_trace_now) to now, for
 * thread `peer` (-1: several or unknown). */
void tupc_trace_wait(uint64_t t0, int peer);

/* Names `peer` as the thread that this thread's last wait, recorded with
 * no peer since tupc_trace_blame_start, waited for: a wait that learns
 * whom it waited for only once it ends (the tree barrier's release, whose
 * releaser arrived last). Only while the trace or the summary is on. */
void tupc_trace_blame_start(void);
void tupc_trace_blame(int peer);
uint64_t tupc_trace_now(void);

/* Run start and end (runtime/run.c): start allocates the threads' buffers
 * when TUPC_TRACE names a file (path) or TUPC_STATS asks for the summary
 * (stats, check/stats.h); end writes the file, prints the summary and
 * frees them. Return -1 with a message in err if the file cannot be
 * opened or written. */
int tupc_trace_start(int threads, const char *path, int stats, char *err, size_t errlen);
int tupc_trace_finish(char *err, size_t errlen);
/* The same while UPC threads may still run (the watchdog, before it ends
 * the process): it waits until none is inside the trace, keeps every later
 * event out, and frees nothing. */
int tupc_trace_finish_live(char *err, size_t errlen);

#endif
