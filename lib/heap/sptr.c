/* Queries on pointers-to-shared (UPC 1.3 7.2.3) and castability
 * (<upc_castable.h>). Arithmetic is inline in upc.h. */
#include "check/error.h"
#include "heap/heap.h"

#include <upc_castable.h>

size_t upc_threadof(tupc_sptr_t p)
{
    return p.thread;
}

size_t upc_phaseof(tupc_sptr_t p)
{
    return p.phase;
}

size_t upc_addrfield(tupc_sptr_t p)
{
    return p.addr ? tupc_offset(p) : 0;
}

tupc_sptr_t upc_resetphase(tupc_sptr_t p)
{
    p.phase = 0;
    return p;
}

size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid)
{
    size_t T = (size_t)tupc_impl_threads;
    if (nbytes == 0)
        return threadid == 0 ? totalsize : 0;
    size_t full = totalsize / nbytes, partial = totalsize % nbytes;
    size_t mine = full / T + (threadid < full % T ? 1 : 0);
    size_t size = mine * nbytes;
    if (partial && full % T == threadid)
        size += partial;
    return size;
}

void *upc_cast(tupc_sptr_t p)
{
#if TUPC_HAVE_MPI
    if (!tupc_impl_is_local(p.thread))
        return NULL; /* another process's: no address here (UPC 1.3 <upc_castable.h>) */
#endif
    return p.addr; /* every thread of a process shares one address space */
}

upc_thread_info_t upc_thread_info(size_t threadId)
{
    tupc_require_thread("upc_thread_info");
    if (threadId >= (size_t)THREADS)
        tupc_fail("upc_thread_info", "UPC 1.3 <upc_castable.h>",
                  "threadId is %zu; expected a thread of the run, 0 to THREADS - 1 = %d", threadId,
                  THREADS - 1);
#if TUPC_HAVE_MPI
    if (!tupc_impl_is_local((uint32_t)threadId))
        return (upc_thread_info_t){0, 0}; /* another process's: nothing casts */
#endif
    /* one address space: every object of every thread casts */
    return (upc_thread_info_t){UPC_CASTABLE_ALL, UPC_CASTABLE_ALL};
}
