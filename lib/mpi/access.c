/* Another process's data: the accessors' out-of-line half and upc_mem*
 * where either side is in another process. Each transfer is complete at
 * its target when it returns (mpi/window.c), so a relaxed access needs
 * nothing more and a strict one a fence on each side. */
#include "mpi/layer.h"

#include "check/error.h"
#include "heap/heap.h"
#include "runtime/runtime.h"

#include <string.h>

/* Bounce buffer of a copy between two other processes, and of memset. */
#define CHUNK ((size_t)64 << 10)

static int here(uint32_t t)
{
    return tupc_impl_is_local(t);
}

/* A strict access's fence: with one process the thread fence alone. */
static void strict_fence(void)
{
    if (tupc_procs_ > 1)
        tupc_mpi_fence();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void tupc_impl_get(void *dst, tupc_sptr_t src, size_t n, int strict)
{
    const char *func = strict ? "tupc_get_strict" : "tupc_get";
    tupc_require_thread(func);
    tupc_check_sptr(func, "src", src, n);
    if (!strict) {
        if (here(src.thread))
            memcpy(dst, src.addr, n);
        else
            tupc_mpi_get(dst, src.thread, src.addr, n);
        return;
    }
    /* A wider object takes its owner's strict lock. A word here is one
     * atomic load; another process's, one get (MPI promises no atomicity
     * for conflicting gets and puts; an aligned word is one access at the
     * target on the transports of both MPIs here, which no test checks). */
    if (!tupc_impl_strict_fits_word(src.addr, n)) {
        tupc_impl_strict_copy(dst, src, n, 0);
        return;
    }
    strict_fence();
    if (here(src.thread))
        tupc_strict_pieces(src.addr, dst, n, 0); /* one piece: the fences order it */
    else
        tupc_mpi_get(dst, src.thread, src.addr, n);
    strict_fence();
}

void tupc_impl_put(tupc_sptr_t dst, const void *src, size_t n, int strict)
{
    const char *func = strict ? "tupc_put_strict" : "tupc_put";
    tupc_require_thread(func);
    tupc_check_sptr(func, "dst", dst, n);
    if (!strict) {
        if (here(dst.thread))
            memcpy(dst.addr, src, n);
        else
            tupc_mpi_put(dst.thread, dst.addr, src, n);
        return;
    }
    if (!tupc_impl_strict_fits_word(dst.addr, n)) { /* as in tupc_impl_get */
        tupc_impl_strict_copy((void *)src, dst, n, 1);
        return;
    }
    strict_fence();
    if (here(dst.thread))
        tupc_strict_pieces(dst.addr, (void *)src, n, 1);
    else
        tupc_mpi_put(dst.thread, dst.addr, src, n);
    strict_fence();
}

void tupc_mpi_memget(void *dst, tupc_sptr_t src, size_t n)
{
    tupc_mpi_get(dst, src.thread, src.addr, n);
}

void tupc_mpi_memput(tupc_sptr_t dst, const void *src, size_t n)
{
    tupc_mpi_put(dst.thread, dst.addr, src, n);
}

void tupc_mpi_memcpy(tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    if (here(dst.thread)) {
        tupc_mpi_get(dst.addr, src.thread, src.addr, n);
        return;
    }
    if (here(src.thread)) {
        tupc_mpi_put(dst.thread, dst.addr, src.addr, n);
        return;
    }
    /* Both elsewhere: through this thread's stack, a piece at a time. */
    char buf[CHUNK];
    for (size_t done = 0; done < n; done += CHUNK) {
        size_t k = n - done < CHUNK ? n - done : CHUNK;
        tupc_mpi_get(buf, src.thread, src.addr + done, k);
        tupc_mpi_put(dst.thread, dst.addr + done, buf, k);
    }
}

void tupc_mpi_memset(tupc_sptr_t dst, int c, size_t n)
{
    char buf[CHUNK];
    memset(buf, c, n < CHUNK ? n : CHUNK);
    for (size_t done = 0; done < n; done += CHUNK)
        tupc_mpi_put(dst.thread, dst.addr + done, buf, n - done < CHUNK ? n - done : CHUNK);
}
