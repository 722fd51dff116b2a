#include "check/calls.h"

#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local struct tupc_calls_self tupc_calls_self_ __attribute__((tls_model("initial-exec")));

static struct tupc_calls_thread *log_of;

/* The waits' policy (sync/wait.h): a peer that sits in a barrier this
 * thread has not reached can never end this thread's wait. */
static void fail_ahead(int peer, const char *func)
{
    tupc_calls_fail_ahead(peer, func);
}
static const struct tupc_wait_policy ledger = {tupc_calls_peer_ahead, fail_ahead};

int tupc_calls_init(int threads)
{
    log_of = aligned_alloc(64, sizeof *log_of * (size_t)threads);
    if (!log_of)
        return -1;
    memset(log_of, 0, sizeof *log_of * (size_t)threads);
    tupc_wait_set_policy(&ledger);
    return 0;
}

const struct tupc_calls_thread *tupc_calls_of(int thread)
{
    return &log_of[thread];
}

void tupc_calls_fini(void)
{
    tupc_wait_set_policy(NULL);
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

void tupc_calls_new_run_(struct tupc_calls_self *s, const char *func, uint64_t args,
                         uint64_t teamflags, uint32_t seq)
{
    uint32_t rec = ++s->rec;
    struct tupc_call_rec *r = &s->mine->ring[rec % TUPC_CALLS_RING];
    atomic_store_explicit(&r->keyseq, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&r->func, func, memory_order_relaxed);
    atomic_store_explicit(&r->args, args, memory_order_relaxed);
    atomic_store_explicit(&r->teamflags, teamflags, memory_order_relaxed);
    atomic_store_explicit(&r->first, seq, memory_order_relaxed);
    /* Release: a reader that sees the key (acquire) sees the entry. */
    atomic_store_explicit(&r->keyseq, (uint64_t)seq << 32 | rec, memory_order_release);
    s->run = r;
    s->run_func = func;
    s->run_args = args;
    s->run_teamflags = teamflags;
    s->run_last = seq;
}

void tupc_calls_keep_(struct tupc_calls_self *s, uint64_t h, const char *names, const uint64_t *v)
{
    if (!s->mine)
        return;
    s->kept = h;
    struct tupc_call_vals *e = &s->mine->vals[(h >> 58) % TUPC_CALL_VALS];
    if (atomic_load_explicit(&e->key, memory_order_relaxed) == h)
        return; /* kept already */
    atomic_store_explicit(&e->key, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release); /* as in tupc_calls_record_ */
    atomic_store_explicit(&e->names, names, memory_order_relaxed);
    for (int i = 0; i < TUPC_CALL_ARGS; i++)
        atomic_store_explicit(&e->v[i], v[i], memory_order_relaxed);
    atomic_store_explicit(&e->key, h, memory_order_release);
}

/* The values kept under key raw in thread t's table, if still there:
 * the seqlock's reader side. */
static void read_vals(const struct tupc_calls_thread *t, uint64_t raw, struct tupc_call_copy *c)
{
    c->names = NULL;
    if (!raw)
        return;
    const struct tupc_call_vals *e = &t->vals[(raw >> 58) % TUPC_CALL_VALS];
    if (atomic_load_explicit(&e->key, memory_order_acquire) != raw)
        return;
    const char *names = atomic_load_explicit(&e->names, memory_order_relaxed);
    for (int v = 0; v < TUPC_CALL_ARGS; v++)
        c->v[v] = atomic_load_explicit(&e->v[v], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&e->key, memory_order_relaxed) == raw)
        c->names = names;
}

/* Entry i of thread t's ring, if it holds a whole record: the seqlock's
 * reader side (see tupc_calls_record_). */
static int read_entry(const struct tupc_calls_thread *t, int i, uint32_t *key,
                      struct tupc_call_copy *c)
{
    const struct tupc_call_rec *r = &t->ring[i];
    uint64_t ks = atomic_load_explicit(&r->keyseq, memory_order_acquire);
    if (!(uint32_t)ks)
        return 0;
    uint64_t tf = atomic_load_explicit(&r->teamflags, memory_order_relaxed);
    c->seq = (uint32_t)(ks >> 32);
    c->first = atomic_load_explicit(&r->first, memory_order_relaxed);
    c->team = (int)(uint32_t)(tf >> 32);
    c->flags = (unsigned)(uint32_t)tf;
    c->func = atomic_load_explicit(&r->func, memory_order_relaxed);
    c->args = atomic_load_explicit(&r->args, memory_order_relaxed);
    /* Pairs with the writer's release fence after it clears the key: had
     * we read a value of a newer record, the key reads 0 or newer now. */
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&r->keyseq, memory_order_relaxed) != ks)
        return 0;
    /* The values' key: args is tupc_sig(key, flags). */
    read_vals(t, tupc_sig_unfold(c->args, c->flags), c);
    *key = (uint32_t)ks;
    return 1;
}

/* Call seq on team `team` of thread t, or 0 when the ring no longer (or
 * never) held it. */
static int rec_of(const struct tupc_calls_thread *t, int team, uint32_t seq,
                  struct tupc_call_copy *c)
{
    uint32_t key;
    for (int i = 0; i < TUPC_CALLS_RING; i++)
        if (read_entry(t, i, &key, c) && c->team == team && (int32_t)(seq - c->first) >= 0 &&
            (int32_t)(c->seq - seq) >= 0) {
            c->seq = seq;
            return 1;
        }
    return 0;
}

/* Calls thread t has made on team `team`, as far as its ring tells. */
static uint32_t calls_made(const struct tupc_calls_thread *t, int team)
{
    uint32_t most = 0, key;
    struct tupc_call_copy c;
    for (int i = 0; i < TUPC_CALLS_RING; i++)
        if (read_entry(t, i, &key, &c) && c.team == team && (int32_t)(c.seq - most) > 0)
            most = c.seq;
    return most;
}

uint32_t tupc_calls_made(int t, int team)
{
    return calls_made(&log_of[t], team);
}

uint32_t tupc_calls_last(int t, struct tupc_call_copy *c)
{
    uint32_t best = 0, key;
    struct tupc_call_copy x;
    for (int i = 0; i < TUPC_CALLS_RING; i++)
        if (read_entry(&log_of[t], i, &key, &x) && (int32_t)(key - best) > 0) {
            best = key;
            *c = x;
        }
    return best;
}

static int same_func(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The i-th name of a names list, into buf without its prefix; returns
 * the prefix ('\0' when none) or -1 past the end. */
static int name_at(const char *names, int i, char *buf, size_t len)
{
    const char *p = names;
    for (; p && i > 0; i--) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return -1;
    int kind = *p == '*' || *p == '&' || *p == '#' ? *p++ : 0;
    size_t n = strcspn(p, ",");
    if (n >= len)
        n = len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return kind;
}

static void put_value(char *buf, size_t len, int kind, uint64_t v)
{
    if (kind == '*') {
        uintptr_t off = (uintptr_t)v - (uintptr_t)tupc_heap_base_;
        if (v && tupc_heap_base_ && tupc_impl_partition_size &&
            off < (uintptr_t)tupc_impl_threads * tupc_impl_partition_size)
            snprintf(buf, len, "byte %zu of thread %zu's partition",
                     (size_t)(off % tupc_impl_partition_size),
                     (size_t)(off / tupc_impl_partition_size));
        else
            snprintf(buf, len, "%#" PRIx64 " (not in the shared heap)", v);
    } else if (kind == '&') {
        snprintf(buf, len, "function %#" PRIx64, v);
    } else if (kind == '#') {
        snprintf(buf, len, "%#" PRIx64, v);
    } else {
        snprintf(buf, len, "%" PRIu64, v);
    }
}

/* The sync flags (and _x mode bits) as the names a program writes. */
static void put_flags(char *buf, size_t len, unsigned f)
{
    static const char *const bit[] = {"UPC_IN_NOSYNC",
                                      "UPC_IN_MYSYNC",
                                      "UPC_IN_ALLSYNC",
                                      "UPC_OUT_NOSYNC",
                                      "UPC_OUT_MYSYNC",
                                      "UPC_OUT_ALLSYNC",
                                      "UPC_PUSH",
                                      "UPC_PULL",
                                      "UPC_IN_PLACE",
                                      "UPC_ASYNC",
                                      "UPC_EXCLUSIVE_PREFIX_REDUCE"};
    const unsigned n = sizeof bit / sizeof bit[0];
    if (!f) {
        snprintf(buf, len, "0 (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)");
        return;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && at < len; i++)
        if (f & (1u << i))
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " | " : "", bit[i]);
    if (at < len && (f >> n))
        snprintf(buf + at, len - at, "%s%#x", at ? " | " : "", f & ~((1u << n) - 1));
}

const char *(*tupc_calls_team_namer)(int team, char *buf, size_t len);

static const char *team_name(int team, char *buf, size_t len)
{
    if (tupc_calls_team_namer)
        return tupc_calls_team_namer(team, buf, len);
    snprintf(buf, len, "team %d", team);
    return buf;
}

void tupc_calls_format(const struct tupc_call_copy *c, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "collective call %u", (unsigned)c->seq);
    char tn[160];
    if (c->team && at < len)
        at += (size_t)snprintf(buf + at, len - at, " on %s", team_name(c->team, tn, sizeof tn));
    char sep = ':';
    char name[32], val[64];
    for (int i = 0; i < TUPC_CALL_ARGS && at < len; i++) {
        int kind = name_at(c->names, i, name, sizeof name);
        if (kind < 0)
            break;
        if (kind == '*' || kind == '&' || !name[0])
            continue;
        put_value(val, sizeof val, kind, c->v[i]);
        at += (size_t)snprintf(buf + at, len - at, "%c %s %s", sep, name, val);
        sep = ',';
    }
    if (at < len) {
        put_flags(val, sizeof val, c->flags);
        snprintf(buf + at, len - at, "%c %s", sep, val);
    }
}

/* The first argument of two records of the same function that differs, as
 * "nbytes 200" for each into bj and ba; 0 when none recorded does. */
static int arg_differs(char *bj, char *ba, size_t len, const struct tupc_call_copy *j,
                       const struct tupc_call_copy *a)
{
    char name[32], vj[96], va[96];
    if (j->names && a->names && strcmp(j->names, a->names) == 0)
        for (int i = 0; i < TUPC_CALL_ARGS; i++) {
            int kind = name_at(j->names, i, name, sizeof name);
            if (kind < 0)
                break;
            if (!name[0] || j->v[i] == a->v[i])
                continue;
            put_value(vj, sizeof vj, kind, j->v[i]);
            put_value(va, sizeof va, kind, a->v[i]);
            snprintf(bj, len, "%s %s", name, vj);
            snprintf(ba, len, "%s %s", name, va);
            return 1;
        }
    if (j->flags != a->flags) {
        put_flags(vj, sizeof vj, j->flags);
        put_flags(va, sizeof va, a->flags);
        snprintf(bj, len, "flags %s", vj);
        snprintf(ba, len, "flags %s", va);
        return 1;
    }
    return 0;
}

/* Writes how the calls on team `team` of thread j (`j_name`) differ from
 * those of thread a (named `a_name`, which has made na of them) into buf;
 * returns the section. */
static const char *describe(char *buf, size_t len, const struct tupc_calls_thread *a, uint32_t na,
                            const char *a_name, int team, int j, const char *j_name)
{
    const struct tupc_calls_thread *other = &log_of[j];
    uint32_t nj = calls_made(other, team);
    uint32_t hi = (int32_t)(na - nj) > 0 ? na : nj;
    uint32_t lo = hi > TUPC_CALLS_RING ? hi - TUPC_CALLS_RING + 1 : 1;
    char on[180] = "", how[400], ca[400], tn[160];
    if (team)
        snprintf(on, sizeof on, " on %s", team_name(team, tn, sizeof tn));
    for (uint32_t s = lo; s != hi + 1; s++) {
        struct tupc_call_copy xa, xj;
        int has_a = s <= na && rec_of(a, team, s, &xa);
        int has_j = s <= nj && rec_of(other, team, s, &xj);
        if (has_a && has_j && same_func(xa.func, xj.func) && xa.args == xj.args &&
            xa.flags == xj.flags)
            continue;
        if (has_a && has_j && !same_func(xa.func, xj.func)) {
            tupc_calls_format(&xa, ca, sizeof ca);
            tupc_calls_format(&xj, how, sizeof how);
            snprintf(buf, len,
                     "%s called %s (%s), where %s called %s (%s); expected every thread to make "
                     "the same sequence of collective calls%s",
                     j_name, xj.func, how, a_name, xa.func, ca, on);
            return "UPC 1.3 7.4 para 3";
        }
        if (has_a && has_j) {
            if (arg_differs(how, ca, 180, &xj, &xa))
                snprintf(buf, len,
                         "%s passed %s to %s (collective call %u%s) where %s passed %s; expected "
                         "single-valued arguments, the same on every thread",
                         j_name, how, xa.func, (unsigned)s, on, a_name, ca);
            else
                snprintf(buf, len,
                         "%s passed other arguments to %s (collective call %u%s) than %s; "
                         "expected single-valued arguments, the same on every thread",
                         j_name, xa.func, (unsigned)s, on, a_name);
            return "UPC 1.3 7.4 para 4";
        }
        if (has_a && s > nj) {
            tupc_calls_format(&xa, ca, sizeof ca);
            snprintf(buf, len,
                     "%s has made %u collective calls%s where %s has made %u: it did not call %s "
                     "(%s); expected every thread to make the same sequence of collective calls",
                     j_name, (unsigned)nj, on, a_name, (unsigned)na, xa.func, ca);
            return "UPC 1.3 7.4 para 3";
        }
        if (has_j && s > na) {
            tupc_calls_format(&xj, how, sizeof how);
            snprintf(buf, len,
                     "%s called %s (%s), which %s has not made (it has made %u); expected every "
                     "thread to make the same sequence of collective calls%s",
                     j_name, xj.func, how, a_name, (unsigned)na, on);
            return "UPC 1.3 7.4 para 3";
        }
        break; /* the ring moved on under us: no details */
    }
    snprintf(buf, len,
             "%s made other collective calls%s than %s, or passed other arguments or flags, more "
             "than %d calls back (it has made %u calls, %s %u); expected every thread to make "
             "the same collective calls with the same single-valued arguments",
             j_name, on, a_name, TUPC_CALLS_RING - 1, (unsigned)nj, a_name, (unsigned)na);
    return "UPC 1.3 7.4 para 3 and 4";
}

void tupc_calls_differ_team(const char *func, int team, uint32_t n, int j, int rank_j)
{
    char msg[1400], jn[220], tn[160];
    if (team)
        snprintf(jn, sizeof jn, "thread %d (rank %d of %s)", j, rank_j,
                 team_name(team, tn, sizeof tn));
    else
        snprintf(jn, sizeof jn, "thread %d", j);
    const char *sec =
        describe(msg, sizeof msg, tupc_calls_self_.mine, n, "this thread", team, j, jn);
    tupc_fail(func, sec, "%s", msg);
}

void tupc_calls_differ(const char *func, int j)
{
    tupc_calls_differ_team(func, 0, tupc_calls_self_.all->n, j, j);
}

void tupc_calls_thread_end(void)
{
    struct tupc_calls_self *s = &tupc_calls_self_;
    /* Relaxed: read after pthread_join, which orders them. */
    atomic_store_explicit(&s->mine->end_n, s->all->n, memory_order_relaxed);
    atomic_store_explicit(&s->mine->end_sig, s->all->sig, memory_order_relaxed);
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
        char msg[1400], tn[32];
        snprintf(tn, sizeof tn, "thread %d", t);
        const char *sec = describe(msg, sizeof msg, t0, n0, "thread 0", 0, t, tn);
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
    char mine[240];
    tupc_calls_describe_mine(func, mine, sizeof mine);
    tupc_fail(func, "UPC 1.3 6.6.1, 7.4 para 3",
              "thread %d %s %s (barrier %u) while this thread waits for it in %s (%s); expected "
              "every thread to reach the same barriers and collective calls",
              peer, how, b ? b : "a barrier", (unsigned)e, func, mine);
}

int tupc_calls_describe(int t, const char *func, char *buf, size_t len)
{
    struct tupc_call_copy c;
    if (!tupc_calls_last(t, &c) || !same_func(c.func, func))
        return 0;
    tupc_calls_format(&c, buf, len);
    return 1;
}

void tupc_calls_describe_mine(const char *func, char *buf, size_t len)
{
    if (!tupc_calls_describe(tupc_impl_mythread, func, buf, len))
        snprintf(buf, len, "collective call %u", (unsigned)tupc_calls_self_.all->n);
}
