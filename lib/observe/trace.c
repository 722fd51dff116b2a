#include "observe/trace.h"

#include "observe/stats.h"

#include "runtime/runtime.h"
#include "sync/wait.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Atomic int tupc_trace_on_;
/* How many spans this thread has open. */
static _Thread_local int tupc_trace_depth_;
/* The last wait recorded with no peer, for tupc_trace_blame. */
static _Thread_local struct {
    int depth;
    uint64_t ns;
    struct event *e;
} unblamed;
_Thread_local const char *tupc_trace_in_;

enum { KIND_SPAN, KIND_WAIT };

struct event {
    uint64_t t0, t1; /* ns since the run started */
    const char *name;
    uint64_t bytes;
    int flags, team, peer, kind;
};

/* Each thread appends to its own buffer, so nothing is shared while the
 * run goes; the writer reads them after the threads are joined, or, when
 * the watchdog must end the process, behind the gates below. */
struct track {
    struct event *ev;
    size_t n, cap;
    size_t dropped;
    int open[8];          /* indexes of the open spans, innermost last */
    const char *outer[8]; /* tupc_trace_in_ before each of them opened */
};

/* Past this many events a thread drops the rest (and the file says how
 * many), so that a long run cannot take all memory. */
#define MAX_EVENTS ((size_t)1 << 22)

static struct trace_state {
    struct track *tracks;
    int ntracks;
    uint64_t origin;
    FILE *out; /* opened at the start, so that a bad path fails the run at once */
    struct gate *gates;
    _Atomic int frozen;
    const char *out_path;
} trace_;

/* The watchdog writes the trace while threads still run: one in user code
 * cannot be joined, and one in a wait records it. So each thread holds its
 * gate while it touches its track or its stats row, and the writer first
 * closes the entrance (frozen), then waits for every gate to open. This is
 * Dekker's pattern: the thread's store to its gate and its load of frozen,
 * and the writer's store to frozen and its load of each gate, are seq_cst,
 * so either the thread sees frozen and touches nothing, or the writer sees
 * the gate held and waits. The release that opens a gate, read by the
 * writer's load, orders the thread's writes before the writer's reads. */
struct gate {
    _Atomic int held;
    char pad[60]; /* a line each: a thread's gate is written at every event */
};

/* Enters this thread's gate; 0 (nothing to touch) once the writer froze. */
static int enter(void)
{
    struct gate *g = &trace_.gates[tupc_impl_mythread];
    atomic_store_explicit(&g->held, 1, memory_order_seq_cst);
    if (!atomic_load_explicit(&trace_.frozen, memory_order_seq_cst))
        return 1;
    atomic_store_explicit(&g->held, 0, memory_order_relaxed);
    return 0;
}

static void leave(void)
{
    atomic_store_explicit(&trace_.gates[tupc_impl_mythread].held, 0, memory_order_release);
}

/* Closes the entrance and waits until no thread is inside: from then on
 * the tracks and the stats are the writer's alone. */
static void freeze(void)
{
    atomic_store_explicit(&trace_.frozen, 1, memory_order_seq_cst);
    for (int t = 0; t < trace_.ntracks; t++)
        while (atomic_load_explicit(&trace_.gates[t].held, memory_order_seq_cst))
            sched_yield(); /* a thread inside appends one event: it leaves soon */
}

uint64_t tupc_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Events are kept only for a trace file; the summary alone needs none. */
static struct event *append(struct track *t)
{
    if (!trace_.out)
        return NULL;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        struct event *ev = t->n < MAX_EVENTS ? realloc(t->ev, cap * sizeof *ev) : NULL;
        if (!ev) {
            t->dropped++;
            return NULL;
        }
        t->ev = ev;
        t->cap = cap;
    }
    return &t->ev[t->n++];
}

int tupc_trace_push_(const char *name, uint64_t bytes, int flags, int team)
{
    int d = tupc_trace_depth_;
    if (!enter()) {
        tupc_trace_depth_ = d + 1;
        return d;
    }
    struct track *t = &trace_.tracks[tupc_impl_mythread];
    struct event *e = d < 8 ? append(t) : NULL;
    if (d < 8) {
        t->open[d] = e ? (int)(e - t->ev) : -1;
        t->outer[d] = tupc_trace_in_;
    }
    tupc_trace_in_ = name;
    tupc_trace_depth_ = d + 1;
    uint64_t now = tupc_trace_now() - trace_.origin;
    tupc_stats_open(d, name, bytes, now);
    if (e)
        *e = (struct event){now, 0, name, bytes, flags, team, -1, KIND_SPAN};
    leave();
    return d;
}

void tupc_trace_pop_(int depth)
{
    if (!enter()) {
        tupc_trace_depth_ = depth;
        return;
    }
    struct track *t = &trace_.tracks[tupc_impl_mythread];
    uint64_t now = tupc_trace_now() - trace_.origin;
    for (int d = tupc_trace_depth_ - 1; d >= depth; d--) {
        if (d < 8 && t->open[d] >= 0)
            t->ev[t->open[d]].t1 = now;
        tupc_stats_close(d, now);
    }
    if (depth < 8)
        tupc_trace_in_ = t->outer[depth];
    tupc_trace_depth_ = depth;
    leave();
}

void tupc_trace_wait(uint64_t t0, int peer)
{
    if (tupc_trace_depth_ == 0)
        return; /* a wait outside any span: the library's own, at run end */
    if (!enter())
        return;
    uint64_t now = tupc_trace_now();
    tupc_stats_wait(tupc_trace_depth_, now - t0, peer);
    struct event *e = append(&trace_.tracks[tupc_impl_mythread]);
    if (e)
        *e = (struct event){t0 - trace_.origin, now - trace_.origin, "wait", 0, -1, -1, peer,
                            KIND_WAIT};
    if (peer < 0) {
        unblamed.depth = tupc_trace_depth_;
        unblamed.ns = now - t0;
        unblamed.e = e;
    }
    leave();
}

/* The wait's observer (sync/wait.h): the slow path of each wait, spins
 * included, is a wait span. Registered while the trace is on. */
static void wait_begins(struct tupc_wait_event *e)
{
    e->t0 = tupc_trace_now();
}

static void wait_ends(struct tupc_wait_event *e)
{
    tupc_trace_wait(e->t0, e->peer);
}

static const struct tupc_wait_observer waits = {.begin = wait_begins, .end = wait_ends};

void tupc_trace_blame_start(void)
{
    unblamed.depth = 0;
}

void tupc_trace_blame(int peer)
{
    if (!unblamed.depth || peer < 0 || !enter())
        return;
    tupc_stats_blame(unblamed.depth, unblamed.ns, peer);
    if (unblamed.e)
        unblamed.e->peer = peer;
    unblamed.depth = 0;
    leave();
}

int tupc_trace_start(int threads, const char *path, int stats, char *err, size_t errlen)
{
    if (!path && !stats)
        return 0;
    if (path && !(trace_.out = fopen(path, "w"))) {
        snprintf(err, errlen, "TUPC_TRACE is \"%s\", which cannot be opened for writing: %s", path,
                 strerror(errno));
        return -1;
    }
    trace_.tracks = calloc((size_t)threads, sizeof *trace_.tracks);
    trace_.gates = calloc((size_t)threads, sizeof *trace_.gates);
    if (!trace_.tracks || !trace_.gates || tupc_stats_start(threads, stats, err, errlen) != 0) {
        if (trace_.out)
            fclose(trace_.out);
        trace_.out = NULL;
        free(trace_.tracks);
        trace_.tracks = NULL;
        free(trace_.gates);
        trace_.gates = NULL;
        if (!err[0])
            snprintf(err, errlen, "TUPC_TRACE: out of memory");
        return -1;
    }
    trace_.ntracks = threads;
    atomic_store_explicit(&trace_.frozen, 0, memory_order_relaxed); /* before the threads start */
    trace_.out_path = path;
    trace_.origin = tupc_trace_now();
    atomic_store_explicit(&tupc_trace_on_, 1, memory_order_relaxed);
    (void)tupc_wait_observe(&waits); /* two observers at most: room */
    return 0;
}

/* Sync flags as text, for the args of a span. */
static void flag_text(int flags, char *buf, size_t len)
{
    static const char *const names[] = {"IN_NOSYNC",  "IN_MYSYNC",  "IN_ALLSYNC",
                                        "OUT_NOSYNC", "OUT_MYSYNC", "OUT_ALLSYNC"};
    buf[0] = '\0';
    for (int b = 0; b < 6; b++)
        if (flags & (1 << b))
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "|" : "", names[b]);
    if (flags & ~0x3f)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s0x%x", buf[0] ? "|" : "", flags & ~0x3f);
}

static void write_event(FILE *f, int tid, const struct event *e, int *first)
{
    /* Microseconds with ns precision, as the format's ts and dur are. */
    fprintf(f,
            "%s\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
            "\"ts\":%.3f,\"dur\":%.3f,\"args\":{",
            *first ? "" : ",", e->name, e->kind == KIND_WAIT ? "wait" : "call", tid,
            (double)e->t0 / 1e3, (double)(e->t1 > e->t0 ? e->t1 - e->t0 : 0) / 1e3);
    *first = 0;
    int comma = 0;
    if (e->kind == KIND_WAIT) {
        if (e->peer >= 0)
            fprintf(f, "\"for_thread\":%d", e->peer);
        fputs("}}", f);
        return;
    }
    if (e->bytes) {
        fprintf(f, "\"bytes\":%llu", (unsigned long long)e->bytes);
        comma = 1;
    }
    if (e->flags >= 0) {
        char fl[96];
        flag_text(e->flags, fl, sizeof fl);
        fprintf(f, "%s\"flags\":\"%s\"", comma ? "," : "", fl);
        comma = 1;
    }
    if (e->team >= 0)
        fprintf(f, "%s\"team\":%d", comma ? "," : "", e->team);
    fputs("}}", f);
}

/* Writes the file and prints the summary; the tracks are the caller's
 * alone (joined threads, or frozen ones). */
static int write_all(char *err, size_t errlen)
{
    atomic_store_explicit(&tupc_trace_on_, 0, memory_order_relaxed);
    tupc_wait_unobserve(&waits);
    int rc = 0;
    FILE *f = trace_.out;
    trace_.out = NULL;
    tupc_stats_finish(stderr, tupc_trace_now() - trace_.origin);
    if (f) {
        int first = 1;
        size_t dropped = 0;
        /* Spans of threads that left in the middle of a call (a stopped
         * run) end where the run did. */
        uint64_t end = tupc_trace_now() - trace_.origin;
        for (int t = 0; t < trace_.ntracks; t++)
            for (size_t i = 0; i < trace_.tracks[t].n; i++)
                if (trace_.tracks[t].ev[i].t1 < trace_.tracks[t].ev[i].t0)
                    trace_.tracks[t].ev[i].t1 = end;
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
        fprintf(f,
                "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":"
                "\"tupc run, %d THREADS\"}}",
                trace_.ntracks);
        first = 0;
        for (int t = 0; t < trace_.ntracks; t++) {
            fprintf(f,
                    ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
                    "\"args\":{\"name\":\"thread %d\"}}",
                    t, t);
            for (size_t i = 0; i < trace_.tracks[t].n; i++)
                write_event(f, t, &trace_.tracks[t].ev[i], &first);
            dropped += trace_.tracks[t].dropped;
        }
        fprintf(f, "\n],\"otherData\":{\"threads\":%d,\"dropped_events\":%zu}}\n", trace_.ntracks,
                dropped);
        if (fclose(f) != 0) {
            snprintf(err, errlen, "TUPC_TRACE: cannot write \"%s\"", trace_.out_path);
            rc = -1;
        }
    }
    return rc;
}

int tupc_trace_finish(char *err, size_t errlen)
{
    if (!trace_.tracks)
        return 0;
    int rc = write_all(err, errlen);
    tupc_stats_free();
    for (int t = 0; t < trace_.ntracks; t++)
        free(trace_.tracks[t].ev);
    free(trace_.tracks);
    trace_.tracks = NULL;
    free(trace_.gates);
    trace_.gates = NULL;
    trace_.ntracks = 0;
    return rc;
}

int tupc_trace_finish_live(char *err, size_t errlen)
{
    if (!trace_.tracks)
        return 0;
    freeze();
    /* Nothing is freed: a thread still running may look at its gate; the
     * process exits next. */
    return write_all(err, errlen);
}
