/* upc_collective.h: the UPC 1.3 collectives (7.4), plus upc_all_sort from the
 * Collective Operations Specification 1.0 (4.3.4). */
#ifndef UPC_COLLECTIVE_H
#define UPC_COLLECTIVE_H

#include <upc.h>
#include <upc_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libtupc exports: it is built with hidden visibility (and a version
 * script, lib/libtupc.map), so its internals stay out of programs' sight. */
#pragma GCC visibility push(default)

#define __UPC_COLLECTIVE__ 1

/* ---- Relocalization (7.4.2) --------------------------------------------- */

void upc_all_broadcast(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags);
void upc_all_scatter(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags);
void upc_all_gather(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags);
void upc_all_gather_all(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags);
void upc_all_exchange(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, upc_flag_t flags);
void upc_all_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                     upc_flag_t flags);

/* ---- Computation (7.4.3) ------------------------------------------------ */

#define TUPC_DECLARE_REDUCE_(T, TYPE)                                                              \
    void upc_all_reduce##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,           \
                           size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);           \
    void upc_all_prefix_reduce##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,    \
                                  size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags);

TUPC_DECLARE_REDUCE_(C, signed char)
TUPC_DECLARE_REDUCE_(UC, unsigned char)
TUPC_DECLARE_REDUCE_(S, signed short)
TUPC_DECLARE_REDUCE_(US, unsigned short)
TUPC_DECLARE_REDUCE_(I, signed int)
TUPC_DECLARE_REDUCE_(UI, unsigned int)
TUPC_DECLARE_REDUCE_(L, signed long)
TUPC_DECLARE_REDUCE_(UL, unsigned long)
TUPC_DECLARE_REDUCE_(F, float)
TUPC_DECLARE_REDUCE_(D, double)
TUPC_DECLARE_REDUCE_(LD, long double)

#undef TUPC_DECLARE_REDUCE_

/* Stable in-place sort of nelems elements of elem_size bytes, blocked by
 * blk_size (0: indefinite layout), in ascending order of func. */
void upc_all_sort(tupc_sptr_t A, size_t elem_size, size_t nelems, size_t blk_size,
                  int (*func)(tupc_sptr_t, tupc_sptr_t), upc_flag_t flags);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
