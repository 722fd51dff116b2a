/* Scatter, gather, gather_all, exchange and permute across processes in two phases
 * (hier.h): the leader reads its process's threads' src blocks in place
 * (a small gather's threads leave theirs in slots of their own), the
 * leaders move them in one MPI collective (MPI_Scatter, MPI_Gather,
 * MPI_Allgather, MPI_Alltoall; a permute's below), and each thread copies
 * its dst from the leader's buffer once `ready` says the call's data is in
 * place. Larger calls copy less: a gather's and a permute's MPI call reads
 * the src blocks where they lie, an exchange's and a permute's writes the
 * dst blocks where they go, a gather_all's lands in the leader's own dst
 * (the thresholds below say where and why).
 *
 * The sync modes, with no more waiting than the data needs:
 *  - IN_MYSYNC: the leader reads a thread's src only after that thread's
 *    entry (its own process's threads: no barrier of every thread);
 *  - OUT_MYSYNC: a thread whose src the leader reads returns after
 *    `ready` (a gather's after `taken`), which the leader sets after its
 *    reads; a thread returns once its own dst is written, which it writes
 *    itself;
 *  - IN_ALLSYNC and OUT_ALLSYNC: a barrier of every thread.
 * Under OUT_NOSYNC a thread whose src is still to be read may return: the
 * leader reads it before it leaves the call, so before any barrier after
 * which the thread may write it.
 *
 * With one thread per process (`alone`) the leader's MPI call reads src
 * and writes dst in place, with no buffer: a 16 MiB scatter at 4 x 1 took
 * 3.6 times MPI_Scatter through the buffer. */
#include "mpi/hier.h"
#include "mpi/layer.h"

#include "check/error.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

/* Block i of an area at the same offset in every partition. */
static char *block(tupc_sptr_t p, int i)
{
    return p.addr + (size_t)i * tupc_impl_partition_size;
}

/* The end of a gather for a thread that did not wait for `ready`: under
 * OUT_MYSYNC its src may still be read, until `taken` says that its block
 * is in the leader's buffer (or, past TUPC_HIER_GATHER_DIRECT, that the MPI call
 * has read it), not until the MPI call is done (`ready`): a thread that
 * waited for the call was late for the next, and the 8-byte gather at 2
 * x 2 paid a nap per call. */
static void leave_read(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s)
{
    if (c->out == TUPC_MYSYNC && me != &tupc_hier_.m[0]) /* the leader read them */
        tupc_wait_peer(&tupc_hier_.taken, s, tupc_first_thread_, c->func);
    tupc_hier_leave(c, me, s);
}

void tupc_mpi_scatter(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                      size_t nbytes)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const int L = tupc_local_threads_, li = MYTHREAD - tupc_first_thread_;
    const int root = tupc_mpi_rank_of(src.thread);
    const size_t n = (size_t)L * nbytes; /* this process's blocks */
    const int alone = L == 1;
    if (li == 0) {
        const int k = tupc_hier_count(c->func, n);
        char *buf = alone ? block(dst, MYTHREAD) : tupc_hier_buffer(c->func, s, 0, n);
        if (root == tupc_mpi_rank_) {
            tupc_hier_wait_entered(c, (int)(src.thread - (uint32_t)tupc_first_thread_), s);
            tupc_mpi_sync(); /* puts from other processes into src, in this process's view */
        }
        /* src's blocks in thread order: process q's are q * n on. */
        TUPC_HIER_CALL(
            MPI_Scatter(src.addr, k, MPI_BYTE, buf, k, MPI_BYTE, root, tupc_hier_.comm),
            MPI_Iscatter(src.addr, k, MPI_BYTE, buf, k, MPI_BYTE, root, tupc_hier_.comm, &r_),
            c->func);
        tupc_word_set(&tupc_hier_.ready, s); /* release: the bytes */
    }
    tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    if (!alone)
        memcpy(block(dst, MYTHREAD), tupc_hier_buffer_of(s, 0, n) + (size_t)li * nbytes, nbytes);
    tupc_hier_leave(c, me, s);
}

/* A small gather (blocks of up to TUPC_HIER_SMALL bytes, more than one
 * thread per process): each thread other than the leader copies its block
 * into a slot of its own and leaves, as a reduction's thread leaves its
 * partial, so that it does not wait for its leader to read its src (at 2 x
 * 2 on 2 CPUs the 8-byte gather cost each thread a switch per call that
 * way); it waits only for the leader to be done with the call that last
 * used the slot. */
static int gather_puts(size_t nbytes)
{
    return tupc_local_threads_ > 1 && nbytes <= TUPC_HIER_SMALL;
}

/* A gather of more than TUPC_HIER_GATHER_DIRECT bytes a process, with more
 * than one thread a process, sends the threads' src blocks where they lie;
 * a smaller one packs them, so that its threads leave once they are read
 * (`taken`), not once the MPI call is done. At 2 x 2 the packed gather
 * took 12 us against 10 at 4 KiB a process, 18-19 against 11 at 32 KiB,
 * 143-155 against 69-79 at 512 KiB, 2.0-2.5 ms against 1.0-1.3 at 8 MiB;
 * equal at 2 KiB and below. */

void tupc_mpi_gather(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const int L = tupc_local_threads_, li = MYTHREAD - tupc_first_thread_;
    const int root = tupc_mpi_rank_of(dst.thread), puts = gather_puts(nbytes);
    const size_t n = (size_t)L * nbytes;
    if (puts && li != 0) {
        /* Acquire: the leader's reads of this slot in call s - SLOTS come
         * before its `ready` for that call, and so before our overwrite. */
        tupc_wait_peer(&tupc_hier_.ready, s - TUPC_HIER_SLOTS, tupc_first_thread_, c->func);
        memcpy(me->small[s % TUPC_HIER_SLOTS], block(src, MYTHREAD), nbytes);
        tupc_word_set(&me->put, s); /* release: the block */
    }
    if (li == 0) {
        const int k = tupc_hier_count(c->func, n);
        char *buf = block(src, MYTHREAD);
        MPI_Datatype from = MPI_BYTE;
        int cnt = k;
        if (L > 1 && !puts && n > TUPC_HIER_GATHER_DIRECT) {
            /* MPI reads the threads' src blocks where they lie, L blocks
             * one partition apart, rather than the leader alone packing
             * them. */
            for (int j = 1; j < L; j++)
                tupc_hier_wait_entered(c, j, s);
            from = tupc_hier_local_blocks(c->func, nbytes);
            cnt = 1;
        } else if (L > 1) {
            buf = tupc_hier_buffer(c->func, s, 0, n);
            memcpy(buf, block(src, MYTHREAD), nbytes);
            for (int j = 1; j < L; j++) {
                const int t = tupc_first_thread_ + j;
                if (puts) { /* acquire: the block, put before `put` */
                    tupc_wait_peer(&tupc_hier_.m[j].put, s, t, c->func);
                    memcpy(buf + (size_t)j * nbytes, tupc_hier_.m[j].small[s % TUPC_HIER_SLOTS],
                           nbytes);
                } else {
                    tupc_hier_wait_entered(c, j, s);
                    memcpy(buf + (size_t)j * nbytes, block(src, t), nbytes);
                }
            }
            /* Release: the reads above, before a thread overwrites its src. */
            if (!puts)
                tupc_word_set(&tupc_hier_.taken, s);
        }
        /* The root's process receives into dst itself, in thread order. */
        TUPC_HIER_CALL(
            MPI_Gather(buf, cnt, from, dst.addr, k, MPI_BYTE, root, tupc_hier_.comm),
            MPI_Igather(buf, cnt, from, dst.addr, k, MPI_BYTE, root, tupc_hier_.comm, &r_),
            c->func);
        if (from != MPI_BYTE) {
            MPI_Type_free(&from);
            tupc_word_set(&tupc_hier_.taken, s); /* release: MPI's reads of the src blocks */
        }
        tupc_word_set(&tupc_hier_.ready, s); /* release: dst, and the slots read */
    }
    if ((uint32_t)MYTHREAD == dst.thread && c->out != TUPC_NOSYNC) /* its dst is written */
        tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    if (puts)
        tupc_hier_leave(c, me, s); /* its src was read by itself */
    else
        leave_read(c, me, s);
}

void tupc_mpi_gather_all(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                         size_t nbytes)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const int L = tupc_local_threads_, li = MYTHREAD - tupc_first_thread_;
    const size_t all = (size_t)THREADS * nbytes;
    const int ring = all <= TUPC_HIER_STAGE;
    if (li == 0) {
        const int k = tupc_hier_count(c->func, (size_t)L * nbytes);
        if (L == 1) {
            TUPC_HIER_CALL(MPI_Allgather(block(src, MYTHREAD), k, MPI_BYTE, block(dst, MYTHREAD), k,
                                         MPI_BYTE, tupc_hier_.comm),
                           MPI_Iallgather(block(src, MYTHREAD), k, MPI_BYTE, block(dst, MYTHREAD),
                                          k, MPI_BYTE, tupc_hier_.comm, &r_),
                           c->func);
            tupc_hier_leave(c, me, s);
            return;
        }
        /* Past TUPC_HIER_STAGE the bytes arrive in the leader's own dst,
         * which its threads copy; the leader returns once they have. */
        if (!ring)
            tupc_hier_wait_done(c->func, s - 1); /* its dst: read until done */
        char *buf = ring ? tupc_hier_buffer(c->func, s, 0, all) : block(dst, MYTHREAD);
        for (int j = 0; j < L; j++) {
            tupc_hier_wait_entered(c, j, s);
            memcpy(buf + (size_t)(tupc_first_thread_ + j) * nbytes,
                   block(src, tupc_first_thread_ + j), nbytes);
        }
        TUPC_HIER_CALL(
            MPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, buf, k, MPI_BYTE, tupc_hier_.comm),
            MPI_Iallgather(MPI_IN_PLACE, 0, MPI_BYTE, buf, k, MPI_BYTE, tupc_hier_.comm, &r_),
            c->func);
        tupc_word_set(&tupc_hier_.ready, s); /* release: the bytes */
    }
    tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    if (ring)
        memcpy(block(dst, MYTHREAD), tupc_hier_buffer_of(s, 0, all), all);
    else if (li != 0)
        memcpy(block(dst, MYTHREAD), block(dst, tupc_first_thread_), all);
    if (!ring && li == 0) /* its threads copy from its dst */
        tupc_hier_wait_done(c->func, s);
    tupc_hier_leave(c, me, s);
}

/* An exchange with L > 1 threads a process, not in place, of at least
 * TUPC_HIER_EXCHANGE_DIRECT bytes a process, in L MPI_Alltoall calls
 * without a copy of tupc's: in call a, thread a of each process sends its
 * src as it lies (blocks q * L .. q * L + L - 1 to process q), and each
 * process receives them straight into its threads' dst blocks (those of
 * process p, a: block p * L + a of dst of thread b, for every b:
 * tupc_hier_local_blocks). Through the leader's buffers (a copy in and a
 * copy out of every byte) at 2 x 2, a process's bytes: 32 MiB took 11.8-12.8
 * ms against 4.1 this way, 128 KiB 53-56 us against 27-28, 8 KiB 14.0-14.6
 * against 10.7-11.2; at 2 KiB and less the one MPI call was faster (7.9
 * against 9.5). */
static void exchange_direct(const struct tupc_mpi_call *c, struct tupc_hier_member *me, uint32_t s,
                            tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes)
{
    const int L = tupc_local_threads_, first = tupc_first_thread_;
    if (me == &tupc_hier_.m[0]) {
        const int k = tupc_hier_count(c->func, (size_t)L * nbytes);
        MPI_Datatype blocks = tupc_hier_local_blocks(c->func, nbytes);
        for (int j = 1; j < L; j++) /* every dst is written, every src read */
            tupc_hier_wait_entered(c, j, s);
        for (int a = 0; a < L; a++) {
            char *from = block(src, first + a), *to = block(dst, first) + (size_t)a * nbytes;
            TUPC_HIER_CALL(MPI_Alltoall(from, k, MPI_BYTE, to, 1, blocks, tupc_hier_.comm),
                           MPI_Ialltoall(from, k, MPI_BYTE, to, 1, blocks, tupc_hier_.comm, &r_),
                           c->func);
        }
        MPI_Type_free(&blocks);
        tupc_word_set(&tupc_hier_.ready, s); /* release: every dst; every src is read */
    }
    tupc_wait_peer(&tupc_hier_.ready, s, first, c->func);
    tupc_hier_leave(c, me, s);
}

/* Thread a of process p sends block q * L + b of its src to thread b of
 * process q: the leaders' buffers hold, per process, L * L blocks [a][b]. */
void tupc_mpi_exchange(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                       size_t nbytes, int in_place)
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const int L = tupc_local_threads_, li = MYTHREAD - tupc_first_thread_;
    const int P = THREADS / L;
    const size_t chunk = (size_t)L * (size_t)L * nbytes, all = (size_t)P * chunk;
    if (L == 1 && !in_place) { /* src's blocks in dst's order, dst's in src's */
        const int k = tupc_hier_count(c->func, chunk);
        TUPC_HIER_CALL(MPI_Alltoall(block(src, MYTHREAD), k, MPI_BYTE, block(dst, MYTHREAD), k,
                                    MPI_BYTE, tupc_hier_.comm),
                       MPI_Ialltoall(block(src, MYTHREAD), k, MPI_BYTE, block(dst, MYTHREAD), k,
                                     MPI_BYTE, tupc_hier_.comm, &r_),
                       c->func);
        tupc_hier_leave(c, me, s);
        return;
    }
    if (L > 1 && !in_place && all >= TUPC_HIER_EXCHANGE_DIRECT) {
        exchange_direct(c, me, s, dst, src, nbytes);
        return;
    }
    if (li == 0) {
        const int k = tupc_hier_count(c->func, chunk);
        char *out = tupc_hier_buffer(c->func, s, 0, all);
        char *in = tupc_hier_buffer(c->func, s, 1, all);
        for (int a = 0; a < L; a++) {
            tupc_hier_wait_entered(c, a, s);
            const char *from = block(src, tupc_first_thread_ + a);
            for (int q = 0; q < P; q++)
                for (int b = 0; b < L; b++)
                    memcpy(out + (size_t)q * chunk + ((size_t)a * (size_t)L + (size_t)b) * nbytes,
                           from + ((size_t)q * (size_t)L + (size_t)b) * nbytes, nbytes);
        }
        TUPC_HIER_CALL(MPI_Alltoall(out, k, MPI_BYTE, in, k, MPI_BYTE, tupc_hier_.comm),
                       MPI_Ialltoall(out, k, MPI_BYTE, in, k, MPI_BYTE, tupc_hier_.comm, &r_),
                       c->func);
        /* Release: the bytes, and (in place) that every src is read. */
        tupc_word_set(&tupc_hier_.ready, s);
    }
    tupc_wait_peer(&tupc_hier_.ready, s, tupc_first_thread_, c->func);
    const char *in = tupc_hier_buffer_of(s, 1, all);
    char *mine = block(dst, MYTHREAD);
    for (int p = 0; p < P; p++)
        for (int a = 0; a < L; a++)
            memcpy(mine + ((size_t)p * (size_t)L + (size_t)a) * nbytes,
                   in + (size_t)p * chunk + ((size_t)a * (size_t)L + (size_t)li) * nbytes, nbytes);
    tupc_hier_leave(c, me, s);
}

/* Permute: the leaders gather perm (one int per thread, MPI_Allgather),
 * check it alike, and send each block to its target's process, a message
 * a block from src to dst as they lie (perm_messages; in place, packed in
 * MPI_Alltoallv: process p's blocks to process q in thread order), or for
 * a small one both in one MPI_Alltoall (perm_small); with one thread a
 * process and a mid-sized block, the block leaves during the gather
 * (perm_early). A bad perm is found by every leader alike, and every thread
 * returns it (bad[]) for the caller's message. */

int tupc_hier_perm_check(const int *p, int n, int *from, int bad[3])
{
    for (int i = 0; i < n; i++)
        from[i] = -1;
    for (int i = 0; i < n; i++) {
        if (p[i] < 0 || p[i] >= n || from[p[i]] >= 0) {
            bad[0] = i;
            bad[1] = p[i];
            bad[2] = p[i] < 0 || p[i] >= n ? -1 : from[p[i]];
            return -1;
        }
        from[p[i]] = i;
    }
    return 0;
}

/* The plan's perm array (room for every thread's entry and perm_check's
 * scratch) with this process's threads' entries in place, each read after
 * its thread's entry (perm and src are read only then). */
static int *perm_read_mine(const struct tupc_mpi_call *c, uint32_t s, tupc_sptr_t perm)
{
    const int L = tupc_local_threads_, T = THREADS, first = tupc_first_thread_;
    int *p = realloc(tupc_hier_.plan.perm, sizeof *p * (size_t)T * 2);
    if (!p)
        tupc_fail(c->func, NULL, "out of memory for a permutation of %d threads", T);
    tupc_hier_.plan.perm = p;
    for (int j = 0; j < L; j++) {
        tupc_hier_wait_entered(c, j, s);
        p[first + j] = *(const int *)block(perm, first + j);
    }
    return p;
}

/* Permute call s's plan, made by the leader once its threads are done
 * with the last call's (tupc_hier_wait_done): every thread's perm entry in
 * plan.perm (each of ours read after its thread's entry, then
 * MPI_Allgather), checked into plan.ok and plan.bad, and where it is good
 * and cnt is not NULL (the packed path's; the messages need none, nor
 * its limit of L x nbytes a process) cnt's four P-arrays: the bytes to and
 * from each process and their displacements (sc, sd, rc, rd), packed by
 * target process, then by source thread. */
static int perm_plan(const struct tupc_mpi_call *c, uint32_t s, tupc_sptr_t perm, size_t nbytes,
                     int *cnt)
{
    const int L = tupc_local_threads_, T = THREADS, P = T / L, first = tupc_first_thread_;
    int *p = perm_read_mine(c, s, perm);
    TUPC_HIER_CALL(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, p, L, MPI_INT, tupc_hier_.comm),
                   MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, p, L, MPI_INT, tupc_hier_.comm, &r_),
                   c->func);
    tupc_hier_.plan.ok = tupc_hier_perm_check(p, T, p + T, tupc_hier_.plan.bad) == 0;
    if (!tupc_hier_.plan.ok || !cnt)
        return tupc_hier_.plan.ok;
    int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
    /* A process sends and receives L blocks: every count and displacement
     * below is at most L * nbytes, an int once this holds. */
    (void)tupc_hier_count(c->func, (size_t)L * nbytes);
    const int k = tupc_hier_count(c->func, nbytes);
    for (int q = 0; q < P; q++)
        sc[q] = rc[q] = 0;
    for (int i = 0; i < T; i++) {
        if (i / L == first / L)
            sc[p[i] / L] += k; /* ours, to p[i]'s process */
        if (p[i] / L == first / L)
            rc[i / L] += k; /* to ours, from i's process */
    }
    for (int q = 0; q < P; q++) {
        sd[q] = q ? sd[q - 1] + sc[q - 1] : 0;
        rd[q] = q ? rd[q - 1] + rc[q - 1] : 0;
    }
    return 1;
}

/* The process's src blocks into out as the plan lays them (sd moves and
 * is put back). */
static void perm_pack(char *out, tupc_sptr_t src, int *cnt, size_t nbytes)
{
    const int L = tupc_local_threads_, P = THREADS / L, first = tupc_first_thread_;
    int *sc = cnt, *sd = cnt + P;
    for (int j = 0; j < L; j++) {
        int q = tupc_hier_.plan.perm[first + j] / L;
        memcpy(out + sd[q], block(src, first + j), nbytes);
        sd[q] += (int)nbytes;
    }
    for (int q = 0; q < P; q++)
        sd[q] -= sc[q];
}

/* The blocks received into in (from each process in source-thread order)
 * to their targets' dst blocks: copied now, or by job (rd moves and is put
 * back). */
static void perm_unpack(tupc_sptr_t dst, const char *in, int *cnt, size_t nbytes, void *job)
{
    const int L = tupc_local_threads_, T = THREADS, P = T / L, first = tupc_first_thread_;
    const int *p = tupc_hier_.plan.perm, *rc = cnt + 2 * P;
    int *rd = cnt + 3 * P;
    for (int i = 0; i < T; i++)
        if (p[i] / L == first / L) {
            if (job)
                tupc_hier_post_copy(job, block(dst, p[i]), in + rd[i / L], nbytes);
            else
                memcpy(block(dst, p[i]), in + rd[i / L], nbytes);
            rd[i / L] += (int)nbytes;
        }
    for (int q = 0; q < P; q++)
        rd[q] -= rc[q];
}

/* A small permute in one MPI call rather than two (an 8-byte permute at 2
 * x 1 on MPICH took 2.1 times MPI_Alltoallv as MPI_Allgather of perm and
 * then MPI_Alltoallv): process p's slot for process q holds p's perm
 * entries, then p's blocks whose targets are q's threads in p's thread
 * order; one MPI_Alltoall of fixed slots gives every leader every entry,
 * so that each finds the same verdict as perm_plan, and its blocks, which
 * it writes to dst only once perm is found good. Worth it while the slots'
 * extra bytes cost less than a second collective's latency. */
static size_t perm_slot(size_t nbytes)
{
    const size_t L = (size_t)tupc_local_threads_;
    return sizeof(int) * L + L * nbytes;
}
static int perm_is_small(size_t nbytes)
{
    const size_t P = (size_t)(THREADS / tupc_local_threads_);
    return nbytes <= 1024 && perm_slot(nbytes) * (P - 1) <= 4096;
}

static void perm_small(const struct tupc_mpi_call *c, uint32_t s, tupc_sptr_t dst, tupc_sptr_t src,
                       tupc_sptr_t perm, size_t nbytes)
{
    const int L = tupc_local_threads_, T = THREADS, P = T / L, first = tupc_first_thread_;
    const size_t slot = perm_slot(nbytes);
    const int k = tupc_hier_count(c->func, slot);
    int *p = perm_read_mine(c, s, perm), *mine = p + first;
    char *out = tupc_hier_buffer(c->func, s, 0, slot * (size_t)P),
         *in = tupc_hier_buffer(c->func, s, 1, slot * (size_t)P);
    for (int q = 0; q < P; q++) {
        char *o = out + (size_t)q * slot, *b = o + sizeof(int) * (size_t)L;
        memcpy(o, mine, sizeof(int) * (size_t)L);
        for (int j = 0; j < L; j++)
            if (mine[j] >= 0 && mine[j] < T && mine[j] / L == q) {
                memcpy(b, block(src, first + j), nbytes);
                b += nbytes;
            }
        memset(b, 0, (size_t)(o + slot - b)); /* sent too: no bytes left unset */
    }
    TUPC_HIER_CALL(MPI_Alltoall(out, k, MPI_BYTE, in, k, MPI_BYTE, tupc_hier_.comm),
                   MPI_Ialltoall(out, k, MPI_BYTE, in, k, MPI_BYTE, tupc_hier_.comm, &r_), c->func);
    for (int q = 0; q < P; q++)
        memcpy(p + q * L, in + (size_t)q * slot, sizeof(int) * (size_t)L);
    tupc_hier_.plan.ok = tupc_hier_perm_check(p, T, p + T, tupc_hier_.plan.bad) == 0;
    if (!tupc_hier_.plan.ok)
        return; /* nothing written */
    for (int q = 0; q < P; q++) {
        const char *b = in + (size_t)q * slot + sizeof(int) * (size_t)L;
        for (int i = q * L; i < (q + 1) * L; i++)
            if (p[i] / L == first / L) {
                memcpy(block(dst, p[i]), b, nbytes);
                b += nbytes;
            }
    }
}

/* A permute's blocks as messages, not in place, perm found good: each
 * thread's src block here to its target's process, each thread's dst block
 * here from its source's, tagged TUPC_HIER_PAIR_TAG + the sender's index in
 * its process, so that a process's blocks to another are told apart and
 * each lands where it goes, with no type and no copy of tupc's. The leader
 * posts every call's messages in call order (blocking and posted calls
 * alike), so MPI's in-order matching pairs them call by call. r: room for
 * 2L requests, all posted.
 *
 * Before, one MPI_Alltoallw of hindexed types over the blocks where they
 * lie (past 8 KiB a process; the leader packed and unpacked below that),
 * and with one thread a process MPI_Alltoallv. At 2 x 2 (each thread's
 * block a quarter of the size; a loop of MY|MY calls, us per call), Open
 * MPI: 1 MiB 85-87 -> 36-40, 16 MiB 1231-1453 -> 382-469; MPICH: 256 KiB
 * 49-56 -> 21-26, 1 MiB 157-161 -> 29-40, 16 MiB 2614-2684 -> 327-440,
 * 8-64 KiB within the runs' spread (the types' packing was the cost). At
 * 4 x 1 with Open MPI, 64 KiB: 1.63-1.74 times the raw MPI_Alltoallv ->
 * 1.33-1.55 (most of the rest is perm's MPI_Allgather, perm_early). */
static void perm_messages(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                          size_t nbytes, MPI_Request *r)
{
    const int L = tupc_local_threads_, first = tupc_first_thread_, tag = TUPC_HIER_PAIR_TAG;
    const int *p = tupc_hier_.plan.perm, *from = p + THREADS; /* perm_check's inverse */
    const int k = tupc_hier_count(c->func, nbytes);
    for (int j = 0; j < L; j++) {
        const int i = from[first + j];
        MPI_Irecv(block(dst, first + j), k, MPI_BYTE, i / L, tag + i % L, tupc_hier_.comm, &r[j]);
    }
    for (int j = 0; j < L; j++)
        MPI_Isend(block(src, first + j), k, MPI_BYTE, p[first + j] / L, tag + j, tupc_hier_.comm,
                  &r[L + j]);
}

/* Whether a permute's blocks go as perm_messages: not in place, and MPI's
 * tags reach the L senders' (else they are packed, MPI_Alltoallv). */
static int perm_by_messages(int in_place)
{
    return !in_place && tupc_hier_.tag_ub >= TUPC_HIER_PAIR_TAG + tupc_local_threads_;
}

/* perm_messages, blocking. */
static void perm_messages_now(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                              size_t nbytes)
{
    const int n = 2 * tupc_local_threads_;
    MPI_Request *r = malloc(sizeof *r * (size_t)n);
    if (!r)
        tupc_fail(c->func, NULL, "out of memory for a permutation of %d threads", THREADS);
    perm_messages(c, dst, src, nbytes, r);
    tupc_hier_wait_all(r, n, c->func);
    free(r);
}

/* One thread a process, not in place, a mid-sized block (past perm_small,
 * up to PERM_EARLY): the block leaves for its target as soon as the thread
 * has read its own entry, while MPI_Allgather brings perm's others, and
 * lands in a buffer that is copied to dst once perm is found good (dst is
 * not written before), rather than leaving after perm's gather. Its
 * message is tagged with the call's number (s % TUPC_HIER_TAGS) and taken
 * from any process: only permutes send point to point on tupc_hier_.comm
 * (perm_messages' tags start at TUPC_HIER_TAGS), every call takes exactly
 * the messages sent to it, and another call's could match only if its
 * sender were 32768 calls ahead with this one's still in flight. With a
 * bad perm, each process takes every block sent to it and drops it, so
 * that no message is left behind, and every process finds the same
 * verdict. A 64 KiB permute at 4 x 1 (Open MPI): 1.50-1.56 times the raw MPI_Alltoallv as a pair
 * after the gather, 1.33-1.40 so; at 2 x 1 (MPICH) 0.94-0.99 either way. */
enum { PERM_EARLY = 128 << 10 };
static void perm_early(const struct tupc_mpi_call *c, uint32_t s, tupc_sptr_t dst, tupc_sptr_t src,
                       tupc_sptr_t perm, size_t nbytes)
{
    const int T = THREADS, me = tupc_first_thread_, tag = (int)(s % TUPC_HIER_TAGS);
    const int k = tupc_hier_count(c->func, nbytes);
    int *p = perm_read_mine(c, s, perm);
    const int to = p[me], sends = to >= 0 && to < T;
    char *in = tupc_hier_buffer(c->func, s, 1, nbytes);
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(in, k, MPI_BYTE, MPI_ANY_SOURCE, tag, tupc_hier_.comm, &r[0]);
    if (sends)
        MPI_Isend(block(src, me), k, MPI_BYTE, to, tag, tupc_hier_.comm, &r[1]);
    TUPC_HIER_CALL(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, p, 1, MPI_INT, tupc_hier_.comm),
                   MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, p, 1, MPI_INT, tupc_hier_.comm, &r_),
                   c->func);
    tupc_hier_.plan.ok = tupc_hier_perm_check(p, T, p + T, tupc_hier_.plan.bad) == 0;
    int sent_here = 0; /* the blocks sent to this process: one when perm is good */
    for (int i = 0; i < T; i++)
        sent_here += p[i] == me;
    if (sent_here == 0) { /* perm is bad: nothing comes */
        MPI_Cancel(&r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    } else {
        tupc_hier_finish(&r[0], c->func);
    }
    for (int n = 1; n < sent_here; n++) { /* perm is bad: drop the others */
        MPI_Irecv(in, k, MPI_BYTE, MPI_ANY_SOURCE, tag, tupc_hier_.comm, &r[0]);
        tupc_hier_finish(&r[0], c->func);
    }
    if (sends)
        tupc_hier_finish(&r[1], c->func);
    if (tupc_hier_.plan.ok)
        memcpy(block(dst, me), in, nbytes);
}

int tupc_mpi_permute(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                     tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3])
{
    struct tupc_hier_member *me = tupc_hier_me();
    const uint32_t s = tupc_hier_enter(c, me);
    const int L = tupc_local_threads_, P = THREADS / L, first = tupc_first_thread_;
    /* Not in place, MPI sends src and receives into dst as they lie
     * (perm_messages; one thread a process and mid-sized, perm_early); in
     * place, every block is packed before any dst is written. */
    const int direct = L == 1 && !in_place;
    if (tupc_impl_mythread == first && perm_is_small(nbytes)) {
        tupc_hier_wait_done(c->func, s - 1); /* as below */
        perm_small(c, s, dst, src, perm, nbytes);
        tupc_word_set(&tupc_hier_.ready, s);     /* release: dst, the verdict; every src is read */
    } else if (direct && nbytes <= PERM_EARLY) { /* the one thread here is the leader */
        tupc_hier_wait_done(c->func, s - 1);
        perm_early(c, s, dst, src, perm, nbytes);
        tupc_word_set(&tupc_hier_.ready, s); /* release: dst, the verdict; src is read */
    } else if (tupc_impl_mythread == first) {
        /* The plan's arrays, once every thread has read the last call's. */
        tupc_hier_wait_done(c->func, s - 1);
        const int msgs = perm_by_messages(in_place);
        int *cnt = msgs ? NULL : realloc(tupc_hier_.plan.cnt, sizeof *cnt * (size_t)P * 4);
        if (!msgs && !cnt)
            tupc_fail(c->func, NULL, "out of memory for a permutation of %d threads", THREADS);
        if (cnt)
            tupc_hier_.plan.cnt = cnt;
        if (perm_plan(c, s, perm, nbytes, cnt) && msgs) {
            perm_messages_now(c, dst, src, nbytes);
        } else if (tupc_hier_.plan.ok) { /* in place: every block packed first */
            const int *sc = cnt, *sd = cnt + P, *rc = cnt + 2 * P, *rd = cnt + 3 * P;
            const size_t bytes = (size_t)L * nbytes;
            char *out = tupc_hier_buffer(c->func, s, 0, bytes),
                 *in = tupc_hier_buffer(c->func, s, 1, bytes);
            perm_pack(out, src, cnt, nbytes);
            TUPC_HIER_CALL(
                MPI_Alltoallv(out, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, tupc_hier_.comm),
                MPI_Ialltoallv(out, sc, sd, MPI_BYTE, in, rc, rd, MPI_BYTE, tupc_hier_.comm, &r_),
                c->func);
            perm_unpack(dst, in, cnt, nbytes, NULL);
        }
        tupc_word_set(&tupc_hier_.ready, s); /* release: dst, the verdict; every src is read */
    }
    tupc_wait_peer(&tupc_hier_.ready, s, first, c->func);
    int ok = tupc_hier_.plan.ok;
    if (!ok)
        memcpy(bad, tupc_hier_.plan.bad, sizeof tupc_hier_.plan.bad);
    tupc_hier_leave(c, me, s);
    return ok ? 0 : -1;
}

/* Posted (hier_post.c's posting): the plan at posting, then, not in place,
 * the blocking call's messages (perm_messages: 16 MiB at 2 x 2, comm time
 * against the raw MPI_Ialltoallv 0.66-0.79 -> 0.33-0.36 with Open MPI,
 * 1.50-1.66 -> 0.37-0.48 with MPICH, where MPI_Ialltoallw of hindexed types
 * was posted), the job waiting for them; in
 * place, MPI_Ialltoallv from the post's buffer, whose head holds the counts
 * MPI reads until it completes, into the post's buffer, and the job copies
 * the received blocks to their dst. Only the leader learns the verdict, in
 * time to refuse the call before it posts. */
uint32_t tupc_mpi_permute_post(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                               tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3],
                               void **job)
{
    struct tupc_hier_member *me = tupc_hier_me();
    uint32_t s, p;
    *job = NULL;
    if (tupc_hier_post_enter(c, me, &s, &p)) {
        const int L = tupc_local_threads_, P = THREADS / L;
        const int msgs = perm_by_messages(in_place);
        const size_t head = sizeof(int) * 4 * (size_t)P, bytes = (size_t)L * nbytes;
        void *j = msgs ? tupc_hier_post_job_reqs(c->func, p, tupc_mpi_post_word(p), 0, 2 * L)
                       : tupc_hier_post_job_new(c->func, p, tupc_mpi_post_word(p), L);
        if (!msgs) /* refused by its count, not by a failed allocation of it */
            (void)tupc_hier_count(c->func, bytes);
        char *own = msgs ? NULL : tupc_hier_post_own(j, c->func, head + 2 * bytes);
        int *cnt = (int *)(void *)own;
        if (!perm_plan(c, s, perm, nbytes, cnt)) {
            memcpy(bad, tupc_hier_.plan.bad, sizeof tupc_hier_.plan.bad);
            return 0; /* refused: the run ends */
        }
        if (msgs) { /* every thread here has entered (perm_plan waited) */
            perm_messages(c, dst, src, nbytes, tupc_hier_post_request(j));
        } else {
            char *out = own + head, *in = own + head + bytes;
            perm_pack(out, src, cnt, nbytes);
            perm_unpack(dst, in, cnt, nbytes, j);
            MPI_Ialltoallv(out, cnt, cnt + P, MPI_BYTE, in, cnt + 2 * P, cnt + 3 * P, MPI_BYTE,
                           tupc_hier_.comm, tupc_hier_post_request(j));
        }
        *job = j;
    }
    tupc_hier_post_leave(c, me, s);
    return p;
}
