/* upc_all_gather_all (UPC 1.3 7.4.2.4): the block of src on thread i to
 * block i of dst on every thread.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src and dst in the heap
 * with affinity to thread 0; src's block (nbytes) and dst's area
 * (nbytes * THREADS, type shared [nbytes * THREADS]) fit the partition.
 *
 * Touches (pull): thread i reads the src block of every thread and writes
 * only its own dst area. Each thread needs every thread, and every thread's
 * src is read by every thread: the touch sets are all threads everywhere, so
 * OUT_MYSYNC is a barrier (which scales by a tree), not a scan.
 *
 * Copy: THREADS memcpys per thread into local memory, starting at block
 * i + 1 so that the threads do not all read thread 0 first. */
#include "observe/trace.h"
#include "coll/reloc.h"

#define FUNC "upc_all_gather_all"
#define SEC "UPC 1.3 7.4.2.4"

void upc_all_gather_all(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags)
{
    TUPC_TRACE_VOID(upc_all_gather_all(dst, src, nbytes, flags), __func__, nbytes * (size_t)THREADS,
                    flags, 0);
    enum tupc_sync in, out;
    tupc_reloc_start(FUNC, flags, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    size_t total = tupc_reloc_total(FUNC, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "src", src, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "dst", dst, total);
    uint64_t sig = tupc_reloc_sig(dst, src, nbytes);
    tupc_reloc_check_allocs(
        FUNC, sig,
        (const struct tupc_reloc_area[]){{"src", src, nbytes, 1}, {"dst", dst, total, 1}}, 2);

    struct tupc_coll c;
    tupc_coll_begin(&c, FUNC, flags, in, out, sig);
    int me = MYTHREAD, T = THREADS;
    char *mine = tupc_reloc_on(dst, me);
    int stream = tupc_reloc_streams(total, (size_t)T + 1); /* T dst areas and the src blocks */
    for (int k = 1; k <= T; k++) {
        int j = me + k < T ? me + k : me + k - T;
        tupc_coll_need(&c, j);
        tupc_copy(mine + (size_t)j * nbytes, tupc_reloc_on(src, j), nbytes, stream);
    }
    tupc_coll_leave_symmetric(&c);
}
