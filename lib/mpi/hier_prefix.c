/* Prefix reductions (and UPC_NONCOMM_FUNC's reduction, and
 * upc_all_reduce_allT's) across processes in two phases (hier.h), by blocks:
 * src and dst have the same affinity and phase (UPC 1.3 7.4.3 para 10),
 * so each thread's dst elements are its own src elements, in runs (blocks)
 * that alternate between the threads in index order.
 *
 *  1. Each thread folds each of its blocks into one value, its total, and
 *     publishes its list of totals (`put`).
 *  2. The leaders gather every thread's totals (MPI_Allgatherv: per
 *     process, its threads' lists in thread order); each leader folds them
 *     in index order into the value before each block, its seed.
 *  3. Each thread scans its own blocks from their seeds, src into dst.
 *
 * Every operator combines in index order, UPC_NONCOMM_FUNC included, and
 * for a fixed layout the order is fixed whatever THREADS and the process
 * count are. Data moved: one value per block, where the simple path had
 * each thread fetch every element before its last one. A thread reads
 * only its own src and writes only its own dst: IN_MYSYNC and OUT_MYSYNC
 * wait for nobody but the leader's totals; in place, a thread's block is
 * folded before it is scanned. */
#include "mpi/hier.h"
#include "mpi/layer.h"

#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

struct fold_blocks {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    char *out; /* the next total */
};

static void fold_block(void *arg, size_t i, char *addr, size_t r)
{
    (void)i;
    struct fold_blocks *o = arg;
    union tupc_red_val v;
    o->ty->reduce(o->op, o->f, addr, r, &v);
    memcpy(o->out, &v, o->ty->size);
    o->out += o->ty->size;
}

struct scan_blocks {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    const char *seeds; /* seed b at b * es; none for block 0 */
    size_t B, phase;
    ptrdiff_t to_dst; /* dst's element address minus src's */
    int excl;
};

static void scan_block(void *arg, size_t i, char *addr, size_t r)
{
    const struct scan_blocks *o = arg;
    size_t b = o->B ? (o->phase + i) / o->B : 0;
    o->ty->scan(o->op, o->f, addr + o->to_dst, addr, r, b ? o->seeds + b * o->ty->size : NULL,
                o->excl, NULL);
}

void tupc_hier_fold_blocks(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                           tupc_sptr_t src, size_t nelems, size_t B, char *out)
{
    struct fold_blocks fo = {ty, op, f, out};
    tupc_hier_runs_of(t, src, nelems, B, ty->size, fold_block, &fo);
}

struct tupc_hier_blocks tupc_hier_blocks_of(tupc_sptr_t src, size_t nelems, size_t B, size_t es)
{
    struct tupc_red_lay lay;
    tupc_red_lay_init(&lay, src, nelems, B, es, 0);
    return (struct tupc_hier_blocks){nelems ? lay.nb : 0, B, lay.src.phase, src.thread};
}

void tupc_hier_scan_blocks(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                           tupc_sptr_t dst, tupc_sptr_t src, size_t nelems, size_t B,
                           const char *seeds, int excl)
{
    const size_t phase = tupc_hier_blocks_of(src, nelems, B, ty->size).phase;
    struct scan_blocks so = {ty, op, f, seeds, B, phase, dst.addr - src.addr, excl};
    tupc_hier_runs_of(t, src, nelems, B, ty->size, scan_block, &so);
}

/* A call's blocks and what the leader needs of it. */
struct call_blocks {
    const struct tupc_mpi_call *c;
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    struct tupc_hier_blocks k;
    uint32_t s;
};

/* 1. This thread's totals, once the leader has read those of its last call. */
static void fold_own(const struct call_blocks *x, struct tupc_hier_member *me, tupc_sptr_t src,
                     size_t nelems)
{
    const size_t es = x->ty->size;
    tupc_wait_peer(&tupc_hier_.ready, x->s - 1, tupc_first_thread_, x->c->func);
    char *tot = tupc_hier_grow(x->c->func, &me->own,
                               tupc_hier_blocks_count(&x->k, (uint32_t)MYTHREAD) * es);
    tupc_hier_fold_blocks(x->ty, x->op, x->f, (uint32_t)MYTHREAD, src, nelems, x->k.B, tot);
    tupc_word_set(&me->put, x->s); /* release: the totals */
}

/* 2'. The leader, where the blocks follow the processes (at most one per
 * thread, from thread 0: a shared [n / THREADS] array): an exclusive scan
 * of one partial per process gives each local block its seed. */
static void seeds_exscan(const struct call_blocks *x, char *seeds)
{
    const size_t es = x->ty->size;
    struct tupc_hier_pair part = {0}, before;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            tupc_hier_exscan(x->ty, x->op, x->f, &part, &before, x->c->func);
        struct tupc_hier_pair *acc = pass ? &before : &part;
        for (int j = 0; j < tupc_local_threads_; j++) {
            uint32_t t = (uint32_t)(tupc_first_thread_ + j);
            if (!tupc_hier_blocks_count(&x->k, t))
                continue;
            if (pass == 0)
                tupc_wait_peer(&tupc_hier_.m[j].put, x->s, (int)t, x->c->func);
            else if (acc->has) /* each local block's seed: the processes before, then ours */
                memcpy(seeds + tupc_hier_blocks_off(&x->k, t) * es, &acc->v, es);
            if (acc->has)
                x->ty->combine(x->op, x->f, &acc->v, tupc_hier_.m[j].own.p);
            else
                memcpy(&acc->v, tupc_hier_.m[j].own.p, es), acc->has = 1;
        }
    }
}

/* 2. The leader: every thread's totals (MPI_Allgatherv), folded in index
 * order into each block's seed (seeds may be NULL); 1 and *total, the fold
 * of them all, when there is a block. */
static int seeds_all(const struct call_blocks *x, char *seeds, union tupc_red_val *total)
{
    const size_t es = x->ty->size, nb = x->k.nb;
    const int L = tupc_local_threads_, P = THREADS / L;
    char *all = tupc_hier_buffer(x->c->func, x->s, 0, nb * es);
    size_t *first = malloc(sizeof *first * (size_t)THREADS); /* a thread's list in all */
    int *counts = malloc(sizeof *counts * (size_t)P * 2);
    if (!first || !counts)
        tupc_fail(x->c->func, NULL, "out of memory for %d threads' block counts", THREADS);
    int *displs = counts + P;
    size_t at = 0;
    for (int t = 0; t < THREADS; t++) {
        if (t % L == 0)
            displs[t / L] = tupc_hier_count(x->c->func, at * es);
        first[t] = at;
        at += tupc_hier_blocks_count(&x->k, (uint32_t)t);
        if (t % L == L - 1)
            counts[t / L] = tupc_hier_count(x->c->func, (at - first[t - L + 1]) * es);
    }
    for (int j = 0; j < L; j++) {
        uint32_t t = (uint32_t)(tupc_first_thread_ + j);
        tupc_wait_peer(&tupc_hier_.m[j].put, x->s, (int)t, x->c->func);
        memcpy(all + first[t] * es, tupc_hier_.m[j].own.p, tupc_hier_blocks_count(&x->k, t) * es);
    }
    if (nb)
        TUPC_HIER_CALL(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, counts, displs, MPI_BYTE,
                                      tupc_hier_.comm),
                       MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, counts, displs, MPI_BYTE,
                                       tupc_hier_.comm, &r_),
                       x->c->func);
    for (size_t b = 0; b < nb; b++) {
        uint32_t t = (x->k.t0 + (uint32_t)(b % (size_t)THREADS)) % (uint32_t)THREADS;
        const char *v = all + (first[t] + b / (size_t)THREADS) * es;
        if (b == 0) {
            memcpy(total, v, es);
        } else {
            if (seeds)
                memcpy(seeds + b * es, total, es);
            x->ty->combine(x->op, x->f, total, v);
        }
    }
    free(counts);
    free(first);
    return nb > 0;
}

static struct call_blocks blocks_of(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                                    upc_op_t op, void (*f)(void), tupc_sptr_t src, size_t nelems,
                                    size_t blk_size, uint32_t s)
{
    return (struct call_blocks){
        c, ty, op, (tupc_red_fn)f, tupc_hier_blocks_of(src, nelems, blk_size, ty->size), s};
}

void tupc_mpi_prefix_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                            tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                            size_t blk_size, void (*f)(void), int in_place, int excl)
{
    (void)in_place; /* each thread folds its blocks before it scans them */
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const struct call_blocks x = blocks_of(c, ty, op, f, src, nelems, blk_size, s);
    const size_t es = ty->size;
    fold_own(&x, me, src, nelems);
    if (MYTHREAD == tupc_first_thread_) {
        char *seeds = tupc_hier_buffer(c->func, s, 1, x.k.nb * es);
        union tupc_red_val total;
        if (x.k.nb <= (size_t)THREADS && x.k.t0 + x.k.nb <= (size_t)THREADS)
            seeds_exscan(&x, seeds);
        else
            (void)seeds_all(&x, seeds, &total);
        tupc_word_set(&tupc_hier_.ready, s); /* release: the seeds, and our totals are read */
    }
    /* 3. Our blocks from their seeds. */
    tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    tupc_hier_scan_blocks(ty, op, (tupc_red_fn)f, (uint32_t)MYTHREAD, dst, src, nelems, blk_size,
                          tupc_hier_buffer_of(s, 1, x.k.nb * es), excl);
    tupc_hier_leave(c, me, s);
}

/* A reduction by the same blocks: the fold of every block's total in
 * index order, by each leader (the same values in the same order with the
 * same code: the same bits). `every` 0: the leader of dst's process writes
 * it to dst, and dst's thread waits for it under OUT_MYSYNC (UPC_NONCOMM_FUNC's
 * upc_all_reduceT); 1: each thread copies it into its own dst[i]
 * (upc_all_reduce_allT, Extended Collectives 0.3 5.5.1 footnote 7). */
static void reduce_blocks(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                          tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                          size_t blk_size, void (*f)(void), int every)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const struct call_blocks x = blocks_of(c, ty, op, f, src, nelems, blk_size, s);
    fold_own(&x, me, src, nelems);
    if (MYTHREAD == tupc_first_thread_) {
        union tupc_red_val total;
        /* nelems 0: dst is left as it was */
        char *to = every ? tupc_hier_buffer(c->func, s, 1, ty->size)
                   : tupc_mpi_rank_of(dst.thread) == tupc_mpi_rank_ ? dst.addr
                                                                    : NULL;
        if (seeds_all(&x, NULL, &total) && to)
            memcpy(to, &total, ty->size);
        tupc_word_set(&tupc_hier_.ready, s); /* release: the result, and our totals are read */
    }
    if (every || (c->out == TUPC_MYSYNC && (uint32_t)MYTHREAD == dst.thread))
        tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    if (every && nelems)
        memcpy(dst.addr + (size_t)MYTHREAD * tupc_impl_partition_size,
               tupc_hier_buffer_of(s, 1, ty->size), ty->size);
    tupc_hier_leave(c, me, s);
}

void tupc_mpi_reduce_ordered(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                             tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                             size_t blk_size, void (*f)(void))
{
    reduce_blocks(c, ty, dst, src, op, nelems, blk_size, f, 0);
}

void tupc_mpi_reduce_all(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                         tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                         size_t blk_size, void (*f)(void))
{
    reduce_blocks(c, ty, dst, src, op, nelems, blk_size, f, 1);
}
