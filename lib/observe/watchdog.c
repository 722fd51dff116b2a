#include "observe/watchdog.h"

#include "check/calls.h"
#include "check/error.h"
#include "observe/trace.h"
#include "runtime/runtime.h"
#include "sync/wait.h"
#if TUPC_HAVE_MPI
#include "mpi/layer.h"
#endif

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct tupc_watch *tupc_watch_;

/* The watchdog's thread and what it was started with. */
static struct watchdog_state {
    int timeout_s;
    pthread_t thread;
    int running;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop; /* under lock */
} dog_ = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The wait's observer (sync/wait.h): a wait goes to sleep, and ends after
 * sleeping. Registered while tupc_watch_ exists. */
static void wait_sleeps(struct tupc_wait_event *e)
{
    struct tupc_watch *w = &tupc_watch_[tupc_impl_mythread];
    atomic_store_explicit(&w->func, e->func, memory_order_relaxed);
    atomic_store_explicit(&w->peer, e->peer, memory_order_relaxed);
    atomic_store_explicit(&w->since, now_ns(), memory_order_relaxed);
}

static void wait_woke(struct tupc_wait_event *e)
{
    (void)e;
    struct tupc_watch *w = &tupc_watch_[tupc_impl_mythread];
    uint64_t t = now_ns();
    atomic_store_explicit(&w->since, 0, memory_order_relaxed);
    atomic_store_explicit(&w->last, t, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->waits, 1, memory_order_relaxed);
}

static const struct tupc_wait_observer sleeps = {.sleep = wait_sleeps, .woke = wait_woke};

void tupc_watch_lock(int ahead)
{
    if (tupc_watch_)
        atomic_store_explicit(&tupc_watch_[tupc_impl_mythread].lock_ahead, ahead,
                              memory_order_relaxed);
}

/* A number that changes whenever any thread makes progress. */
static uint64_t progress(void)
{
    uint64_t p = 0;
    for (int t = 0; t < tupc_run_.threads; t++) {
        struct tupc_call_copy c = {0};
        p += atomic_load_explicit(&tupc_watch_[t].waits, memory_order_relaxed);
        p += atomic_load_explicit(&tupc_calls_of(t)->episode, memory_order_relaxed);
        p += tupc_calls_last(t, &c) + c.seq; /* a run of alike calls keeps its key */
        p += (uint64_t)atomic_load_explicit(&tupc_run_.gone[t], memory_order_relaxed) << 32;
    }
    return p;
}

/* Whether thread t runs in this process (across MPI processes, another
 * process's threads are its own watchdog's to report: this one sees
 * nothing of them). */
static int here(int t)
{
    return t >= tupc_first_thread_ && t < tupc_first_thread_ + tupc_local_threads_;
}

/* One line per thread: where it is and since when. Returns 1 if a thread
 * runs user code, which the stop flag cannot reach. */
static int report_threads(FILE *f, uint64_t t_now, uint64_t start)
{
    int in_user = 0;
    for (int t = 0; t < tupc_run_.threads; t++) {
        if (!here(t)) {
            fprintf(f, "tupc:   thread %d: in another process, whose report names its state\n", t);
            continue;
        }
        const struct tupc_watch *w = &tupc_watch_[t];
        uint64_t since = atomic_load_explicit(&w->since, memory_order_relaxed);
        const char *func = atomic_load_explicit(&w->func, memory_order_relaxed), *cf = NULL;
        int peer = atomic_load_explicit(&w->peer, memory_order_relaxed);
        int ahead = atomic_load_explicit(&w->lock_ahead, memory_order_relaxed);
        uint32_t calls = tupc_calls_made(t, 0);
        struct tupc_call_copy last;
        char lastd[300] = "";
        if (tupc_calls_last(t, &last)) {
            cf = last.func;
            tupc_calls_format(&last, lastd, sizeof lastd);
        }
        uint32_t ep = atomic_load_explicit(&tupc_calls_of(t)->episode, memory_order_relaxed);
        const char *bar = atomic_load_explicit(&tupc_calls_of(t)->barrier, memory_order_relaxed);
        fprintf(f, "tupc:   thread %d: ", t);
        if (atomic_load_explicit(&tupc_run_.gone[t], memory_order_relaxed)) {
            fprintf(f, "returned from its entry function\n");
            continue;
        }
        if (!since) {
            in_user = 1;
            uint64_t last = atomic_load_explicit(&w->last, memory_order_relaxed);
            fprintf(f, "running user code, %.1f s since it last waited in the library",
                    (double)(t_now - (last ? last : start)) / 1e9);
        } else if (ahead >= 0) {
            fprintf(f, "in upc_lock for %.1f s, queued behind thread %d", (t_now - since) / 1e9,
                    ahead);
        } else {
            fprintf(f, "in %s for %.1f s",
                    func ? func
                    : cf ? cf
                         : "the library",
                    (double)(t_now - since) / 1e9);
            if (peer >= 0)
                fprintf(f, ", waiting for thread %d", peer);
        }
        fprintf(f, " (%u barriers notified%s%s, %u collective calls%s%s%s%s%s)\n", ep,
                bar ? ", the last by " : "", bar ? bar : "", calls, cf ? "; the last call " : "",
                cf ? cf : "", cf ? " (" : "", lastd, cf ? ")" : "");
    }
    return in_user;
}

/* Who waits for whom, from what the threads have reached. */
static void report_waits(FILE *f)
{
    for (int t = 0; t < tupc_run_.threads; t++) {
        const struct tupc_watch *w = &tupc_watch_[t];
        if (!here(t) || !atomic_load_explicit(&w->since, memory_order_relaxed))
            continue;
        int ahead = atomic_load_explicit(&w->lock_ahead, memory_order_relaxed);
        if (ahead >= 0) {
            fprintf(f, "tupc:   thread %d -> thread %d: upc_lock, queued behind it\n", t, ahead);
            continue;
        }
        uint32_t calls = tupc_calls_made(t, 0);
        uint32_t ep = atomic_load_explicit(&tupc_calls_of(t)->episode, memory_order_relaxed);
        int shown = 0;
        for (int u = 0; u < tupc_run_.threads && shown < 8; u++) {
            if (u == t || !here(u))
                continue;
            uint32_t uep = atomic_load_explicit(&tupc_calls_of(u)->episode, memory_order_relaxed);
            uint32_t ucalls = tupc_calls_made(u, 0);
            if (ucalls < calls)
                fprintf(f,
                        "tupc:   thread %d -> thread %d: it has made %u collective calls, "
                        "this thread %u\n",
                        t, u, ucalls, calls);
            else if (uep < ep)
                fprintf(f,
                        "tupc:   thread %d -> thread %d: it has notified %u barriers, this "
                        "thread %u\n",
                        t, u, uep, ep);
            else
                continue;
            shown++;
        }
    }
}

static void report(uint64_t start)
{
    uint64_t t_now = now_ns();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    fprintf(f,
            "tupc: tupc_run: no thread has made progress for %d s (TUPC_HANG_TIMEOUT, which a "
            "program that computes longer between barriers raises, and 0 turns off): the "
            "program hangs; expected every thread to reach the same barriers, collective calls "
            "and lock releases (UPC 1.3 6.6.1, 7.2.4, 7.4)\n",
            dog_.timeout_s);
    int in_user = report_threads(f, t_now, start);
    report_waits(f);
    /* A thread in user code may be computing, not stuck: nothing tells a
     * long computation from a loop that waits on a flag nobody will set, so
     * the report stands and says how to wait longer. */
    if (in_user)
        fprintf(f, "tupc:   a thread running user code may be computing rather than stuck: if so, "
                   "set TUPC_HANG_TIMEOUT (seconds) above its longest time between barriers\n");
    fclose(f);
    /* A thread running user code never looks at the stop flag, so the run
     * could not end: the process does. Quiet or not, it says why. */
    int must_exit = in_user || !tupc_run_.return_on_error;
    if (tupc_record_error_(buf) && (!tupc_run_.quiet || must_exit))
        fputs(buf, stderr);
    char first[1020]; /* the report's first line, for the other processes */
    snprintf(first, sizeof first, "%.*s", (int)strcspn(buf, "\n"), buf);
    free(buf);
    if (must_exit) {
        if (in_user && tupc_run_.return_on_error)
            fputs("tupc:   a thread never returns to the library, so the run cannot end: the "
                  "process exits\n",
                  stderr);
        /* The threads still run (in a wait, or in user code, which may
         * call the library again): the trace is written behind its gates. */
        char terr[200];
        if (tupc_trace_finish_live(terr, sizeof terr) != 0)
            fprintf(stderr, "tupc: %s\n", terr);
        fflush(NULL);
        _exit(1);
    }
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) /* the other processes' runs stop too (mpi/stop.c) */
        tupc_mpi_stop_others(TUPC_RUN_ERROR, first);
#else
    (void)first;
#endif
    tupc_stop_run(TUPC_RUN_ERROR);
}

static void *watch(void *arg)
{
    (void)arg;
    uint64_t start = now_ns(), last_change = start, seen = progress();
    uint64_t period = (uint64_t)dog_.timeout_s * 1000000000u / 8;
    pthread_mutex_lock(&dog_.lock);
    while (!dog_.stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t at = (uint64_t)ts.tv_nsec + period;
        ts.tv_sec += (time_t)(at / 1000000000u);
        ts.tv_nsec = (long)(at % 1000000000u);
        pthread_cond_timedwait(&dog_.wake, &dog_.lock, &ts);
        if (dog_.stop)
            break;
        uint64_t p = progress(), t = now_ns();
        if (p != seen) {
            seen = p;
            last_change = t;
            continue;
        }
        int waiting = 0;
        for (int u = 0; u < tupc_run_.threads; u++)
            waiting |= atomic_load_explicit(&tupc_watch_[u].since, memory_order_relaxed) != 0;
        if (waiting && t - last_change >= (uint64_t)dog_.timeout_s * 1000000000u &&
            !atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed)) {
            pthread_mutex_unlock(&dog_.lock);
            report(start);
            return NULL;
        }
    }
    pthread_mutex_unlock(&dog_.lock);
    return NULL;
}

int tupc_watchdog_start(int threads, int timeout, char *err, size_t errlen)
{
    dog_.timeout_s = timeout;
    /* Aligned: one line per thread, as the struct says. */
    tupc_watch_ = aligned_alloc(64, sizeof *tupc_watch_ * (size_t)threads);
    if (tupc_watch_)
        memset(tupc_watch_, 0, sizeof *tupc_watch_ * (size_t)threads);
    if (!tupc_watch_) {
        snprintf(err, errlen, "out of memory for the watchdog of %d threads", threads);
        return -1;
    }
    for (int t = 0; t < threads; t++)
        atomic_store_explicit(&tupc_watch_[t].lock_ahead, -1, memory_order_relaxed);
    (void)tupc_wait_observe(&sleeps); /* two observers at most: room */
    if (timeout <= 0)
        return 0;
    dog_.stop = 0;
    int rc = pthread_create(&dog_.thread, NULL, watch, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start the hang watchdog: %s", strerror(rc));
        return -1;
    }
    dog_.running = 1;
    return 0;
}

void tupc_watchdog_stop(void)
{
    if (dog_.running) {
        pthread_mutex_lock(&dog_.lock);
        dog_.stop = 1;
        pthread_cond_signal(&dog_.wake);
        pthread_mutex_unlock(&dog_.lock);
        pthread_join(dog_.thread, NULL);
        dog_.running = 0;
    }
    tupc_wait_unobserve(&sleeps);
    free(tupc_watch_);
    tupc_watch_ = NULL;
}
