/* upc_all_exchange_x (Extended Collectives 0.3 5.3.5): for every pair of
 * ranks i and j, nbytes[j * n + i] bytes from src[j * n + i] (block i of
 * rank j, on j's thread) to dst[i * n + j] (block j of rank i, on i's
 * thread). The three arrays have n * n entries, block size THREADS.
 *
 * Pull (default): member i fills its own n blocks. Push: member j sends
 * its n blocks.
 *
 * In place (dst is also the source): blocks dst[j * n + i] and
 * dst[i * n + j] trade places, nbytes[j * n + i] bytes one way and
 * nbytes[i * n + j] the other. One member of each pair swaps them
 * (tupc_swaps_pair) through a small buffer on its stack. */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc_x.h"

#define FUNC "upc_all_exchange_x"

static void swap_pairs(struct tupc_x *x, tupc_sptr_t dst, tupc_sptr_t nbytes)
{
    int n = x->n, me = x->k.me;
    size_t T = (size_t)tupc_impl_threads, N = (size_t)n;
    for (int j = 0; j < n; j++) {
        if (!tupc_swaps_pair(me, j))
            continue;
        size_t mine = (size_t)me * N + (size_t)j, theirs = (size_t)j * N + (size_t)me;
        size_t out = tupc_x_size(x, nbytes, mine, T);    /* me -> j */
        size_t back = tupc_x_size(x, nbytes, theirs, T); /* j -> me */
        if (!out && !back)
            continue;
        tupc_sptr_t a = tupc_x_ptr(x, dst, mine, T), b = tupc_x_ptr(x, dst, theirs, T);
        /* Block a sends `out` bytes and receives `back`, b the reverse. */
        size_t room = out > back ? out : back, both = out < back ? out : back;
        tupc_x_check_block(x, "dst", mine, a, room, tupc_impl_mythread);
        tupc_x_check_block(x, "dst", theirs, b, room, tupc_team_thread_of(x->k.t, j));
        tupc_x_need(x, a.thread);
        tupc_x_need(x, b.thread);
#if TUPC_HAVE_MPI
        if (x->across) { /* a may be here, b elsewhere: through copies */
            tupc_x_swap_across(a, b, out, back);
            continue;
        }
#endif
        /* The bytes both send trade places; the longer block's tail then
         * moves one way (what it overwrites is past what the other holds). */
        tupc_swap(a.addr, b.addr, both);
        if (out > both)
            memcpy(b.addr + both, a.addr + both, out - both);
        else if (back > both)
            memcpy(a.addr + both, b.addr + both, back - both);
    }
}

upc_coll_handle_t upc_all_exchange_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                     upc_flag_t mode, upc_team_t team)
{
    TUPC_TRACE_RETURN(upc_coll_handle_t, upc_all_exchange_x(dst, src, nbytes, mode, team), __func__,
                      0, mode, team);
    struct tupc_x x;
    enum tupc_sync in, out;
    tupc_x_start(&x, FUNC, mode, team, 1, 1, src, &in, &out);
    int n = x.k.t->n;
    size_t T = (size_t)tupc_impl_threads, N = (size_t)n;
    if (x.in_place)
        src = TUPC_IN_PLACE_SPTR; /* a decoy src is not read */
    uint64_t sig = tupc_x_sig(dst, src, nbytes, 0);
    tupc_x_check_arrays(
        &x, sig,
        (const struct tupc_x_array[]){{"dst", dst, N * N, T, sizeof(tupc_sptr_t)},
                                      {"src", src, x.in_place ? 0 : N * N, T, sizeof(tupc_sptr_t)},
                                      {"nbytes", nbytes, N * N, T, sizeof(size_t)}},
        3);
    tupc_x_begin(&x, mode, in, out, sig);
    int me = x.k.me;
    if (x.in_place) {
        swap_pairs(&x, dst, nbytes);
    } else {
        for (int k = 1; k <= n; k++) {
            int o = me + k < n ? me + k : me + k - n;
            /* Pull: block me of o to our block o; push: our block o to o. */
            int i = x.push ? o : me, j = x.push ? me : o;
            size_t from = (size_t)j * N + (size_t)i, to = (size_t)i * N + (size_t)j;
            size_t len = tupc_x_size(&x, nbytes, from, T);
            if (!len)
                continue;
            tupc_sptr_t s = tupc_x_ptr(&x, src, from, T);
            tupc_x_check_block(&x, "src", from, s, len, tupc_team_thread_of(x.k.t, j));
            tupc_sptr_t d = tupc_x_ptr(&x, dst, to, T);
            tupc_x_check_block(&x, "dst", to, d, len, tupc_team_thread_of(x.k.t, i));
            tupc_x_copy(&x, d, s, len);
        }
    }
    return tupc_x_end(&x);
}
