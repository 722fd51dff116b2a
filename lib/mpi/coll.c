/* The collectives of UPC 1.3 across processes: the simple correct path of
 * mpi/layer.h. Each thread writes only its own dst blocks (the reduction:
 * the thread of dst its one element), with plain stores, from what it
 * pulls: a get where the bytes lie in another process, a memcpy here. The
 * sync modes are taken conservatively: IN_MYSYNC and IN_ALLSYNC are a
 * barrier of every thread before the first read, OUT_MYSYNC and
 * OUT_ALLSYNC one after the last write. A barrier is a fence of every
 * thread (mpi/barrier.c: tupc_mpi_sync on each side), so what a thread
 * wrote before its entry is what the gets read, and what a thread wrote
 * into its dst is what others read after its exit. Gets are complete when
 * they return (mpi/window.c), so a thread leaving under OUT_NOSYNC has
 * nothing outstanding. docs/design.md, "Across processes". */
#include "mpi/layer.h"

#include "check/calls.h"
#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"

#include <stdlib.h>
#include <string.h>

/* n bytes at addr of thread t's partition into dst. */
static void fetch(void *dst, uint32_t t, const char *addr, size_t n)
{
    if (tupc_impl_is_local(t))
        memcpy(dst, addr, n);
    else
        tupc_mpi_get(dst, t, addr, n);
}

static void *scratch(const char *func, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        tupc_fail(func, NULL, "cannot allocate %zu bytes across processes", n);
    return p;
}

/* The entry records the call as the single-process path does (check/calls.h;
 * only barriers compare the records, and across processes they do not). */
static void enter(const struct tupc_mpi_call *c)
{
    (void)tupc_calls_note_(&tupc_calls_self_, c->func, c->flags, c->args);
    if (c->in != TUPC_NOSYNC)
        tupc_barrier_all(c->func);
}

static void leave(const struct tupc_mpi_call *c)
{
    if (c->out != TUPC_NOSYNC)
        tupc_barrier_all(c->func);
}

/* ---- Reductions ---------------------------------------------------------- */

/* Elements 0 .. m-1 of the array p (shared [B], elements of es bytes) into
 * buf in index order. Those of one thread lie in one contiguous run of its
 * partition (its blocks follow each other there), so each thread's are
 * fetched with one get into `stage` and then put in index order. */
static void gather_range(const char *func, char *buf, tupc_sptr_t p, size_t m, size_t B, size_t es)
{
    const int n = THREADS;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, p, m, B, es, 0);
    const char **first = scratch(func, sizeof *first * (size_t)n);
    size_t *count = scratch(func, sizeof *count * (size_t)n);
    size_t *at = scratch(func, sizeof *at * (size_t)n);
    char *stage = scratch(func, m * es);
    memset(count, 0, sizeof *count * (size_t)n);
    tupc_sptr_t q = L.src;
    for (size_t left = m, r; left; left -= r) { /* where each thread's run starts, and its length */
        r = tupc_red_run(&L, q, left);
        if (count[q.thread] == 0)
            first[q.thread] = q.addr;
        count[q.thread] += r;
        if (left > r)
            q = tupc_red_next_block(&L, q);
    }
    for (int t = 0; t < n; t++) { /* one get per thread */
        at[t] = t == 0 ? 0 : at[t - 1] + count[t - 1];
        if (count[t])
            fetch(stage + at[t] * es, (uint32_t)t, first[t], count[t] * es);
    }
    q = L.src;
    for (size_t i = 0, r; i < m; i += r) {
        r = tupc_red_run(&L, q, m - i);
        memcpy(buf + i * es, stage + at[q.thread] * es, r * es);
        at[q.thread] += r;
        if (i + r < m)
            q = tupc_red_next_block(&L, q);
    }
    free(stage);
    free(at);
    free(count);
    free(first);
}

/* The thread of dst combines every element, in index order, with the
 * kernel of the single-process path (user functions left to right): the
 * path of UPC_NONCOMM_FUNC (mpi/hier.c takes the others). */
void tupc_mpi_reduce_ordered(const struct tupc_mpi_call *c, const struct tupc_red_type *ty,
                             tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                             size_t blk_size, void (*f)(void))
{
    enter(c);
    if ((uint32_t)MYTHREAD == dst.thread && nelems) { /* nelems 0: dst is left as it was */
        char *buf = scratch(c->func, nelems * ty->size);
        gather_range(c->func, buf, src, nelems, blk_size, ty->size);
        union tupc_red_val acc;
        ty->reduce(op, f, buf, nelems, &acc);
        memcpy(dst.addr, &acc, ty->size);
        free(buf);
    }
    leave(c);
}

void tupc_mpi_my_runs(tupc_sptr_t p, size_t m, size_t B, size_t es,
                      void (*fn)(void *, size_t, char *, size_t), void *arg)
{
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, p, m, B, es, 0);
    tupc_sptr_t q = L.src;
    for (size_t i = 0, r; i < m; i += r) {
        r = tupc_red_run(&L, q, m - i);
        if (q.thread == (uint32_t)MYTHREAD)
            fn(arg, i, q.addr, r);
        if (i + r < m)
            q = tupc_red_next_block(&L, q);
    }
}
