/* Broadcast and reduce across processes in two phases, as Open MPI's
 * coll/han composes shared memory and the network: the threads of a
 * process meet its leader (its first thread) in memory, and the leaders
 * meet in one non-blocking MPI collective on a communicator of their own.
 *
 * The sync modes keep their meaning with no more waiting than the data
 * needs (UPC 1.3 7.4 para 5-8):
 *  - IN_ALLSYNC and OUT_ALLSYNC promise something of every thread: a
 *    barrier of every thread;
 *  - IN_MYSYNC: a broadcast reads one thread's data, so only the leader of
 *    that thread's process waits, for that thread's entry; a reduction's
 *    threads read only their own data, ready at their own entry;
 *  - OUT_MYSYNC: a thread returns once its own data is read and written:
 *    every thread waits for its dst, and the thread of a broadcast's src
 *    also for its process's readers of src; a reduction's dst thread waits
 *    for the result;
 *  - NOSYNC: the data's own order only.
 *
 * A process's calls are numbered alike in every thread (every thread makes
 * the same collective calls, 7.4 para 3; check/calls.h compares them at
 * the barriers). Thread j's `done` = s says it has finished reading the
 * process's data of calls up to s (a broadcast's stage) and has published
 * what the leader reads of call s (a reduction's partial); the leader's
 * `ready` = s says that call s's data is in place and that the partials
 * of s are read. So the leader refills the stage for call s only after
 * every `done` >= s - 1, and a thread rewrites its partial for call s only
 * after `ready` >= s - 1: one call of slack, no copy kept per call.
 * docs/design.md, "Across processes". */
#include "mpi/layer.h"

#include "check/calls.h"
#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A reduction's partial as the leaders combine it (one MPI element). */
struct hier_pair {
    int has; /* 0: no element of the call lies with these threads */
    union tupc_red_val v;
};

/* One thread's state, written by that thread (done, the partial) or read
 * by the leader; two lines, so that the adjacent-line prefetcher does not
 * make neighbours contend. */
struct hier_member {
    tupc_word entered; /* the calls this thread has entered */
    tupc_word done;    /* see the top */
    uint32_t seq;      /* the calls it has made (its own) */
    struct hier_pair partial;
} __attribute__((aligned(128)));

static struct {
    MPI_Comm comm; /* the leaders' collectives, apart from every other message */
    MPI_Datatype pair;
    MPI_Op op;
    struct hier_member *m; /* this process's threads, by local index */
    tupc_word ready;       /* see the top */
    char *stage;           /* a broadcast's bytes, on the processes that receive them */
    size_t cap;
    /* Where the process's threads copy a broadcast from (the stage, or src
     * itself on src's process): written by the leader before ready. */
    const char *from;
    /* The reduction that the MPI op applies: set by the leader before it
     * posts the reduction; read by whichever thread MPI runs the op in
     * (release/acquire, as MPI's own ordering cannot be seen by TSan). */
    _Atomic(const struct tupc_red_type *) ty;
    _Atomic int rop;
    _Atomic(tupc_red_fn) fn;
} hier_;

/* MPI's user op: inout = in op inout, in rank order (MPI 3.1 5.9.5); a
 * side without elements leaves the other. */
static void pair_op(void *in_, void *inout_, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const struct tupc_red_type *ty = atomic_load_explicit(&hier_.ty, memory_order_acquire);
    upc_op_t op = (upc_op_t)atomic_load_explicit(&hier_.rop, memory_order_relaxed);
    tupc_red_fn f = atomic_load_explicit(&hier_.fn, memory_order_relaxed);
    struct hier_pair *in = in_, *io = inout_;
    for (int i = 0; i < *len; i++) {
        if (!in[i].has)
            continue;
        if (io[i].has) {
            struct hier_pair t = in[i];
            ty->combine(op, f, &t.v, &io[i].v);
            io[i].v = t.v;
        } else {
            io[i] = in[i];
        }
    }
}

int tupc_mpi_hier_start(char *err, size_t len)
{
    size_t n = (size_t)tupc_local_threads_;
    hier_.m = aligned_alloc(alignof(struct hier_member), n * sizeof *hier_.m);
    if (!hier_.m) {
        snprintf(err, len, "out of memory for the collectives' state of %zu threads", n);
        return -1;
    }
    memset(hier_.m, 0, n * sizeof *hier_.m);
    memset(&hier_.ready, 0, sizeof hier_.ready);
    hier_.stage = NULL;
    hier_.cap = 0;
    hier_.from = NULL;
    if (MPI_Comm_dup(tupc_mpi_comm_, &hier_.comm) != MPI_SUCCESS ||
        MPI_Type_contiguous((int)sizeof(struct hier_pair), MPI_BYTE, &hier_.pair) != MPI_SUCCESS ||
        MPI_Type_commit(&hier_.pair) != MPI_SUCCESS ||
        MPI_Op_create(pair_op, 1, &hier_.op) != MPI_SUCCESS) {
        snprintf(err, len, "cannot make the collectives' communicator and reduction (MPI)");
        return -1;
    }
    return 0;
}

void tupc_mpi_hier_stop(void)
{
    MPI_Op_free(&hier_.op);
    MPI_Type_free(&hier_.pair);
    MPI_Comm_free(&hier_.comm);
    free(hier_.stage);
    free(hier_.m);
    hier_.m = NULL;
}

/* The leader's wait for its MPI request: polls, and past a spin gives the
 * CPU away, as the barrier's departure does (mpi/barrier.c); MPI_Wait
 * would poll without yielding (MPICH always), taking the CPUs of the
 * threads of the processes it waits for. */
static void finish(MPI_Request *r, const char *func)
{
    struct tupc_wait_event ev = {func, -1, 0};
    for (unsigned n = 0;; n++) {
        int flag = 0;
        MPI_Test(r, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            if (n > 4096)
                tupc_wait_napped(&ev);
            return;
        }
        /* Relaxed: the flag only says that the run is ending. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            tupc_thread_leave();
        if (n < 4096) {
            tupc_backoff(n);
        } else {
            if (n == 4096)
                tupc_wait_napping(&ev);
            nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
            tupc_mpi_stop_poll();
        }
    }
}

/* Entry: the call's number, recorded as the single-process path records
 * it, after the barrier that IN_ALLSYNC asks for. */
static uint32_t enter(const struct tupc_mpi_call *c, struct hier_member *me)
{
    (void)tupc_calls_note_(&tupc_calls_self_, c->func, c->flags, c->args);
    if (c->in == TUPC_ALLSYNC)
        tupc_barrier_all(c->func);
    uint32_t s = ++me->seq;
    /* Release: what this thread wrote before the call, for the leader that
     * reads its src under IN_MYSYNC. */
    tupc_word_set(&me->entered, s);
    return s;
}

/* The leader, before it reuses what call s - 1 left: every thread of the
 * process is done with it. */
static void wait_done(const char *func, uint32_t s)
{
    for (int j = 1; j < tupc_local_threads_; j++)
        tupc_wait_peer(&hier_.m[j].done, s - 1, tupc_first_thread_ + j, func);
}

void tupc_mpi_broadcast(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                        size_t nbytes)
{
    const int li = MYTHREAD - tupc_first_thread_;
    struct hier_member *me = &hier_.m[li];
    const uint32_t s = enter(c, me);
    const int root = tupc_mpi_rank_of(src.thread);
    if (li == 0) {
        wait_done(c->func, s);
        char *buf;
        if (root == tupc_mpi_rank_) {
            if (c->in == TUPC_MYSYNC) /* acquire: the src thread's writes before its entry */
                tupc_wait_peer(&hier_.m[src.thread - (uint32_t)tupc_first_thread_].entered, s,
                               (int)src.thread, c->func);
            tupc_mpi_sync(); /* puts from other processes into src, in this process's view */
            buf = src.addr;
        } else {
            if (nbytes > hier_.cap) { /* nobody reads the stage now */
                free(hier_.stage);
                hier_.stage = malloc(nbytes);
                if (!hier_.stage)
                    tupc_fail(c->func, NULL, "cannot allocate %zu bytes across processes", nbytes);
                hier_.cap = nbytes;
            }
            buf = hier_.stage;
        }
        /* Counts above INT_MAX go in pieces of 1 GiB. */
        for (size_t at = 0; at < nbytes;) {
            size_t k = nbytes - at < ((size_t)1 << 30) ? nbytes - at : (size_t)1 << 30;
            MPI_Request r;
            MPI_Ibcast(buf + at, (int)k, MPI_BYTE, root, hier_.comm, &r);
            finish(&r, c->func);
            at += k;
        }
        hier_.from = buf;
        /* Release: the bytes and `from`, for the threads' acquire below. */
        tupc_word_set(&hier_.ready, s);
    }
    tupc_wait_peer(&hier_.ready, s, tupc_first_thread_, c->func);
    char *mine = dst.addr + (size_t)MYTHREAD * tupc_impl_partition_size;
    if (mine != hier_.from)
        memcpy(mine, hier_.from, nbytes);
    tupc_word_set(&me->done, s);
    if (c->out == TUPC_ALLSYNC) {
        tupc_barrier_all(c->func);
    } else if (c->out == TUPC_MYSYNC && root == tupc_mpi_rank_ &&
               (uint32_t)MYTHREAD == src.thread) {
        /* The process's threads copy from src itself. */
        for (int j = 0; j < tupc_local_threads_; j++)
            tupc_wait_peer(&hier_.m[j].done, s, tupc_first_thread_ + j, c->func);
    }
}

/* Folds this thread's elements of src, in index order, into its partial. */
struct fold {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    struct hier_pair *p;
};

static void fold_run(void *arg, size_t i, char *addr, size_t r)
{
    (void)i;
    struct fold *o = arg;
    union tupc_red_val v;
    o->ty->reduce(o->op, o->f, addr, r, &v);
    if (o->p->has)
        o->ty->combine(o->op, o->f, &o->p->v, &v);
    else
        o->p->v = v;
    o->p->has = 1;
}

/* Commutative operators (every one but UPC_NONCOMM_FUNC, which
 * tupc_mpi_reduce_ordered takes): each thread folds its own elements, the
 * leader the process's threads in thread order, MPI the processes'. For a
 * fixed THREADS and process count the order is fixed, and so are
 * floating-point results. */
void tupc_mpi_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty, tupc_sptr_t dst,
                     tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void))
{
    if (op == UPC_NONCOMM_FUNC) {
        tupc_mpi_reduce_ordered(c, ty, dst, src, op, nelems, blk_size, f);
        return;
    }
    const int li = MYTHREAD - tupc_first_thread_;
    struct hier_member *me = &hier_.m[li];
    const uint32_t s = enter(c, me);
    /* The leader has read our partial of the call before. */
    tupc_wait_peer(&hier_.ready, s - 1, tupc_first_thread_, c->func);
    me->partial = (struct hier_pair){0};
    struct fold o = {ty, op, (tupc_red_fn)f, &me->partial};
    tupc_mpi_my_runs(src, nelems, blk_size, ty->size, fold_run, &o);
    /* Release: the partial, for the leader's acquire. */
    tupc_word_set(&me->done, s);
    const int root = tupc_mpi_rank_of(dst.thread);
    if (li == 0) {
        struct hier_pair acc = me->partial;
        for (int j = 1; j < tupc_local_threads_; j++) {
            tupc_wait_peer(&hier_.m[j].done, s, tupc_first_thread_ + j, c->func);
            const struct hier_pair *p = &hier_.m[j].partial;
            if (p->has && acc.has)
                ty->combine(op, (tupc_red_fn)f, &acc.v, &p->v);
            else if (p->has)
                acc = *p;
        }
        atomic_store_explicit(&hier_.rop, (int)op, memory_order_relaxed);
        atomic_store_explicit(&hier_.fn, (tupc_red_fn)f, memory_order_relaxed);
        atomic_store_explicit(&hier_.ty, ty, memory_order_release);
        struct hier_pair all = acc;
        MPI_Request r;
        MPI_Ireduce(&acc, &all, 1, hier_.pair, hier_.op, root, hier_.comm, &r);
        finish(&r, c->func);
        if (root == tupc_mpi_rank_ && all.has) /* nelems 0: dst is left as it was */
            memcpy(dst.addr, &all.v, ty->size);
        /* Release: dst, and that the partials are read. */
        tupc_word_set(&hier_.ready, s);
    }
    if (c->out == TUPC_ALLSYNC)
        tupc_barrier_all(c->func);
    else if (c->out == TUPC_MYSYNC && (uint32_t)MYTHREAD == dst.thread)
        tupc_wait_peer(&hier_.ready, s, tupc_first_thread_, c->func);
}
