/* Reductions by blocks posted on UPC_TEAM_ALL across processes (UPC_ASYNC,
 * not OUT_ALLSYNC): upc_all_reduceT and reduce_allT with UPC_NONCOMM_FUNC,
 * and prefix reductions whose dst and src share their layout, as a job of
 * the leader's request, which folds and scans while the threads compute.
 * The order of the blocking calls' general path (hier_prefix.c): every
 * block's total combined in index order, UPC_NONCOMM_FUNC's rule, fixed for
 * a fixed layout whatever THREADS and the process count are.
 *
 * At posting each thread makes the call's entry and IN sync; the leader,
 * once every thread of its process has entered under IN_MYSYNC, records
 * the job (hier_post_reduce.c's posting). The job folds each of its
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
    int root; /* a reduction's: dst's process */
    const char *func;
    uint32_t p;
    MPI_Request r[]; /* 2 (P - 1) */
};

/* Sends this process's totals (from all + first[ours]) to the processes
 * that combine, and receives the others' where it combines: the number of
 * requests in j->r. */
static int exchange(struct blk_post *j, char *all, const size_t *first)
{
    const size_t es = j->ty->size;
    const int P = tupc_procs_, me = tupc_mpi_rank_, L = tupc_local_threads_;
    const int tag = (int)(j->p % TUPC_HIER_TAGS), combines = j->what != 0 || me == j->root;
    const size_t at = first[me * L];
    const int mine = tupc_hier_count(j->func, (first[me * L + L] - at) * es);
    int n = 0;
    for (int q = 0; q < P; q++) {
        if (q == me)
            continue;
        if (j->what != 0 || q == j->root)
            MPI_Isend(all + at * es, mine, MPI_BYTE, q, tag, tupc_hier_.partials, &j->r[n++]);
        if (combines)
            MPI_Irecv(all + first[q * L] * es,
                      tupc_hier_count(j->func, (first[q * L + L] - first[q * L]) * es), MPI_BYTE, q,
                      tag, tupc_hier_.partials, &j->r[n++]);
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
    if (tupc_hier_post_msgs(j->r, exchange(j, all, first)) &&
        (j->what != 0 || tupc_mpi_rank_ == j->root) && nb) {
        char *seeds = prefix ? all + nb * es : NULL;
        union tupc_red_val total;
        combine(j, all, first, seeds, &total);
        for (int i = 0; i < tupc_local_threads_; i++) {
            const uint32_t t = (uint32_t)(tupc_first_thread_ + i);
            if (prefix)
                tupc_hier_scan_blocks(j->ty, j->op, j->f, t, j->dst, j->src, j->nelems, j->k.B,
                                      seeds, j->excl);
            else if (j->what == 2)
                memcpy(j->dst.addr + (size_t)t * tupc_impl_partition_size, &total, es);
        }
        if (j->what == 0)
            memcpy(j->dst.addr, &total, es);
    }
    free(all);
    free(first);
    /* Release: dst, for the requests' acquire (nobody waits once the run
     * stops). */
    tupc_word_set(tupc_mpi_post_word(j->p), j->p);
}

uint32_t tupc_mpi_reduce_post_blocks(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                     int what, int excl, tupc_sptr_t dst, tupc_sptr_t src,
                                     upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void),
                                     void **job)
{
    uint32_t s, p;
    *job = NULL;
    if (tupc_hier_post_red_begin(c, &s, &p)) {
        const size_t P = (size_t)tupc_procs_;
        struct blk_post *j = malloc(sizeof *j + 2 * P * sizeof j->r[0]);
        if (!j)
            tupc_fail(c->func, NULL, "out of memory for a posted reduction");
        *j = (struct blk_post){.ty = ty, .op = op, .f = (tupc_red_fn)f, .dst = dst, .src = src};
        j->nelems = nelems;
        j->k = tupc_hier_blocks_of(src, nelems, blk_size, ty->size);
        j->what = what;
        j->excl = excl;
        j->root = tupc_mpi_rank_of(dst.thread);
        j->func = c->func;
        j->p = p;
        *job = j;
    }
    tupc_hier_post_red_end(c, s);
    return p;
}
