/* The six 1.3 relocalizations on a team (tupc extensions): tupc_team_broadcast,
 * _scatter, _gather, _gather_all, _exchange and _permute.
 *
 * Each is its 1.3 namesake with THREADS read as the team's size n and
 * "thread i" as "rank i". The areas are the 1.3 ones: a pointer with
 * affinity to thread 0 designates one block in every partition at the same
 * offset (an array from upc_all_alloc), and the block of rank r is the one
 * in the partition of the thread of rank r, so one array serves every team
 * at once. The root areas (broadcast's and scatter's src, gather's dst) are
 * n blocks in one partition, block r at r * nbytes; gather_all's dst and
 * exchange's src and dst hold n blocks per member thread. permute's perm is
 * a shared int array of THREADS entries, block size 1: the entry of the
 * thread of rank r holds r's target rank. On UPC_TEAM_ALL each calls the
 * 1.3 function.
 *
 * Work is spread as in 1.3: each member pulls into its own blocks, except
 * permute, which pushes. OUT_MYSYNC: the root (broadcast, scatter, gather)
 * waits for every member and the others for nobody; gather_all and exchange
 * meet in a barrier; permute waits for every member. */
#include "coll/reloc.h"

#include <upc_collective_ext.h>

/* Starts call c on team t; returns the caller's rank. */
static int enter(struct tupc_coll *c, const char *func, upc_flag_t flags, struct tupc_team *t,
                 uint64_t sig, enum tupc_sync in, enum tupc_sync out)
{
    tupc_coll_begin_team(c, t, func, flags, in, out, sig);
    return c->self->me;
}

static struct tupc_team *start(const char *func, upc_flag_t flags, upc_team_t team,
                               enum tupc_sync *in, enum tupc_sync *out)
{
    tupc_reloc_start(func, flags, in, out);
    return tupc_team_get(func, team);
}

static char *block_of(const struct tupc_team *t, tupc_sptr_t p, int r)
{
    return tupc_reloc_on(p, tupc_team_thread_of(t, r));
}

/* Leaves a rooted call (broadcast, scatter, gather). */
static void leave_rooted(const struct tupc_coll *c, int root)
{
    if (c->self->me == root)
        tupc_coll_leave_everyone(c);
    else
        tupc_coll_leave_alone(c);
}

#define SEC_OF(s) "UPC 1.3 " s ", on a team"

void tupc_team_broadcast(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags,
                         upc_team_t team)
{
    const char *F = "tupc_team_broadcast";
    if (team == UPC_TEAM_ALL) {
        upc_all_broadcast(dst, src, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.1 para 3"), nbytes);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.1 para 6"), "dst", dst, nbytes);
    (void)tupc_check_in_partition(F, "src", src, nbytes);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        F, sig, (const struct tupc_reloc_area[]){{"dst", dst, nbytes, 1}, {"src", src, nbytes, 0}},
        2);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out);
    int root = t->rank[src.thread];
    if (root >= 0)
        tupc_coll_need(&c, root);
    tupc_copy(block_of(t, dst, me), src.addr, nbytes, tupc_reloc_streams(nbytes, (size_t)t->n + 1));
    leave_rooted(&c, root);
}

void tupc_team_scatter(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags,
                       upc_team_t team)
{
    const char *F = "tupc_team_scatter";
    if (team == UPC_TEAM_ALL) {
        upc_all_scatter(dst, src, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.2 para 3"), nbytes);
    size_t total = tupc_reloc_total(F, nbytes) / (size_t)tupc_threads_ * (size_t)t->n;
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.2 para 6"), "dst", dst, nbytes);
    (void)tupc_check_in_partition(F, "src", src, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        F, sig, (const struct tupc_reloc_area[]){{"dst", dst, nbytes, 1}, {"src", src, total, 0}},
        2);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out);
    int root = t->rank[src.thread];
    if (root >= 0)
        tupc_coll_need(&c, root);
    tupc_copy(block_of(t, dst, me), src.addr + (size_t)me * nbytes, nbytes,
              tupc_reloc_streams(total, 2));
    leave_rooted(&c, root);
}

void tupc_team_gather(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags,
                      upc_team_t team)
{
    const char *F = "tupc_team_gather";
    if (team == UPC_TEAM_ALL) {
        upc_all_gather(dst, src, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.3 para 3"), nbytes);
    size_t total = tupc_reloc_total(F, nbytes) / (size_t)tupc_threads_ * (size_t)t->n;
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.3 para 6"), "src", src, nbytes);
    (void)tupc_check_in_partition(F, "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        F, sig, (const struct tupc_reloc_area[]){{"src", src, nbytes, 1}, {"dst", dst, total, 0}},
        2);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out);
    int root = t->rank[dst.thread];
    if (root >= 0)
        tupc_coll_need(&c, root);
    tupc_copy(dst.addr + (size_t)me * nbytes, block_of(t, src, me), nbytes,
              tupc_reloc_streams(total, 2));
    leave_rooted(&c, root);
}

void tupc_team_gather_all(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags,
                          upc_team_t team)
{
    const char *F = "tupc_team_gather_all";
    if (team == UPC_TEAM_ALL) {
        upc_all_gather_all(dst, src, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.4 para 3"), nbytes);
    size_t total = tupc_reloc_total(F, nbytes) / (size_t)tupc_threads_ * (size_t)t->n;
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.4 para 6"), "src", src, nbytes);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.4 para 6"), "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        F, sig, (const struct tupc_reloc_area[]){{"src", src, nbytes, 1}, {"dst", dst, total, 1}},
        2);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out), n = t->n;
    char *mine = block_of(t, dst, me);
    int stream = tupc_reloc_streams(total, (size_t)n + 1);
    for (int k = 1; k <= n; k++) {
        int j = me + k < n ? me + k : me + k - n;
        tupc_coll_need(&c, j);
        tupc_copy(mine + (size_t)j * nbytes, block_of(t, src, j), nbytes, stream);
    }
    tupc_coll_leave_symmetric(&c);
}

void tupc_team_exchange(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags,
                        upc_team_t team)
{
    const char *F = "tupc_team_exchange";
    if (team == UPC_TEAM_ALL) {
        upc_all_exchange(dst, src, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.5 para 3"), nbytes);
    size_t total = tupc_reloc_total(F, nbytes) / (size_t)tupc_threads_ * (size_t)t->n;
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.5 para 5"), "src", src, total);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.5 para 5"), "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        F, sig, (const struct tupc_reloc_area[]){{"src", src, total, 1}, {"dst", dst, total, 1}},
        2);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out), n = t->n;
    char *mine = block_of(t, dst, me);
    size_t from = (size_t)me * nbytes;
    int stream = tupc_reloc_streams(total, 2 * (size_t)n);
    for (int k = 1; k <= n; k++) {
        int j = me + k < n ? me + k : me + k - n;
        tupc_coll_need(&c, j);
        tupc_copy(mine + (size_t)j * nbytes, block_of(t, src, j) + from, nbytes, stream);
    }
    tupc_coll_leave_symmetric(&c);
}

void tupc_team_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                       upc_flag_t flags, upc_team_t team)
{
    const char *F = "tupc_team_permute";
    if (team == UPC_TEAM_ALL) {
        upc_all_permute(dst, src, perm, nbytes, flags);
        return;
    }
    enum tupc_sync in, out;
    struct tupc_team *t = start(F, flags, team, &in, &out);
    tupc_reloc_check_nbytes(F, SEC_OF("7.4.2.6 para 3"), nbytes);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.6 para 6"), "src", src, nbytes);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.6 para 6"), "dst", dst, nbytes);
    tupc_reloc_check_thread0(F, SEC_OF("7.4.2.6 para 6"), "perm", perm, sizeof(int));
    uint64_t sig = tupc_sig(tupc_reloc_sig(dst, src, nbytes), (uintptr_t)perm.addr);
    tupc_reloc_check_allocs(F, sig,
                            (const struct tupc_reloc_area[]){{"src", src, nbytes, 1},
                                                             {"dst", dst, nbytes, 1},
                                                             {"perm", perm, sizeof(int), 1}},
                            3);
    struct tupc_coll c;
    int me = enter(&c, F, flags, t, sig, in, out), n = t->n;
    /* Read after the entry sync, as upc_all_permute does. */
    int to = *(const int *)block_of(t, perm, me);
    if (to < 0 || to >= n)
        tupc_fail(F, SEC_OF("7.4.2.6 para 4"),
                  "perm's entry of rank %d (thread %d) is %d; expected the team's ranks 0..%d, "
                  "each once",
                  me, tupc_mythread_, to, n - 1);
    (void)tupc_coll_scratch_claim(&c);
    struct tupc_mailbox *m = tupc_coll_mailbox(&c, to);
    /* Relaxed: the exchange's atomicity alone makes a second claimer see the first. */
    uint64_t old = atomic_exchange_explicit(&m->claim, (uint64_t)c.seq << 32 | (uint32_t)me,
                                            memory_order_relaxed);
    if ((uint32_t)(old >> 32) == c.seq)
        tupc_fail(F, SEC_OF("7.4.2.6 para 4"),
                  "the entries of ranks %d and %u of perm are both %d; expected the team's ranks "
                  "0..%d, each once",
                  me, (unsigned)(uint32_t)old, to, n - 1);
    tupc_coll_need(&c, to);
    tupc_copy(block_of(t, dst, to), block_of(t, src, me), nbytes,
              tupc_reloc_streams(nbytes, 2 * (size_t)n));
    tupc_coll_leave_everyone(&c);
}
