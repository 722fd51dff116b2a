/* upc_all_scatter (UPC 1.3 7.4.2.2): block i of src (nbytes * THREADS bytes
 * in one partition) to block i of dst, on thread i.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; dst in the heap with
 * affinity to thread 0, its block fitting the partition; src in the heap,
 * nbytes * THREADS of it in one partition (any thread, any address).
 *
 * Touches (pull): thread i reads block i of src (on thread r = src's thread)
 * and writes its own dst block. Each thread needs r; r's data is touched by
 * every thread, any other thread's data only by itself.
 *
 * Copy: one memcpy per thread into local memory; the root copies one block,
 * like everyone else. */
#include "observe/trace.h"
#include "coll/reloc.h"

#define FUNC "upc_all_scatter"
#define SEC "UPC 1.3 7.4.2.2"

void upc_all_scatter(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_scatter(dst, src, nbytes, flags), __func__, nbytes, flags, 0);
    enum tupc_sync in, out;
    tupc_reloc_start(FUNC, flags, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    size_t total = tupc_reloc_total(FUNC, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "dst", dst, nbytes);
    (void)tupc_check_in_partition(FUNC, "src", src, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        FUNC, sig,
        (const struct tupc_reloc_area[]){{"dst", dst, nbytes, 1}, {"src", src, total, 0}}, 2);

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    int me = MYTHREAD, root = (int)src.thread;
    tupc_coll_need(&c, root);
    tupc_copy(tupc_reloc_on(dst, me), src.addr + (size_t)me * nbytes, nbytes,
              tupc_reloc_streams(total, 2));
    tupc_reloc_leave_rooted(&c, root);
}
