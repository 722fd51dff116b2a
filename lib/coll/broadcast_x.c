/* upc_all_broadcast_x (Extended Collectives 0.3 5.3.1): nbytes bytes at src
 * (on the root, any thread) to dst[r] on the thread of each rank r.
 *
 * Pull (default): each member copies into its own dst[r], as the 1.3
 * broadcast does: the work is spread over the members. Push: the root, if
 * a member, copies into every dst[r]. */
#include "observe/trace.h"
#include "coll/reloc_x.h"

#define FUNC "upc_all_broadcast_x"

upc_coll_handle_t upc_all_broadcast_x(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                      upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_broadcast_x(dst, src, nbytes, mode, team),
                      __func__, nbytes, mode, team);
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, FUNC, mode, team, 1, 0, src, &in, &out);
    int n = x.k.t->n;
    uint64_t sig = tupc_x_sig(dst, src, TUPC_NULL, nbytes);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"src", src, nbytes, 0, 1}},
        2);
    tupc_x_begin(&x, mode, in, out, sig);
    int me = x.k.me;
    int root = tupc_x_rank_of(&x, (int)src.thread);
    if (nbytes && x.push && root >= 0) {
        if (me == root)
            for (int r = 0; r < n; r++) {
                tupc_sptr_t d = tupc_x_ptr(&x, dst, (size_t)r, 1);
                tupc_x_check_block(&x, "dst", (size_t)r, d, nbytes, tupc_team_thread_of(x.k.t, r));
                tupc_x_copy(&x, d, src, nbytes);
            }
    } else if (nbytes) {
        tupc_sptr_t d = tupc_x_ptr(&x, dst, (size_t)me, 1);
        tupc_x_check_block(&x, "dst", (size_t)me, d, nbytes, tupc_impl_mythread);
        tupc_x_copy(&x, d, src, nbytes);
    }
    return tupc_x_end(&x);
}
