/* Strict accesses to objects wider than one atomic access (a struct, a
 * long double, a pointer-to-shared): UPC 1.3 5.1.2.3 orders each strict
 * access as a whole, so a strict read must see one strict write, never
 * the bytes of two. Such an access is a copy under one lock for the run,
 * between two fences. One lock, not one per address: such accesses are
 * rare, and two overlapping objects (a struct and its member) must take
 * the same lock. Across processes the lock is the owning process's word,
 * taken by MPI's compare-and-swap (mpi/lock.c), since a mutex here
 * cannot keep out another process's transfer. */
#include "check/error.h"
#include "heap/heap.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t strict_lock = PTHREAD_MUTEX_INITIALIZER;

void tupc_impl_strict_copy(void *local, tupc_sptr_t p, size_t n, int put)
{
    const char *func = put ? "tupc_put_strict" : "tupc_get_strict";
    tupc_require_thread(func);
    tupc_check_sptr(func, put ? "dst" : "src", p, n);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_mpi_strict_copy(local, p, n, put);
        return;
    }
#endif
    /* The fences order the access with the thread's others; the mutex's
     * acquire and release order it with the other strict copies. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    pthread_mutex_lock(&strict_lock);
    tupc_strict_pieces(p.addr, local, n, put);
    pthread_mutex_unlock(&strict_lock);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
