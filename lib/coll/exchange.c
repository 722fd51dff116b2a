/* upc_all_exchange (UPC 1.3 7.4.2.5): block i of src on thread j to block j
 * of dst on thread i, for every pair i, j.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src and dst in the heap
 * with affinity to thread 0, each thread's area of nbytes * THREADS bytes
 * (type shared [nbytes * THREADS]) fitting the partition.
 *
 * Touches (pull): thread i reads block i of every thread's src and writes
 * only its own dst area. Each thread needs every thread, and every thread's
 * src is read by every thread: OUT_MYSYNC is a barrier, as for gather_all.
 *
 * Copy: THREADS memcpys per thread into local memory, starting at thread
 * i + 1 so that the threads do not all read thread 0 first.
 *
 * In place (UPC_IN_PLACE as src or in flags, Extended Collectives 0.3
 * 5.2): dst is also the source, and block j of thread i trades places with
 * block i of thread j. One thread of each pair (tupc_swaps_pair) swaps
 * them through a small buffer on its stack (tupc_swap): no second copy of
 * the data. */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc.h"

#include <upc_collective_ext.h>

#define FUNC "upc_all_exchange"
#define SEC "UPC 1.3 7.4.2.5"

void upc_all_exchange(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_exchange(dst, src, nbytes, flags), __func__, nbytes * (size_t)THREADS,
                    flags, 0);
    enum tupc_sync in, out;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    tupc_reloc_start(FUNC, flags & ~UPC_IN_PLACE, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    size_t total = tupc_reloc_total(FUNC, nbytes);
    if (in_place)
        src = dst; /* a decoy src is not read */
    else
        tupc_reloc_check_thread0(FUNC, SEC " para 5", "src", src, total);
    tupc_reloc_check_thread0(FUNC, SEC " para 5", "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        FUNC, sig, (const struct tupc_reloc_area[]){{"dst", dst, total, 1}, {"src", src, total, 1}},
        in_place ? 1 : 2);

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    int me = MYTHREAD, T = THREADS;
    if (in_place) {
        for (int j = 0; j < T; j++) {
            if (!tupc_swaps_pair(me, j))
                continue;
            tupc_coll_need(&c, j);
            tupc_swap(tupc_reloc_on(dst, me) + (size_t)j * nbytes,
                      tupc_reloc_on(dst, j) + (size_t)me * nbytes, nbytes);
        }
        tupc_coll_leave_symmetric(&c);
        return;
    }
    char *mine = tupc_reloc_on(dst, me);
    size_t from = (size_t)me * nbytes;
    int stream = tupc_reloc_streams(total, 2 * (size_t)T); /* T src and T dst areas */
    for (int k = 1; k <= T; k++) {
        int j = me + k < T ? me + k : me + k - T;
        tupc_coll_need(&c, j);
        tupc_copy(mine + (size_t)j * nbytes, tupc_reloc_on(src, j) + from, nbytes, stream);
    }
    tupc_coll_leave_symmetric(&c);
}
