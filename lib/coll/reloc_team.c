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
 * meet in a barrier; permute waits for every member.
 *
 * With UPC_ASYNC (a tupc extension, on any team, UPC_TEAM_ALL included) a
 * call is a posting call, as an _x one: it checks, enters (IN sync, and the
 * IN_MYSYNC waits for the members whose data it will touch), records its
 * copies in a request (coll/async.h) and returns its handle; the completion
 * call runs the OUT sync. In place, exchange and permute move their blocks
 * at posting, as the _x forms do. */
#include "observe/trace.h"
#include "coll/async.h"
#include "coll/in_place.h"
#include "coll/reloc.h"

#include <upc_collective_ext.h>

#include <stdlib.h>

/* An area a call checks: p, of one block (nbytes) or of n blocks (n *
 * nbytes), either at the same offset in every partition (`all`, from a
 * pointer with affinity to thread 0) or in one partition (a root area). */
struct area {
    const char *arg;
    tupc_sptr_t p;
    int n_blocks, all;
    size_t len; /* instead, when not 0 (permute's perm: one int) */
};

/* A call in progress: its entry, team and rank, and its request when it
 * posts (UPC_ASYNC). */
struct call {
    struct tupc_coll c;
    struct tupc_team *t;
    struct tupc_coll_request *req;
    int me;
};

/* What every team form does before its copies: the checks of its 1.3
 * namesake, in the same order (flags, nbytes, the areas, their
 * allocations), then the entry to the call on the team. *total gets
 * n * nbytes. */
static void team_begin(struct call *k, const char *F, const char *sec3, const char *sec_area,
                       upc_flag_t flags, upc_team_t team, size_t nbytes, struct area *a, int na,
                       uint64_t sig, size_t *total)
{
    enum tupc_sync in, out;
    tupc_reloc_start(F, flags & ~UPC_ASYNC, &in, &out);
    struct tupc_team *t = k->t = tupc_team_get(F, team);
    tupc_reloc_check_nbytes(F, sec3, nbytes);
    (void)tupc_reloc_total(F, nbytes);
    *total = nbytes * (size_t)t->n; /* no overflow: n <= THREADS */
    struct tupc_reloc_area ra[3];
    for (int i = 0; i < na; i++) {
        size_t len = a[i].len ? a[i].len : a[i].n_blocks ? *total : nbytes;
        if (a[i].all)
            tupc_reloc_check_thread0(F, sec_area, a[i].arg, a[i].p, len);
        else
            (void)tupc_check_in_partition(F, a[i].arg, a[i].p, len);
        ra[i] = (struct tupc_reloc_area){a[i].arg, a[i].p, len, a[i].all};
    }
    /* The extents depend on the team's size: fold it into the key. */
    tupc_reloc_check_allocs(F, tupc_sig(sig, (uint64_t)t->n), ra, na);
    tupc_coll_begin_team(&k->c, t, F, flags, in, out, sig);
    k->me = tupc_coll_state(&k->c)->me;
    k->req = (flags & UPC_ASYNC) ? tupc_async_begin(t, k->me, F, out) : NULL;
}

/* Copies n bytes, or records the copy when the call posts. */
static void put(struct call *k, void *d, const void *s, size_t n, int stream)
{
    if (k->req)
        tupc_async_add(k->req, d, s, n, stream);
    else
        tupc_copy(d, s, n, stream);
}

enum leave { ALONE, EVERYONE, SYMMETRIC };

/* Ends the call, the OUT sync waiting for nobody, every member, or the
 * members as a barrier; a posting call leaves it to its completion. */
static upc_coll_handle_t end(struct call *k, enum leave how)
{
    if (k->req) {
        tupc_coll_finish(&k->c);
        return tupc_async_post(k->req);
    }
    if (how == ALONE)
        tupc_coll_leave_alone(&k->c);
    else if (how == EVERYONE)
        tupc_coll_leave_everyone(&k->c);
    else
        tupc_coll_leave_symmetric(&k->c);
    return UPC_HANDLE_COMPLETE;
}

static char *block_of(const struct tupc_team *t, tupc_sptr_t p, int r)
{
    return tupc_reloc_on(p, tupc_team_thread_of(t, r));
}

/* A rooted call (broadcast, scatter, gather): every member needs the root,
 * if a member; under OUT_MYSYNC the root waits for every member, the
 * others for nobody. */
static upc_coll_handle_t rooted_copy(struct call *k, int root_thread, void *d, const void *s,
                                     size_t nbytes, int stream)
{
    int root = tupc_team_rank_in(k->t, root_thread);
    if (root >= 0)
        tupc_coll_need(&k->c, root);
    put(k, d, s, nbytes, stream);
    return end(k, k->me == root ? EVERYONE : ALONE);
}

#define SEC_OF(s) "UPC 1.3 " s ", on a team"

upc_coll_handle_t tupc_team_broadcast(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                      upc_flag_t flags, upc_team_t team)
{
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_broadcast", "tupc_team_broadcast");
        upc_all_broadcast(dst, src, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_broadcast(dst, src, nbytes, flags, team),
                      __func__, nbytes, flags, team);
    struct call k;
    size_t total;
    struct area a[] = {{"dst", dst, 0, 1, 0}, {"src", src, 0, 0, 0}};
    team_begin(&k, "tupc_team_broadcast", SEC_OF("7.4.2.1 para 3"), SEC_OF("7.4.2.1 para 6"), flags,
               team, nbytes, a, 2, tupc_reloc_sig(dst, src, nbytes), &total);
    if (!k.req) { /* blocking: upc_all_broadcast's paths on the team */
        tupc_reloc_broadcast_run(&k.c, k.t, k.me, block_of(k.t, dst, k.me), src, nbytes);
        return UPC_HANDLE_COMPLETE;
    }
    return rooted_copy(&k, (int)src.thread, block_of(k.t, dst, k.me), src.addr, nbytes,
                       tupc_reloc_streams(nbytes, (size_t)k.t->n + 1));
}

upc_coll_handle_t tupc_team_scatter(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                    upc_flag_t flags, upc_team_t team)
{
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_scatter", "tupc_team_scatter");
        upc_all_scatter(dst, src, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_scatter(dst, src, nbytes, flags, team), __func__,
                      nbytes, flags, team);
    struct call k;
    size_t total;
    struct area a[] = {{"dst", dst, 0, 1, 0}, {"src", src, 1, 0, 0}};
    team_begin(&k, "tupc_team_scatter", SEC_OF("7.4.2.2 para 3"), SEC_OF("7.4.2.2 para 6"), flags,
               team, nbytes, a, 2, tupc_reloc_sig(dst, src, nbytes), &total);
    return rooted_copy(&k, (int)src.thread, block_of(k.t, dst, k.me),
                       src.addr + (size_t)k.me * nbytes, nbytes, tupc_reloc_streams(total, 2));
}

upc_coll_handle_t tupc_team_gather(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                   upc_flag_t flags, upc_team_t team)
{
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_gather", "tupc_team_gather");
        upc_all_gather(dst, src, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_gather(dst, src, nbytes, flags, team), __func__,
                      nbytes, flags, team);
    struct call k;
    size_t total;
    struct area a[] = {{"src", src, 0, 1, 0}, {"dst", dst, 1, 0, 0}};
    team_begin(&k, "tupc_team_gather", SEC_OF("7.4.2.3 para 3"), SEC_OF("7.4.2.3 para 6"), flags,
               team, nbytes, a, 2, tupc_reloc_sig(dst, src, nbytes), &total);
    return rooted_copy(&k, (int)dst.thread, dst.addr + (size_t)k.me * nbytes,
                       block_of(k.t, src, k.me), nbytes, tupc_reloc_streams(total, 2));
}

/* gather_all and exchange: member me fills its n blocks from block `from`
 * of each member's src area (0 for gather_all, me * nbytes for exchange). */
static upc_coll_handle_t fill_mine(struct call *k, tupc_sptr_t dst, tupc_sptr_t src, size_t from,
                                   size_t nbytes, int stream)
{
    int me = k->me, n = k->t->n;
    char *mine = block_of(k->t, dst, me);
    for (int i = 1; i <= n; i++) {
        int j = me + i < n ? me + i : me + i - n;
        tupc_coll_need(&k->c, j);
        put(k, mine + (size_t)j * nbytes, block_of(k->t, src, j) + from, nbytes, stream);
    }
    return end(k, SYMMETRIC);
}

upc_coll_handle_t tupc_team_gather_all(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                       upc_flag_t flags, upc_team_t team)
{
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_gather_all", "tupc_team_gather_all");
        upc_all_gather_all(dst, src, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_gather_all(dst, src, nbytes, flags, team),
                      __func__, nbytes, flags, team);
    struct call k;
    size_t total;
    struct area a[] = {{"src", src, 0, 1, 0}, {"dst", dst, 1, 1, 0}};
    team_begin(&k, "tupc_team_gather_all", SEC_OF("7.4.2.4 para 3"), SEC_OF("7.4.2.4 para 6"),
               flags, team, nbytes, a, 2, tupc_reloc_sig(dst, src, nbytes), &total);
    return fill_mine(&k, dst, src, 0, nbytes, tupc_reloc_streams(total, (size_t)k.t->n + 1));
}

upc_coll_handle_t tupc_team_exchange(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                     upc_flag_t flags, upc_team_t team)
{
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_exchange", "tupc_team_exchange");
        upc_all_exchange(dst, src, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_exchange(dst, src, nbytes, flags, team),
                      __func__, nbytes, flags, team);
    struct call k;
    size_t total;
    /* In place (as upc_all_exchange): dst is the source too, checked as dst. */
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    if (in_place)
        src = dst;
    struct area a[] = {{"dst", dst, 1, 1, 0}, {"src", src, 1, 1, 0}};
    team_begin(&k, "tupc_team_exchange", SEC_OF("7.4.2.5 para 3"), SEC_OF("7.4.2.5 para 5"),
               flags & ~UPC_IN_PLACE, team, nbytes, a, in_place ? 1 : 2,
               tupc_reloc_sig(dst, src, nbytes), &total);
    int me = k.me;
    if (in_place) {
        /* Pairs swap through the stack, one member each (see exchange.c);
         * at posting too. */
        for (int j = 0; j < k.t->n; j++) {
            if (!tupc_swaps_pair(me, j))
                continue;
            tupc_coll_need(&k.c, j);
            tupc_swap(block_of(k.t, dst, me) + (size_t)j * nbytes,
                      block_of(k.t, dst, j) + (size_t)me * nbytes, nbytes);
        }
        return end(&k, SYMMETRIC);
    }
    return fill_mine(&k, dst, src, (size_t)me * nbytes, nbytes,
                     tupc_reloc_streams(total, 2 * (size_t)k.t->n));
}

upc_coll_handle_t tupc_team_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
                                    size_t nbytes, upc_flag_t flags, upc_team_t team)
{
    const char *F = "tupc_team_permute";
    if (team == UPC_TEAM_ALL && !(flags & UPC_ASYNC)) {
        tupc_fail_as("upc_all_permute", "tupc_team_permute");
        upc_all_permute(dst, src, perm, nbytes, flags);
        tupc_fail_as(NULL, NULL);
        return UPC_HANDLE_COMPLETE;
    }
    TUPC_TRACE_RETURN(upc_coll_handle_t, tupc_team_permute(dst, src, perm, nbytes, flags, team),
                      __func__, nbytes, flags, team);
    struct call k;
    size_t total;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    if (in_place)
        src = dst;
    struct area a[] = {
        {"dst", dst, 0, 1, 0}, {"perm", perm, 0, 1, sizeof(int)}, {"src", src, 0, 1, 0}};
    team_begin(&k, F, SEC_OF("7.4.2.6 para 3"), SEC_OF("7.4.2.6 para 6"), flags & ~UPC_IN_PLACE,
               team, nbytes, a, in_place ? 2 : 3,
               tupc_calls_args("*dst,*src,nbytes,*perm", (uintptr_t)dst.addr, (uintptr_t)src.addr,
                               nbytes, (uintptr_t)perm.addr, 0, 0),
               &total);
    struct tupc_coll *c = &k.c;
    struct tupc_team *t = k.t;
    int me = k.me, n = t->n;
    /* Read after the entry sync, as upc_all_permute does. */
    int to = *(const int *)block_of(t, perm, me);
    if (to < 0 || to >= n)
        tupc_fail(F, SEC_OF("7.4.2.6 para 4"),
                  "perm's entry of rank %d (thread %d) is %d; expected the team's ranks 0..%d, "
                  "each once",
                  me, tupc_impl_mythread, to, n - 1);
    (void)tupc_coll_scratch_claim(c);
    struct tupc_mailbox *m = tupc_coll_mailbox(c, to);
    /* Relaxed: the exchange's atomicity alone makes a second claimer see the first. */
    uint64_t old = atomic_exchange_explicit(&m->claim, (uint64_t)c->seq << 32 | (uint32_t)me,
                                            memory_order_relaxed);
    if ((uint32_t)(old >> 32) == c->seq)
        tupc_fail(F, SEC_OF("7.4.2.6 para 4"),
                  "the entries of ranks %d and %u of perm are both %d; expected the team's ranks "
                  "0..%d, each once",
                  me, (unsigned)(uint32_t)old, to, n - 1);
    if (in_place) { /* at posting too */
        tupc_permute_move(c, block_of(t, dst, me), block_of(t, dst, to), nbytes, to);
    } else {
        tupc_coll_need(c, to);
        put(&k, block_of(t, dst, to), block_of(t, src, me), nbytes,
            tupc_reloc_streams(nbytes, 2 * (size_t)n));
    }
    return end(&k, EVERYONE);
}
