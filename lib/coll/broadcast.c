/* upc_all_broadcast (UPC 1.3 7.4.2.1): src's nbytes to block i of dst on
 * every thread i.
 *
 * Checks: nbytes > 0; dst in the heap with affinity to thread 0, its block
 * fitting the partition; src in the heap, nbytes of it in one partition (src
 * may be on any thread at any address: shared [] char[nbytes]).
 *
 * Touches (pull): thread i reads src (on thread r = src's thread) and writes
 * its own dst block. So each thread needs r; r's data (src) is touched by
 * every thread, and no other thread's data is touched by anyone but itself.
 *
 * Copy: one memcpy per thread, into local memory; every thread copies, so
 * the root does no more work than the others.
 *
 * Small payloads under OUT_MYSYNC travel in the root's eager line: see
 * tupc_reloc_broadcast_run (coll/reloc.h), which tupc_team_broadcast runs
 * too. */
#include "observe/trace.h"
#include "coll/reloc.h"

#define FUNC "upc_all_broadcast"
#define SEC "UPC 1.3 7.4.2.1"

void upc_all_broadcast(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_broadcast(dst, src, nbytes, flags), __func__, nbytes, flags, 0);
    enum tupc_sync in, out;
    tupc_reloc_start(FUNC, flags, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "dst", dst, nbytes);
    (void)tupc_check_in_partition(FUNC, "src", src, nbytes);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        FUNC, sig,
        (const struct tupc_reloc_area[]){{"dst", dst, nbytes, 1}, {"src", src, nbytes, 0}}, 2);

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    tupc_reloc_broadcast_run(&c, &tupc_team_all_, MYTHREAD, tupc_reloc_on(dst, MYTHREAD), src,
                             nbytes);
}
