/* upc_all_scatter_x (Extended Collectives 0.3 5.3.2): nbytes[r] bytes from
 * src[r] (on the root) to dst[r] (on the thread of rank r), for each rank r.
 *
 * Pull (default): each member copies its own block. Push: each block is
 * copied by the owner of its source if a member (the root copies all). */
#include "observe/trace.h"
#include "coll/reloc_x.h"

#define FUNC "upc_all_scatter_x"

upc_coll_handle_t upc_all_scatter_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                    upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_scatter_x(dst, src, nbytes, mode, team), __func__,
                      0, mode, team);
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, FUNC, mode, team, 1, 0, src, &in, &out);
    int n = x.k.t->n;
    uint64_t sig = tupc_x_sig(dst, src, nbytes, 0);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"src", src, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"nbytes", nbytes, (size_t)n, 1, sizeof(size_t)}},
        3);
    tupc_x_begin(&x, mode, in, out, sig);
    int me = x.k.me;
    for (int r = x.push ? 0 : me; r < (x.push ? n : me + 1); r++) {
        size_t len = tupc_x_size(&x, nbytes, (size_t)r, 1);
        if (!len)
            continue;
        tupc_sptr_t s = tupc_x_ptr(&x, src, (size_t)r, 1);
        int dth = tupc_team_thread_of(x.k.t, r);
        /* Push: ours if our thread holds the source; a non-member's source
         * is copied by the destination's owner. */
        if (x.push) {
            int owner = tupc_x_rank_of(&x, (int)s.thread);
            if ((owner >= 0 ? owner : r) != me)
                continue;
        }
        tupc_x_check_block(&x, "src", (size_t)r, s, len, -1);
        tupc_sptr_t d = tupc_x_ptr(&x, dst, (size_t)r, 1);
        tupc_x_check_block(&x, "dst", (size_t)r, d, len, dth);
        tupc_x_copy(&x, d, s, len);
    }
    return tupc_x_end(&x);
}
