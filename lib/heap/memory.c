/* upc_memcpy, upc_memget, upc_memput, upc_memset, upc_fence (UPC 1.3 7.2.5),
 * and their non-blocking forms (<upc_nb.h>). */
#include "check/error.h"
#include "heap/heap.h"

#include <upc_nb.h>

#include <stdatomic.h>
#include <string.h>

static void check_overlap(const char *func, const char *a, const char *b, size_t n)
{
    if (n && a < b + n && b < a + n)
        tupc_fail(func, "UPC 1.3 7.2.5", "dst and src overlap; expected disjoint objects");
}

/* Each transfer once, for its blocking and non-blocking forms: func names
 * the function the program called. */
static void copy(const char *func, tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    tupc_require_thread(func);
    tupc_check_sptr(func, "dst", dst, n);
    tupc_check_sptr(func, "src", src, n);
    check_overlap(func, dst.addr, src.addr, n);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1 && (!tupc_impl_is_local(dst.thread) || !tupc_impl_is_local(src.thread))) {
        tupc_mpi_memcpy(dst, src, n);
        return;
    }
#endif
    memcpy(dst.addr, src.addr, n);
}

static void get(const char *func, void *dst, tupc_sptr_t src, size_t n)
{
    tupc_require_thread(func);
    tupc_check_sptr(func, "src", src, n);
    if (!dst && n)
        tupc_fail(func, "UPC 1.3 7.2.5.2", "dst is NULL; expected local memory");
    check_overlap(func, dst, src.addr, n);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1 && !tupc_impl_is_local(src.thread)) {
        tupc_mpi_memget(dst, src, n);
        return;
    }
#endif
    memcpy(dst, src.addr, n);
}

static void put(const char *func, tupc_sptr_t dst, const void *src, size_t n)
{
    tupc_require_thread(func);
    tupc_check_sptr(func, "dst", dst, n);
    if (!src && n)
        tupc_fail(func, "UPC 1.3 7.2.5.3", "src is NULL; expected local memory");
    check_overlap(func, dst.addr, src, n);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1 && !tupc_impl_is_local(dst.thread)) {
        tupc_mpi_memput(dst, src, n);
        return;
    }
#endif
    memcpy(dst.addr, src, n);
}

static void set(const char *func, tupc_sptr_t dst, int c, size_t n)
{
    tupc_require_thread(func);
    tupc_check_sptr(func, "dst", dst, n);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1 && !tupc_impl_is_local(dst.thread)) {
        tupc_mpi_memset(dst, c, n);
        return;
    }
#endif
    memset(dst.addr, c, n);
}

void upc_memcpy(tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    copy("upc_memcpy", dst, src, n);
}

void upc_memget(void *dst, tupc_sptr_t src, size_t n)
{
    get("upc_memget", dst, src, n);
}

void upc_memput(tupc_sptr_t dst, const void *src, size_t n)
{
    put("upc_memput", dst, src, n);
}

void upc_memset(tupc_sptr_t dst, int c, size_t n)
{
    set("upc_memset", dst, c, n);
}

/* <upc_nb.h>: each transfer is complete when its call returns. */
upc_handle_t upc_memcpy_nb(tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    copy("upc_memcpy_nb", dst, src, n);
    return UPC_COMPLETE_HANDLE;
}

upc_handle_t upc_memget_nb(void *dst, tupc_sptr_t src, size_t n)
{
    get("upc_memget_nb", dst, src, n);
    return UPC_COMPLETE_HANDLE;
}

upc_handle_t upc_memput_nb(tupc_sptr_t dst, const void *src, size_t n)
{
    put("upc_memput_nb", dst, src, n);
    return UPC_COMPLETE_HANDLE;
}

upc_handle_t upc_memset_nb(tupc_sptr_t dst, int c, size_t n)
{
    set("upc_memset_nb", dst, c, n);
    return UPC_COMPLETE_HANDLE;
}

void upc_memcpy_nbi(tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    copy("upc_memcpy_nbi", dst, src, n);
}

void upc_memget_nbi(void *dst, tupc_sptr_t src, size_t n)
{
    get("upc_memget_nbi", dst, src, n);
}

void upc_memput_nbi(tupc_sptr_t dst, const void *src, size_t n)
{
    put("upc_memput_nbi", dst, src, n);
}

void upc_memset_nbi(tupc_sptr_t dst, int c, size_t n)
{
    set("upc_memset_nbi", dst, c, n);
}

/* No call returns another handle than UPC_COMPLETE_HANDLE: any other value
 * is one the program made up or corrupted. */
static void check_handle(const char *func, upc_handle_t handle)
{
    tupc_require_thread(func);
    if (handle != UPC_COMPLETE_HANDLE)
        tupc_fail(func, "UPC 1.3 <upc_nb.h>",
                  "handle is %#lx, which no upc_mem*_nb call returned; expected a handle "
                  "returned by upc_memcpy_nb, upc_memget_nb, upc_memput_nb or upc_memset_nb, "
                  "or UPC_COMPLETE_HANDLE",
                  handle);
}

int upc_sync_attempt(upc_handle_t handle)
{
    check_handle("upc_sync_attempt", handle);
    return 1;
}

void upc_sync(upc_handle_t handle)
{
    check_handle("upc_sync", handle);
}

int upc_synci_attempt(void)
{
    tupc_require_thread("upc_synci_attempt");
    return 1;
}

void upc_synci(void)
{
    tupc_require_thread("upc_synci");
}

void upc_fence(void)
{
    /* A strict access: orders every earlier access before every later one. */
    atomic_thread_fence(memory_order_seq_cst);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) /* and this process's view of its window */
        tupc_mpi_fence();
#endif
}
