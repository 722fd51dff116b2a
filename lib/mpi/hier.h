/* The state that the two-phase collectives across processes share
 * (hier.c: broadcast and reduce, and the protocol; hier_reloc.c: scatter,
 * gather, gather_all, exchange). The threads of a process meet its leader
 * (its first thread) in memory, and the leaders meet in MPI; hier.c's top
 * comment says how the words below order a call's phases. */
#ifndef TUPC_MPI_HIER_H
#define TUPC_MPI_HIER_H

#include "coll/reduce_types.h"
#include "mpi/layer.h"
#include "sync/wait.h"

#include <stdint.h>

/* Calls whose data a leader keeps at once: the leader runs this many calls
 * ahead of a thread that waits for a CPU, and a thread this many ahead of
 * its leader with its partials and small blocks. With two threads per CPU
 * they hand the CPU over once every so many small calls: at 2 x 2 on 2
 * CPUs, 8-byte MY|MY broadcasts, scatters, gathers and reductions took
 * 0.91-1.34 us a call with 8 slots, 0.44-0.66 with 32. */
#define TUPC_HIER_SLOTS 32
/* The bytes of a call's buffer that goes through a slot; a larger one has
 * a buffer of its own, reused call after call. With the slots, at most
 * 16 MiB of buffers per process (32 slots of two buffers). */
#define TUPC_HIER_RING ((size_t)256 << 10)
/* A broadcast or gather_all of more bytes a process than this stages none
 * in the slots: they arrive in the leader's own dst (on a broadcast's root
 * process they are read from src), which its threads copy, and the leader
 * waits for them. Running ahead pays for small calls; past this the copy
 * into a slot, cold in the cache 32 calls on, costs more: at 2 x 2 the 64
 * KiB broadcast took 20.6-28.2 us staged against 11.5-17.5, 256 KiB
 * 114-137 against 23-36, the 64 KiB gather_all 29-34 against 20-24. */
#define TUPC_HIER_STAGE ((size_t)32 << 10)
/* A split team's process with several members broadcasts up to STAGE
 * through its slots, blocking where the leader may block, while a process
 * with one member posts past RING: the two make the same calls only so. */
_Static_assert(TUPC_HIER_STAGE <= TUPC_HIER_RING, "a slot's broadcast is never a posted one");

/* The largest block a thread of a gather puts in a slot of its own
 * (struct tupc_hier_member's `small`) rather than leaving it for its
 * leader to read from its src. */
#define TUPC_HIER_SMALL 64

/* Posted broadcasts whose completion marks are kept at once: as many as a
 * thread's outstanding requests on a team (TUPC_ASYNC_MAX, coll/async.h),
 * so the post that last used a mark has been completed. */
#define TUPC_HIER_POSTS 256

/* A reduction's partial as the leaders combine it (one MPI element). */
struct tupc_hier_pair {
    int has; /* 0: no element of the call lies with these threads */
    union tupc_red_val v;
};

/* A buffer of the leader's (or a thread's own), grown on demand. */
struct tupc_hier_buf {
    char *p;
    size_t cap;
};

/* One thread's state, written by that thread (or its partials) and read by
 * the leader; in lines of its own, so that neighbours do not contend (128
 * bytes: the adjacent-line prefetcher fetches pairs). */
struct tupc_hier_member {
    tupc_word entered; /* the calls this thread has entered */
    tupc_word put;     /* the calls whose data it has published for the leader */
    tupc_word done;    /* the calls it is finished with (hier.c) */
    uint32_t seq;      /* the calls it has made (its own) */
    uint32_t posts;    /* its posted broadcasts (hier_post.c) */
    struct tupc_hier_pair partial[TUPC_HIER_SLOTS];
    /* A small gather's block; a slot per line, so that the leader reading
     * one does not contend with this thread writing the next. */
    _Alignas(TUPC_HIER_SMALL) unsigned char small[TUPC_HIER_SLOTS][TUPC_HIER_SMALL];
    struct tupc_hier_buf own; /* a prefix reduction's block totals */
} __attribute__((aligned(128)));

struct tupc_hier_state {
    MPI_Comm comm; /* the leaders' collectives, apart from every other message */
    /* The partials of posted reductions (hier_post_reduce.c), tagged by
     * the post's number: messages, sent whenever a process's job runs. */
    MPI_Comm partials;
    MPI_Datatype pair;
    MPI_Op op, op_ordered;      /* pair_op (hier.c), commuting or in rank order */
    struct tupc_hier_member *m; /* this process's threads, by local index */
    tupc_word ready;            /* the calls whose data is in place (hier.c) */
    /* The gathers whose src blocks the leader has read into its buffer,
     * before its MPI call (hier_reloc.c); not a small gather's, whose
     * threads copy their own blocks. */
    tupc_word taken;
    /* Posted broadcast p is complete here once posted[p % POSTS] reaches p
     * (hier_post.c). */
    tupc_word posted[TUPC_HIER_POSTS];
    /* Whether the leader waits inside blocking MPI calls (hier.c,
     * choose_blocking): those that move data its threads then copy, and
     * the reductions, which it makes once its threads are done. */
    int block_copy, block_reduce;
    int tag_ub; /* MPI_TAG_UB: the permutes' messages need TUPC_HIER_PAIR_TAG + n */
    /* The most bytes of one MPI call of a broadcast (tupc_hier_bcast,
     * tupc_hier_post_bcast): 1 GiB (counts are ints), or less. */
    size_t piece;
    struct tupc_hier_buf slot[TUPC_HIER_SLOTS][2], big[2];
    /* A permute's: perm of every thread (and a scratch of as many), per
     * process the send and receive counts and displacements, the verdict. */
    struct {
        int *perm, *cnt;
        int bad[3], ok;
    } plan;
    /* The reduction that the MPI op applies: set by the leader before it
     * posts the reduction; read by whichever thread MPI runs the op in
     * (release/acquire, as MPI's own ordering cannot be seen by TSan). */
    _Atomic(const struct tupc_red_type *) ty;
    _Atomic int rop;
    _Atomic(tupc_red_fn) fn;
};
extern struct tupc_hier_state tupc_hier_;

/* The caller's local index and state. */
static inline struct tupc_hier_member *tupc_hier_me(void)
{
    return &tupc_hier_.m[tupc_impl_mythread - tupc_first_thread_];
}

/* Entry of call c: recorded as in one process, the barrier of IN_ALLSYNC,
 * then the call's number (me->entered, a release). */
uint32_t tupc_hier_enter(const struct tupc_mpi_call *c, struct tupc_hier_member *me);
/* The exit: the barrier of OUT_ALLSYNC, after `done` is set. */
void tupc_hier_leave(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s);
/* The leader: waits until every other thread of the process is done with
 * calls up to `upto`. */
void tupc_hier_wait_done(const char *func, uint32_t upto);
/* The leader: IN_MYSYNC, waits until local thread j has entered call s
 * (its data is ready); else nothing. */
void tupc_hier_wait_entered(const struct tupc_mpi_call *c, int j, uint32_t s);
/* The leader's buffer `which` (0 or 1) for call s of n bytes, once nobody
 * reads it: it waits for the process's threads to be done with the call
 * that used it last (tupc_hier_wait_done), then grows it if it must. */
char *tupc_hier_buffer(const char *func, uint32_t s, int which, size_t n);
/* That buffer, for a thread that reads it after `ready` >= s. */
static inline const char *tupc_hier_buffer_of(uint32_t s, int which, size_t n)
{
    return n <= TUPC_HIER_RING ? tupc_hier_.slot[s % TUPC_HIER_SLOTS][which].p
                               : tupc_hier_.big[which].p;
}
/* A broadcast of buf's n bytes from root on comm, in calls of at most
 * tupc_hier_.piece bytes: blocking where the leader may block, else posted
 * and polled; with `overlap` (every process alike: a blocking collective
 * does not match a non-blocking one, MPI 3.1 5.12) posted, the root copying
 * each piece of buf to `also` while it moves. */
void tupc_hier_bcast(void *buf, size_t n, int root, MPI_Comm comm, const char *func, int overlap,
                     char *also);
/* A posted broadcast's MPI calls into job j's requests (as many as
 * tupc_hier_bcast_pieces(n) gives), from buf (hier_post.c). */
int tupc_hier_bcast_pieces(size_t n);
void tupc_hier_post_bcast(void *job, void *buf, size_t n, int root, MPI_Comm comm);
/* n bytes as an MPI count, or a failure naming func. */
int tupc_hier_count(const char *func, size_t n);
/* b grown to n bytes at least (its old bytes lost), or a failure naming
 * func. */
char *tupc_hier_grow(const char *func, struct tupc_hier_buf *b, size_t n);

/* The leader's MPI call, blocking where `block` says that is safe (hier.c:
 * block_copy for the relocalizations, block_reduce for the reductions) or
 * posted and tested; every process decides alike. Either way the progress
 * thread learns that a UPC thread let MPI progress. */
#define TUPC_HIER_CALL_IF(block, blocking, posted, func)                                           \
    do {                                                                                           \
        if (block) {                                                                               \
            blocking;                                                                              \
            tupc_mpi_polled();                                                                     \
        } else {                                                                                   \
            MPI_Request r_;                                                                        \
            posted;                                                                                \
            tupc_hier_finish(&r_, func);                                                           \
        }                                                                                          \
    } while (0)
#define TUPC_HIER_CALL(blocking, posted, func)                                                     \
    TUPC_HIER_CALL_IF(tupc_hier_.block_copy, blocking, posted, func)

/* The blocks of an array of nb blocks (shared [B], from src's phase):
 * thread t holds those whose number is off(t) mod THREADS. */
struct tupc_hier_blocks {
    size_t nb, B, phase;
    uint32_t t0;
};
/* Those of the nelems elements of src (es bytes each). */
struct tupc_hier_blocks tupc_hier_blocks_of(tupc_sptr_t src, size_t nelems, size_t B, size_t es);
static inline size_t tupc_hier_blocks_off(const struct tupc_hier_blocks *k, uint32_t t)
{
    return (t + (uint32_t)THREADS - k->t0) % (uint32_t)THREADS;
}
/* How many of the blocks thread t holds. */
static inline size_t tupc_hier_blocks_count(const struct tupc_hier_blocks *k, uint32_t t)
{
    size_t o = tupc_hier_blocks_off(k, t);
    return k->nb > o ? (k->nb - 1 - o) / (size_t)THREADS + 1 : 0;
}
/* Thread t's blocks of src folded, each into its total, in out (one after
 * another, in index order). */
void tupc_hier_fold_blocks(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                           tupc_sptr_t src, size_t nelems, size_t B, char *out);
/* Thread t's blocks of src scanned into dst (src's layout), inclusive or
 * exclusive, each from its seed (block b's at seeds + b * es; none for
 * block 0). */
void tupc_hier_scan_blocks(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                           tupc_sptr_t dst, tupc_sptr_t src, size_t nelems, size_t B,
                           const char *seeds, int excl);

/* ---- hier_post_reduce.c: the posted reductions' common part ------------- */

/* The tags of posted reductions' messages: the post's number modulo this.
 * Posts in flight are at most TUPC_HIER_POSTS per process, and a process
 * runs at most that many ahead of another's receives (its mark ring waits
 * for its own earlier posts, each of which waited for the partials it
 * combines); MPI matches equal tags from one sender in order. */
#define TUPC_HIER_TAGS 32768
/* Where a posted reduction's partials go (hier_post_reduce.c,
 * hier_post_blocks.c): P processes in comm, this one me, a reduction's dst
 * in root; a reduce_all's dst written for the nd threads dth here; the
 * mark set to p once done here. of_proc: by MPI rank, its rank in comm or
 * -1 (a team's; NULL where comm ranks are MPI ranks). */
struct tupc_hier_where {
    MPI_Comm comm;
    int P, me, root;
    const int *dth;
    int nd;
    tupc_word *mark;
    uint32_t p;
    const int *of_proc;
};
/* Whether the n messages r are all done, without waiting (a job in
 * steps tests them between its steps). */
int tupc_hier_test_msgs(MPI_Request *r, int n);
/* For a job that a stopping run ends with messages in flight: cancels
 * them (a receive then never writes into the job) and lets MPI keep the
 * sends that cannot be cancelled; returns how many it kept, whose
 * buffers MPI may still read and the job must not free. */
int tupc_hier_drop_msgs(MPI_Request *r, int n);
/* A job's wait for its n messages r, running queued chunks meanwhile: 1
 * once they are done; if the run stops first (nobody waits for the post
 * then), 0, or -1 where MPI kept sends whose buffers must stay. */
int tupc_hier_post_msgs(MPI_Request *r, int n);

/* The leaders' exclusive scan of the process partials *in, in process
 * order (MPI applies a non-commuting op in rank order), into *out: what
 * the processes before this one hold, `has` 0 where none does. */
void tupc_hier_exscan(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f,
                      const struct tupc_hier_pair *in, struct tupc_hier_pair *out,
                      const char *func);
/* A posting's start on UPC_TEAM_ALL: the call's entry (s) and the post's
 * number (p); on the leader (returns 1) once p's mark is free and the
 * process's threads are done with call s - 1. Its end: the call's leave,
 * with no OUT sync (the requests'). */
int tupc_hier_post_enter(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t *s,
                         uint32_t *p);
void tupc_hier_post_leave(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s);
/* A posted collective's job (hier_post.c, run once as tupc_mpi_post_job):
 * waits for its MPI requests (tupc_hier_post_request: to post them into),
 * makes its copies (up to `copies`, added by tupc_hier_post_copy, which
 * skips one onto itself), frees its buffer (tupc_hier_post_own: n bytes
 * that the job owns), then sets *mark to p. */
void *tupc_hier_post_job_new(const char *func, uint32_t p, tupc_word *mark, int copies);
/* The same with `reqs` requests (tupc_hier_post_request(job) + i), all
 * of which the job waits for. */
void *tupc_hier_post_job_reqs(const char *func, uint32_t p, tupc_word *mark, int copies, int reqs);
void tupc_hier_post_copy(void *job, char *d, const char *s, size_t n);
/* The job's copies read nothing its MPI calls write (a broadcast's root,
 * which sends from src): it makes them while the calls move. */
void tupc_hier_post_early(void *job);
/* The same to d in thread th's partition in another process (th >= 0), a
 * put through the window (MPI_THREAD_MULTIPLE: from whichever thread runs
 * the job), or here (-1). */
void tupc_hier_post_put(void *job, int th, char *d, const char *s, size_t n);
char *tupc_hier_post_own(void *job, const char *func, size_t n);
MPI_Request *tupc_hier_post_request(void *job);
/* Whether thread t holds an element of the nelems of src (shared [B], B 0
 * for an indefinite block size). */
int tupc_hier_holds(uint32_t t, tupc_sptr_t src, size_t nelems, size_t B);
/* Thread t's elements of src folded in index order into *p (has 0 for
 * none): what thread t folds in a blocking reduction. */
void tupc_hier_fold(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f, uint32_t t,
                    tupc_sptr_t src, size_t nelems, size_t B, struct tupc_hier_pair *p);
/* tupc_mpi_my_runs (layer.h) for thread t's elements. */
void tupc_hier_runs_of(uint32_t t, tupc_sptr_t p, size_t m, size_t B, size_t es,
                       void (*fn)(void *, size_t, char *, size_t), void *arg);
/* An exchange of at least this many bytes a process, with more than one
 * thread a process and not in place, sends each thread's src as it lies
 * and receives into the threads' dst (hier_reloc.c says why). */
#define TUPC_HIER_EXCHANGE_DIRECT ((size_t)8 << 10)
/* A gather of more bytes a process than this, with more than one thread a
 * process, sends the threads' src blocks where they lie, blocking and
 * posted (hier_reloc.c says why). */
#define TUPC_HIER_GATHER_DIRECT ((size_t)2048)
/* The L local threads' blocks of nbytes at one offset of an area: L
 * blocks one partition apart, the type's extent L * nbytes (so that an
 * exchange receives process q's at q times it). A gather sends its src
 * blocks so, an exchange receives into its dst blocks so. Committed; the
 * caller frees it. */
MPI_Datatype tupc_hier_local_blocks(const char *func, size_t nbytes);

/* Checks p[0..n-1] as upc_all_permute does (from: n ints of scratch): 0,
 * or -1 with bad[] (the first bad index, its value, the earlier index of
 * an equal value or -1). */
int tupc_hier_perm_check(const int *p, int n, int *from, int bad[3]);
/* The leader's wait for a posted MPI call (hier.c says why it never sleeps). */
void tupc_hier_finish(MPI_Request *r, const char *func);
/* The leader's wait for n requests of a blocking call: MPI_Wait where the
 * leader waits inside MPI (block_copy), else tupc_hier_finish. */
void tupc_hier_wait_all(MPI_Request *r, int n, const char *func);

/* The first tag of a permute's messages, one per block (hier_reloc.c and
 * team_coll.c, perm_messages): above every posted call's (TUPC_HIER_TAGS),
 * so that they never match a posted call's message on a team's
 * communicator; used where MPI's tags reach it plus the blocks' count
 * (tupc_hier_.tag_ub). */
#define TUPC_HIER_PAIR_TAG TUPC_HIER_TAGS

#endif
