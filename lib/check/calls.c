#include "check/calls.h"

#include "check/error.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local struct tupc_calls_self tupc_calls_self_ __attribute__((tls_model("initial-exec")));

static struct tupc_calls_thread *log_of;

int tupc_calls_init(int threads)
{
    log_of = aligned_alloc(64, sizeof *log_of * (size_t)threads);
    if (!log_of)
        return -1;
    memset(log_of, 0, sizeof *log_of * (size_t)threads);
    return 0;
}

void tupc_calls_fini(void)
{
    free(log_of);
    log_of = NULL;
}

void tupc_calls_thread_start(int thread)
{
    tupc_calls_self_ = (struct tupc_calls_self){.mine = &log_of[thread]};
}

void tupc_calls_note_barrier(const char *func)
{
    struct tupc_calls_self *s = &tupc_calls_self_;
    atomic_store_explicit(&s->mine->barrier, func, memory_order_relaxed);
    /* Release: a thread that sees the episode (acquire) sees the name, and
     * every counter this thread set before it. */
    atomic_store_explicit(&s->mine->episode, ++s->episode, memory_order_release);
}

/* Call n of a thread's ring, or 0 when the ring no longer (or never) held it. */
static int rec_of(const struct tupc_calls_thread *t, uint32_t n, const char **func, uint64_t *args)
{
    const struct tupc_call_rec *r = &t->ring[n % TUPC_CALLS_RING];
    if (atomic_load_explicit(&r->n, memory_order_acquire) != n)
        return 0;
    *func = atomic_load_explicit(&r->func, memory_order_relaxed);
    *args = atomic_load_explicit(&r->args, memory_order_relaxed);
    return 1;
}

/* Calls thread t has made, as far as its ring tells. */
static uint32_t calls_made(const struct tupc_calls_thread *t)
{
    uint32_t most = 0;
    for (int i = 0; i < TUPC_CALLS_RING; i++) {
        uint32_t n = atomic_load_explicit(&t->ring[i].n, memory_order_acquire);
        if ((int32_t)(n - most) > 0)
            most = n;
    }
    return most;
}

static int same_func(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

void tupc_calls_differ(const char *func, int j)
{
    const struct tupc_calls_thread *me = tupc_calls_self_.mine, *other = &log_of[j];
    uint32_t nm = tupc_calls_self_.n, nj = calls_made(other);
    uint32_t hi = (int32_t)(nm - nj) > 0 ? nm : nj;
    uint32_t lo = hi > TUPC_CALLS_RING ? hi - TUPC_CALLS_RING + 1 : 1;
    for (uint32_t s = lo; s != hi + 1; s++) {
        const char *fm = NULL, *fj = NULL;
        uint64_t am = 0, aj = 0;
        int has_m = s <= nm && rec_of(me, s, &fm, &am);
        int has_j = s <= nj && rec_of(other, s, &fj, &aj);
        if (has_m && has_j && same_func(fm, fj) && am == aj)
            continue;
        if (has_m && has_j && !same_func(fm, fj))
            tupc_fail(func, "UPC 1.3 7.4 para 3",
                      "thread %d called %s as collective call %u, where this thread called %s; "
                      "expected every thread to make the same sequence of collective calls",
                      j, fj, (unsigned)s, fm);
        if (has_m && has_j)
            tupc_fail(func, "UPC 1.3 7.4 para 4",
                      "thread %d passed other arguments or flags to %s (collective call %u) than "
                      "this thread; expected single-valued arguments, the same on every thread",
                      j, fm, (unsigned)s);
        if (has_m && s > nj)
            tupc_fail(func, "UPC 1.3 7.4 para 3",
                      "thread %d has made %u collective calls where this thread has made %u: it "
                      "did not call %s (collective call %u); expected every thread to make the "
                      "same sequence of collective calls",
                      j, (unsigned)nj, (unsigned)nm, fm, (unsigned)s);
        if (has_j && s > nm)
            tupc_fail(func, "UPC 1.3 7.4 para 3",
                      "thread %d called %s as collective call %u, which this thread has not "
                      "made (it has made %u); expected every thread to make the same sequence "
                      "of collective calls",
                      j, fj, (unsigned)s, (unsigned)nm);
        break; /* the ring moved on under us: no details */
    }
    tupc_fail(func, "UPC 1.3 7.4 para 3 and 4",
              "thread %d made other collective calls than this thread, or passed other arguments "
              "or flags, more than %d calls back (it has made %u calls, this thread %u); expected "
              "every thread to make the same collective calls with the same single-valued "
              "arguments",
              j, TUPC_CALLS_RING, (unsigned)nj, (unsigned)nm);
}

int tupc_calls_peer_ahead(int peer)
{
    uint32_t e = atomic_load_explicit(&log_of[peer].episode, memory_order_acquire);
    return (int32_t)(e - tupc_calls_self_.episode) > 0;
}

void tupc_calls_fail_ahead(int peer, const char *func)
{
    const char *b = atomic_load_explicit(&log_of[peer].barrier, memory_order_relaxed);
    uint32_t e = atomic_load_explicit(&log_of[peer].episode, memory_order_relaxed);
    const char *how = b && strcmp(b, "upc_notify") == 0 ? "has called" : "is in";
    tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3",
              "thread %d %s %s (barrier %u) while this thread waits for it in %s (collective "
              "call %u); expected every thread to reach the same barriers and collective calls",
              peer, how, b ? b : "a barrier", (unsigned)e, func, (unsigned)tupc_calls_self_.n);
}
