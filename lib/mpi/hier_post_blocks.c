/* Reductions by blocks posted across processes (UPC_ASYNC, not
 * OUT_ALLSYNC): upc_all_reduceT and reduce_allT with UPC_NONCOMM_FUNC, and
 * prefix reductions whose dst and src share their layout, as a job of the
 * leader's request, which folds and scans while the threads compute. On
 * UPC_TEAM_ALL, and on a split team whose processes hold every element
 * (tupc_mpi_team_reduce_posts): the job touches its own process's memory
 * only, and the totals go on the team's communicator.
 * The order of the blocking calls' general path (hier_prefix.c): every
 * block's total combined in index order, UPC_NONCOMM_FUNC's rule, fixed for
 * a fixed layout whatever THREADS and the process count are.
 *
 * At posting each member makes the call's entry and IN sync; the leader,
 * once every member of its process has entered under IN_MYSYNC, records
 * the job (hier_post_reduce.c's posting, team_coll.c's on a split team). The job folds each of its
 * process's blocks into its total, sends the process's totals (its
 * threads' lists, in thread order) to the processes that combine (dst's
 * for a reduction, all for the others) as one message tagged by the
 * post's number, and there receives the others'; it folds every total in
 * index order into the result, or into each block's seed, from which it
 * scans the process's blocks; then it sets the post's mark. A job that
 * waits for messages runs other queued chunks meanwhile
 * (tupc_hier_post_msgs). */
#include "mpi/hier.h"
#include "mpi/layer.h"
#include "mpi/team.h"

#include "check/error.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <stdlib.h>
#include <string.h>

struct blk_post {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    tupc_sptr_t dst, src;
    size_t nelems;
    struct tupc_hier_blocks k;
    int what; /* 0 a reduction, 1 a prefix reduction, 2 reduce_all */
    int excl;
    const char *func;
    struct tupc_hier_where w;
    MPI_Request r[]; /* 2 (P - 1) */
};

/* Sends this process's totals (its threads' lists, from all +
 * first[ours]) to the processes that combine, and receives the others'
 * where it combines: the number of requests in j->r. A process outside
 * the communicator (a split team's) holds no block. */
static int exchange(struct blk_post *j, char *all, const size_t *first)
{
    const size_t es = j->ty->size;
    const int me = j->w.me, L = tupc_local_threads_;
    const int tag = (int)(j->w.p % TUPC_HIER_TAGS), combines = j->what != 0 || me == j->w.root;
    const size_t at = first[tupc_mpi_rank_ * L];
    const int mine = tupc_hier_count(j->func, (first[tupc_mpi_rank_ * L + L] - at) * es);
    int n = 0;
    for (int m = 0; m < tupc_procs_; m++) { /* by MPI rank m: q in comm */
        const int q = j->w.of_proc ? j->w.of_proc[m] : m;
        if (q < 0 || q == me)
            continue;
        if (j->what != 0 || q == j->w.root)
            MPI_Isend(all + at * es, mine, MPI_BYTE, q, tag, j->w.comm, &j->r[n++]);
        if (combines)
            MPI_Irecv(all + first[m * L] * es,
                      tupc_hier_count(j->func, (first[m * L + L] - first[m * L]) * es), MPI_BYTE, q,
                      tag, j->w.comm, &j->r[n++]);
    }
    return n;
}

/* Every total (thread t's list at first[t]) in index order into *total,
 * and into seeds the value before each of this process's blocks. */
static void combine(const struct blk_post *j, const char *all, const size_t *first, char *seeds,
                    union tupc_red_val *total)
{
    const size_t es = j->ty->size, T = (size_t)THREADS;
    for (size_t b = 0; b < j->k.nb; b++) {
        const uint32_t t = (j->k.t0 + (uint32_t)(b % T)) % (uint32_t)T;
        const char *v = all + (first[t] + b / T) * es;
        if (b == 0) {
            memcpy(total, v, es);
            continue;
        }
        if (seeds && tupc_impl_is_local(t))
            memcpy(seeds + b * es, total, es);
        j->ty->combine(j->op, j->f, total, v);
    }
}

void tupc_mpi_reduce_blocks_job(void *arg, size_t k)
{
    (void)k;
    struct blk_post *j = arg;
    const size_t es = j->ty->size, T = (size_t)THREADS, nb = j->k.nb;
    const int prefix = j->what == 1;
    size_t *first = malloc((T + 1) * sizeof *first);
    char *all = malloc(nb * es * (prefix ? 2 : 1) + 1);
    if (!first || !all)
        tupc_fail(j->func, NULL, "out of memory for the totals of %zu blocks", nb);
    first[0] = 0;
    for (uint32_t t = 0; t < (uint32_t)T; t++)
        first[t + 1] = first[t] + tupc_hier_blocks_count(&j->k, t);
    for (int i = 0; i < tupc_local_threads_; i++) {
        const uint32_t t = (uint32_t)(tupc_first_thread_ + i);
        tupc_hier_fold_blocks(j->ty, j->op, j->f, t, j->src, j->nelems, j->k.B,
                              all + first[t] * es);
    }
    const int got = tupc_hier_post_msgs(j->r, exchange(j, all, first));
    if (got > 0 && (j->what != 0 || j->w.me == j->w.root) && nb) {
        char *seeds = prefix ? all + nb * es : NULL;
        union tupc_red_val total;
        combine(j, all, first, seeds, &total);
        for (int i = 0; prefix && i < tupc_local_threads_; i++)
            tupc_hier_scan_blocks(j->ty, j->op, j->f, (uint32_t)(tupc_first_thread_ + i), j->dst,
                                  j->src, j->nelems, j->k.B, seeds, j->excl);
        for (int i = 0; j->what == 2 && i < j->w.nd; i++) /* the members here */
            memcpy(j->dst.addr + (size_t)j->w.dth[i] * tupc_impl_partition_size, &total, es);
        if (j->what == 0)
            memcpy(j->dst.addr, &total, es);
    }
    if (got >= 0) /* else a stopped run's send may still read it: kept, as its communicators */
        free(all);
    free(first);
    /* Release: dst, for the requests' acquire (nobody waits once the run
     * stops). */
    tupc_word_set(j->w.mark, j->w.p);
}

/* The job of a post whose totals go as w says. */
static struct blk_post *job_new(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                int what, int excl, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                size_t nelems, size_t blk_size, void (*f)(void),
                                const struct tupc_hier_where *w)
{
    struct blk_post *j = malloc(sizeof *j + 2 * (size_t)w->P * sizeof j->r[0]);
    if (!j)
        tupc_fail(c->func, NULL, "out of memory for a posted reduction");
    *j = (struct blk_post){.ty = ty, .op = op, .f = (tupc_red_fn)f, .dst = dst, .src = src};
    j->nelems = nelems;
    j->k = tupc_hier_blocks_of(src, nelems, blk_size, ty->size);
    j->what = what;
    j->excl = excl;
    j->func = c->func;
    j->w = *w;
    return j;
}

uint32_t tupc_mpi_reduce_post_blocks(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                     int what, int excl, tupc_sptr_t dst, tupc_sptr_t src,
                                     upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void),
                                     void **job, tupc_word **mark)
{
    struct tupc_hier_posting ps;
    struct tupc_hier_where w;
    *job = tupc_hier_post_red_begin(c, dst, &ps, &w)
               ? job_new(c, ty, what, excl, dst, src, op, nelems, blk_size, f, &w)
               : NULL;
    tupc_hier_post_red_end(c, &ps);
    *mark = ps.mark;
    return ps.p;
}
