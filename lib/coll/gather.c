/* upc_all_gather (UPC 1.3 7.4.2.3): the block of src on thread i to block i
 * of dst (nbytes * THREADS bytes in one partition).
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src in the heap with
 * affinity to thread 0, its block fitting the partition; dst in the heap,
 * nbytes * THREADS of it in one partition (any thread, any address).
 *
 * Touches (push): thread i reads its own src block and writes block i of dst
 * (on thread r = dst's thread). Pulling would leave all the copying to r;
 * pushing spreads it over every thread, and the reads stay local. So each
 * thread needs r; r's data (dst) is touched by every thread, any other
 * thread's data (its src block) only by itself.
 *
 * Copy: one memcpy per thread. Neighbouring blocks may share a cache line
 * when nbytes is not a multiple of it: the bytes written are disjoint, so
 * this costs a little false sharing, never a wrong byte. */
#include "observe/trace.h"
#include "coll/reloc.h"

#define FUNC "upc_all_gather"
#define SEC "UPC 1.3 7.4.2.3"

void upc_all_gather(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_gather(dst, src, nbytes, flags), __func__, nbytes, flags, 0);
    enum tupc_sync in, out;
    tupc_reloc_start(FUNC, flags, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    size_t total = tupc_reloc_total(FUNC, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "src", src, nbytes);
    (void)tupc_check_in_partition(FUNC, "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        FUNC, sig,
        (const struct tupc_reloc_area[]){{"src", src, nbytes, 1}, {"dst", dst, total, 0}}, 2);

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    int me = MYTHREAD, root = (int)dst.thread;
    tupc_coll_need(&c, root);
    tupc_copy(dst.addr + (size_t)me * nbytes, tupc_reloc_on(src, me), nbytes,
              tupc_reloc_streams(total, 2));
    tupc_reloc_leave_rooted(&c, root);
}
