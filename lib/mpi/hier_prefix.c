/* Prefix reductions across processes in two phases (hier.h), by blocks:
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

/* The blocks of an array of n elements (shared [B], from src's phase):
 * thread t holds those whose number is off(t) mod THREADS. */
struct blocks {
    size_t nb, B, phase;
    uint32_t t0;
};

static size_t off_of(const struct blocks *k, uint32_t t)
{
    return (t + (uint32_t)THREADS - k->t0) % (uint32_t)THREADS;
}

/* How many of the blocks thread t holds. */
static size_t count_of(const struct blocks *k, uint32_t t)
{
    size_t o = off_of(k, t);
    return k->nb > o ? (k->nb - 1 - o) / (size_t)THREADS + 1 : 0;
}

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

void tupc_mpi_prefix_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                            tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                            size_t blk_size, void (*f)(void), int in_place, int excl)
{
    (void)in_place; /* each thread folds its blocks before it scans them */
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const size_t es = ty->size;
    const int L = tupc_local_threads_, li = MYTHREAD - tupc_first_thread_;
    struct tupc_red_lay lay;
    tupc_red_lay_init(&lay, src, nelems, blk_size, es, 0);
    const struct blocks k = {nelems ? lay.nb : 0, blk_size, lay.src.phase, src.thread};

    /* 1. Our totals, once the leader has read those of our last call. */
    tupc_wait_peer(&tupc_hier_.ready, s - 1, tupc_first_thread_, c->func);
    char *tot = tupc_hier_grow(c->func, &me->own, count_of(&k, (uint32_t)MYTHREAD) * es);
    struct fold_blocks fo = {ty, op, (tupc_red_fn)f, tot};
    tupc_mpi_my_runs(src, nelems, blk_size, es, fold_block, &fo);
    tupc_word_set(&me->put, s); /* release: the totals */

    /* 2'. Blocks in thread order, at most one each (a shared [n / THREADS]
     * array from thread 0): the processes' blocks follow each other, and
     * an exclusive scan of one partial per process gives each its seed. */
    if (li == 0 && k.nb <= (size_t)THREADS && k.t0 + k.nb <= (size_t)THREADS) {
        char *seeds = tupc_hier_buffer(c->func, s, 1, k.nb * es);
        struct tupc_hier_pair part = {0}, before;
        for (int j = 0; j < L; j++) {
            uint32_t t = (uint32_t)(tupc_first_thread_ + j);
            if (!count_of(&k, t))
                continue;
            tupc_wait_peer(&tupc_hier_.m[j].put, s, (int)t, c->func);
            if (part.has)
                ty->combine(op, (tupc_red_fn)f, &part.v, tupc_hier_.m[j].own.p);
            else
                memcpy(&part.v, tupc_hier_.m[j].own.p, es), part.has = 1;
        }
        tupc_hier_exscan(ty, op, (tupc_red_fn)f, &part, &before, c->func);
        for (int j = 0; j < L; j++) { /* each local block's seed: before, then ours */
            uint32_t t = (uint32_t)(tupc_first_thread_ + j);
            if (!count_of(&k, t))
                continue;
            if (before.has)
                memcpy(seeds + off_of(&k, t) * es, &before.v, es);
            if (before.has)
                ty->combine(op, (tupc_red_fn)f, &before.v, tupc_hier_.m[j].own.p);
            else
                memcpy(&before.v, tupc_hier_.m[j].own.p, es), before.has = 1;
        }
        tupc_word_set(&tupc_hier_.ready, s); /* release: the seeds, and our totals are read */
    } else if (li == 0) {                    /* 2. Every total, in index order, into seeds. */
        char *all = tupc_hier_buffer(c->func, s, 0, k.nb * es);
        char *seeds = tupc_hier_buffer(c->func, s, 1, k.nb * es);
        int P = THREADS / L, *counts = NULL, *displs = NULL;
        size_t *first = malloc(sizeof *first * (size_t)THREADS); /* a thread's list in all */
        counts = malloc(sizeof *counts * (size_t)P * 2);
        if (!first || !counts)
            tupc_fail(c->func, NULL, "out of memory for %d threads' block counts", THREADS);
        displs = counts + P;
        size_t at = 0;
        for (int t = 0; t < THREADS; t++) {
            if (t % L == 0)
                displs[t / L] = tupc_hier_count(c->func, at * es);
            first[t] = at;
            at += count_of(&k, (uint32_t)t);
            if (t % L == L - 1)
                counts[t / L] = tupc_hier_count(c->func, (at - first[t - L + 1]) * es);
        }
        for (int j = 0; j < L; j++) {
            tupc_wait_peer(&tupc_hier_.m[j].put, s, tupc_first_thread_ + j, c->func);
            uint32_t t = (uint32_t)(tupc_first_thread_ + j);
            memcpy(all + first[t] * es, tupc_hier_.m[j].own.p, count_of(&k, t) * es);
        }
        if (k.nb)
            TUPC_HIER_CALL(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, counts, displs, MPI_BYTE,
                                          tupc_hier_.comm),
                           MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, counts, displs, MPI_BYTE,
                                           tupc_hier_.comm, &r_),
                           c->func);
        union tupc_red_val acc;
        for (size_t b = 0; b < k.nb; b++) {
            uint32_t t = (k.t0 + (uint32_t)(b % (size_t)THREADS)) % (uint32_t)THREADS;
            const char *v = all + (first[t] + b / (size_t)THREADS) * es;
            if (b == 0) {
                memcpy(&acc, v, es);
            } else {
                memcpy(seeds + b * es, &acc, es);
                ty->combine(op, (tupc_red_fn)f, &acc, v);
            }
        }
        free(counts);
        free(first);
        tupc_word_set(&tupc_hier_.ready, s); /* release: the seeds, and our totals are read */
    }

    /* 3. Our blocks from their seeds. */
    tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    struct scan_blocks so = {
        ty,       op,      (tupc_red_fn)f,      tupc_hier_buffer_of(s, 1, k.nb * es),
        blk_size, k.phase, dst.addr - src.addr, excl};
    tupc_mpi_my_runs(src, nelems, blk_size, es, scan_block, &so);
    tupc_hier_leave(c, me, s);
}
