/* Reductions posted on a team across processes by index ranges (UPC_ASYNC,
 * not OUT_ALLSYNC): those hier_post_reduce.c and hier_post_blocks.c do not
 * take. On a split team, the reductions with elements (or a reduction's
 * dst) in a process that holds no member; on any team, a prefix reduction
 * whose dst and src lie apart. The cut is the blocking call's
 * (tupc_mpi_team_reduce): member r takes the r-th of n balanced index
 * ranges, read and written where its elements lie (its process, or the
 * run's window: MPI_THREAD_MULTIPLE lets whichever thread runs the job
 * get and put), and the ranges' partials combine in rank order, which is
 * index order, so the bits are the blocking call's.
 *
 * At posting each member makes the entry and the blocking call's IN sync
 * (a team barrier but under IN_NOSYNC: a range may hold any thread's
 * elements); the leader of each process records a job in steps
 * (coll/async.h). Step 1 folds the ranges of its process's members and
 * sends their partials (in local order, one message) to the processes
 * that combine (dst's holder for a reduction, all for the others) on the
 * team's communicator, tagged by the post's number, and there posts the
 * receives of the others'. Once they are in, step 2 writes dst (the
 * holder's element, each local member's, or each local member's range
 * scanned from the partials before it) and sends every other process an
 * empty message: this one's gets and puts are done. Once every process's
 * is in, step 3 sets the mark: a request completes only once every job
 * is done with its thread's data, which other processes' jobs read and
 * write. A step never waits: jobs that waited inside each other's waits
 * for such a second round, nested in another order in each process,
 * deadlocked (docs/design.md). */
#include "mpi/team.h"

#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct ranges_post {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    tupc_sptr_t dst, src;
    size_t nelems, B;
    int what, excl;
    const struct tupc_mpi_team *g;
    int me, root; /* this process and a reduction's combiner, in g->comm */
    uint32_t p;
    tupc_word *mark;
    const char *func;
    int step, nr;   /* the next step; the requests in flight */
    MPI_Request *r; /* 2 (P - 1) */
    char *done;     /* P bytes: the second round's */
    /* The partials by rank, then as received: by process in comm, each
     * process's in its local order. */
    struct tupc_hier_pair all[];
};

/* Each local member's range folded into its slot of `in`. */
static void fold_ranges(struct ranges_post *j, const struct tupc_red_lay *L,
                        struct tupc_hier_pair *mine)
{
    const struct tupc_mpi_team *g = j->g;
    for (int a = 0; a < g->L; a++) {
        size_t lo, m;
        tupc_red_range_of(j->nelems, g->n, g->local[a], &lo, &m);
        memset(&mine[a], 0, sizeof mine[a]);
        if (!m)
            continue;
        tupc_mpi_team_walk(j->ty, L, j->dst, lo, m, j->op, j->f, 0, NULL, &mine[a].v, j->func);
        mine[a].has = 1;
    }
}

/* acc combined with rank r's partial; the new `any`. */
static int add(const struct ranges_post *j, union tupc_red_val *acc, int any, int r)
{
    if (!j->all[r].has)
        return any;
    if (any)
        j->ty->combine(j->op, j->f, acc, &j->all[r].v);
    else
        memcpy(acc, &j->all[r].v, j->ty->size);
    return 1;
}

/* What this process writes once every partial is here. */
static void write_results(struct ranges_post *j, const struct tupc_red_lay *L)
{
    const struct tupc_mpi_team *g = j->g;
    const int n = g->n;
    union tupc_red_val acc;
    int any = 0;
    if (j->what == 1) { /* each local member's range, from the ranks before it */
        for (int r = 0; r < n; r++) {
            size_t lo, m;
            tupc_red_range_of(j->nelems, n, r, &lo, &m);
            if (g->lidx[r] >= 0 && m)
                tupc_mpi_team_walk(j->ty, L, j->dst, lo, m, j->op, j->f, j->excl ? 2 : 1,
                                   any ? &acc : NULL, NULL, j->func);
            any = add(j, &acc, any, r);
        }
        return;
    }
    for (int r = 0; r < n; r++)
        any = add(j, &acc, any, r);
    if (!any) /* nelems == 0: dst is left as it was */
        return;
    if (j->what == 2) {
        for (int a = 0; a < g->L; a++)
            memcpy(tupc_red_dst_of(j->dst, g->lthread[a]), &acc, j->ty->size);
    } else if (tupc_impl_is_local(j->dst.thread)) {
        memcpy(j->dst.addr, &acc, j->ty->size);
    } else { /* dst lies in a process without members */
        tupc_mpi_put(j->dst.thread, j->dst.addr, &acc, j->ty->size);
    }
}

/* Step 1: the fold and the partials' messages. */
static void first_round(struct ranges_post *j, const struct tupc_red_lay *L)
{
    const struct tupc_mpi_team *g = j->g;
    const int P = g->P, me = j->me, tag = (int)(j->p % TUPC_HIER_TAGS);
    const int combines = j->what != 0 || me == j->root, es = (int)sizeof j->all[0];
    struct tupc_hier_pair *in = j->all + g->n, *mine = in + g->displ[me];
    fold_ranges(j, L, mine);
    j->nr = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        if (j->what != 0 || q == j->root)
            MPI_Isend(mine, g->L * es, MPI_BYTE, q, tag, g->comm, &j->r[j->nr++]);
        if (combines)
            MPI_Irecv(in + g->displ[q], g->count[q] * es, MPI_BYTE, q, tag, g->comm,
                      &j->r[j->nr++]);
    }
}

/* Step 2: the results, then the messages that say this process is done
 * (MPI matches them after the first round's: one sender, one tag, in
 * order). */
static void second_round(struct ranges_post *j, const struct tupc_red_lay *L)
{
    const struct tupc_mpi_team *g = j->g;
    const int P = g->P, me = j->me, tag = (int)(j->p % TUPC_HIER_TAGS);
    if (j->what != 0 || me == j->root) {
        const struct tupc_hier_pair *in = j->all + g->n;
        for (int i = 0; i < g->n; i++) /* process order to rank order */
            j->all[g->order[i]] = in[i];
        write_results(j, L);
    }
    j->nr = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        MPI_Isend(&j->done[me], 1, MPI_BYTE, q, tag, g->comm, &j->r[j->nr++]);
        MPI_Irecv(&j->done[q], 1, MPI_BYTE, q, tag, g->comm, &j->r[j->nr++]);
    }
}

int tupc_mpi_team_ranges_step(void *arg)
{
    struct ranges_post *j = arg;
    /* Relaxed: the flag only says that the run is ending; nobody waits for
     * this post then. */
    if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
        return tupc_hier_drop_msgs(j->r, j->step ? j->nr : 0) ? TUPC_MPI_STEP_KEEP : 1;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, j->src, j->nelems, j->B, j->ty->size, 0);
    if (j->step == 0) {
        first_round(j, &L);
        j->step = 1;
    }
    if (!tupc_hier_test_msgs(j->r, j->nr))
        return 0;
    if (j->step == 1) {
        second_round(j, &L);
        j->step = 2;
        if (!tupc_hier_test_msgs(j->r, j->nr))
            return 0;
    }
    /* Every other process's puts into this one are complete (their done
     * messages are in): in this process's view before the mark (the
     * separate memory model needs MPI_Win_sync, as a team barrier makes it
     * for the blocking cut). Release: dst, for the requests' acquire. */
    tupc_mpi_sync();
    tupc_word_set(j->mark, j->p);
    return 1;
}

uint32_t tupc_mpi_team_reduce_post_ranges(const struct tupc_mpi_call *c,
                                          const struct tupc_red_type *ty, int what, int excl,
                                          tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                          size_t nelems, size_t blk_size, void (*f)(void),
                                          void **job, tupc_word **mark)
{
    struct tupc_mpi_team_post tp;
    tupc_mpi_team_post_begin(c, 2, &tp);
    *mark = tp.mark;
    *job = NULL;
    if (tp.leader) {
        const struct tupc_mpi_team *g = tp.g;
        const size_t n = (size_t)g->n, P = (size_t)g->P;
        struct ranges_post *j =
            malloc(sizeof *j + 2 * n * sizeof j->all[0] + 2 * P * sizeof(MPI_Request) + P);
        if (!j)
            tupc_fail(c->func, NULL, "out of memory for a posted reduction");
        const int holder = c->team->rank[dst.thread];
        *j = (struct ranges_post){.ty = ty, .op = op, .f = (tupc_red_fn)f, .dst = dst, .src = src};
        j->nelems = nelems;
        j->B = blk_size;
        j->what = what;
        j->excl = excl;
        j->g = g;
        j->me = tp.rank;
        j->root = g->proc[holder >= 0 ? holder : 0];
        j->p = tp.p;
        j->mark = tp.mark;
        j->func = c->func;
        j->step = 0;
        j->nr = 0;
        j->r = (MPI_Request *)(void *)(j->all + 2 * n);
        j->done = (char *)(j->r + 2 * P);
        memset(j->done, 0, P);
        *job = j;
    }
    tupc_mpi_team_post_end(c, &tp);
    return tp.p;
}
