/* upc_memcpy, upc_memget, upc_memput, upc_memset, upc_fence (UPC 1.3 7.2.5). */
#include "check/error.h"
#include "heap/heap.h"

#include <stdatomic.h>
#include <string.h>

static void check_overlap(const char *func, const char *a, const char *b, size_t n)
{
    if (n && a < b + n && b < a + n)
        tupc_fail(func, "UPC 1.3 7.2.5", "dst and src overlap; expected disjoint objects");
}

void upc_memcpy(tupc_sptr_t dst, tupc_sptr_t src, size_t n)
{
    tupc_require_thread("upc_memcpy");
    tupc_check_sptr("upc_memcpy", "dst", dst, n);
    tupc_check_sptr("upc_memcpy", "src", src, n);
    check_overlap("upc_memcpy", dst.addr, src.addr, n);
    memcpy(dst.addr, src.addr, n);
}

void upc_memget(void *dst, tupc_sptr_t src, size_t n)
{
    tupc_require_thread("upc_memget");
    tupc_check_sptr("upc_memget", "src", src, n);
    if (!dst && n)
        tupc_fail("upc_memget", "UPC 1.3 7.2.5.2", "dst is NULL; expected local memory");
    check_overlap("upc_memget", dst, src.addr, n);
    memcpy(dst, src.addr, n);
}

void upc_memput(tupc_sptr_t dst, const void *src, size_t n)
{
    tupc_require_thread("upc_memput");
    tupc_check_sptr("upc_memput", "dst", dst, n);
    if (!src && n)
        tupc_fail("upc_memput", "UPC 1.3 7.2.5.3", "src is NULL; expected local memory");
    check_overlap("upc_memput", dst.addr, src, n);
    memcpy(dst.addr, src, n);
}

void upc_memset(tupc_sptr_t dst, int c, size_t n)
{
    tupc_require_thread("upc_memset");
    tupc_check_sptr("upc_memset", "dst", dst, n);
    memset(dst.addr, c, n);
}

void upc_fence(void)
{
    /* A strict access: orders every earlier access before every later one. */
    atomic_thread_fence(memory_order_seq_cst);
}
