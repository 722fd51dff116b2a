/* The team forms of the collectives across processes (mpi/team.h): a
 * team's members lie in several processes, in any order of ranks, and
 * the team forms' areas may lie with non-members (a broadcast's src, a
 * reduction's elements), so each member reads and writes the bytes its
 * rank names where they lie: in its own process's memory, or through the
 * run's window (tupc_mpi_get, tupc_mpi_put, complete at the target when
 * they return). What the members must share (a reduction's partials, a
 * permutation) goes through the team's communicator
 * (tupc_mpi_team_allgather).
 *
 * The sync modes: IN_MYSYNC and IN_ALLSYNC wait for every member at the
 * entry (a member reads other members' data), OUT_MYSYNC and OUT_ALLSYNC
 * at the exit (others read or write a member's data), with the team
 * barrier, which also makes every transfer before it seen after it; an
 * in-place exchange or permute waits once more between its reads and its
 * writes. NOSYNC waits for nothing. */
#include "mpi/team.h"
#include "mpi/layer.h"

#include "check/error.h"
#include "coll/reduce_types.h"
#include "coll/syncmode.h"
#include "coll/team.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

static void fetch(void *to, int th, const char *addr, size_t n)
{
    if (tupc_impl_is_local((uint32_t)th))
        memcpy(to, addr, n);
    else
        tupc_mpi_get(to, (uint32_t)th, addr, n);
}

static void store(int th, char *addr, const void *from, size_t n)
{
    if (tupc_impl_is_local((uint32_t)th))
        memcpy(addr, from, n);
    else
        tupc_mpi_put((uint32_t)th, addr, from, n);
}

/* Thread th's block of an area at one offset in every partition. */
static char *blk(tupc_sptr_t p, int th)
{
    return p.addr + (size_t)th * tupc_impl_partition_size;
}

/* A call's team, its part here, the caller's rank and local index. */
struct tcall {
    struct tupc_team *t;
    struct tupc_mpi_team *g;
    int me, li;
};

static void barrier(const struct tupc_mpi_call *c, const struct tcall *k)
{
    tupc_mpi_team_barrier(k->g, k->li, c->func, k->t);
}

/* A team's part here. UPC_TEAM_ALL's is the run's (a prefix reduction
 * whose dst and src lie apart takes the team forms' cut on it). */
static struct tupc_mpi_team *part_of(const struct tupc_team *t)
{
    return t == &tupc_team_all_ ? tupc_mpi_team_all_ : t->mpi;
}

/* The entry; with `in_barrier`, the IN sync that is not NOSYNC as a team
 * barrier. */
static void enter(const struct tupc_mpi_call *c, struct tcall *k, int in_barrier)
{
    k->t = c->team;
    k->g = part_of(k->t);
    k->me = k->t->rank[tupc_impl_mythread];
    k->li = k->g->lidx[k->me];
    (void)tupc_mpi_team_enter(k->g, k->li, k->t->self[k->me], k->t->id, c->func, c->flags, c->args);
    if (in_barrier && c->in != TUPC_NOSYNC)
        barrier(c, k);
    else
        tupc_mpi_sync(); /* puts from other processes, in this process's view */
}

static void begin(const struct tupc_mpi_call *c, struct tcall *k)
{
    enter(c, k, 1);
}

/* The start of a two-phase call: the entry (IN_ALLSYNC a team barrier),
 * then the call's number in the part, its `entered` set (release: this
 * member's data, for a leader that reads it under IN_MYSYNC). */
static uint32_t next_call(struct tcall *k)
{
    struct tupc_mpi_tmember *me = &k->g->m[k->li];
    const uint32_t s = ++me->seq;
    tupc_word_set(&me->entered, s); /* release: see above */
    /* Numbers that no call marks (an entry's, a barrier's perm gather's)
     * would leave the words below behind: a member in call s is done with
     * everything before it, so it says so once `done` lags by half the
     * slots (a leader that refills a slot waits for done >= s - SLOTS,
     * which a member then reaches by entering call s, needing nothing
     * more of the leader), the leader likewise with `ready` (a member
     * that rewrites its small slot waits for ready >= s - SLOTS), and
     * `put` before it lags by 2^31 (the waits compare by signed
     * difference). Relaxed loads: the thread's own words. */
    const uint32_t lag = TUPC_HIER_SLOTS / 2;
    if (s - 1 - atomic_load_explicit(&me->done.value, memory_order_relaxed) > lag)
        tupc_word_set(&me->done, s - 1);
    if (s - atomic_load_explicit(&me->put.value, memory_order_relaxed) > (1u << 30))
        tupc_word_set(&me->put, s - 1);
    if (k->li == 0) {
        struct tupc_mpi_team *g = k->g;
        if (s - 1 - atomic_load_explicit(&g->ready.value, memory_order_relaxed) > lag)
            tupc_word_set(&g->ready, s - 1);
        if (s - g->last > (1u << 30))
            g->last = s - TUPC_HIER_SLOTS; /* done with it: reached at call s (above) */
    }
    return s;
}

/* The leader's buffer of call s of a small broadcast, scatter or gather
 * (n bytes), once its members are done with the call that used it last
 * (s - TUPC_HIER_SLOTS): members read it after `ready` >= s. */
static char *ring_buffer(struct tupc_mpi_team *g, uint32_t s, size_t n, const char *func)
{
    tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, done), s - TUPC_HIER_SLOTS,
                               func);
    return tupc_hier_grow(func, &g->slot[s % TUPC_HIER_SLOTS], n);
}

static uint32_t two_phase(const struct tupc_mpi_call *c, struct tcall *k)
{
    enter(c, k, c->in == TUPC_ALLSYNC);
    return next_call(k);
}

/* The leader, before it rewrites what its members read in call g->last
 * (its buffers, its dst block): they are done with it; s reads it next. */
static void reuse(struct tupc_mpi_team *g, uint32_t s, const char *func)
{
    tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, done), g->last, func);
    g->last = s;
}

/* IN_MYSYNC, the leader: waits for local member j's entry of call s (its
 * data, written before it, then seen); j 0 is the leader itself. */
static void wait_local(const struct tupc_mpi_call *c, struct tupc_mpi_team *g, int j, uint32_t s)
{
    /* Acquire: what member j wrote before its entry. */
    if (c->in == TUPC_MYSYNC && j > 0)
        tupc_wait_peer(&g->m[j].entered, s, g->lthread[j], c->func);
}

/* The same for the thread th whose data the leader touches, where th is a
 * member here (a non-member's data counts as ready at entry). */
static void wait_entry(const struct tupc_mpi_call *c, const struct tcall *k, uint32_t th,
                       uint32_t s)
{
    const int r = k->t->rank[th];
    if (r >= 0)
        wait_local(c, k->g, k->g->lidx[r], s);
}

/* The root of a team's broadcast from src: its rank in g->comm; *here:
 * src lies in this process. */
static int bcast_root(const struct tupc_mpi_team *g, tupc_sptr_t src, int *here)
{
    const int sp = tupc_mpi_rank_of(src.thread), sr = g->of_proc[sp];
    *here = sp == tupc_mpi_rank_;
    return sr >= 0 ? sr : 0;
}

/* A small broadcast (up to TUPC_HIER_STAGE) with several members here,
 * through the leader's slot of the call (ring_buffer): the leader returns
 * once its own dst is written, without waiting for its members' copies,
 * and runs ahead of a member that waits for a CPU. At 2 x 2 on a team of
 * every thread, 8 bytes MY|MY: 5.8 us a call when the bytes landed in the
 * leader's dst, which it waited for its members to copy. */
static void bcast_ring(const struct tupc_mpi_call *c, struct tcall *k, uint32_t s, tupc_sptr_t dst,
                       tupc_sptr_t src, size_t n)
{
    struct tupc_mpi_team *g = k->g;
    char *mine = blk(dst, tupc_impl_mythread);
    if (k->li == 0) {
        int here, myrank;
        const int root = bcast_root(g, src, &here);
        MPI_Comm_rank(g->comm, &myrank);
        char *buf = ring_buffer(g, s, n, c->func);
        if (myrank == root) {
            wait_entry(c, k, src.thread, s);
            if (here)
                tupc_mpi_sync(); /* puts from other processes into src */
            fetch(buf, (int)src.thread, src.addr, n);
        }
        /* The calls the other paths make (a process with one member takes
         * bcast's): the same pieces. */
        tupc_hier_bcast(buf, n, root, g->comm, c->func, 0, NULL);
        tupc_word_set(&g->ready, s); /* release: the bytes; src is read */
        memmove(mine, buf, n);
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
        memcpy(mine, g->slot[s % TUPC_HIER_SLOTS].p, n);
    }
    tupc_word_set(&g->m[k->li].done, s); /* release: done with the slot */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, k);
}

/* A broadcast in two phases on the team's communicator, as hier.c's on
 * UPC_TEAM_ALL's: each process's leader receives the bytes in its own dst
 * block (MPI_Bcast from src's process, or from the team's first process,
 * whose leader reads src through the window, where no member lies with
 * src), and the other members there copy from it once the leader's
 * `ready` says so. IN_MYSYNC waits for src's thread only, where it is a
 * member; the leader returns once its readers have copied (its dst is
 * read by them, OUT_MYSYNC's rule for every mode); IN_ALLSYNC and
 * OUT_ALLSYNC are team barriers. */
static void bcast(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    struct tcall k;
    const uint32_t s = two_phase(c, &k);
    struct tupc_mpi_team *g = k.g;
    if (g->L > 1 && n <= TUPC_HIER_STAGE) {
        bcast_ring(c, &k, s, dst, src, n);
        return;
    }
    struct tupc_mpi_tmember *me = &g->m[k.li];
    const size_t S = tupc_impl_partition_size;
    char *lead = dst.addr + (size_t)g->lthread[0] * S;
    if (k.li == 0) {
        int here, myrank;
        const int root = bcast_root(g, src, &here);
        MPI_Comm_rank(g->comm, &myrank);
        /* Its readers of the last call are done with this block. */
        reuse(g, s, c->func);
        /* Past TUPC_HIER_RING every process posts it (a blocking call does
         * not match a posted one), and the root sends from src itself while
         * it copies src to its own dst: 16 MiB at 4 x 1 took 1.31 times
         * MPI_Bcast with the copy first. */
        const int large = n > TUPC_HIER_RING;
        const char *from = lead;
        if (myrank == root) {
            wait_entry(c, &k, src.thread, s);
            if (here)
                tupc_mpi_sync(); /* puts from other processes into src */
            if (here && large)
                from = src.addr;
            else if (here)
                memmove(lead, src.addr, n);
            else
                tupc_mpi_get(lead, src.thread, src.addr, n);
        }
        tupc_hier_bcast((void *)from, n, root, g->comm, c->func, large, from != lead ? lead : NULL);
        tupc_word_set(&g->ready, s); /* release: the bytes */
        tupc_word_set(&me->done, s); /* the leader's own count (it reads lead) */
        tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, done), s, c->func);
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
        memcpy(dst.addr + (size_t)tupc_impl_mythread * S, lead, n);
        tupc_word_set(&me->done, s); /* release: this member is done with lead */
    }
    if (c->out == TUPC_ALLSYNC)
        barrier(c, &k);
}

static void end(const struct tupc_mpi_call *c, const struct tcall *k)
{
    if (c->out != TUPC_NOSYNC)
        barrier(c, k);
}

static void *alloc(const char *func, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        tupc_fail(func, NULL, "cannot allocate %zu bytes across processes", n);
    return p;
}

/* In place through the window: every member reads perm whole (it must be
 * a permutation) and keeps its block, and after a team barrier writes it
 * at its target's. */
static int permute_in_place(const struct tupc_mpi_call *c, const struct tcall *k, tupc_sptr_t dst,
                            tupc_sptr_t perm, size_t nbytes, int bad[3])
{
    const int n = k->t->n, *th = k->t->thread;
    int *p = alloc(c->func, sizeof *p * (size_t)n * 2);
    for (int j = 0; j < n; j++)
        fetch(&p[j], th[j], blk(perm, th[j]), sizeof *p);
    if (tupc_hier_perm_check(p, n, p + n, bad) != 0) { /* every member finds the same */
        free(p);
        return -1;
    }
    const int to = th[p[k->me]];
    free(p);
    char *keep = alloc(c->func, nbytes);
    memcpy(keep, blk(dst, tupc_impl_mythread), nbytes);
    barrier(c, k);
    store(to, blk(dst, to), keep, nbytes);
    free(keep);
    return 0;
}

/* In place through the window: every member reads its blocks of every
 * member's area, and after a team barrier writes its own. */
static void exchange_in_place(const struct tupc_mpi_call *c, const struct tcall *k, tupc_sptr_t dst,
                              size_t nbytes)
{
    const int n = k->t->n, *th = k->t->thread;
    char *to = alloc(c->func, (size_t)n * nbytes);
    for (int j = 0; j < n; j++)
        fetch(to + (size_t)j * nbytes, th[j], blk(dst, th[j]) + (size_t)k->me * nbytes, nbytes);
    barrier(c, k);
    memcpy(blk(dst, tupc_impl_mythread), to, (size_t)n * nbytes);
    free(to);
}

/* The byte counts and displacements of a v-collective of `nb` bytes per
 * member, by process in comm (malloc'd; the caller frees cnt). */
static int *v_counts(const struct tupc_mpi_team *g, size_t nb, const char *func)
{
    int *cnt = alloc(func, sizeof *cnt * 2 * (size_t)g->P);
    for (int q = 0; q < g->P; q++) {
        cnt[q] = tupc_hier_count(func, (size_t)g->count[q] * nb);
        cnt[g->P + q] = tupc_hier_count(func, (size_t)g->displ[q] * nb);
    }
    return cnt;
}

/* Where a rooted call's root is in comm: the process of thread th, or the
 * team's first process where th's holds no member (it reaches th's data
 * through the window); *here: th is in this process. */
static int root_of(const struct tupc_mpi_team *g, uint32_t th, int *here)
{
    const int p = tupc_mpi_rank_of(th);
    *here = p == tupc_mpi_rank_;
    return g->of_proc[p] >= 0 ? g->of_proc[p] : 0;
}

/* A posted broadcast on a team: the entry and IN sync at posting as the
 * blocking call's; the leader posts MPI_Ibcast into its own dst block (on
 * the root's process from src itself, or after reading src through the
 * window where no member lies with it), and the job of its request
 * (hier_post.c) finishes it and writes the process's other members' dst
 * blocks, which under IN_MYSYNC it is given only once those members have
 * entered; every member's request is done once the post's mark is set. */
static void *bcast_post(const struct tupc_mpi_call *c, const struct tcall *k, tupc_sptr_t dst,
                        tupc_sptr_t src, size_t n, uint32_t s, uint32_t p, tupc_word *mark)
{
    struct tupc_mpi_team *g = k->g;
    int here, myrank;
    const int root = root_of(g, src.thread, &here);
    MPI_Comm_rank(g->comm, &myrank);
    char *lead = dst.addr + (size_t)g->lthread[0] * tupc_impl_partition_size;
    const char *from = lead;
    if (myrank == root) {
        wait_entry(c, k, src.thread, s);
        if (here) {
            tupc_mpi_sync(); /* puts from other processes into src */
            from = src.addr;
        } else {
            tupc_mpi_get(lead, src.thread, src.addr, n);
        }
    }
    void *job = tupc_hier_post_job_reqs(c->func, p, mark, g->L, tupc_hier_bcast_pieces(n));
    for (int j = 0; j < g->L; j++)
        tupc_hier_post_copy(job, dst.addr + (size_t)g->lthread[j] * tupc_impl_partition_size, from,
                            n);
    if (myrank == root) /* MPI reads from, as the copies do */
        tupc_hier_post_early(job);
    tupc_hier_post_bcast(job, (void *)from, n, root, g->comm);
    /* The job writes the other members' dst blocks: under IN_MYSYNC
     * not before they enter (while the bytes move). */
    for (int j = 1; j < g->L; j++)
        wait_local(c, g, j, s);
    return job;
}

/* The root's process of a small scatter or gather: the root's area in
 * process order to or from the leader's buffer `pk` (n members' blocks). */
static void root_area(const struct tupc_mpi_call *c, const struct tcall *k, int gather,
                      tupc_sptr_t area, char *pk, size_t nb, uint32_t s)
{
    const size_t N = (size_t)k->t->n;
    if (!gather) {
        wait_entry(c, k, area.thread, s);
        if (tupc_impl_is_local(area.thread))
            tupc_mpi_sync(); /* puts from other processes into src */
    }
    for (size_t i = 0; i < N; i++) {
        char *a = area.addr + (size_t)k->g->order[i] * nb;
        if (gather)
            store((int)area.thread, a, pk + i * nb, nb);
        else
            fetch(pk + i * nb, (int)area.thread, a, nb);
    }
}

/* A small scatter (the process's blocks up to TUPC_HIER_STAGE) or gather
 * (blocks up to TUPC_HIER_SMALL) with several members here, through slots,
 * so that the leader runs ahead of a member that waits for a CPU rather
 * than meeting it in every call: a scatter's blocks land in the leader's
 * slot of the call (ring_buffer), which each member copies from after
 * `ready`; a gather's member leaves its block in its own slot of the call
 * (`small`, after `ready` >= s - TUPC_HIER_SLOTS: the leader has read the
 * slot's last block) and returns, its src read by itself, unless it holds
 * the root's area (OUT_MYSYNC: written by then); the leader reads each
 * member's slot after its `put`. At 2 x 2 on a team of every thread, 8
 * bytes MY|MY: 5.5 and 5.8 us a call before. */
static void rooted_ring(const struct tupc_mpi_call *c, struct tcall *k, uint32_t s, int gather,
                        tupc_sptr_t dst, tupc_sptr_t src, size_t nb)
{
    struct tupc_mpi_team *g = k->g;
    struct tupc_mpi_tmember *me = &g->m[k->li];
    const size_t L = (size_t)g->L, N = (size_t)k->t->n;
    const tupc_sptr_t area = gather ? dst : src; /* the root's */
    if (k->li != 0 && gather) {
        tupc_wait_peer(&g->ready, s - TUPC_HIER_SLOTS, g->lthread[0], c->func);
        memcpy(me->small[s % TUPC_HIER_SLOTS], blk(src, tupc_impl_mythread), nb);
        tupc_word_set(&me->put, s); /* release: the block */
        if (c->out != TUPC_NOSYNC && (uint32_t)tupc_impl_mythread == dst.thread)
            tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
    } else if (k->li != 0) {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
        memcpy(blk(dst, tupc_impl_mythread), g->slot[s % TUPC_HIER_SLOTS].p + k->li * nb, nb);
    } else {
        int here, myrank;
        const int root = root_of(g, area.thread, &here);
        MPI_Comm_rank(g->comm, &myrank);
        char *mine = ring_buffer(g, s, L * nb, c->func);
        /* The root's area, the leader's alone: out of the ring, whose slots
         * would each keep N blocks. */
        char *all = myrank == root ? tupc_hier_grow(c->func, &g->out, N * nb) : NULL;
        int *cnt = v_counts(g, nb, c->func);
        const int kb = tupc_hier_count(c->func, L * nb);
        if (gather) {
            memcpy(mine, blk(src, tupc_impl_mythread), nb);
            for (int j = 1; j < g->L; j++) {
                tupc_wait_peer(&g->m[j].put, s, g->lthread[j], c->func); /* acquire: its block */
                memcpy(mine + (size_t)j * nb, g->m[j].small[s % TUPC_HIER_SLOTS], nb);
            }
            if (myrank == root) /* dst's holder */
                wait_entry(c, k, dst.thread, s);
            TUPC_HIER_CALL(
                MPI_Gatherv(mine, kb, MPI_BYTE, all, cnt, cnt + g->P, MPI_BYTE, root, g->comm),
                MPI_Igatherv(mine, kb, MPI_BYTE, all, cnt, cnt + g->P, MPI_BYTE, root, g->comm,
                             &r_),
                c->func);
            if (myrank == root)
                root_area(c, k, 1, area, all, nb, s);
        } else {
            if (myrank == root)
                root_area(c, k, 0, area, all, nb, s);
            TUPC_HIER_CALL(
                MPI_Scatterv(all, cnt, cnt + g->P, MPI_BYTE, mine, kb, MPI_BYTE, root, g->comm),
                MPI_Iscatterv(all, cnt, cnt + g->P, MPI_BYTE, mine, kb, MPI_BYTE, root, g->comm,
                              &r_),
                c->func);
            memcpy(blk(dst, tupc_impl_mythread), mine, nb);
        }
        free(cnt);
        tupc_word_set(&g->ready, s); /* release: the bytes; every block read */
    }
    tupc_word_set(&me->done, s); /* release: done with the leader's slot */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, k);
}

/* Scatter and gather in two phases on the team's communicator, as the
 * broadcast: the root's leader packs (scatter) or unpacks (gather) the
 * root's area in process order, the leaders move each process's blocks
 * (MPI_Scatterv, MPI_Gatherv), and each member copies its own block from
 * or to the leader's buffer. IN_MYSYNC waits for the threads whose data
 * the leader reads (the root's, or its process's members'); a member whose
 * data is read (a scatter's src holder, every gather member) or written
 * (its dst) returns, under OUT_MYSYNC, once the leader's `ready` says so;
 * IN_ALLSYNC and OUT_ALLSYNC are team barriers. */
static void rooted(const struct tupc_mpi_call *c, int gather, tupc_sptr_t dst, tupc_sptr_t src,
                   size_t nb)
{
    struct tcall k;
    const uint32_t s = two_phase(c, &k);
    struct tupc_mpi_team *g = k.g;
    if (g->L > 1 && (gather ? nb <= TUPC_HIER_SMALL : (size_t)g->L * nb <= TUPC_HIER_STAGE)) {
        rooted_ring(c, &k, s, gather, dst, src, nb);
        return;
    }
    struct tupc_mpi_tmember *me = &g->m[k.li];
    const size_t S = tupc_impl_partition_size, L = (size_t)g->L, N = (size_t)k.t->n;
    tupc_sptr_t area = gather ? dst : src; /* the root's */
    char *mine = (gather ? src.addr : dst.addr) + (size_t)tupc_impl_mythread * S;
    if (k.li == 0) {
        int here, myrank;
        const int root = root_of(g, area.thread, &here);
        MPI_Comm_rank(g->comm, &myrank);
        reuse(g, s, c->func);
        char *out = tupc_hier_grow(c->func, &g->out, (gather ? L : N) * nb + 1);
        char *in = tupc_hier_grow(c->func, &g->in, (gather ? N : L) * nb + 1);
        int *cnt = v_counts(g, nb, c->func);
        const int kb = tupc_hier_count(c->func, L * nb);
        /* Alone in its process, a member's block moves in place; where the
         * processes hold the ranks in order, so does the root's area. */
        const int direct = myrank == root && here && g->ident;
        if (gather) {
            for (int j = 0; j < g->L && g->L > 1; j++) { /* the process's blocks, by rank */
                wait_local(c, g, j, s);
                memcpy(out + (size_t)j * nb, src.addr + (size_t)g->lthread[j] * S, nb);
            }
            if (myrank == root) /* dst's holder */
                wait_entry(c, &k, dst.thread, s);
            const char *o = g->L > 1 ? out : mine;
            char *to = direct ? dst.addr : in;
            TUPC_HIER_CALL(
                MPI_Gatherv(o, kb, MPI_BYTE, to, cnt, cnt + g->P, MPI_BYTE, root, g->comm),
                MPI_Igatherv(o, kb, MPI_BYTE, to, cnt, cnt + g->P, MPI_BYTE, root, g->comm, &r_),
                c->func);
            for (size_t i = 0; i < N && myrank == root && !direct; i++) /* to dst's order */
                store((int)dst.thread, dst.addr + (size_t)g->order[i] * nb, in + i * nb, nb);
        } else {
            if (myrank == root) {
                wait_entry(c, &k, src.thread, s);
                if (here)
                    tupc_mpi_sync();                      /* puts from other processes into src */
                for (size_t i = 0; i < N && !direct; i++) /* src's blocks in process order */
                    fetch(out + i * nb, (int)src.thread, src.addr + (size_t)g->order[i] * nb, nb);
            }
            const char *o = direct ? src.addr : out;
            char *to = g->L > 1 ? in : mine;
            TUPC_HIER_CALL(
                MPI_Scatterv(o, cnt, cnt + g->P, MPI_BYTE, to, kb, MPI_BYTE, root, g->comm),
                MPI_Iscatterv(o, cnt, cnt + g->P, MPI_BYTE, to, kb, MPI_BYTE, root, g->comm, &r_),
                c->func);
            if (g->L > 1)
                memcpy(mine, in, nb);
        }
        free(cnt);
        tupc_word_set(&g->ready, s); /* release: the bytes, and every read */
    } else if (!gather || c->out != TUPC_NOSYNC) {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
        if (!gather)
            memcpy(mine, g->in.p + (size_t)k.li * nb, nb);
    }
    tupc_word_set(&me->done, s); /* release: done with the leader's buffer */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, &k);
}

/* A posted scatter or gather on a team, as rooted without its waits: the
 * leader reads at posting what its process sends (the root's area, fetched
 * in process order; or its members' src blocks, each after the member's
 * entry under IN_MYSYNC), posts MPI_Iscatterv or MPI_Igatherv with buffers
 * and counts the job owns, and the job copies the received blocks (each
 * member's dst block; or, on the root's process, the root's area in rank
 * order, through the window where it lies in a process without members:
 * each put is complete, flushed, before the post's mark is set). */
static void *rooted_post(const struct tupc_mpi_call *c, const struct tcall *k, int gather,
                         tupc_sptr_t dst, tupc_sptr_t src, size_t nb, uint32_t s, uint32_t p,
                         tupc_word *mark)
{
    struct tupc_mpi_team *g = k->g;
    const size_t S = tupc_impl_partition_size, L = (size_t)g->L, N = (size_t)k->t->n;
    const tupc_sptr_t area = gather ? dst : src; /* the root's */
    int here, myrank;
    const int root = root_of(g, area.thread, &here), P = g->P;
    MPI_Comm_rank(g->comm, &myrank);
    const int direct = myrank == root && here && g->ident;
    const size_t cnts = sizeof(int) * 2 * (size_t)P, outn = (gather ? L : N) * nb,
                 inn = (gather ? N : L) * nb;
    void *job = tupc_hier_post_job_new(c->func, p, mark, (int)(gather ? N : L));
    char *own = tupc_hier_post_own(job, c->func, cnts + outn + inn);
    int *cnt = (int *)(void *)own;
    for (int q = 0; q < P; q++) {
        cnt[q] = tupc_hier_count(c->func, (size_t)g->count[q] * nb);
        cnt[P + q] = tupc_hier_count(c->func, (size_t)g->displ[q] * nb);
    }
    char *out = own + cnts, *in = out + outn;
    const int kb = tupc_hier_count(c->func, L * nb);
    MPI_Request *r = tupc_hier_post_request(job);
    if (gather) {
        for (int j = 0; j < g->L; j++) { /* the process's blocks, by rank */
            wait_local(c, g, j, s);
            memcpy(out + (size_t)j * nb, src.addr + (size_t)g->lthread[j] * S, nb);
        }
        if (myrank == root)
            wait_entry(c, k, dst.thread, s);
        for (size_t i = 0; i < N && myrank == root && !direct; i++) /* to dst's order */
            tupc_hier_post_put(job, here ? -1 : (int)dst.thread,
                               dst.addr + (size_t)g->order[i] * nb, in + i * nb, nb);
        MPI_Igatherv(out, kb, MPI_BYTE, direct ? dst.addr : in, cnt, cnt + P, MPI_BYTE, root,
                     g->comm, r);
        return job;
    }
    if (myrank == root) {
        wait_entry(c, k, src.thread, s);
        if (here)
            tupc_mpi_sync();                      /* puts from other processes into src */
        for (size_t i = 0; i < N && !direct; i++) /* src's blocks in process order */
            fetch(out + i * nb, (int)src.thread, src.addr + (size_t)g->order[i] * nb, nb);
    }
    for (int j = 0; j < g->L; j++)
        tupc_hier_post_copy(job, dst.addr + (size_t)g->lthread[j] * S, in + (size_t)j * nb, nb);
    MPI_Iscatterv(direct ? src.addr : out, cnt, cnt + P, MPI_BYTE, in, kb, MPI_BYTE, root, g->comm,
                  r);
    /* The job writes the members' dst blocks: under IN_MYSYNC not before
     * they enter (while the bytes move). */
    for (int j = 1; j < g->L; j++)
        wait_local(c, g, j, s);
    return job;
}

/* The packing of spread's leader: its members' src blocks (gather_all: one
 * each, by local index; exchange: for each process q, the blocks of its
 * members, by rank, from each member here) into out, each after the
 * member's entry under IN_MYSYNC. */
static void spread_pack(const struct tupc_mpi_call *c, struct tupc_mpi_team *g, int xchg,
                        tupc_sptr_t src, size_t nb, uint32_t s, char *out)
{
    const size_t S = tupc_impl_partition_size, L = (size_t)g->L;
    for (int j = 0; j < g->L; j++) {
        wait_local(c, g, j, s);
        const char *a = src.addr + (size_t)g->lthread[j] * S;
        if (!xchg) {
            memcpy(out + (size_t)j * nb, a, nb);
            continue;
        }
        for (int q = 0; q < g->P; q++)
            for (int bi = 0; bi < g->count[q]; bi++)
                memcpy(
                    out + ((size_t)g->displ[q] * L + (size_t)j * (size_t)g->count[q] + (size_t)bi) *
                              nb,
                    a + (size_t)g->order[g->displ[q] + bi] * nb, nb);
    }
}

/* Where local member li's dst block of rank order[displ[p] + ai] lies in
 * spread's receive buffer (in blocks). */
static size_t spread_at(const struct tupc_mpi_team *g, int xchg, int p, int ai, int li)
{
    const size_t L = (size_t)g->L;
    return xchg ? (size_t)g->displ[p] * L + (size_t)ai * L + (size_t)li
                : (size_t)g->displ[p] + (size_t)ai;
}

/* The local members' blocks of nb bytes at one offset of their partitions,
 * as one MPI type from the first's (extent nb: an exchange's receives are
 * placed by rank). */
static MPI_Datatype member_blocks(const char *func, const struct tupc_mpi_team *g, size_t nb)
{
    MPI_Aint *at = alloc(func, sizeof *at * (size_t)g->L);
    for (int j = 0; j < g->L; j++)
        at[j] = (MPI_Aint)((size_t)(g->lthread[j] - g->lthread[0]) * tupc_impl_partition_size);
    MPI_Datatype idx, blocks;
    MPI_Type_create_hindexed_block(g->L, tupc_hier_count(func, nb), at, MPI_BYTE, &idx);
    MPI_Type_create_resized(idx, 0, (MPI_Aint)nb, &blocks);
    MPI_Type_commit(&blocks);
    MPI_Type_free(&idx);
    free(at);
    return blocks;
}

/* The most members a process of the team holds. */
static size_t most_members(const struct tupc_mpi_team *g)
{
    int most = 0;
    for (int q = 0; q < g->P; q++)
        most = g->count[q] > most ? g->count[q] : most;
    return (size_t)most;
}

/* Whether spread's blocks move where they lie (spread_direct): a process
 * holds several members, the processes hold the ranks in order, not in
 * place, past what a pack costs less than a type (UPC_TEAM_ALL's
 * thresholds). Decided alike in every process, from the team's numbers,
 * not its own: an exchange so makes one MPI call per local index, packed
 * one, and a process with one member that packed while another went
 * direct left their calls unmatched (a hang at 3 x 2, 2 and 1 members). */
static int spread_is_direct(const struct tupc_mpi_team *g, int xchg, size_t nb, size_t n)
{
    const size_t most = most_members(g);
    return most > 1 && g->ident &&
           (xchg ? most * n * nb >= TUPC_HIER_EXCHANGE_DIRECT : n * nb > TUPC_HIER_STAGE);
}

/* Call a of a direct gather_all (a 0) or exchange, by process q in v's
 * four P-arrays: the bytes of q's members (an exchange's sends from member
 * a here: none where this process holds no member a) and where they start;
 * the receives from member a of q, one member_blocks placed by its rank. */
static void direct_counts(const char *func, const struct tupc_mpi_team *g, size_t nb, int a, int *v)
{
    const int P = g->P;
    for (int q = 0; q < P; q++) {
        v[q] = a < g->L ? tupc_hier_count(func, (size_t)g->count[q] * nb) : 0;
        v[P + q] = tupc_hier_count(func, (size_t)g->displ[q] * nb);
        v[2 * P + q] = a < g->count[q];
        v[3 * P + q] = g->displ[q] + a;
    }
}

/* spread_direct posted, after every member's entry under IN_MYSYNC (MPI
 * reads their src and writes their dst until it completes): the job waits
 * for the MPI calls (an exchange's one per local index) and copies a
 * gather_all's blocks from the leader's dst to the other members'; the
 * post's buffer holds the counts, which MPI reads until then. */
static void *spread_post_direct(const struct tupc_mpi_call *c, const struct tcall *k, int xchg,
                                tupc_sptr_t dst, tupc_sptr_t src, size_t nb, uint32_t s, uint32_t p,
                                tupc_word *mark)
{
    struct tupc_mpi_team *g = k->g;
    const int P = g->P, calls = xchg ? (int)most_members(g) : 1;
    char *lead = blk(dst, g->lthread[0]);
    void *job = tupc_hier_post_job_reqs(c->func, p, mark, xchg ? 0 : g->L, calls);
    int *cnt = (int *)(void *)tupc_hier_post_own(job, c->func,
                                                 sizeof(int) * 4 * (size_t)P * (size_t)calls);
    for (int j = 1; j < g->L; j++)
        wait_local(c, g, j, s);
    MPI_Datatype blocks = member_blocks(c->func, g, nb);
    MPI_Request *r = tupc_hier_post_request(job);
    for (int a = 0; a < calls; a++) {
        int *v = cnt + (size_t)4 * (size_t)P * (size_t)a;
        direct_counts(c->func, g, nb, a, v);
        if (xchg)
            MPI_Ialltoallv(a < g->L ? blk(src, g->lthread[a]) : lead, v, v + P, MPI_BYTE, lead,
                           v + 2 * P, v + 3 * P, blocks, g->comm, &r[a]);
        else
            MPI_Iallgatherv(blk(src, g->lthread[0]), 1, blocks, lead, v, v + P, MPI_BYTE, g->comm,
                            &r[0]);
    }
    MPI_Type_free(&blocks); /* the posted calls keep it */
    for (int j = 1; !xchg && j < g->L; j++)
        tupc_hier_post_copy(job, blk(dst, g->lthread[j]), lead, (size_t)k->t->n * nb);
    return job;
}

/* A posted gather_all or exchange (in place too) on a team, as spread
 * without its waits: the leader packs at posting (after each member's
 * entry under IN_MYSYNC), posts MPI_Iallgatherv or MPI_Ialltoallv into a
 * buffer the job owns (the counts too: MPI reads them until the call
 * completes), and the job (hier_post.c) copies every local member's dst
 * blocks out of it in rank order; each member's request is done once the
 * post's mark is set. */
static void *spread_post(const struct tupc_mpi_call *c, const struct tcall *k, int xchg,
                         tupc_sptr_t dst, tupc_sptr_t src, size_t nb, uint32_t s, uint32_t p,
                         tupc_word *mark)
{
    struct tupc_mpi_team *g = k->g;
    const size_t S = tupc_impl_partition_size, L = (size_t)g->L, N = (size_t)k->t->n;
    if (src.addr != dst.addr && spread_is_direct(g, xchg, nb, N))
        return spread_post_direct(c, k, xchg, dst, src, nb, s, p, mark);
    /* In place, the blocks are read whole at posting, before the job
     * writes them (MPI_Ialltoallv must not alias). */
    const int P = g->P, direct = g->L == 1 && g->ident && src.addr != dst.addr;
    const size_t cnts = sizeof(int) * 4 * (size_t)P, outn = (xchg ? N : 1) * L * nb,
                 inn = N * (xchg ? L : 1) * nb;
    void *job = tupc_hier_post_job_new(c->func, p, mark, direct ? 0 : g->L * k->t->n);
    char *own = tupc_hier_post_own(job, c->func, cnts + (direct ? 0 : outn + inn));
    int *sc = (int *)(void *)own, *sd = sc + P, *rc = sd + P, *rd = rc + P;
    for (int q = 0; q < P; q++) {
        const size_t per = xchg ? L : 1;
        sc[q] = tupc_hier_count(c->func, L * (size_t)g->count[q] * nb);
        sd[q] = tupc_hier_count(c->func, (size_t)g->displ[q] * L * nb);
        rc[q] = tupc_hier_count(c->func, (size_t)g->count[q] * per * nb);
        rd[q] = tupc_hier_count(c->func, (size_t)g->displ[q] * per * nb);
    }
    const char *o = src.addr + (size_t)tupc_impl_mythread * S;
    char *in = dst.addr + (size_t)tupc_impl_mythread * S;
    if (!direct) {
        char *out = own + cnts;
        in = out + outn;
        spread_pack(c, g, xchg, src, nb, s, out);
        o = out;
        for (int j = 0; j < g->L; j++)
            for (int q = 0; q < P; q++)
                for (int ai = 0; ai < g->count[q]; ai++)
                    tupc_hier_post_copy(job,
                                        dst.addr + (size_t)g->lthread[j] * S +
                                            (size_t)g->order[g->displ[q] + ai] * nb,
                                        in + spread_at(g, xchg, q, ai, j) * nb, nb);
    }
    MPI_Request *r = tupc_hier_post_request(job);
    if (xchg)
        MPI_Ialltoallv(o, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm, r);
    else
        MPI_Iallgatherv(o, tupc_hier_count(c->func, L * nb), MPI_BYTE, in, rc, rd, MPI_BYTE,
                        g->comm, r);
    return job;
}

/* The posting's start (tupc_mpi_team_post_begin), with the call's team,
 * after its entry (post_begin: with it). */
static void post_next(const struct tupc_mpi_call *c, struct tcall *k, int entries,
                      struct tupc_mpi_team_post *tp)
{
    tp->s = next_call(k);
    struct tupc_mpi_team *g = tp->g = k->g;
    tp->p = ++g->m[k->li].posts;
    tp->mark = &g->posted[tp->p % TUPC_HIER_POSTS];
    tp->leader = k->li == 0;
    tp->rank = g->proc[k->me];
    if (!tp->leader)
        return;
    /* The post that last used p's mark is complete: its request was
     * (TUPC_ASYNC_MAX posts at most are outstanding on a team). */
    if (tp->p > TUPC_HIER_POSTS)
        tupc_wait_peer(tp->mark, tp->p - TUPC_HIER_POSTS, TUPC_NO_PEER, c->func);
    reuse(g, tp->s, c->func);
    for (int j = 1; entries && j < g->L; j++)
        wait_local(c, g, j, tp->s);
}

static void post_begin(const struct tupc_mpi_call *c, struct tcall *k, int entries,
                       struct tupc_mpi_team_post *tp)
{
    enter(c, k, c->in == TUPC_ALLSYNC);
    post_next(c, k, entries, tp);
}

void tupc_mpi_team_post_begin(const struct tupc_mpi_call *c, int entries,
                              struct tupc_mpi_team_post *tp)
{
    struct tcall k;
    if (entries == 2) { /* the IN sync as a team barrier, as the blocking cut's */
        enter(c, &k, 1);
        post_next(c, &k, 0, tp);
    } else {
        post_begin(c, &k, entries, tp);
    }
}

void tupc_mpi_team_post_end(const struct tupc_mpi_call *c, const struct tupc_mpi_team_post *tp)
{
    struct tupc_mpi_team *g = tp->g;
    /* This member reads nothing of the leader's. */
    tupc_word_set(&g->m[g->lidx[c->team->rank[tupc_impl_mythread]]].done, tp->s);
}

uint32_t tupc_mpi_team_reloc_post(const struct tupc_mpi_call *c, enum tupc_mpi_team_verb v,
                                  tupc_sptr_t dst, tupc_sptr_t src, size_t n, void **job,
                                  tupc_word **mark)
{
    struct tcall k;
    struct tupc_mpi_team_post tp;
    post_begin(c, &k, 0, &tp); /* each verb waits for the entries after its post */
    const uint32_t s = tp.s, p = tp.p;
    *mark = tp.mark;
    *job = NULL;
    if (tp.leader) {
        if (v == TUPC_MPI_BCAST)
            *job = bcast_post(c, &k, dst, src, n, s, p, *mark);
        else if (v == TUPC_MPI_SCATTER || v == TUPC_MPI_GATHER)
            *job = rooted_post(c, &k, v == TUPC_MPI_GATHER, dst, src, n, s, p, *mark);
        else
            *job = spread_post(c, &k, v == TUPC_MPI_EXCHANGE, dst, src, n, s, p, *mark);
    }
    tupc_mpi_team_post_end(c, &tp);
    return p;
}

/* spread without the leader's packing, as UPC_TEAM_ALL's large calls
 * (hier_reloc.c): a gather_all's MPI_Allgatherv sends the members' src
 * blocks where they lie into the leader's dst, which the members copy (the
 * leader returns once they have); an exchange is one MPI_Alltoallv per
 * local index a < the most members a process holds, in which member a of
 * each process sends its src as it lies (to process q the blocks of q's
 * ranks, consecutive) and each process receives member a's blocks of every
 * process straight into its members' dst blocks (member_blocks). Every
 * member's entry first under IN_MYSYNC: their src read, their dst written.
 * Packed before, at 2 x 2 on a team of every thread (bench_coll whole),
 * 16 MiB: gather_all 4.6 -> 2.8-3.1 ms (Open MPI), 5.5-5.9 -> 2.2-2.3
 * (MPICH); exchange 2.15 -> 1.0 ms, 2.3-2.6 -> 1.4. */
static void spread_direct(const struct tupc_mpi_call *c, struct tcall *k, uint32_t s, int xchg,
                          tupc_sptr_t dst, tupc_sptr_t src, size_t nb)
{
    struct tupc_mpi_team *g = k->g;
    const size_t S = tupc_impl_partition_size, N = (size_t)k->t->n;
    char *lead = blk(dst, g->lthread[0]);
    if (k->li == 0) {
        for (int j = 1; j < g->L; j++)
            wait_local(c, g, j, s);
        MPI_Datatype blocks = member_blocks(c->func, g, nb);
        const int P = g->P, calls = xchg ? (int)most_members(g) : 1;
        int *v = alloc(c->func, sizeof *v * 4 * (size_t)P);
        for (int a = 0; a < calls; a++) {
            direct_counts(c->func, g, nb, a, v);
            if (!xchg) {
                const char *from = blk(src, g->lthread[0]);
                TUPC_HIER_CALL(
                    MPI_Allgatherv(from, 1, blocks, lead, v, v + P, MPI_BYTE, g->comm),
                    MPI_Iallgatherv(from, 1, blocks, lead, v, v + P, MPI_BYTE, g->comm, &r_),
                    c->func);
                continue;
            }
            const char *from = a < g->L ? blk(src, g->lthread[a]) : lead;
            TUPC_HIER_CALL(MPI_Alltoallv(from, v, v + P, MPI_BYTE, lead, v + 2 * P, v + 3 * P,
                                         blocks, g->comm),
                           MPI_Ialltoallv(from, v, v + P, MPI_BYTE, lead, v + 2 * P, v + 3 * P,
                                          blocks, g->comm, &r_),
                           c->func);
        }
        MPI_Type_free(&blocks);
        free(v);
        tupc_word_set(&g->ready, s); /* release: the blocks; every src is read */
        tupc_word_set(&g->m[0].done, s);
        if (!xchg) /* its members copy from its dst */
            tupc_mpi_team_wait_members(g, offsetof(struct tupc_mpi_tmember, done), s, c->func);
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
        if (!xchg)
            memcpy(dst.addr + (size_t)tupc_impl_mythread * S, lead, N * nb);
        tupc_word_set(&g->m[k->li].done, s); /* release: done with the leader's dst */
    }
    if (c->out == TUPC_ALLSYNC)
        barrier(c, k);
}

/* gather_all (xchg 0) and exchange (1, not in place) in two phases on the
 * team's communicator: each process's leader packs its members' src blocks
 * (gather_all: one each; exchange: for each process, the blocks of its
 * members, by rank), MPI_Allgatherv or MPI_Alltoallv moves them, and each
 * member copies its dst blocks out of the leader's buffer in rank order. A
 * member alone in its process, where the processes hold the ranks in
 * order, sends its src and receives into its dst in place. IN_MYSYNC waits
 * for the process's members only; every member waits for `ready` (its
 * blocks), after which its src is read. */
static void spread(const struct tupc_mpi_call *c, int xchg, tupc_sptr_t dst, tupc_sptr_t src,
                   size_t nb)
{
    struct tcall k;
    const uint32_t s = two_phase(c, &k);
    struct tupc_mpi_team *g = k.g;
    struct tupc_mpi_tmember *me = &g->m[k.li];
    const size_t S = tupc_impl_partition_size, L = (size_t)g->L, N = (size_t)k.t->n;
    if (spread_is_direct(g, xchg, nb, N)) {
        spread_direct(c, &k, s, xchg, dst, src, nb);
        return;
    }
    const int P = g->P, direct = g->L == 1 && g->ident;
    char *mdst = dst.addr + (size_t)tupc_impl_mythread * S;
    if (k.li == 0) {
        reuse(g, s, c->func);
        int *sc = alloc(c->func, sizeof *sc * 4 * (size_t)P), *sd = sc + P, *rc = sd + P,
            *rd = rc + P;
        for (int q = 0; q < P; q++) {
            const size_t per = xchg ? L : 1; /* blocks of each member of q for us */
            sc[q] = tupc_hier_count(c->func, L * (size_t)g->count[q] * nb);
            sd[q] = tupc_hier_count(c->func, (size_t)g->displ[q] * L * nb);
            rc[q] = tupc_hier_count(c->func, (size_t)g->count[q] * per * nb);
            rd[q] = tupc_hier_count(c->func, (size_t)g->displ[q] * per * nb);
        }
        const char *o = src.addr + (size_t)tupc_impl_mythread * S;
        char *in = mdst;
        if (!direct) {
            char *out = tupc_hier_grow(c->func, &g->out, (xchg ? N : 1) * L * nb + 1);
            in = tupc_hier_grow(c->func, &g->in, N * (xchg ? L : 1) * nb + 1);
            spread_pack(c, g, xchg, src, nb, s, out);
            o = out;
        }
        const int kb = tupc_hier_count(c->func, L * nb);
        if (xchg)
            TUPC_HIER_CALL(MPI_Alltoallv(o, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm),
                           MPI_Ialltoallv(o, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm, &r_),
                           c->func);
        else
            TUPC_HIER_CALL(MPI_Allgatherv(o, kb, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm),
                           MPI_Iallgatherv(o, kb, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm, &r_),
                           c->func);
        free(sc);
        tupc_word_set(&g->ready, s); /* release: the blocks; every src is read */
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
    }
    for (int p = 0; p < P && !direct; p++) /* my blocks, from process order to rank order */
        for (int ai = 0; ai < g->count[p]; ai++) {
            memcpy(mdst + (size_t)g->order[g->displ[p] + ai] * nb,
                   g->in.p + spread_at(g, xchg, p, ai, k.li) * nb, nb);
        }
    tupc_word_set(&me->done, s); /* release: done with the leader's buffer */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, &k);
}

/* A permute's perm, after the entry: every member's own entry (ready at
 * its entry) gathered by the leaders and checked alike by every member;
 * the entries by rank (malloc'd, 2n ints), or NULL with bad[] as
 * tupc_hier_perm_check gives it. */
static int *team_perm(const struct tupc_mpi_call *c, const struct tcall *k, tupc_sptr_t perm,
                      int bad[3])
{
    struct tupc_mpi_team *g = k->g;
    const int n = k->t->n;
    int *p = alloc(c->func, sizeof *p * 2 * (size_t)n);
    const uint32_t s0 = ++g->m[k->li].seq;
    const int mine =
        *(const int *)(perm.addr + (size_t)tupc_impl_mythread * tupc_impl_partition_size);
    memcpy(p, tupc_mpi_team_allgather(g, k->li, s0, &mine, sizeof mine, c->func),
           sizeof *p * (size_t)n);
    tupc_mpi_team_done(g, k->li, s0);
    if (tupc_hier_perm_check(p, n, p + n, bad) == 0)
        return p;
    free(p);
    return NULL;
}

/* The leader's plan of a permute with entries p (by rank): cnt's four
 * P-arrays (bytes to and from each process in comm, their displacements);
 * *nout and *nin, the blocks sent and received. */
static void perm_counts(const struct tupc_mpi_call *c, const struct tcall *k, const int *p,
                        size_t nb, int *cnt, size_t *nout, size_t *nin)
{
    const struct tupc_mpi_team *g = k->g;
    const int P = g->P;
    int myrank;
    MPI_Comm_rank(g->comm, &myrank);
    *nout = *nin = 0;
    for (int q = 0; q < P; q++) {
        int so = 0, ri = 0;
        for (int j = 0; j < g->L; j++)
            so += g->proc[p[g->local[j]]] == q;
        for (int ai = 0; ai < g->count[q]; ai++)
            ri += g->proc[p[g->order[g->displ[q] + ai]]] == myrank;
        cnt[q] = tupc_hier_count(c->func, (size_t)so * nb);
        cnt[2 * P + q] = tupc_hier_count(c->func, (size_t)ri * nb);
        cnt[P + q] = tupc_hier_count(c->func, *nout * nb);
        cnt[3 * P + q] = tupc_hier_count(c->func, *nin * nb);
        *nout += (size_t)so;
        *nin += (size_t)ri;
    }
}

/* The local members' src blocks into out, by target process, then by
 * rank, each after the member's entry under IN_MYSYNC. */
static void perm_pack(const struct tupc_mpi_call *c, const struct tcall *k, const int *p,
                      tupc_sptr_t src, size_t nb, uint32_t s, char *out)
{
    struct tupc_mpi_team *g = k->g;
    for (int q = 0, at = 0; q < g->P; q++)
        for (int j = 0; j < g->L; j++) {
            if (g->proc[p[g->local[j]]] != q)
                continue;
            wait_local(c, g, j, s);
            memcpy(out + (size_t)at++ * nb,
                   src.addr + (size_t)g->lthread[j] * tupc_impl_partition_size, nb);
        }
}

/* The blocks received into in (from each process, by rank) to their
 * targets' dst blocks: copied now, or by job. */
static void perm_unpack(const struct tcall *k, const int *p, tupc_sptr_t dst, const char *in,
                        size_t nb, void *job)
{
    const struct tupc_mpi_team *g = k->g;
    int myrank;
    MPI_Comm_rank(g->comm, &myrank);
    for (int q = 0, at = 0; q < g->P; q++)
        for (int ai = 0; ai < g->count[q]; ai++) {
            const int a = g->order[g->displ[q] + ai];
            if (g->proc[p[a]] != myrank)
                continue;
            char *d = dst.addr + (size_t)k->t->thread[p[a]] * tupc_impl_partition_size;
            if (job)
                tupc_hier_post_copy(job, d, in + (size_t)at++ * nb, nb);
            else
                memcpy(d, in + (size_t)at++ * nb, nb);
        }
}

/* A permute's blocks as messages, not in place, perm p good, as
 * UPC_TEAM_ALL's (hier_reloc.c's perm_messages): each local member's src
 * block to its target's process, each local member's dst block from its
 * source's, tagged TUPC_HIER_PAIR_TAG + the sender's rank, each after the
 * member's entry (s) under IN_MYSYNC. The leader posts every call's in call
 * order, so MPI's in-order matching pairs them call by call. r: room for 2L
 * requests, all posted. Whether MPI's tags reach that far: perm_by_messages.
 * (MPI_Alltoallv before, through the leader's buffers with several members
 * a process: on the even threads at 2 x 2, a posted 16 MiB permute's comm
 * time 1.1-2.0 times the raw MPI_Ialltoallv's, 0.30-0.34 so; blocking, 64
 * KiB 1.16-1.21 -> 0.87-1.05, 16 MiB 0.40-0.51 -> 0.27-0.33.) */
static int perm_by_messages(const struct tcall *k)
{
    return tupc_hier_.tag_ub - TUPC_HIER_PAIR_TAG >= k->t->n;
}
static void perm_messages(const struct tupc_mpi_call *c, const struct tcall *k, const int *p,
                          uint32_t s, tupc_sptr_t dst, tupc_sptr_t src, size_t nb, MPI_Request *r)
{
    struct tupc_mpi_team *g = k->g;
    const int n = k->t->n, L = g->L, tag = TUPC_HIER_PAIR_TAG, kb = tupc_hier_count(c->func, nb);
    for (int j = 0; j < L; j++) {
        wait_local(c, g, j, s);
        const int a = p[n + g->local[j]]; /* the sender to member j: perm_check's inverse */
        MPI_Irecv(blk(dst, g->lthread[j]), kb, MPI_BYTE, g->proc[a], tag + a, g->comm, &r[j]);
    }
    for (int j = 0; j < L; j++) {
        const int a = g->local[j];
        MPI_Isend(blk(src, g->lthread[j]), kb, MPI_BYTE, g->proc[p[a]], tag + a, g->comm,
                  &r[L + j]);
    }
}

/* A small permute in one MPI_Alltoallv, as UPC_TEAM_ALL's (hier_reloc.c's
 * perm_small): process q's slot for process r holds q's members' perm
 * entries (in process order), then the blocks of q's members whose
 * targets lie on r; every leader gets every entry, finds the same verdict
 * as team_perm, and writes its members' dst blocks only when perm is
 * good. An 8-byte permute on a team of one member in each of 2
 * processes took 2.0 times MPI_Alltoallv as an MPI_Allgather of perm and
 * then MPI_Alltoallv. */
/* A slot: the most members a process holds, an int of each, then a block
 * of each. */
static size_t small_slot(const struct tupc_mpi_team *g, size_t nb)
{
    return (sizeof(int) + nb) * most_members(g);
}

static int small_permute(const struct tupc_mpi_team *g, size_t nb)
{
    /* Past that, with one member in a process, MPI reads its src and
     * writes its dst (permute2): 64 KiB on a team of one member in each of
     * 2 processes took 1.2-1.4 times MPI_Alltoallv so with MPICH, 2.0-2.4
     * through 64 KiB slots. */
    return nb <= 1024 && small_slot(g, nb) * (size_t)(g->P - 1) <= 4096;
}

/* The leader's part of permute_small (call s): the verdict in g->perm_ok
 * and g->perm_bad. Blocks whose targets lie here go from src to dst once
 * perm is found good, not through MPI: a slot to this process would be
 * packed and sent only to be copied out again. */
static void small_leader(const struct tupc_mpi_call *c, const struct tcall *k, uint32_t s,
                         tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nb)
{
    struct tupc_mpi_team *g = k->g;
    const int P = g->P, L = g->L, n = k->t->n;
    const size_t head = sizeof(int) * most_members(g), slot = small_slot(g, nb);
    int myrank;
    MPI_Comm_rank(g->comm, &myrank);
    char *out = tupc_hier_grow(c->func, &g->out, slot * (size_t)P),
         *in = tupc_hier_grow(c->func, &g->in, slot * (size_t)P);
    /* p: every rank's entry; then the check's scratch; then the counts and
     * displacements (slot to each other process, none to this one). */
    int *p = alloc(c->func, sizeof *p * (2 * (size_t)n + 2 * (size_t)P)), *cnt = p + 2 * n,
        *dsp = cnt + P;
    for (int q = 0; q < P; q++) {
        cnt[q] = q == myrank ? 0 : tupc_hier_count(c->func, slot);
        dsp[q] = tupc_hier_count(c->func, slot * (size_t)q);
    }
    int *mine = p + n; /* the scratch, until the Alltoallv is done */
    for (int j = 0; j < L; j++) {
        wait_local(c, g, j, s);
        mine[j] = *(const int *)blk(perm, g->lthread[j]);
    }
    for (int q = 0; q < P; q++) {
        if (q == myrank)
            continue;
        char *o = out + (size_t)q * slot, *b = o + head;
        memcpy(o, mine, sizeof(int) * (size_t)L);
        memset(o + sizeof(int) * (size_t)L, 0, head - sizeof(int) * (size_t)L);
        for (int j = 0; j < L; j++)
            if (mine[j] >= 0 && mine[j] < n && g->proc[mine[j]] == q) {
                memcpy(b, blk(src, g->lthread[j]), nb);
                b += nb;
            }
        memset(b, 0, (size_t)(o + slot - b)); /* sent too: no bytes left unset */
    }
    TUPC_HIER_CALL(MPI_Alltoallv(out, cnt, dsp, MPI_BYTE, in, cnt, dsp, MPI_BYTE, g->comm),
                   MPI_Ialltoallv(out, cnt, dsp, MPI_BYTE, in, cnt, dsp, MPI_BYTE, g->comm, &r_),
                   c->func);
    for (int j = 0; j < L; j++)
        p[g->local[j]] = mine[j];
    for (int q = 0; q < P; q++)
        for (int ai = 0; ai < g->count[q] && q != myrank; ai++)
            memcpy(&p[g->order[g->displ[q] + ai]], in + (size_t)q * slot + sizeof(int) * (size_t)ai,
                   sizeof(int));
    g->perm_ok = tupc_hier_perm_check(p, n, p + n, g->perm_bad) == 0;
    for (int q = 0; q < P && g->perm_ok; q++) {
        const char *b = in + (size_t)q * slot + head;
        for (int ai = 0; ai < g->count[q]; ai++) {
            const int a = g->order[g->displ[q] + ai];
            if (g->proc[p[a]] != myrank)
                continue;
            char *d = blk(dst, k->t->thread[p[a]]);
            if (q == myrank) {
                memcpy(d, blk(src, k->t->thread[a]), nb);
            } else {
                memcpy(d, b, nb);
                b += nb;
            }
        }
    }
    free(p);
}

static int permute_small(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                         tupc_sptr_t perm, size_t nb, int bad[3])
{
    struct tcall k;
    const uint32_t s = two_phase(c, &k);
    struct tupc_mpi_team *g = k.g;
    if (k.li == 0) {
        reuse(g, s, c->func);
        small_leader(c, &k, s, dst, src, perm, nb);
        tupc_word_set(&g->ready, s); /* release: dst, the verdict; every src is read */
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
    }
    const int ok = g->perm_ok;
    if (!ok)
        memcpy(bad, g->perm_bad, sizeof g->perm_bad);
    tupc_word_set(&g->m[k.li].done, s); /* release: the verdict read (reuse rewrites it) */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, &k);
    return ok ? 0 : -1;
}

/* perm_messages, blocking. */
static void perm_messages_now(const struct tupc_mpi_call *c, const struct tcall *k, const int *p,
                              uint32_t s, tupc_sptr_t dst, tupc_sptr_t src, size_t nb)
{
    const int n = 2 * k->g->L;
    MPI_Request *r = alloc(c->func, sizeof *r * (size_t)n);
    perm_messages(c, k, p, s, dst, src, nb, r);
    tupc_hier_wait_all(r, n, c->func);
    free(r);
}

/* Where MPI's tags are too few for perm_messages: MPI_Alltoallv of each
 * process's blocks to their targets' processes, in rank order, through the
 * leaders' buffers (with one member here, from its src into its dst). */
static void perm_alltoallv(const struct tupc_mpi_call *c, const struct tcall *k, const int *p,
                           uint32_t s, tupc_sptr_t dst, tupc_sptr_t src, size_t nb)
{
    struct tupc_mpi_team *g = k->g;
    int *cnt = alloc(c->func, sizeof *cnt * 4 * (size_t)g->P);
    const int P = g->P, *sc = cnt, *sd = sc + P, *rc = sd + P, *rd = rc + P;
    size_t nout, nin;
    perm_counts(c, k, p, nb, cnt, &nout, &nin);
    const int direct = g->L == 1; /* one block each way: nout == nin == 1 */
    char *out = direct ? blk(src, g->lthread[0]) : tupc_hier_grow(c->func, &g->out, nout * nb + 1);
    char *in = direct ? blk(dst, g->lthread[0]) : tupc_hier_grow(c->func, &g->in, nin * nb + 1);
    if (!direct)
        perm_pack(c, k, p, src, nb, s, out);
    TUPC_HIER_CALL(MPI_Alltoallv(out, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm),
                   MPI_Ialltoallv(out, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, g->comm, &r_),
                   c->func);
    if (!direct)
        perm_unpack(k, p, dst, in, nb, NULL);
    free(cnt);
}

/* A permute (not in place) in two phases: the leaders gather every rank's
 * perm entry and every member checks it alike (team_perm), then each block
 * goes from its src to its dst as a message of its own (perm_messages; where
 * MPI's tags are too few, MPI_Alltoallv sends each process's blocks to their
 * targets' processes, in rank order, and the leader there writes its
 * members' dst blocks, or with one member here MPI reads its src block and
 * writes its dst block itself). Every member waits
 * for its process's `ready`: its src read, its dst written. 0, or -1 with
 * bad[] as tupc_hier_perm_check gives it. */
static int permute2(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                    tupc_sptr_t perm, size_t nb, int bad[3])
{
    if (small_permute(part_of(c->team), nb))
        return permute_small(c, dst, src, perm, nb, bad);
    struct tcall k;
    enter(c, &k, c->in == TUPC_ALLSYNC);
    struct tupc_mpi_team *g = k.g;
    struct tupc_mpi_tmember *me = &g->m[k.li];
    int *p = team_perm(c, &k, perm, bad);
    if (!p) {
        if (c->out == TUPC_ALLSYNC)
            barrier(c, &k);
        return -1;
    }
    const uint32_t s = next_call(&k);
    if (k.li == 0) {
        reuse(g, s, c->func);
        if (perm_by_messages(&k))
            perm_messages_now(c, &k, p, s, dst, src, nb);
        else
            perm_alltoallv(c, &k, p, s, dst, src, nb);
        tupc_word_set(&g->ready, s); /* release: every dst here; every src here is read */
    } else {
        tupc_wait_peer(&g->ready, s, g->lthread[0], c->func);
    }
    free(p);
    tupc_word_set(&me->done, s); /* release: nothing of the leader's read after ready */
    if (c->out == TUPC_ALLSYNC)
        barrier(c, &k);
    return 0;
}

uint32_t tupc_mpi_team_permute_post(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                                    tupc_sptr_t perm, size_t nb, int bad[3], void **job,
                                    tupc_word **mark)
{
    struct tcall k;
    enter(c, &k, c->in == TUPC_ALLSYNC);
    int *p = team_perm(c, &k, perm, bad);
    if (!p)
        return 0;
    struct tupc_mpi_team_post tp;
    post_next(c, &k, 0, &tp); /* the packing waits for each entry */
    *mark = tp.mark;
    *job = NULL;
    if (tp.leader && src.addr != dst.addr && perm_by_messages(&k)) {
        /* Not in place: the blocking call's messages, the job waiting. */
        void *j = tupc_hier_post_job_reqs(c->func, tp.p, tp.mark, 0, 2 * k.g->L);
        perm_messages(c, &k, p, tp.s, dst, src, nb, tupc_hier_post_request(j));
        *job = j;
    } else if (tp.leader) {
        struct tupc_mpi_team *g = k.g;
        const int P = g->P;
        const size_t head = sizeof(int) * 4 * (size_t)P;
        int *cnt = alloc(c->func, head);
        size_t nout, nin;
        perm_counts(c, &k, p, nb, cnt, &nout, &nin);
        /* One member here, not in place (src is dst then: MPI's buffers must
         * not alias): MPI reads its src and writes its dst, as permute2. */
        const int direct = g->L == 1 && src.addr != dst.addr;
        void *j = tupc_hier_post_job_new(c->func, tp.p, tp.mark, (int)nin);
        char *own = tupc_hier_post_own(j, c->func, head + (direct ? 0 : (nout + nin) * nb));
        char *out = direct ? blk(src, g->lthread[0]) : own + head,
             *in = direct ? blk(dst, g->lthread[0]) : out + nout * nb;
        memcpy(own, cnt, head); /* MPI reads the counts until it completes */
        free(cnt);
        if (!direct) {
            perm_pack(c, &k, p, src, nb, tp.s, out);
            perm_unpack(&k, p, dst, in, nb, j);
        }
        const int *oc = (const int *)(void *)own;
        MPI_Ialltoallv(out, oc, oc + P, MPI_BYTE, in, oc + 2 * P, oc + 3 * P, MPI_BYTE, g->comm,
                       tupc_hier_post_request(j));
        *job = j;
    }
    free(p);
    tupc_mpi_team_post_end(c, &tp);
    return tp.p;
}

int tupc_mpi_team_reloc(const struct tupc_mpi_call *c, enum tupc_mpi_team_verb v, tupc_sptr_t dst,
                        tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3])
{
    if (v == TUPC_MPI_BCAST) {
        bcast(c, dst, src, nbytes);
        return 0;
    }
    if (v == TUPC_MPI_SCATTER || v == TUPC_MPI_GATHER) {
        rooted(c, v == TUPC_MPI_GATHER, dst, src, nbytes);
        return 0;
    }
    if (v == TUPC_MPI_PERMUTE && !in_place)
        return permute2(c, dst, src, perm, nbytes, bad);
    if (v == TUPC_MPI_GATHER_ALL || (v == TUPC_MPI_EXCHANGE && !in_place)) {
        spread(c, v == TUPC_MPI_EXCHANGE, dst, src, nbytes);
        return 0;
    }
    /* In place, an exchange or a permute (with src as dst). */
    struct tcall k;
    begin(c, &k);
    int rc = 0;
    if (v == TUPC_MPI_PERMUTE)
        rc = permute_in_place(c, &k, dst, perm, nbytes, bad);
    else
        exchange_in_place(c, &k, dst, nbytes);
    end(c, &k);
    return rc;
}

/* Where one thread's elements of a range lie: its elements of the range
 * are one stretch of its partition (the blocks between the first and the
 * last are whole, and each follows the last on that thread), read (and
 * written back) in one transfer. */
struct span {
    char *lo, *hi, *copy;
};

/* The stretches of the threads in other processes that elements lo..lo+m-1
 * of the array p (src's layout) touch, in sp[] by thread. */
static size_t spans(const struct tupc_red_lay *L, tupc_sptr_t p, size_t lo, size_t m,
                    struct span *sp)
{
    const size_t es = L->es;
    size_t bytes = 0;
    tupc_sptr_t q = tupc_ptr_add(p, (ptrdiff_t)lo, L->B, es);
    for (size_t left = m; left;) {
        size_t r = tupc_red_run(L, q, left);
        if (!tupc_impl_is_local(q.thread)) {
            struct span *x = &sp[q.thread];
            char *e = q.addr + r * es;
            if (!x->lo) {
                x->lo = q.addr;
                x->hi = e;
            } else {
                x->lo = q.addr < x->lo ? q.addr : x->lo;
                x->hi = e > x->hi ? e : x->hi;
            }
        }
        left -= r;
        if (left)
            q = tupc_ptr_add(q, (ptrdiff_t)r, L->B, es);
    }
    for (int t = 0; t < THREADS; t++)
        bytes += (size_t)(sp[t].hi - sp[t].lo);
    return bytes;
}

/* Reads (how 0) or writes back (1) every stretch of sp[], or only places
 * their copies (-1), one after another in buf. */
static void move_spans(struct span *sp, char *buf, int how)
{
    for (int t = 0; t < THREADS; t++) {
        size_t n = (size_t)(sp[t].hi - sp[t].lo);
        if (!n)
            continue;
        sp[t].copy = buf;
        buf += n;
        if (how == 1)
            tupc_mpi_put((uint32_t)t, sp[t].lo, sp[t].copy, n);
        else if (how == 0)
            tupc_mpi_get(sp[t].copy, (uint32_t)t, sp[t].lo, n);
    }
}

/* An element's address where the walk reads or writes it: its own, or in
 * its stretch's copy. */
static char *here(const struct span *sp, tupc_sptr_t p)
{
    if (tupc_impl_is_local(p.thread))
        return p.addr;
    return sp[p.thread].copy + (p.addr - sp[p.thread].lo);
}

/* Elements of a range that one walk takes at most: its stretches are at
 * most this many elements' bytes. */
#define PIECE ((size_t)1 << 20)

/* Reduces elements lo..lo+m-1 of the array at L->src (scan 0) into *out,
 * or scans them into dst from seed (NULL: none), inclusive (scan 1) or
 * exclusive (2), as tupc_red_walk does (coll/reduce_types.h), with every
 * stretch of another process moved in one transfer (a range over blocks
 * of 1 took a get per element), PIECE elements at a time. */
void tupc_mpi_team_walk(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                        tupc_sptr_t dst, size_t lo, size_t m, upc_op_t op, tupc_red_fn f, int scan,
                        const void *seed, union tupc_red_val *out, const char *func)
{
    const size_t T = (size_t)THREADS, es = L->es;
    struct span *ss = calloc(2 * T, sizeof *ss), *ds = ss + T;
    char *buf = malloc(2 * (m < PIECE ? m : PIECE) * es);
    if (!ss || !buf)
        tupc_fail(func, NULL, "out of memory for a reduction's pieces across processes");
    union tupc_red_val acc, part, carry;
    int any = 0;
    for (size_t at = lo, end = lo + m; at < end;) {
        const size_t k = end - at < PIECE ? end - at : PIECE;
        memset(ss, 0, 2 * T * sizeof *ss);
        const size_t sb = spans(L, L->src, at, k, ss);
        if (scan)
            (void)spans(L, dst, at, k, ds);
        move_spans(ss, buf, 0);
        /* Exclusive without a seed: element lo keeps what dst held. */
        move_spans(ds, buf + sb, !(scan == 2 && !seed) ? -1 : 0);
        tupc_sptr_t s = tupc_ptr_add(L->src, (ptrdiff_t)at, L->B, es);
        tupc_sptr_t d = scan ? tupc_ptr_add(dst, (ptrdiff_t)at, L->B, es) : dst;
        for (size_t left = k, r; left; left -= r) {
            r = tupc_red_run(L, s, left);
            if (scan) {
                size_t rd = tupc_red_run(L, d, r);
                r = rd < r ? rd : r;
                ty->scan(op, f, here(ds, d), here(ss, s), r, seed, scan == 2, &carry);
                seed = &carry;
                d = r < left ? tupc_ptr_add(d, (ptrdiff_t)r, L->B, es) : d;
            } else {
                ty->reduce(op, f, here(ss, s), r, any ? &part : &acc);
                if (any)
                    ty->combine(op, f, &acc, &part);
                any = 1;
            }
            s = r < left ? tupc_ptr_add(s, (ptrdiff_t)r, L->B, es) : s;
        }
        if (scan)
            move_spans(ds, buf + sb, 1);
        at += k;
    }
    if (!scan)
        memcpy(out, &acc, es);
    free(buf);
    free(ss);
}

/* Member r reduces the r-th of n balanced index ranges; the partials go to
 * every member in rank order, which is index order (UPC_NONCOMM_FUNC
 * holds): a reduction's dst holder (rank 0 where no member holds dst)
 * combines them, each member of a reduce_all combines them alike (the
 * same bits) into its own element, and each member of a prefix reduction
 * the partials before its own, from which it scans its range. */
void tupc_mpi_team_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty, int what,
                          tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                          size_t blk_size, void (*fn)(void), int in_place, int excl)
{
    struct tcall k;
    begin(c, &k);
    (void)in_place; /* dst is src: each range is reduced before it is scanned */
    const tupc_red_fn f = (tupc_red_fn)fn;
    const int n = k.t->n, me = k.me;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, 0);
    size_t lo, m;
    tupc_red_range_of(nelems, n, me, &lo, &m);
    struct tupc_hier_pair mine;
    memset(&mine, 0, sizeof mine);
    if (m) {
        tupc_mpi_team_walk(ty, &L, dst, lo, m, op, f, 0, NULL, &mine.v, c->func);
        mine.has = 1;
    }
    const uint32_t s = ++k.g->m[k.li].seq;
    const struct tupc_hier_pair *all =
        tupc_mpi_team_allgather(k.g, k.li, s, &mine, sizeof mine, c->func);
    union tupc_red_val acc;
    int any = 0;
    for (int r = 0; r < (what == 1 ? me : n); r++) {
        if (!all[r].has)
            continue;
        if (any)
            ty->combine(op, f, &acc, &all[r].v);
        else
            memcpy(&acc, &all[r].v, ty->size);
        any = 1;
    }
    tupc_mpi_team_done(k.g, k.li, s);
    if (what == 0) {
        const int holder = k.t->rank[dst.thread];
        if (me == (holder >= 0 ? holder : 0) && any)
            store((int)dst.thread, dst.addr, &acc, ty->size);
    } else if (what == 2) {
        if (any)
            memcpy(tupc_red_dst_of(dst, tupc_impl_mythread), &acc, ty->size);
    } else if (m) {
        tupc_mpi_team_walk(ty, &L, dst, lo, m, op, f, excl ? 2 : 1, any ? &acc : NULL, NULL,
                           c->func);
    }
    end(c, &k);
}
