/* upc_all_scatter_x and upc_all_gather_x (Extended Collectives 0.3 5.3.2
 * and 5.3.3): nbytes[r] bytes between block r of the root's array (scatter:
 * src[r], gather: dst[r], anywhere) and block r of the members' array
 * (scatter: dst[r], gather: src[r], on the thread of rank r), for each
 * rank r. One is the other with the direction turned, so one loop serves
 * both.
 *
 * The default spreads the work over the members: each copies its own block
 * (scatter: pull, gather: push). The other mode has each block copied by
 * the owner of its root-side block if a member (the root copies all), and
 * by the member of rank r if not. */
#include "observe/trace.h"
#include "coll/reloc_x.h"

static upc_coll_handle_t rooted_x(const char *func, int gather, tupc_sptr_t dst, tupc_sptr_t src,
                                  tupc_sptr_t nbytes, upc_flag_t mode, upc_team_t team)
{
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, func, mode, team, !gather, 0, src, &in, &out);
    int n = x.k.t->n;
    uint64_t sig = tupc_x_sig(dst, src, nbytes, 0);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"src", src, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"nbytes", nbytes, (size_t)n, 1, sizeof(size_t)}},
        3);
    tupc_x_begin(&x, mode, in, out, sig);
    const int me = x.k.me, own = gather ? x.push : !x.push;
    const tupc_sptr_t root_arr = gather ? dst : src, member_arr = gather ? src : dst;
    const char *root_arg = gather ? "dst" : "src", *member_arg = gather ? "src" : "dst";
    for (int r = own ? me : 0; r < (own ? me + 1 : n); r++) {
        size_t len = tupc_x_size(&x, nbytes, (size_t)r, 1);
        if (!len)
            continue;
        tupc_sptr_t a = tupc_x_ptr(&x, root_arr, (size_t)r, 1);
        if (!own) {
            int owner = tupc_x_rank_of(&x, (int)a.thread);
            if ((owner >= 0 ? owner : r) != me)
                continue;
        }
        tupc_x_check_block(&x, root_arg, (size_t)r, a, len, -1);
        tupc_sptr_t b = tupc_x_ptr(&x, member_arr, (size_t)r, 1);
        tupc_x_check_block(&x, member_arg, (size_t)r, b, len, tupc_team_thread_of(x.k.t, r));
        tupc_x_copy(&x, gather ? a : b, gather ? b : a, len);
    }
    return tupc_x_end(&x);
}

upc_coll_handle_t upc_all_scatter_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                    upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_scatter_x(dst, src, nbytes, mode, team), __func__,
                      0, mode, team);
    return rooted_x(__func__, 0, dst, src, nbytes, mode, team);
}

upc_coll_handle_t upc_all_gather_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                   upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_gather_x(dst, src, nbytes, mode, team), __func__,
                      0, mode, team);
    return rooted_x(__func__, 1, dst, src, nbytes, mode, team);
}
