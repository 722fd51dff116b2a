/* Teams across processes (mpi/team.h): each team's part in a process, the
 * entry of a call, the team barrier and the exchange of one item per
 * member.
 *
 * A part's members meet its leader (local index 0) as a process's threads
 * meet in mpi/hier.c: member j's `entered`, `put` and `done` count the
 * part's sequence of calls and barriers (every member makes the same,
 * UPC 1.3 7.4 para 3), and the leader's `ready` = s says that number s is
 * complete among the processes, and that what it gathered for s is in
 * place. Every word is set with a release and read with an acquire: what
 * a member wrote before it is seen by whoever waited for it.
 *
 * Why MPI_Comm_create_group rather than MPI_Comm_split: a process's
 * threads may fall in several teams of one split (colour MYTHREAD % 2 with
 * two threads per process), and MPI_Comm_split gives a process one
 * communicator. The leader of the parent's part makes each new team that
 * holds a member of its process, in ascending colour order, with the
 * colour's index as the tag: every process that makes two of them makes
 * them in the same order, so no two makings wait for each other. */
#include "mpi/team.h"
#include "mpi/layer.h"

#include "check/calls.h"
#include "check/error.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC "Extended Collectives 0.3 section 4 item 9"

struct tupc_mpi_team *tupc_mpi_team_all_;

void tupc_mpi_team_unmake(struct tupc_mpi_team *g)
{
    /* Kept whole in a run that stopped early, its communicator and the
     * buffers its calls' MPI requests may still use: see
     * tupc_mpi_hier_stop (a team freed in a run that goes on has no
     * message in flight). */
    if (!g || tupc_run_keeps_mpi_state())
        return;
    if (g->comm != MPI_COMM_NULL)
        MPI_Comm_free(&g->comm);
    for (int j = 0; g->m && j < g->L; j++)
        free(g->m[j].item.p);
    free(g->m);
    free(g->local);
    free(g->lthread);
    free(g->lidx);
    free(g->proc);
    free(g->count);
    free(g->of_proc);
    free(g->order);
    free(g->out.p);
    free(g->in.p);
    free(g->all.p);
    for (int i = 0; i < TUPC_HIER_SLOTS; i++)
        free(g->slot[i].p);
    free(g);
}

/* A part of n members with proc[] set, and `procs` processes: the maps
 * and the members' words. 0, or -1 out of memory. */
static int fill(struct tupc_mpi_team *g, const int *thread, int procs)
{
    const int n = g->n;
    g->local = malloc(sizeof *g->local * (size_t)n);
    g->lthread = malloc(sizeof *g->lthread * (size_t)n);
    g->lidx = malloc(sizeof *g->lidx * (size_t)n);
    g->count = calloc((size_t)procs * 2, sizeof *g->count);
    g->order = malloc(sizeof *g->order * (size_t)n);
    if (!g->local || !g->lthread || !g->lidx || !g->count || !g->order)
        return -1;
    g->displ = g->count + procs;
    g->P = procs;
    g->of_proc = malloc(sizeof *g->of_proc * (size_t)tupc_procs_);
    if (!g->of_proc)
        return -1;
    for (int q = 0; q < tupc_procs_; q++)
        g->of_proc[q] = -1;
    for (int r = 0; r < n; r++)
        g->of_proc[tupc_mpi_rank_of((uint32_t)thread[r])] = g->proc[r];
    g->L = 0;
    for (int r = 0; r < n; r++) {
        g->count[g->proc[r]]++;
        g->lidx[r] = tupc_impl_is_local((uint32_t)thread[r]) ? g->L : -1;
        if (g->lidx[r] >= 0) {
            g->lthread[g->L] = thread[r];
            g->local[g->L++] = r;
        }
    }
    for (int q = 1; q < procs; q++)
        g->displ[q] = g->displ[q - 1] + g->count[q - 1];
    int *at = malloc(sizeof *at * (size_t)procs);
    if (!at)
        return -1;
    memcpy(at, g->displ, sizeof *at * (size_t)procs);
    for (int r = 0; r < n; r++) /* ascending ranks within each process */
        g->order[at[g->proc[r]]++] = r;
    g->ident = 1;
    for (int i = 0; i < n; i++)
        g->ident &= g->order[i] == i;
    free(at);
    size_t L = (size_t)(g->L ? g->L : 1);
    g->m = aligned_alloc(alignof(struct tupc_mpi_tmember), L * sizeof *g->m);
    if (!g->m)
        return -1;
    memset(g->m, 0, L * sizeof *g->m);
    memset(&g->ready, 0, sizeof g->ready);
    return 0;
}

static struct tupc_mpi_team *part_new(int n)
{
    struct tupc_mpi_team *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->comm = MPI_COMM_NULL;
    g->n = n;
    g->proc = malloc(sizeof *g->proc * (size_t)n);
    if (!g->proc) {
        free(g);
        return NULL;
    }
    return g;
}

int tupc_mpi_team_start(char *err, size_t len)
{
    const int T = tupc_impl_threads;
    struct tupc_mpi_team *g = part_new(T);
    int *thread = malloc(sizeof *thread * (size_t)T);
    if (!g || !thread) {
        free(thread);
        tupc_mpi_team_unmake(g);
        snprintf(err, len, "out of memory for UPC_TEAM_ALL's part across processes");
        return -1;
    }
    for (int r = 0; r < T; r++) {
        thread[r] = r;
        g->proc[r] = tupc_mpi_rank_of((uint32_t)r);
    }
    int rc = fill(g, thread, tupc_procs_);
    free(thread);
    if (rc != 0 || MPI_Comm_dup(tupc_mpi_comm_, &g->comm) != MPI_SUCCESS) {
        tupc_mpi_team_unmake(g);
        snprintf(err, len, "cannot make UPC_TEAM_ALL's part across processes");
        return -1;
    }
    tupc_mpi_team_all_ = g;
    return 0;
}

void tupc_mpi_team_stop(void)
{
    tupc_mpi_team_unmake(tupc_mpi_team_all_);
    tupc_mpi_team_all_ = NULL;
}

struct tupc_mpi_team *tupc_mpi_team_make(const struct tupc_mpi_team *parent, const int *thread,
                                         const int *prank, int n, int tag, char *err, size_t len)
{
    struct tupc_mpi_team *g = part_new(n);
    int *list = malloc(sizeof *list * (size_t)n), k = 0;
    if (!g || !list)
        goto oom;
    /* The processes in the order of their first member; proc[] indexes
     * this list, which is the new communicator's rank order. */
    for (int r = 0; r < n; r++) {
        int pq = parent->proc[prank[r]], i = 0;
        while (i < k && list[i] != pq)
            i++;
        if (i == k)
            list[k++] = pq;
        g->proc[r] = i;
    }
    if (fill(g, thread, k) != 0)
        goto oom;
    MPI_Group pg, ng;
    int ok = MPI_Comm_group(parent->comm, &pg) == MPI_SUCCESS &&
             MPI_Group_incl(pg, k, list, &ng) == MPI_SUCCESS;
    ok = ok && MPI_Comm_create_group(parent->comm, ng, tag, &g->comm) == MPI_SUCCESS;
    MPI_Group_free(&ng);
    MPI_Group_free(&pg);
    free(list);
    if (!ok) {
        tupc_mpi_team_unmake(g);
        snprintf(err, len, "MPI_Comm_create_group failed for a team of %d members", n);
        return NULL;
    }
    return g;
oom:
    free(list);
    tupc_mpi_team_unmake(g);
    snprintf(err, len, "out of memory for a team of %d members across processes", n);
    return NULL;
}

uint32_t tupc_mpi_team_enter(struct tupc_mpi_team *g, int li, struct tupc_coll_self *self,
                             int team_id, const char *func, unsigned flags, uint64_t args)
{
    struct tupc_mpi_tmember *me = &g->m[li];
    me->calls = tupc_coll_note(self, team_id, func, flags, args);
    return ++me->seq;
}

/* The thread of local member j. */
static int thread_of(const struct tupc_mpi_team *g, int j)
{
    return g->lthread[j];
}

void tupc_mpi_team_wait_members(struct tupc_mpi_team *g, size_t w, uint32_t s, const char *func)
{
    for (int j = 1; j < g->L; j++)
        tupc_wait_peer((tupc_word *)((char *)&g->m[j] + w), s, thread_of(g, j), func);
}

void tupc_mpi_team_barrier(struct tupc_mpi_team *g, int li, const char *func,
                           const struct tupc_team *t)
{
    struct tupc_mpi_tmember *me = &g->m[li];
    const uint32_t s = ++me->seq;
    /* Release: this member's writes and its count of calls. */
    tupc_word_set(&me->entered, s);
    if (li == 0) {
        tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, entered), s, func);
        /* The largest count and the complement of the smallest: one MAX. */
        uint64_t v[2] = {0, 0};
        for (int j = 0; j < g->L; j++) {
            uint64_t c = g->m[j].calls;
            v[0] = c > v[0] ? c : v[0];
            v[1] = ~c > v[1] ? ~c : v[1];
        }
        tupc_mpi_sync(); /* the members' writes, for gets after the barrier */
        if (tupc_hier_.block_reduce) {
            /* A wait the hang watchdog sees: a member's missing or extra
             * call leaves the leaders in different MPI calls for good. */
            struct tupc_wait_event ev = {func, -1, 0};
            tupc_wait_napping(&ev);
            MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_MAX, g->comm);
            tupc_mpi_polled();
            tupc_wait_napped(&ev);
        } else {
            MPI_Request r;
            MPI_Iallreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_MAX, g->comm, &r);
            tupc_hier_finish(&r, func);
        }
        char desc[160];
        if (v[0] != ~v[1])
            tupc_fail(func, SEC,
                      "the members of %s have made from %llu to %llu collective calls on the "
                      "team before this barrier; expected every member to make the same calls "
                      "(UPC 1.3 7.4 para 3)",
                      t ? tupc_team_describe(t, desc, sizeof desc) : "UPC_TEAM_ALL",
                      (unsigned long long)~v[1], (unsigned long long)v[0]);
        tupc_mpi_sync(); /* puts from other processes, in this process's view */
        /* Release, and the members' acquire: the other processes' writes
         * before the barrier, which the leader saw, are seen by them too. */
        tupc_word_set(&g->ready, s);
    } else {
        tupc_wait_peer(&g->ready, s, thread_of(g, 0), func);
    }
    /* Release: nothing read since; it counts the barrier for the leader's
     * waits on `done` (tupc_mpi_team_allgather, the two-phase calls). */
    tupc_word_set(&me->done, s);
}

const void *tupc_mpi_team_allgather(struct tupc_mpi_team *g, int li, uint32_t s, const void *item,
                                    size_t size, const char *func)
{
    struct tupc_mpi_tmember *me = &g->m[li];
    memcpy(tupc_hier_grow(func, &me->item, size), item, size);
    tupc_word_set(&me->put, s); /* release: the item */
    if (li != 0) {
        tupc_wait_peer(&g->ready, s, thread_of(g, 0), func);
        return g->all.p;
    }
    tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, put), s, func);
    /* The last exchange's items are read by every member. */
    tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, done), g->last, func);
    g->last = s;
    int P;
    MPI_Comm_size(g->comm, &P);
    const size_t n = (size_t)g->n;
    char *out = tupc_hier_grow(func, &g->out, (size_t)g->L * size + 1);
    char *in = tupc_hier_grow(func, &g->in, n * size + sizeof(int) * 2 * (size_t)P);
    char *all = tupc_hier_grow(func, &g->all, n * size);
    int *cnt = (int *)(void *)(in + n * size), *dis = cnt + P;
    for (int j = 0; j < g->L; j++)
        memcpy(out + (size_t)j * size, g->m[j].item.p, size);
    for (int q = 0; q < P; q++) {
        cnt[q] = tupc_hier_count(func, (size_t)g->count[q] * size);
        dis[q] = tupc_hier_count(func, (size_t)g->displ[q] * size);
    }
    const int k = tupc_hier_count(func, (size_t)g->L * size);
    TUPC_HIER_CALL(MPI_Allgatherv(out, k, MPI_BYTE, in, cnt, dis, MPI_BYTE, g->comm),
                   MPI_Iallgatherv(out, k, MPI_BYTE, in, cnt, dis, MPI_BYTE, g->comm, &r_), func);
    for (size_t i = 0; i < n; i++) /* process order to rank order */
        memcpy(all + (size_t)g->order[i] * size, in + i * size, size);
    tupc_word_set(&g->ready, s); /* release: the items */
    return all;
}

void tupc_mpi_team_done(struct tupc_mpi_team *g, int li, uint32_t s)
{
    /* Release: this member's reads of the gathered items come before the
     * leader's acquire, and so before it rewrites them. */
    tupc_word_set(&g->m[li].done, s);
}

void tupc_mpi_team_sort_runs(struct tupc_mpi_team *g, const char *func, char *mine, size_t n,
                             size_t es, tupc_mpi_merge_fn *merge, void *arg)
{
    const int P = g->P, q = g->of_proc[tupc_mpi_rank_];
    size_t lo, m;
    tupc_mpi_range(n, P, q, &lo, &m);
    if (es > INT_MAX || n / (size_t)P + 1 > INT_MAX)
        tupc_fail(func, NULL,
                  "%zu elements of %zu bytes across %d processes; expected at most %d elements "
                  "per process and %d bytes per element (MPI's counts)",
                  n, es, P, INT_MAX, INT_MAX);
    /* One MPI element per sorted element: counts in elements fit an int. */
    MPI_Datatype el;
    MPI_Type_contiguous((int)es, MPI_BYTE, &el);
    MPI_Type_commit(&el);
    int *cnt = NULL, *dis = NULL;
    size_t *off = NULL;
    char *all = NULL, *res = NULL;
    if (q == 0) {
        cnt = malloc(sizeof *cnt * 2 * (size_t)P);
        off = malloc(sizeof *off * ((size_t)P + 1));
        all = malloc(2 * n * es);
        if (!cnt || !off || !all)
            tupc_fail(func, NULL, "cannot allocate %zu bytes of temporary memory", 2 * n * es);
        dis = cnt + P;
        for (int r = 0; r < P; r++) {
            size_t rl, rm;
            tupc_mpi_range(n, P, r, &rl, &rm);
            cnt[r] = (int)rm;
            dis[r] = (int)rl; /* below n / P * P + P: an int, as checked above */
            off[r] = rl;
        }
        off[P] = n;
    }
    MPI_Request r;
    MPI_Igatherv(mine, (int)m, el, all, cnt, dis, el, 0, g->comm, &r);
    tupc_hier_finish(&r, func);
    if (q == 0)
        res = merge(arg, all, all + n * es, off, P);
    MPI_Iscatterv(res, cnt, dis, el, mine, (int)m, el, 0, g->comm, &r);
    tupc_hier_finish(&r, func);
    MPI_Type_free(&el);
    free(all);
    free(off);
    free(cnt);
}
