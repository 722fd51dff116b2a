/* upc_all_permute_x (Extended Collectives 0.3 5.3.6): nbytes[r] bytes from
 * src[r] (on the thread of rank r) to dst[perm[r]] (on the thread of rank
 * perm[r]), for each rank r. perm holds int (as the spec's example and
 * upc_all_permute; its synopsis says size_t), each rank once.
 *
 * Push (default): member r copies its block, after claiming its target in
 * the target's mailbox, which finds a value given twice (as in
 * upc_all_permute). Pull: member t reads all of perm to find its source,
 * checking on the way that perm is a permutation.
 *
 * In place: the block at dst[r] moves to dst[perm[r]]. Member r copies its
 * block into a private buffer and publishes that it did; then waits until
 * its target has done the same, and writes its buffer there. */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc_x.h"

#include <stdlib.h>

#define FUNC "upc_all_permute_x"
#define SEC "Extended Collectives 0.3 5.3.6"

static int perm_of(struct tupc_x *x, tupc_sptr_t perm, int r)
{
    int to = *(const int *)tupc_x_entry(x, perm, (size_t)r, 1, sizeof(int));
    if (to < 0 || to >= x->n)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] is %d; expected perm to hold the team's %d ranks 0..%d, each once", r,
                  to, x->n, x->n - 1);
    return to;
}

/* Claims rank `to` as our target in its mailbox of this call: a second
 * claimer sees the first one's claim (see permute.c). */
static void claim(struct tupc_x *x, int to)
{
    (void)tupc_coll_scratch_claim(&x->k.c);
    struct tupc_mailbox *m = tupc_coll_mailbox(&x->k.c, to);
    /* Relaxed: the exchange's atomicity alone makes the second see the first. */
    uint64_t old = atomic_exchange_explicit(
        &m->claim, (uint64_t)x->k.c.seq << 32 | (uint32_t)x->k.me, memory_order_relaxed);
    if ((uint32_t)(old >> 32) == x->k.c.seq)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] and perm[%u] are both %d; expected perm to hold the team's %d ranks "
                  "0..%d, each once",
                  x->k.me, (unsigned)(uint32_t)old, to, x->n, x->n - 1);
}

/* Pull: the rank whose block comes to us, having checked all of perm. */
static int source_of(struct tupc_x *x, tupc_sptr_t perm)
{
    int n = x->n, from = -1;
    unsigned char seen[TUPC_MAX_THREADS] = {0}; /* on the stack: a refusal leaks nothing */
    for (int r = 0; r < n; r++) {
        int to = perm_of(x, perm, r);
        if (seen[to])
            tupc_fail(FUNC, SEC " para 4",
                      "perm holds %d twice (perm[%d] is one); expected the team's %d ranks 0..%d, "
                      "each once",
                      to, r, n, n - 1);
        seen[to] = 1;
        if (to == x->k.me)
            from = r;
    }
    return from;
}

/* In place across processes (reloc_x.c): perm read whole, this member's
 * block read, and written at its target after a team barrier. 1 when
 * done, 0 in one process. */
#if TUPC_HAVE_MPI
static int moved_across(struct tupc_x *x, tupc_sptr_t dst, tupc_sptr_t perm, tupc_sptr_t nbytes)
{
    if (!x->across)
        return 0;
    const int me = x->k.me;
    (void)source_of(x, perm);
    const int to = perm_of(x, perm, me);
    const size_t len = tupc_x_size(x, nbytes, (size_t)me, 1);
    tupc_sptr_t s = TUPC_NULL, d = TUPC_NULL;
    if (len) {
        s = tupc_x_ptr(x, dst, (size_t)me, 1);
        tupc_x_check_block(x, "dst", (size_t)me, s, len, tupc_impl_mythread);
        d = tupc_x_ptr(x, dst, (size_t)to, 1);
        tupc_x_check_block(x, "dst", (size_t)to, d, len, tupc_team_thread_of(x->k.t, to));
    }
    tupc_x_move_across(x, d, s, len);
    return 1;
}
#else
static int moved_across(struct tupc_x *x, tupc_sptr_t dst, tupc_sptr_t perm, tupc_sptr_t nbytes)
{
    (void)x, (void)dst, (void)perm, (void)nbytes;
    return 0;
}
#endif

upc_coll_handle_t upc_all_permute_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
                                    tupc_sptr_t nbytes, upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_permute_x(dst, src, perm, nbytes, mode, team),
                      __func__, 0, mode, team);
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, FUNC, mode, team, 0, 1, src, &in, &out);
    size_t N = (size_t)x.k.t->n;
    if (x.in_place)
        src = TUPC_IN_PLACE_SPTR; /* a decoy src is not read */
    uint64_t sig =
        tupc_calls_args("*dst,*src,*nbytes,,*perm", (uintptr_t)dst.addr, (uintptr_t)src.addr,
                        (uintptr_t)nbytes.addr, 0, (uintptr_t)perm.addr, 0);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, N, 1, sizeof(tupc_sptr_t)},
                                      {"src", src, x.in_place ? 0 : N, 1, sizeof(tupc_sptr_t)},
                                      {"perm", perm, N, 1, sizeof(int)},
                                      {"nbytes", nbytes, N, 1, sizeof(size_t)}},
        4);
    tupc_x_begin(&x, mode, in, out, sig);
    int me = x.k.me;

    if (x.in_place && moved_across(&x, dst, perm, nbytes)) {
        /* done: every block read, a team barrier, every block written */
    } else if (x.in_place) {
        int to = perm_of(&x, perm, me);
        claim(&x, to);
        size_t len = tupc_x_size(&x, nbytes, (size_t)me, 1);
        tupc_sptr_t s = TUPC_NULL, d = TUPC_NULL;
        if (len) {
            s = tupc_x_ptr(&x, dst, (size_t)me, 1);
            tupc_x_check_block(&x, "dst", (size_t)me, s, len, tupc_impl_mythread);
            d = tupc_x_ptr(&x, dst, (size_t)to, 1);
            tupc_x_check_block(&x, "dst", (size_t)to, d, len, tupc_team_thread_of(x.k.t, to));
        }
        /* The target's owner is rank `to`, whose wait in the move covers
         * IN_MYSYNC. */
        tupc_permute_move(&x.k.c, s.addr, d.addr, len, to);
    } else {
        int from = me, to;
        if (x.push && x.across) { /* no mailboxes across processes: perm read whole */
            (void)source_of(&x, perm);
            to = perm_of(&x, perm, me);
        } else if (x.push) {
            to = perm_of(&x, perm, me);
            claim(&x, to);
        } else {
            from = source_of(&x, perm);
            to = me;
        }
        size_t len = tupc_x_size(&x, nbytes, (size_t)from, 1);
        if (len) {
            tupc_sptr_t s = tupc_x_ptr(&x, src, (size_t)from, 1);
            tupc_x_check_block(&x, "src", (size_t)from, s, len, tupc_team_thread_of(x.k.t, from));
            tupc_sptr_t d = tupc_x_ptr(&x, dst, (size_t)to, 1);
            tupc_x_check_block(&x, "dst", (size_t)to, d, len, tupc_team_thread_of(x.k.t, to));
            tupc_x_copy(&x, d, s, len);
        }
    }
    return tupc_x_end(&x);
}
