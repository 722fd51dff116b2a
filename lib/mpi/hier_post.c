/* Relocalizations posted across processes (UPC_ASYNC on UPC_TEAM_ALL,
 * hier.h): broadcast, scatter, gather, gather_all and exchange (in place
 * too). The call's entry and IN sync at posting, as the blocking call's;
 * the leader reads what its process sends (its threads' src blocks, after
 * each one's entry under IN_MYSYNC) and posts the non-blocking MPI
 * collective the blocking call makes (MPI_Ibcast, MPI_Iscatter,
 * MPI_Igather, MPI_Iallgather, MPI_Ialltoall), into its own dst block or
 * a buffer of the post's (a large exchange: one MPI_Ialltoall per thread
 * from its src into the threads' dst, no buffer); the rest is a job of
 * the leader's requests (coll/async.h) that the run's progress thread
 * runs, or the leader in a completion call: it tests the MPI calls,
 * yielding between tests, then makes the copies into the process's dst
 * blocks (which, under IN_MYSYNC, it is given only once their threads have
 * entered; a broadcast's root makes them while the bytes move, as MPI only
 * reads what they read) and marks the post complete. Every thread's request is ready once that mark
 * is set: its dst is written and its src read (OUT_MYSYNC, and more than OUT_NOSYNC asks). So a 16
 * MiB collective moves while the threads compute, as the MPI call alone does.
 *
 * The leader posts in call order, as the blocking calls post theirs
 * (every process alike, MPI 3.1 5.12); the job starts no collective:
 * it calls MPI_Test, and for a split team's gather whose dst lies in a
 * process without members, flushed puts (one-sided, in no order with
 * anything). OUT_ALLSYNC, which asks every process's part done, is run
 * as the blocking call at posting instead (an MPI barrier from the job
 * would be a collective outside the call order). (The permute:
 * hier_reloc.c; the reductions: hier_post_reduce.c.) */
#include "mpi/hier.h"
#include "mpi/layer.h"
#include "mpi/team.h"

#include "check/error.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/wait.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A post's job: what the leader's request finishes once its MPI call is
 * complete: the copies into the process's dst blocks, and the buffer the
 * call sent from or received into, freed. */
struct post_copy {
    char *d;
    const char *s;
    size_t n;
    int th; /* d's thread, to put to through the window; -1: here */
};
struct post {
    MPI_Request *r; /* nr of them, after the copies */
    int nr;
    uint32_t p;      /* the post's number in this process (on its team) */
    tupc_word *mark; /* set to p once it is complete here */
    void *own;       /* given back once done, or NULL */
    size_t own_n;
    int n;     /* copies */
    int early; /* the copies read nothing the MPI calls write */
    struct post_copy copy[];
};

/* The requests lie after the copies. */
_Static_assert(_Alignof(MPI_Request) <= _Alignof(struct post_copy) &&
                   sizeof(struct post_copy) % _Alignof(MPI_Request) == 0,
               "a post's requests after its copies are aligned");

void *tupc_hier_post_job_reqs(const char *func, uint32_t p, tupc_word *mark, int copies, int reqs)
{
    struct post *j =
        malloc(sizeof *j + sizeof j->copy[0] * (size_t)copies + sizeof(MPI_Request) * (size_t)reqs);
    if (!j)
        tupc_fail(func, NULL, "out of memory for a posted collective");
    *j = (struct post){
        .r = (MPI_Request *)(void *)&j->copy[copies], .nr = reqs, .p = p, .mark = mark};
    for (int i = 0; i < reqs; i++)
        j->r[i] = MPI_REQUEST_NULL;
    return j;
}

void *tupc_hier_post_job_new(const char *func, uint32_t p, tupc_word *mark, int copies)
{
    return tupc_hier_post_job_reqs(func, p, mark, copies, 1);
}

void tupc_hier_post_put(void *job, int th, char *d, const char *s, size_t n)
{
    struct post *j = job;
    if (d != s)
        j->copy[j->n++] = (struct post_copy){d, s, n, th};
}

void tupc_hier_post_copy(void *job, char *d, const char *s, size_t n)
{
    tupc_hier_post_put(job, -1, d, s, n);
}

/* Buffers of finished posts, kept for the next ones: a fresh 64 MiB
 * buffer per post (an exchange's at 2 x 2) cost its leader 50-70 ms of
 * page faults at posting, against the 10 ms of its copies. A few, for the
 * posts in flight at once; the lock is taken twice per post. */
#define SPARES 4
static struct {
    pthread_mutex_t lock;
    void *p[SPARES];
    size_t n[SPARES];
} spares_ = {.lock = PTHREAD_MUTEX_INITIALIZER};

char *tupc_hier_post_own(void *job, const char *func, size_t n)
{
    struct post *j = job;
    j->own = NULL;
    pthread_mutex_lock(&spares_.lock);
    for (int i = 0; i < SPARES && !j->own; i++)
        if (spares_.p[i] && spares_.n[i] >= n) {
            j->own = spares_.p[i];
            j->own_n = spares_.n[i];
            spares_.p[i] = NULL;
        }
    pthread_mutex_unlock(&spares_.lock);
    if (!j->own) {
        j->own = malloc(n ? n : 1);
        j->own_n = n;
    }
    if (!j->own)
        tupc_fail(func, NULL, "out of memory for a posted collective's %zu bytes", n);
    return j->own;
}

void tupc_mpi_post_drop_spares(void)
{
    pthread_mutex_lock(&spares_.lock);
    for (int i = 0; i < SPARES; i++) {
        free(spares_.p[i]);
        spares_.p[i] = NULL;
    }
    pthread_mutex_unlock(&spares_.lock);
}

/* A finished post's buffer: kept in place of the smallest spare, or freed. */
static void give_back(void *p, size_t n)
{
    pthread_mutex_lock(&spares_.lock);
    int at = 0;
    for (int i = 1; i < SPARES; i++)
        if (!spares_.p[i] || (spares_.p[at] && spares_.n[i] < spares_.n[at]))
            at = i;
    void *old = NULL;
    if (!spares_.p[at] || spares_.n[at] < n) {
        old = spares_.p[at];
        spares_.p[at] = p;
        spares_.n[at] = n;
        p = NULL;
    }
    pthread_mutex_unlock(&spares_.lock);
    free(old);
    free(p);
}

void tupc_hier_post_early(void *job)
{
    ((struct post *)job)->early = 1;
}

MPI_Request *tupc_hier_post_request(void *job)
{
    return ((struct post *)job)->r;
}

void tupc_hier_post_bcast(void *job, void *buf, size_t n, int root, MPI_Comm comm)
{
    MPI_Request *r = tupc_hier_post_request(job);
    const int pieces = tupc_hier_bcast_pieces(n);
    for (int i = 0; i < pieces; i++) {
        const size_t at = (size_t)i * tupc_hier_.piece;
        const size_t k = n - at < tupc_hier_.piece ? n - at : tupc_hier_.piece;
        MPI_Ibcast((char *)buf + at, (int)k, MPI_BYTE, root, comm, &r[i]);
    }
}

tupc_word *tupc_mpi_post_word(uint32_t p)
{
    return &tupc_hier_.posted[p % TUPC_HIER_POSTS];
}

/* Whether j's MPI calls are done. MPI_Test one by one (a request done is
 * null and tests done again): gcc reads MPI_STATUSES_IGNORE of MPI_Testall
 * as an array of none and refuses the call (-Wstringop-overflow). */
static int test_calls(struct post *j)
{
    int flag = 1;
    for (int i = 0; i < j->nr && flag; i++)
        MPI_Test(&j->r[i], &flag, MPI_STATUS_IGNORE);
    tupc_mpi_polled();
    return flag;
}

/* One of a job's copies. */
static void make_copy(const struct post_copy *c)
{
    if (c->th < 0)
        memcpy(c->d, c->s, c->n);
    else /* flushed: complete at the target before the mark is set */
        tupc_mpi_put((uint32_t)c->th, c->d, c->s, c->n);
}

/* An early job's copies while its calls move: a test between pieces of
 * 1 MiB, as an MPI that moves bytes only inside its calls (MPICH) needs
 * (a 16 MiB broadcast's root copied after the transfer: comm time 1.4-2.1
 * times MPI_Ibcast's at 2 x 1). */
static void copy_early(struct post *j)
{
    const size_t piece = (size_t)1 << 20;
    for (int i = 0; i < j->n; i++) {
        const struct post_copy *c = &j->copy[i];
        if (c->th >= 0) {
            make_copy(c);
            continue;
        }
        for (size_t at = 0; at < c->n; at += piece) {
            memcpy(c->d + at, c->s + at, c->n - at < piece ? c->n - at : piece);
            (void)test_calls(j);
        }
    }
    j->n = 0; /* made: none after the calls */
}

void tupc_mpi_post_job(void *arg, size_t k)
{
    (void)k;
    struct post *j = arg;
    if (j->early)
        copy_early(j);
    for (;;) {
        if (test_calls(j))
            break;
        /* Relaxed: the flag only says that the run is ending, and then
         * nobody waits for this post. */
        if (atomic_load_explicit(&tupc_end_.stopping, memory_order_relaxed))
            return;
        tupc_mpi_stop_poll(); /* another process's stop, where no progress thread looks */
        sched_yield();
    }
    for (int i = 0; i < j->n; i++)
        make_copy(&j->copy[i]);
    if (j->own)
        give_back(j->own, j->own_n);
    j->own = NULL;
    /* Release: every dst block of the process, for the requests' acquire. */
    tupc_word_set(j->mark, j->p);
}

/* Block i of an area at the same offset in every partition. */
static char *block(tupc_sptr_t a, int i)
{
    return a.addr + (size_t)i * tupc_impl_partition_size;
}

/* Under IN_MYSYNC, every thread of the process has entered call s: the
 * job writes their dst blocks (the leader waits while the bytes move). */
static void wait_all_entered(const struct tupc_mpi_call *c, uint32_t s)
{
    for (int t = 1; t < tupc_local_threads_; t++)
        tupc_hier_wait_entered(c, t, s);
}

/* On src's process, its thread's entry (IN_MYSYNC) and the puts of other
 * processes into src, in this process's view: 1 there, else 0. */
static int at_root(const struct tupc_mpi_call *c, uint32_t s, tupc_sptr_t src)
{
    if (tupc_mpi_rank_of(src.thread) != tupc_mpi_rank_)
        return 0;
    tupc_hier_wait_entered(c, (int)(src.thread - (uint32_t)tupc_first_thread_), s);
    tupc_mpi_sync();
    return 1;
}

/* A broadcast's (stride 0) or scatter's (stride nb) copies in job j: nb
 * bytes from from + t * stride to local thread t's dst block, each t. */
static void spread(void *j, tupc_sptr_t dst, const char *from, size_t stride, size_t nb)
{
    for (int t = 0; t < tupc_local_threads_; t++)
        tupc_hier_post_copy(j, block(dst, tupc_first_thread_ + t), from + (size_t)t * stride, nb);
}

/* The leader's part of each verb (L threads here, P processes). A
 * broadcast lands in the leader's dst block (on src's process it is sent
 * from src), a scatter in a buffer of the post's (with one thread, in its
 * dst block); the job copies to each thread's dst block. */
static void *post_bcast(const struct tupc_mpi_call *c, uint32_t s, uint32_t p, tupc_sptr_t dst,
                        tupc_sptr_t src, size_t nb)
{
    const int root = at_root(c, s, src);
    const char *from = root ? src.addr : block(dst, tupc_first_thread_);
    void *j = tupc_hier_post_job_reqs(c->func, p, tupc_mpi_post_word(p), tupc_local_threads_,
                                      tupc_hier_bcast_pieces(nb));
    spread(j, dst, from, 0, nb);
    if (root) /* MPI reads from, as the copies do */
        tupc_hier_post_early(j);
    tupc_hier_post_bcast(j, (void *)from, nb, tupc_mpi_rank_of(src.thread), tupc_hier_.comm);
    wait_all_entered(c, s);
    return j;
}

static void *post_scatter(const struct tupc_mpi_call *c, uint32_t s, uint32_t p, tupc_sptr_t dst,
                          tupc_sptr_t src, size_t nb)
{
    const int L = tupc_local_threads_;
    const size_t n = (size_t)L * nb;
    (void)at_root(c, s, src);
    void *j = tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), L);
    char *buf = L == 1 ? block(dst, tupc_first_thread_) : tupc_hier_post_own(j, c->func, n);
    spread(j, dst, buf, nb, nb);
    const int k = tupc_hier_count(c->func, n);
    MPI_Iscatter(src.addr, k, MPI_BYTE, buf, k, MPI_BYTE, tupc_mpi_rank_of(src.thread),
                 tupc_hier_.comm, tupc_hier_post_request(j));
    wait_all_entered(c, s);
    return j;
}

/* Gather, gather_all and exchange read the process's src blocks at
 * posting (after each thread's entry under IN_MYSYNC), packed in a buffer
 * of the post's (a large exchange or gather excepted: MPI reads them in
 * place). */
static void *post_gather(const struct tupc_mpi_call *c, uint32_t s, uint32_t p, tupc_sptr_t dst,
                         tupc_sptr_t src, size_t nb)
{
    const int L = tupc_local_threads_, root = tupc_mpi_rank_of(dst.thread);
    const size_t n = (size_t)L * nb;
    void *j = tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), 0);
    if (L > 1 && n > TUPC_HIER_GATHER_DIRECT) {
        /* As the blocking call: the threads' src blocks where they lie, L
         * blocks one partition apart; no buffer, no copy at posting (at 2 x
         * 2, post and wait: 16 MiB 2.4-2.8 -> 1.17 ms, 1 MiB 149-158 -> 97
         * us; posting alone at 16 MiB 1.2-1.7 -> 0.52-0.56 ms). */
        wait_all_entered(c, s);
        MPI_Datatype from = tupc_hier_local_blocks(c->func, nb);
        const int k = tupc_hier_count(c->func, n);
        MPI_Igather(block(src, tupc_first_thread_), 1, from, dst.addr, k, MPI_BYTE, root,
                    tupc_hier_.comm, tupc_hier_post_request(j));
        MPI_Type_free(&from); /* the call keeps it */
        return j;
    }
    char *out = L == 1 ? block(src, tupc_first_thread_) : tupc_hier_post_own(j, c->func, n);
    for (int t = 0; t < L && L > 1; t++) {
        tupc_hier_wait_entered(c, t, s);
        memcpy(out + (size_t)t * nb, block(src, tupc_first_thread_ + t), nb);
    }
    /* On the root's process MPI writes dst, whose thread has entered: the
     * leader itself (one thread), or waited for above. */
    const int k = tupc_hier_count(c->func, n);
    MPI_Igather(out, k, MPI_BYTE, dst.addr, k, MPI_BYTE, root, tupc_hier_.comm,
                tupc_hier_post_request(j));
    return j;
}

static void *post_gather_all(const struct tupc_mpi_call *c, uint32_t s, uint32_t p, tupc_sptr_t dst,
                             tupc_sptr_t src, size_t nb)
{
    const int L = tupc_local_threads_, me = tupc_first_thread_;
    const size_t all = (size_t)THREADS * nb;
    const int k = tupc_hier_count(c->func, (size_t)L * nb);
    char *lead = block(dst, me);
    void *j = tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), L);
    for (int t = 0; t < L; t++)
        tupc_hier_post_copy(j, block(dst, me + t), lead, all);
    if (L == 1) {
        MPI_Iallgather(block(src, me), k, MPI_BYTE, lead, k, MPI_BYTE, tupc_hier_.comm,
                       tupc_hier_post_request(j));
        return j;
    }
    for (int t = 0; t < L; t++) { /* the process's blocks, in place in the leader's dst */
        tupc_hier_wait_entered(c, t, s);
        memcpy(lead + (size_t)(me + t) * nb, block(src, me + t), nb);
    }
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_BYTE, lead, k, MPI_BYTE, tupc_hier_.comm,
                   tupc_hier_post_request(j));
    return j;
}

/* Exchange: thread a of this process sends block q * L + b of its src to
 * thread b of process q; out and in hold, per process, L * L blocks
 * [a][b], as the blocking call's buffers. In place (src is dst) the
 * blocks are read into out at posting, which MPI_Ialltoall must not
 * alias, and the job writes them. */
static void *post_exchange(const struct tupc_mpi_call *c, uint32_t s, uint32_t p, tupc_sptr_t dst,
                           tupc_sptr_t src, size_t nb)
{
    const int L = tupc_local_threads_, P = THREADS / L, me = tupc_first_thread_;
    const size_t Lz = (size_t)L, chunk = Lz * Lz * nb, all = (size_t)P * chunk;
    if (L == 1 && src.addr != dst.addr) { /* src's blocks in dst's order, dst's in src's */
        const int k = tupc_hier_count(c->func, chunk);
        void *j = tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), 0);
        MPI_Ialltoall(block(src, me), k, MPI_BYTE, block(dst, me), k, MPI_BYTE, tupc_hier_.comm,
                      tupc_hier_post_request(j));
        return j;
    }
    if (src.addr != dst.addr && all >= TUPC_HIER_EXCHANGE_DIRECT) {
        /* As the blocking call: one MPI_Ialltoall per thread, from its src
         * as it lies into every thread's dst, and no copy. */
        void *j = tupc_hier_post_job_reqs(c->func, p, tupc_mpi_post_word(p), 0, L);
        const int kb = tupc_hier_count(c->func, Lz * nb);
        MPI_Datatype blocks = tupc_hier_local_blocks(c->func, nb);
        wait_all_entered(c, s); /* every src read, every dst written */
        for (int a = 0; a < L; a++)
            MPI_Ialltoall(block(src, me + a), kb, MPI_BYTE, block(dst, me) + (size_t)a * nb, 1,
                          blocks, tupc_hier_.comm, tupc_hier_post_request(j) + a);
        MPI_Type_free(&blocks); /* the calls keep it */
        return j;
    }
    const int k = tupc_hier_count(c->func, chunk);
    void *j = tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), THREADS * L);
    char *out = tupc_hier_post_own(j, c->func, 2 * all), *in = out + all;
    for (int a = 0; a < L; a++) {
        tupc_hier_wait_entered(c, a, s); /* its src, and (the job) its dst */
        const char *from = block(src, me + a);
        for (int q = 0; q < P; q++)
            for (int b = 0; b < L; b++)
                memcpy(out + (size_t)q * chunk + ((size_t)a * Lz + (size_t)b) * nb,
                       from + ((size_t)q * Lz + (size_t)b) * nb, nb);
    }
    for (int b = 0; b < L; b++)
        for (int q = 0; q < P; q++)
            for (int a = 0; a < L; a++)
                tupc_hier_post_copy(j, block(dst, me + b) + ((size_t)q * Lz + (size_t)a) * nb,
                                    in + (size_t)q * chunk + ((size_t)a * Lz + (size_t)b) * nb, nb);
    MPI_Ialltoall(out, k, MPI_BYTE, in, k, MPI_BYTE, tupc_hier_.comm, tupc_hier_post_request(j));
    return j;
}

int tupc_hier_post_enter(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t *s,
                         uint32_t *p)
{
    *s = tupc_hier_enter(c, me);
    *p = ++me->posts;
    if (tupc_impl_mythread != tupc_first_thread_)
        return 0;
    /* The post that last used p's mark is complete (its requests may still
     * be outstanding: their marks stay reached), and the process's threads
     * are done with what the leader left in every earlier call (a blocking
     * broadcast's dst block, the buffers). */
    if (*p > TUPC_HIER_POSTS)
        tupc_wait_peer(tupc_mpi_post_word(*p), *p - TUPC_HIER_POSTS, TUPC_NO_PEER, c->func);
    tupc_hier_wait_done(c->func, *s - 1);
    return 1;
}

void tupc_hier_post_leave(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s)
{
    /* The call's numbers as every call's; no OUT sync here (the requests'). */
    struct tupc_mpi_call nosync = *c;
    nosync.out = TUPC_NOSYNC;
    tupc_hier_leave(&nosync, me, s);
}

uint32_t tupc_mpi_reloc_post(const struct tupc_mpi_call *c, int verb, tupc_sptr_t dst,
                             tupc_sptr_t src, size_t nbytes, void **job)
{
    static void *(*const post[])(const struct tupc_mpi_call *, uint32_t, uint32_t, tupc_sptr_t,
                                 tupc_sptr_t, size_t) = {
        [TUPC_MPI_BCAST] = post_bcast,       [TUPC_MPI_SCATTER] = post_scatter,
        [TUPC_MPI_GATHER] = post_gather,     [TUPC_MPI_GATHER_ALL] = post_gather_all,
        [TUPC_MPI_EXCHANGE] = post_exchange,
    };
    struct tupc_hier_member *me = tupc_hier_me();
    uint32_t s, p;
    *job = tupc_hier_post_enter(c, me, &s, &p) ? post[verb](c, s, p, dst, src, nbytes) : NULL;
    tupc_hier_post_leave(c, me, s);
    return p;
}
