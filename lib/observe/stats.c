#include "observe/stats.h"

#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

/* A function's figures on one thread. The threads it waited for are kept
 * in a few slots, the smallest replaced when full, so the one waited for
 * most is exact unless many threads share the waits. */
#define PEERS 4
struct entry {
    const char *name;
    uint64_t calls, bytes, ns, wait_ns;
    int peer[PEERS];
    uint64_t peer_ns[PEERS];
};

#define ENTRIES 64
#define DEPTH 8
struct thread_stats {
    struct entry e[ENTRIES];
    int n;
    int open[DEPTH]; /* the entry of each open span; -1 none */
    uint64_t start[DEPTH];
};

/* The run's statistics: a row per thread, and the level they were asked
 * at. Each thread writes only its own row while the run goes; the summary
 * is made after the threads are joined. */
static struct stats_state {
    struct thread_stats *rows;
    int nrows;
    int level;
} stats_;

int tupc_stats_start(int threads, int lvl, char *err, size_t errlen)
{
    if (!lvl)
        return 0;
    stats_.rows = calloc((size_t)threads, sizeof *stats_.rows);
    if (!stats_.rows) {
        snprintf(err, errlen, "TUPC_STATS: out of memory");
        return -1;
    }
    stats_.nrows = threads;
    stats_.level = lvl;
    return 0;
}

static int find(struct thread_stats *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (r->e[i].name == name)
            return i;
    if (r->n == ENTRIES)
        return -1;
    r->e[r->n] = (struct entry){.name = name, .peer = {-1, -1, -1, -1}};
    return r->n++;
}

void tupc_stats_open(int depth, const char *name, uint64_t bytes, uint64_t now)
{
    if (!stats_.rows || depth >= DEPTH)
        return;
    struct thread_stats *r = &stats_.rows[tupc_impl_mythread];
    int i = find(r, name);
    r->open[depth] = i;
    r->start[depth] = now;
    if (i >= 0) {
        r->e[i].calls++;
        r->e[i].bytes += bytes;
    }
}

void tupc_stats_close(int depth, uint64_t now)
{
    if (!stats_.rows || depth >= DEPTH)
        return;
    struct thread_stats *r = &stats_.rows[tupc_impl_mythread];
    if (r->open[depth] >= 0)
        r->e[r->open[depth]].ns += now - r->start[depth];
}

/* This thread's entry of the span open at depth, or NULL. */
static struct entry *open_entry(int depth)
{
    if (!stats_.rows || depth < 1 || depth > DEPTH)
        return NULL;
    struct thread_stats *r = &stats_.rows[tupc_impl_mythread];
    int i = r->open[depth - 1];
    return i < 0 ? NULL : &r->e[i];
}

/* Adds ns to e's time waiting for peer. */
static void add_peer(struct entry *e, uint64_t ns, int peer)
{
    int slot = -1, small = 0;
    for (int k = 0; k < PEERS; k++) {
        if (e->peer[k] == peer) {
            slot = k;
            break;
        }
        if (e->peer_ns[k] < e->peer_ns[small])
            small = k;
    }
    if (slot < 0) {
        slot = small;
        e->peer[slot] = peer;
    }
    e->peer_ns[slot] += ns;
}

void tupc_stats_wait(int depth, uint64_t ns, int peer)
{
    struct entry *e = open_entry(depth);
    if (!e)
        return;
    e->wait_ns += ns;
    if (peer >= 0)
        add_peer(e, ns, peer);
}

void tupc_stats_blame(int depth, uint64_t ns, int peer)
{
    struct entry *e = open_entry(depth);
    if (e && peer >= 0) /* counted as a wait already: only its peer is new */
        add_peer(e, ns, peer);
}

/* The thread waited for most in e's slots, or -1. */
static int top_peer(const struct entry *e, uint64_t *ns)
{
    int best = -1;
    *ns = 0;
    for (int k = 0; k < PEERS; k++)
        if (e->peer[k] >= 0 && e->peer_ns[k] > *ns) {
            best = e->peer[k];
            *ns = e->peer_ns[k];
        }
    return best;
}

static void print_row(FILE *f, const char *who, const char *name, uint64_t calls, uint64_t bytes,
                      uint64_t ns, uint64_t wait_ns, int peer, uint64_t peer_ns)
{
    char most[48] = "-";
    if (peer >= 0)
        snprintf(most, sizeof most, "thread %d (%.3f ms)", peer, peer_ns / 1e6);
    fprintf(f, "tupc stats: %-10s %-28s %9llu %12llu %10.3f %10.3f %5.1f%%  %s\n", who, name,
            (unsigned long long)calls, (unsigned long long)bytes, ns / 1e6, wait_ns / 1e6,
            ns ? 100.0 * (double)wait_ns / (double)ns : 0.0, most);
}

void tupc_stats_finish(FILE *f, uint64_t elapsed)
{
    if (!stats_.rows)
        return;
    fprintf(f,
            "tupc stats: %d THREADS, %.3f ms; time and wait in ms, summed over threads in the "
            "\"all\" stats_.rows\n",
            stats_.nrows, elapsed / 1e6);
    fprintf(f, "tupc stats: %-10s %-28s %9s %12s %10s %10s %6s  %s\n", "thread", "function",
            "calls", "bytes", "time", "wait", "wait%", "waited for most");
    /* The functions in order of first appearance on any thread. */
    const char *names[ENTRIES * 4];
    int nnames = 0;
    for (int t = 0; t < stats_.nrows; t++)
        for (int i = 0; i < stats_.rows[t].n; i++) {
            int seen = 0;
            for (int k = 0; k < nnames && !seen; k++)
                seen = names[k] == stats_.rows[t].e[i].name;
            if (!seen && nnames < (int)(sizeof names / sizeof *names))
                names[nnames++] = stats_.rows[t].e[i].name;
        }
    for (int k = 0; k < nnames; k++) {
        uint64_t calls = 0, bytes = 0, ns = 0, wait = 0, peer_ns = 0;
        uint64_t *by_peer = calloc((size_t)stats_.nrows, sizeof *by_peer);
        for (int t = 0; t < stats_.nrows; t++)
            for (int i = 0; i < stats_.rows[t].n; i++) {
                const struct entry *e = &stats_.rows[t].e[i];
                if (e->name != names[k])
                    continue;
                calls += e->calls;
                bytes += e->bytes;
                ns += e->ns;
                wait += e->wait_ns;
                for (int s = 0; s < PEERS && by_peer; s++)
                    if (e->peer[s] >= 0)
                        by_peer[e->peer[s]] += e->peer_ns[s];
            }
        int peer = -1;
        for (int t = 0; t < stats_.nrows && by_peer; t++)
            if (by_peer[t] > peer_ns) {
                peer = t;
                peer_ns = by_peer[t];
            }
        free(by_peer);
        print_row(f, "all", names[k], calls, bytes, ns, wait, peer, peer_ns);
    }
    if (stats_.level >= 2 || stats_.nrows <= 16) {
        for (int t = 0; t < stats_.nrows; t++) {
            char who[16];
            snprintf(who, sizeof who, "%d", t);
            for (int i = 0; i < stats_.rows[t].n; i++) {
                const struct entry *e = &stats_.rows[t].e[i];
                uint64_t pns;
                int p = top_peer(e, &pns);
                print_row(f, who, e->name, e->calls, e->bytes, e->ns, e->wait_ns, p, pns);
            }
        }
    } else {
        fprintf(f, "tupc stats: each thread's stats_.rows: TUPC_STATS=all\n");
    }
}

void tupc_stats_free(void)
{
    free(stats_.rows);
    stats_ = (struct stats_state){0};
}
