/* upc_all_gather_all_x (Extended Collectives 0.3 5.3.4): nbytes[r] bytes
 * from src[r] (on the thread of rank r) to dst[i * n + r] (on the thread of
 * rank i), for every pair of ranks i and r.
 *
 * Pull (default): member i fills its own n blocks. Push: member r copies
 * its block to the n destinations. Either way n copies per member. */
#include "observe/trace.h"
#include "coll/reloc_x.h"

#define FUNC "upc_all_gather_all_x"

upc_coll_handle_t upc_all_gather_all_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                       upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_gather_all_x(dst, src, nbytes, mode, team),
                      __func__, 0, mode, team);
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, FUNC, mode, team, 1, 0, src, &in, &out);
    int n = x.k.t->n;
    size_t T = (size_t)tupc_impl_threads;
    uint64_t sig = tupc_x_sig(dst, src, nbytes, 0);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, (size_t)n * (size_t)n, T, sizeof(tupc_sptr_t)},
                                      {"src", src, (size_t)n, 1, sizeof(tupc_sptr_t)},
                                      {"nbytes", nbytes, (size_t)n, 1, sizeof(size_t)}},
        3);
    tupc_x_begin(&x, mode, in, out, sig);
    int me = x.k.me;
    if (x.push) {
        size_t len = tupc_x_size(&x, nbytes, (size_t)me, 1);
        if (len) {
            tupc_sptr_t s = tupc_x_ptr(&x, src, (size_t)me, 1);
            tupc_x_check_block(&x, "src", (size_t)me, s, len, tupc_impl_mythread);
            for (int k = 1; k <= n; k++) {
                int i = me + k < n ? me + k : me + k - n;
                size_t at = (size_t)i * (size_t)n + (size_t)me;
                tupc_sptr_t d = tupc_x_ptr(&x, dst, at, T);
                tupc_x_check_block(&x, "dst", at, d, len, tupc_team_thread_of(x.k.t, i));
                tupc_x_copy(&x, d, s, len);
            }
        }
    } else {
        for (int k = 1; k <= n; k++) {
            int r = me + k < n ? me + k : me + k - n;
            size_t len = tupc_x_size(&x, nbytes, (size_t)r, 1);
            if (!len)
                continue;
            tupc_sptr_t s = tupc_x_ptr(&x, src, (size_t)r, 1);
            tupc_x_check_block(&x, "src", (size_t)r, s, len, tupc_team_thread_of(x.k.t, r));
            size_t at = (size_t)me * (size_t)n + (size_t)r;
            tupc_sptr_t d = tupc_x_ptr(&x, dst, at, T);
            tupc_x_check_block(&x, "dst", at, d, len, tupc_impl_mythread);
            tupc_x_copy(&x, d, s, len);
        }
    }
    return tupc_x_end(&x);
}
