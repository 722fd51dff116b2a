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

const struct tupc_calls_thread *tupc_calls_of(int thread)
{
    return &log_of[thread];
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

/* Writes how thread j's calls differ from those of thread a (named
 * `a_name`, which has made na calls) into buf; returns the section. */
static const char *describe(char *buf, size_t len, const struct tupc_calls_thread *a, uint32_t na,
                            const char *a_name, int j)
{
    const struct tupc_calls_thread *other = &log_of[j];
    uint32_t nj = calls_made(other);
    uint32_t hi = (int32_t)(na - nj) > 0 ? na : nj;
    uint32_t lo = hi > TUPC_CALLS_RING ? hi - TUPC_CALLS_RING + 1 : 1;
    for (uint32_t s = lo; s != hi + 1; s++) {
        const char *fa = NULL, *fj = NULL;
        uint64_t aa = 0, aj = 0;
        int has_a = s <= na && rec_of(a, s, &fa, &aa);
        int has_j = s <= nj && rec_of(other, s, &fj, &aj);
        if (has_a && has_j && same_func(fa, fj) && aa == aj)
            continue;
        if (has_a && has_j && !same_func(fa, fj)) {
            snprintf(buf, len,
                     "thread %d called %s as collective call %u, where %s called %s; expected "
                     "every thread to make the same sequence of collective calls",
                     j, fj, (unsigned)s, a_name, fa);
            return "UPC 1.3 7.4 para 3";
        }
        if (has_a && has_j) {
            snprintf(buf, len,
                     "thread %d passed other arguments or flags to %s (collective call %u) than "
                     "%s; expected single-valued arguments, the same on every thread",
                     j, fa, (unsigned)s, a_name);
            return "UPC 1.3 7.4 para 4";
        }
        if (has_a && s > nj) {
            snprintf(buf, len,
                     "thread %d has made %u collective calls where %s has made %u: it did not "
                     "call %s (collective call %u); expected every thread to make the same "
                     "sequence of collective calls",
                     j, (unsigned)nj, a_name, (unsigned)na, fa, (unsigned)s);
            return "UPC 1.3 7.4 para 3";
        }
        if (has_j && s > na) {
            snprintf(buf, len,
                     "thread %d called %s as collective call %u, which %s has not made (it has "
                     "made %u); expected every thread to make the same sequence of collective "
                     "calls",
                     j, fj, (unsigned)s, a_name, (unsigned)na);
            return "UPC 1.3 7.4 para 3";
        }
        break; /* the ring moved on under us: no details */
    }
    snprintf(buf, len,
             "thread %d made other collective calls than %s, or passed other arguments or "
             "flags, more than %d calls back (it has made %u calls, %s %u); expected every "
             "thread to make the same collective calls with the same single-valued arguments",
             j, a_name, TUPC_CALLS_RING, (unsigned)nj, a_name, (unsigned)na);
    return "UPC 1.3 7.4 para 3 and 4";
}

void tupc_calls_differ(const char *func, int j)
{
    char msg[600];
    const char *sec =
        describe(msg, sizeof msg, tupc_calls_self_.mine, tupc_calls_self_.n, "this thread", j);
    tupc_fail(func, sec, "%s", msg);
}

void tupc_calls_thread_end(void)
{
    struct tupc_calls_self *s = &tupc_calls_self_;
    /* Relaxed: read after pthread_join, which orders them. */
    atomic_store_explicit(&s->mine->end_n, s->n, memory_order_relaxed);
    atomic_store_explicit(&s->mine->end_sig, s->sig, memory_order_relaxed);
}

int tupc_calls_check_end(int threads, char *buf, size_t len)
{
    const struct tupc_calls_thread *t0 = &log_of[0];
    uint64_t sig0 = atomic_load_explicit(&t0->end_sig, memory_order_relaxed);
    uint32_t n0 = atomic_load_explicit(&t0->end_n, memory_order_relaxed);
    for (int t = 1; t < threads; t++) {
        if (atomic_load_explicit(&log_of[t].end_sig, memory_order_relaxed) == sig0 &&
            atomic_load_explicit(&log_of[t].end_n, memory_order_relaxed) == n0)
            continue;
        char msg[600];
        const char *sec = describe(msg, sizeof msg, t0, n0, "thread 0", t);
        snprintf(buf, len,
                 "when the threads ended (an implicit barrier, UPC 1.3 3 \"program "
                 "termination\"): %s (%s)",
                 msg, sec);
        return 1;
    }
    return 0;
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
