/* The collectives across processes in two phases, as Open MPI's coll/han
 * composes shared memory and the network: the threads of a process meet
 * its leader (its first thread) in memory, and the leaders meet in one MPI
 * collective on a communicator of their own. This file: the protocol that
 * every verb follows (hier.h), broadcast and reduce; hier_reloc.c the other
 * relocalizations, hier_prefix.c the reductions by blocks.
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
 * process's data of calls up to s (a broadcast's bytes) and has published
 * what the leader reads of call s (a reduction's partial; a prefix's
 * block totals and a small gather's block say so with `put`); the leader's `ready` = s says that
 * call s's data is in place and that what the threads published for it
 * is read, and it counts every call (tupc_hier_leave). A broadcast's bytes (up to TUPC_HIER_STAGE),
 * the partials and a small gather's blocks have TUPC_HIER_SLOTS slots, by call number: the leader
 * refills slot s % TUPC_HIER_SLOTS after every `done` >= s - TUPC_HIER_SLOTS, and a thread
 * rewrites its partial or block there after `ready` >= s - TUPC_HIER_SLOTS, so that the leader runs
 * ahead of a thread that waits for a CPU (THREADS above the cores) instead of meeting it in every
 * call. A larger broadcast lands in the leader's own dst block (on src's process it is read from
 * src), where the process's other threads copy it from: the leader (the src thread) returns once
 * they have, as OUT_MYSYNC says for a thread whose data others read, under every mode (its dst is
 * the user's once it returns).
 *
 * The leader waits for MPI inside a blocking call where that is safe
 * (choose_blocking), else it posts the non-blocking form and polls it,
 * yielding its CPU between tests. docs/design.md, "Across
 * processes". */
#include "mpi/hier.h"
#include "mpi/layer.h"

#include "check/calls.h"
#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <limits.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tupc_hier_state tupc_hier_;

/* MPI's user op: inout = in op inout, in rank order (MPI 3.1 5.9.5); a
 * side without elements leaves the other. */
static void pair_op(void *in_, void *inout_, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const struct tupc_red_type *ty = atomic_load_explicit(&tupc_hier_.ty, memory_order_acquire);
    upc_op_t op = (upc_op_t)atomic_load_explicit(&tupc_hier_.rop, memory_order_relaxed);
    tupc_red_fn f = atomic_load_explicit(&tupc_hier_.fn, memory_order_relaxed);
    struct tupc_hier_pair *in = in_, *io = inout_;
    for (int i = 0; i < *len; i++) {
        if (!in[i].has)
            continue;
        if (io[i].has) {
            struct tupc_hier_pair t = in[i];
            ty->combine(op, f, &t.v, &io[i].v);
            io[i].v = t.v;
        } else {
            io[i] = in[i];
        }
    }
}

/* Where the leader may wait inside a blocking MPI call (see the top), as
 * measured with tests/mpi/bench_coll on 2 CPUs: a blocking call that polls
 * without yielding takes a CPU from the process's other threads, which a
 * broadcast's copies need (8 bytes at 2 x 2 on Open MPI: 19 us against
 * 2.3 us polled), while a reduction calls MPI only once every partial of
 * the process is in (8 bytes at 4 x 1: 3 us against 35 us polled, the
 * non-blocking schedule moving one step per test). Open MPI yields in its
 * blocking calls where the node holds more processes than CPUs. */
static void choose_blocking(void)
{
#ifdef OPEN_MPI
    tupc_hier_.block_copy = tupc_mpi_may_block(tupc_mpi_node_oversubscribed());
    tupc_hier_.block_reduce = tupc_mpi_may_block(1);
#else
    tupc_hier_.block_copy = tupc_hier_.block_reduce = tupc_mpi_may_block(0);
#endif
}

/* The value of a test's variable that lowers a bound: cur, or the
 * variable's number where it is less, never under least. Every process
 * reads the same environment under mpirun: none refuses alone, so one that
 * is not a number is ignored with a warning. */
static long env_lower(const char *name, long cur, long least)
{
    const char *env = getenv(name);
    if (!env || !*env)
        return cur;
    char *end;
    const long want = strtol(env, &end, 10);
    if (*end) {
        fprintf(stderr, "tupc: warning: %s=%s is not a number; ignored\n", name, env);
        return cur;
    }
    return want >= cur ? cur : want < least ? least : want;
}

int tupc_mpi_hier_start(char *err, size_t len)
{
    size_t n = (size_t)tupc_local_threads_;
    tupc_hier_.m = aligned_alloc(alignof(struct tupc_hier_member), n * sizeof *tupc_hier_.m);
    if (!tupc_hier_.m) {
        snprintf(err, len, "out of memory for the collectives' state of %zu threads", n);
        return -1;
    }
    memset(tupc_hier_.m, 0, n * sizeof *tupc_hier_.m);
    memset(&tupc_hier_.ready, 0, sizeof tupc_hier_.ready);
    memset(&tupc_hier_.taken, 0, sizeof tupc_hier_.taken);
    memset(tupc_hier_.posted, 0, sizeof tupc_hier_.posted);
    memset(tupc_hier_.slot, 0, sizeof tupc_hier_.slot);
    memset(tupc_hier_.big, 0, sizeof tupc_hier_.big);
    choose_blocking();
    int *ub, has = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &has);
    tupc_hier_.tag_ub = has ? *ub : 32767; /* the least MPI allows */
    /* TUPC_MPI_TAG_UB lowers the bound (never raises it, never under the
     * least): the tests take the paths of an MPI with few tags with it. */
    tupc_hier_.tag_ub = (int)env_lower("TUPC_MPI_TAG_UB", tupc_hier_.tag_ub, 32767);
    /* TUPC_MPI_PIECE likewise for a broadcast's calls, so that the tests
     * take the path of more than 2 GiB with little memory. */
    tupc_hier_.piece = (size_t)env_lower("TUPC_MPI_PIECE", 1L << 30, 4096);
    if (MPI_Comm_dup(tupc_mpi_comm_, &tupc_hier_.comm) != MPI_SUCCESS ||
        MPI_Comm_dup(tupc_mpi_comm_, &tupc_hier_.partials) != MPI_SUCCESS ||
        MPI_Type_contiguous((int)sizeof(struct tupc_hier_pair), MPI_BYTE, &tupc_hier_.pair) !=
            MPI_SUCCESS ||
        MPI_Type_commit(&tupc_hier_.pair) != MPI_SUCCESS ||
        MPI_Op_create(pair_op, 1, &tupc_hier_.op) != MPI_SUCCESS ||
        MPI_Op_create(pair_op, 0, &tupc_hier_.op_ordered) != MPI_SUCCESS) {
        snprintf(err, len, "cannot make the collectives' communicator and reduction (MPI)");
        return -1;
    }
    return 0;
}

void tupc_mpi_hier_stop(void)
{
    MPI_Op_free(&tupc_hier_.op_ordered);
    MPI_Op_free(&tupc_hier_.op);
    MPI_Type_free(&tupc_hier_.pair);
    /* A run that stopped early may leave messages and collectives in
     * flight: a freed communicator's context may be reused by the next
     * run's, whose receives would then match them (MPICH: "Message
     * truncated", mpi_stop), and a collective the leaders left may still
     * write into their buffers. Both are kept (a leak per stopped run).
     * Whether any process stopped, so that every process frees the same. */
    if (!tupc_run_keeps_mpi_state()) {
        MPI_Comm_free(&tupc_hier_.partials);
        MPI_Comm_free(&tupc_hier_.comm);
        for (int i = 0; i < TUPC_HIER_SLOTS; i++)
            for (int k = 0; k < 2; k++)
                free(tupc_hier_.slot[i][k].p);
        for (int k = 0; k < 2; k++)
            free(tupc_hier_.big[k].p);
        free(tupc_hier_.plan.perm); /* a permute's MPI_Iallgather and MPI_Ialltoallv */
        free(tupc_hier_.plan.cnt);
        for (int j = 0; j < tupc_local_threads_; j++)
            free(tupc_hier_.m[j].own.p);
        free(tupc_hier_.m);
    }
    tupc_hier_.plan.perm = tupc_hier_.plan.cnt = NULL;
    tupc_hier_.m = NULL;
}

/* The leader's wait for its non-blocking MPI call: polls, and past a spin
 * gives the CPU away between tests. It does not sleep, as the barrier's
 * departure does: a non-blocking collective moves on only inside a test
 * (a 16 MiB broadcast in pieces took 3.8 times MPI_Bcast with 20 us
 * sleeps). On CPUs of its process's own it polls TUPC_MPI_OWN_SPIN times
 * first: where its threads outnumber its CPUs, a yield mostly handed the
 * CPU to one of them waiting for this call too, which yielded it back (at
 * 2 x 2 on 2 CPUs, an 8-byte gather_all cost each thread 2.1 switches a
 * call with the yields and 1.0 without, 10.5 us against 8.2); a thread of
 * its process that computes meanwhile waits at most that long. Past 4096
 * tests the hang watchdog sees it as a sleeping wait, and it looks for
 * another process's stop and runs posted work that nobody runs
 * (tupc_mpi_idle). */
void tupc_hier_finish(MPI_Request *r, const char *func)
{
    struct tupc_wait_event ev = {func, -1, 0};
    const int own = tupc_mpi_own_cpus();
    for (unsigned n = 0;; n++) {
        int flag = 0;
        MPI_Test(r, &flag, MPI_STATUS_IGNORE);
        tupc_mpi_polled();
        if (flag) {
            if (n > 4096)
                tupc_wait_napped(&ev);
            return;
        }
        /* Relaxed: the flag only says that the run is ending. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            tupc_thread_leave();
        if (n == 4096)
            tupc_wait_napping(&ev);
        if (n >= 4096 && n % 64 == 0)
            tupc_mpi_idle();
        tupc_mpi_backoff(n, own);
    }
}

void tupc_hier_wait_all(MPI_Request *r, int n, const char *func)
{
    for (int i = 0; i < n; i++) { /* (MPICH's MPI_Waitall trips gcc's -Wstringop-overflow) */
        if (tupc_hier_.block_copy)
            MPI_Wait(&r[i], MPI_STATUS_IGNORE);
        else
            tupc_hier_finish(&r[i], func);
    }
    if (tupc_hier_.block_copy)
        tupc_mpi_polled();
}

/* The broadcast's calls (hier.h). Posted with `overlap`: a 16 MiB
 * broadcast at 2 x 1 took 1.58 times MPI_Bcast with the root's copy to
 * `also` after the transfer. Without, the blocking call where allowed: 2-3
 * times faster than the posted one at 8 bytes (MPICH). */
void tupc_hier_bcast(void *buf, size_t n, int root, MPI_Comm comm, const char *func, int overlap,
                     char *also)
{
    for (size_t at = 0; at < n;) {
        size_t k = n - at < tupc_hier_.piece ? n - at : tupc_hier_.piece;
        at += k;
        if (tupc_hier_.block_copy && !overlap) {
            MPI_Bcast((char *)buf + at - k, (int)k, MPI_BYTE, root, comm);
            tupc_mpi_polled();
            continue;
        }
        MPI_Request r;
        MPI_Ibcast((char *)buf + at - k, (int)k, MPI_BYTE, root, comm, &r);
        if (also) /* this piece's bytes, while it moves (not all at the first) */
            memcpy(also + at - k, (char *)buf + at - k, k);
        if (tupc_hier_.block_copy) {
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            tupc_mpi_polled();
        } else {
            tupc_hier_finish(&r, func);
        }
    }
}

int tupc_hier_bcast_pieces(size_t n)
{
    return n ? (int)((n - 1) / tupc_hier_.piece + 1) : 1;
}

/* Entry: the call's number, recorded as the single-process path records
 * it, after the barrier that IN_ALLSYNC asks for. */
uint32_t tupc_hier_enter(const struct tupc_mpi_call *c, struct tupc_hier_member *me)
{
    (void)tupc_coll_note(tupc_coll_self_, 0, c->func, c->flags, c->args);
    if (c->in == TUPC_ALLSYNC)
        tupc_barrier_all(c->func);
    uint32_t s = ++me->seq;
    /* Release: what this thread wrote before the call, for the leader that
     * reads its src under IN_MYSYNC. */
    tupc_word_set(&me->entered, s);
    /* `put` and `taken` move only in some verbs' calls (a prefix, a small
     * gather; a larger gather): one left 2^31 calls behind would pass a
     * wait for a later call (the waits compare by signed difference).
     * Everything of calls up to s - 1 is published: bring them that far.
     * Relaxed loads: this thread's own word, and the leader's own. */
    if (s - atomic_load_explicit(&me->put.value, memory_order_relaxed) > (1u << 30))
        tupc_word_set(&me->put, s - 1);
    if (me == &tupc_hier_.m[0] &&
        s - atomic_load_explicit(&tupc_hier_.taken.value, memory_order_relaxed) > (1u << 30))
        tupc_word_set(&tupc_hier_.taken, s - 1);
    return s;
}

/* The leader, before it reuses what call `upto` left: every thread of the
 * process is done with it. */
void tupc_hier_wait_done(const char *func, uint32_t upto)
{
    for (int j = 1; j < tupc_local_threads_; j++)
        tupc_wait_peer(&tupc_hier_.m[j].done, upto, tupc_first_thread_ + j, func);
}

void tupc_hier_wait_entered(const struct tupc_mpi_call *c, int j, uint32_t s)
{
    /* Acquire: thread j's writes before its entry. */
    if (c->in == TUPC_MYSYNC)
        tupc_wait_peer(&tupc_hier_.m[j].entered, s, tupc_first_thread_ + j, c->func);
}

int tupc_hier_count(const char *func, size_t n)
{
    if (n > INT_MAX)
        tupc_fail(func, NULL,
                  "%zu bytes per process in one call across processes; expected at most %d "
                  "(MPI's count)",
                  n, INT_MAX);
    return (int)n;
}

char *tupc_hier_buffer(const char *func, uint32_t s, int which, size_t n)
{
    const int ring = n <= TUPC_HIER_RING;
    /* Past the ring one buffer serves every call: the last one's readers
     * (every earlier call's, then) must be done. */
    tupc_hier_wait_done(func, ring ? s - TUPC_HIER_SLOTS : s - 1);
    return tupc_hier_grow(
        func, ring ? &tupc_hier_.slot[s % TUPC_HIER_SLOTS][which] : &tupc_hier_.big[which], n);
}

MPI_Datatype tupc_hier_local_blocks(const char *func, size_t nbytes)
{
    const int L = tupc_local_threads_;
    MPI_Datatype vec, blocks;
    MPI_Type_create_hvector(L, tupc_hier_count(func, nbytes), (MPI_Aint)tupc_impl_partition_size,
                            MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)tupc_hier_count(func, (size_t)L * nbytes), &blocks);
    MPI_Type_commit(&blocks);
    MPI_Type_free(&vec); /* blocks keeps what it needs */
    return blocks;
}

char *tupc_hier_grow(const char *func, struct tupc_hier_buf *b, size_t n)
{
    if (n > b->cap) {
        size_t cap = n < 64 ? 64 : n;
        free(b->p);
        b->p = malloc(cap);
        if (!b->p)
            tupc_fail(func, NULL, "cannot allocate %zu bytes across processes", cap);
        b->cap = cap;
    }
    return b->p;
}

void tupc_hier_leave(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s)
{
    /* The leader's `ready` counts every call, those whose paths need no
     * reader to wait for it too (one thread per process): a later call's
     * wait for `ready` >= s - TUPC_HIER_SLOTS must not wait for nothing.
     * Relaxed: only the leader stores it. */
    if (me == &tupc_hier_.m[0] &&
        atomic_load_explicit(&tupc_hier_.ready.value, memory_order_relaxed) != s)
        tupc_word_set(&tupc_hier_.ready, s);
    tupc_word_set(&me->done, s);
    if (c->out == TUPC_ALLSYNC)
        tupc_barrier_all(c->func);
}

void tupc_mpi_broadcast(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                        size_t nbytes)
{
    const int li = MYTHREAD - tupc_first_thread_;
    struct tupc_hier_member *me = &tupc_hier_.m[li];
    const uint32_t s = tupc_hier_enter(c, me);
    /* One thread per process: nobody to run ahead of, no copy to stage. */
    const int root = tupc_mpi_rank_of(src.thread),
              ring = nbytes <= TUPC_HIER_STAGE && tupc_local_threads_ > 1;
    const int at_root = root == tupc_mpi_rank_;
    char *const lead_dst = dst.addr + (size_t)tupc_first_thread_ * tupc_impl_partition_size;
    /* Where the process's threads copy from (after `ready`). */
    const char *from = ring ? NULL : at_root ? src.addr : lead_dst;
    if (li == 0) {
        if (!ring) /* the leader's dst (src's, on its process): read until done */
            tupc_hier_wait_done(c->func, s - 1);
        if (at_root) {
            tupc_hier_wait_entered(c, (int)(src.thread - (uint32_t)tupc_first_thread_), s);
            tupc_mpi_sync(); /* puts from other processes into src, in this process's view */
        }
        char *buf = ring ? tupc_hier_buffer(c->func, s, 0, nbytes) : at_root ? src.addr : lead_dst;
        if (ring && at_root)
            memcpy(buf, src.addr, nbytes);
        const int large = nbytes > TUPC_HIER_RING;
        tupc_hier_bcast(buf, nbytes, root, tupc_hier_.comm, c->func, large,
                        large && at_root ? lead_dst : NULL);
        /* Release: the bytes, for the threads' acquire below. */
        tupc_word_set(&tupc_hier_.ready, s);
    }
    if (ring || !at_root) {
        tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    } else if (li != 0) { /* src's own process: copies beside the leader's sends */
        tupc_hier_wait_entered(c, (int)(src.thread - (uint32_t)tupc_first_thread_), s);
        tupc_mpi_sync();
    }
    if (ring)
        from = tupc_hier_.slot[s % TUPC_HIER_SLOTS][0].p;
    char *mine = dst.addr + (size_t)MYTHREAD * tupc_impl_partition_size;
    if (mine != from && !(li == 0 && nbytes > TUPC_HIER_RING && at_root)) /* bcast copied it */
        memcpy(mine, from, nbytes);
    tupc_word_set(&me->done, s);
    if (c->out == TUPC_ALLSYNC) {
        tupc_barrier_all(c->func);
    } else if (!ring && (at_root ? (uint32_t)MYTHREAD == src.thread : li == 0)) {
        /* The process's threads copy from this thread's src or dst. */
        for (int j = 0; j < tupc_local_threads_; j++)
            tupc_wait_peer(&tupc_hier_.m[j].done, s, tupc_first_thread_ + j, c->func);
    }
}

/* Folds a thread's elements of src, in index order, into its partial. */
struct fold {
    const struct tupc_red_type *ty;
    upc_op_t op;
    tupc_red_fn f;
    struct tupc_hier_pair *p;
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

/* The MPI type and op of a reduction that MPI's own op computes as the
 * library does, and the op's identity for a process that holds no
 * element: integer types under ADD, MULT, AND, OR, XOR, MIN, MAX (wrapping,
 * as the library's unsigned arithmetic), floating types under ADD and MULT
 * (-0.0 leaves a sum of -0.0 as it is). MIN and MAX on floating types
 * differ in what they make of a NaN, and LOGAND and LOGOR of one element
 * leave it as it is: those take the library's own op (pair_op). */
static int builtin_op(const struct tupc_red_type *ty, upc_op_t op, MPI_Datatype *mt, MPI_Op *mo,
                      union tupc_red_val *id)
{
    /* The 1.3 types (the others do not cross processes); 1 signed, 2
     * floating. MPI's handles need not be constants: a second table. */
    static const struct {
        const char *name;
        int sgn;
    } types[] = {{"signed char", 1},    {"unsigned char", 0}, {"signed short", 1},
                 {"unsigned short", 0}, {"signed int", 1},    {"unsigned int", 0},
                 {"signed long", 1},    {"unsigned long", 0}, {"float", 2},
                 {"double", 2},         {"long double", 2}};
    const MPI_Datatype mts[] = {MPI_SIGNED_CHAR,    MPI_UNSIGNED_CHAR, MPI_SHORT,
                                MPI_UNSIGNED_SHORT, MPI_INT,           MPI_UNSIGNED,
                                MPI_LONG,           MPI_UNSIGNED_LONG, MPI_FLOAT,
                                MPI_DOUBLE,         MPI_LONG_DOUBLE};
    /* The last type's row, kept: only the leader calls this, one at a time
     * (runs are ordered by their threads' creation and joining). */
    static const struct tupc_red_type *last;
    static int last_k = -1;
    int k = -1;
    if (ty == last) {
        k = last_k;
    } else {
        for (int i = 0; i < (int)(sizeof types / sizeof types[0]); i++)
            if (strcmp(ty->name, types[i].name) == 0)
                k = i;
        last = ty;
        last_k = k;
    }
    if (k < 0)
        return 0;
    *mt = mts[k];
    memset(id, 0, sizeof *id);
    if (types[k].sgn == 2) { /* floating */
        if (op != UPC_ADD && op != UPC_MULT)
            return 0;
        *mo = op == UPC_ADD ? MPI_SUM : MPI_PROD;
        double one = op == UPC_ADD ? -0.0 : 1.0;
        if (ty->size == sizeof(float))
            *(float *)id = (float)one;
        else if (ty->size == sizeof(double))
            *(double *)id = one;
        else
            *(long double *)id = one;
        return 1;
    }
    /* Integers: the identity as a value of 64 bits, stored in the type. */
    const unsigned bits = 8 * (unsigned)ty->size;
    const uint64_t umax = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    const uint64_t max = types[k].sgn ? umax >> 1 : umax, min = types[k].sgn ? ~(umax >> 1) : 0;
    uint64_t v;
    switch (op) {
    case UPC_ADD:
        *mo = MPI_SUM, v = 0;
        break;
    case UPC_MULT:
        *mo = MPI_PROD, v = 1;
        break;
    case UPC_AND:
        *mo = MPI_BAND, v = ~(uint64_t)0;
        break;
    case UPC_OR:
        *mo = MPI_BOR, v = 0;
        break;
    case UPC_XOR:
        *mo = MPI_BXOR, v = 0;
        break;
    case UPC_MIN:
        *mo = MPI_MIN, v = max;
        break;
    case UPC_MAX:
        *mo = MPI_MAX, v = min;
        break;
    default:
        return 0;
    }
    switch (ty->size) {
    case 1:
        *(uint8_t *)id = (uint8_t)v;
        break;
    case 2:
        *(uint16_t *)id = (uint16_t)v;
        break;
    case 4:
        *(uint32_t *)id = (uint32_t)v;
        break;
    default:
        *(uint64_t *)id = v;
    }
    return 1;
}

/* The leaders' reduction of the process partials `acc` to the process of
 * rank root, into *out there; 0 where no process held an element (the
 * library's own op says so; the caller knows it from nelems either way). */
static int reduce_leaders(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f,
                          const struct tupc_hier_pair *acc, int root, union tupc_red_val *out,
                          const char *func)
{
    MPI_Datatype mt;
    MPI_Op mo;
    union tupc_red_val id;
    if (builtin_op(ty, op, &mt, &mo, &id)) {
        const void *in = acc->has ? (const void *)&acc->v : (const void *)&id;
        TUPC_HIER_CALL_IF(tupc_hier_.block_reduce,
                          MPI_Reduce(in, out, 1, mt, mo, root, tupc_hier_.comm),
                          MPI_Ireduce(in, out, 1, mt, mo, root, tupc_hier_.comm, &r_), func);
        return 1;
    }
    atomic_store_explicit(&tupc_hier_.rop, (int)op, memory_order_relaxed);
    atomic_store_explicit(&tupc_hier_.fn, f, memory_order_relaxed);
    atomic_store_explicit(&tupc_hier_.ty, ty, memory_order_release);
    struct tupc_hier_pair all = *acc;
    TUPC_HIER_CALL_IF(
        tupc_hier_.block_reduce,
        MPI_Reduce(acc, &all, 1, tupc_hier_.pair, tupc_hier_.op, root, tupc_hier_.comm),
        MPI_Ireduce(acc, &all, 1, tupc_hier_.pair, tupc_hier_.op, root, tupc_hier_.comm, &r_),
        func);
    *out = all.v;
    return all.has;
}

void tupc_hier_exscan(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f,
                      const struct tupc_hier_pair *in, struct tupc_hier_pair *out, const char *func)
{
    MPI_Datatype mt;
    MPI_Op mo;
    union tupc_red_val id;
    if (builtin_op(ty, op, &mt, &mo, &id)) {
        /* MPI's own op (8 bytes at 4 x 1: 2.8 times a raw MPI_Exscan with
         * pair_op, which MPI applies in a slower schedule): a process
         * without elements sends the identity, and what comes back is the
         * identity where none before had any, which leaves a partial as
         * it is; the blocks that read a seed have one before them. */
        out->has = 1;
        const void *mine = in->has ? (const void *)&in->v : (const void *)&id;
        TUPC_HIER_CALL_IF(tupc_hier_.block_reduce,
                          MPI_Exscan(mine, &out->v, 1, mt, mo, tupc_hier_.comm),
                          MPI_Iexscan(mine, &out->v, 1, mt, mo, tupc_hier_.comm, &r_), func);
        if (tupc_mpi_rank_ == 0) /* MPI leaves rank 0's undefined */
            out->v = id;
        return;
    }
    atomic_store_explicit(&tupc_hier_.rop, (int)op, memory_order_relaxed);
    atomic_store_explicit(&tupc_hier_.fn, f, memory_order_relaxed);
    atomic_store_explicit(&tupc_hier_.ty, ty, memory_order_release);
    *out = (struct tupc_hier_pair){0};
    TUPC_HIER_CALL_IF(
        tupc_hier_.block_reduce,
        MPI_Exscan(in, out, 1, tupc_hier_.pair, tupc_hier_.op_ordered, tupc_hier_.comm),
        MPI_Iexscan(in, out, 1, tupc_hier_.pair, tupc_hier_.op_ordered, tupc_hier_.comm, &r_),
        func);
    if (tupc_mpi_rank_ == 0) /* MPI leaves rank 0's undefined */
        *out = (struct tupc_hier_pair){0};
}

/* The blocks from src's run over the threads from src.thread on, so t
 * holds an element when it is at most the last block's number of threads
 * away. Every thread computes the same. */
int tupc_hier_holds(uint32_t t, tupc_sptr_t src, size_t nelems, size_t B)
{
    if (nelems == 0)
        return 0;
    const size_t T = (size_t)THREADS, away = (t + T - src.thread) % T;
    if (B == 0)
        return away == 0;
    return away <= ((size_t)src.phase + nelems - 1) / B;
}

/* Commutative operators (every one but UPC_NONCOMM_FUNC, which
 * tupc_mpi_reduce_ordered takes): each thread folds its own elements, the
 * leader the process's threads in thread order, MPI the processes'. For a
 * fixed THREADS and process count the order is fixed, and so are
 * floating-point results. */
void tupc_mpi_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty, tupc_sptr_t dst,
                     tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size, void (*f)(void))
{
    const int li = MYTHREAD - tupc_first_thread_;
    struct tupc_hier_member *me = &tupc_hier_.m[li];
    const uint32_t s = tupc_hier_enter(c, me);
    /* A thread without elements publishes nothing, and nobody waits for
     * it: a small reduction waits for the threads that hold its data. */
    struct tupc_hier_pair *mine = &me->partial[s % TUPC_HIER_SLOTS];
    if (tupc_hier_holds((uint32_t)MYTHREAD, src, nelems, blk_size)) {
        /* The leader has read our partial of the call that used the slot. */
        tupc_wait_peer(&tupc_hier_.ready, s - TUPC_HIER_SLOTS, tupc_first_thread_, c->func);
        tupc_hier_fold(ty, op, (tupc_red_fn)f, (uint32_t)MYTHREAD, src, nelems, blk_size, mine);
    }
    /* Release: the partial, for the leader's acquire. */
    tupc_word_set(&me->done, s);
    const int root = tupc_mpi_rank_of(dst.thread);
    if (li == 0) {
        struct tupc_hier_pair acc = {0};
        if (tupc_hier_holds((uint32_t)MYTHREAD, src, nelems, blk_size))
            acc = *mine;
        for (int j = 1; j < tupc_local_threads_; j++) {
            if (!tupc_hier_holds((uint32_t)(tupc_first_thread_ + j), src, nelems, blk_size))
                continue;
            tupc_wait_peer(&tupc_hier_.m[j].done, s, tupc_first_thread_ + j, c->func);
            const struct tupc_hier_pair *p = &tupc_hier_.m[j].partial[s % TUPC_HIER_SLOTS];
            if (p->has && acc.has)
                ty->combine(op, (tupc_red_fn)f, &acc.v, &p->v);
            else if (p->has)
                acc = *p;
        }
        union tupc_red_val all;
        int any = reduce_leaders(ty, op, (tupc_red_fn)f, &acc, root, &all, c->func);
        if (root == tupc_mpi_rank_ && any && nelems) { /* nelems 0: dst is left as it was */
            /* IN_MYSYNC: dst's thread has entered (it may hold no element,
             * and then nobody waited for it above). */
            tupc_hier_wait_entered(c, (int)(dst.thread - (uint32_t)tupc_first_thread_), s);
            memcpy(dst.addr, &all, ty->size);
        }
        /* Release: dst, and that the partials are read. */
        tupc_word_set(&tupc_hier_.ready, s);
    }
    if (c->out == TUPC_ALLSYNC)
        tupc_barrier_all(c->func);
    else if (c->out == TUPC_MYSYNC && (uint32_t)MYTHREAD == dst.thread)
        tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
}

void tupc_hier_fold(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                    tupc_sptr_t src, size_t nelems, size_t B, struct tupc_hier_pair *p)
{
    *p = (struct tupc_hier_pair){0};
    struct fold o = {ty, op, f, p};
    tupc_hier_runs_of(t, src, nelems, B, ty->size, fold_run, &o);
}

void tupc_mpi_my_runs(tupc_sptr_t p, size_t m, size_t B, size_t es,
                      void (*fn)(void *, size_t, char *, size_t), void *arg)
{
    tupc_hier_runs_of((uint32_t)MYTHREAD, p, m, B, es, fn, arg);
}

void tupc_hier_runs_of(uint32_t t, tupc_sptr_t p, size_t m, size_t B, size_t es,
                       void (*fn)(void *, size_t, char *, size_t), void *arg)
{
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, p, m, B, es, 0);
    tupc_sptr_t q = L.src;
    for (size_t i = 0, r; i < m; i += r) {
        r = tupc_red_run(&L, q, m - i);
        if (q.thread == t)
            fn(arg, i, q.addr, r);
        if (i + r < m)
            q = tupc_red_next_block(&L, q);
    }
}
