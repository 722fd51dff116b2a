/* upc_nb.h: non-blocking transfers (the UPC 1.3 optional library
 * <upc_nb.h>). Each call starts a upc_memcpy, upc_memget, upc_memput or
 * upc_memset that completes by the matching sync. With every thread in one
 * address space tupc completes it within the call (the spec allows that)
 * and returns UPC_COMPLETE_HANDLE, so the syncs have nothing to wait for;
 * they still refuse a value no call returned. */
#ifndef UPC_NB_H
#define UPC_NB_H

#include <upc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define __UPC_NB__ 1

/* An explicit handle: UPC_COMPLETE_HANDLE, or one a *_nb call returned. */
typedef unsigned long upc_handle_t;
#define UPC_COMPLETE_HANDLE ((upc_handle_t)0)

upc_handle_t upc_memcpy_nb(tupc_sptr_t dst, tupc_sptr_t src, size_t n);
upc_handle_t upc_memget_nb(void *dst, tupc_sptr_t src, size_t n);
upc_handle_t upc_memput_nb(tupc_sptr_t dst, const void *src, size_t n);
upc_handle_t upc_memset_nb(tupc_sptr_t dst, int c, size_t n);
/* 1 when the operation of handle is complete (always, here), else 0. */
int upc_sync_attempt(upc_handle_t handle);
void upc_sync(upc_handle_t handle);

/* Implicit handles: complete at the next upc_synci (or a successful
 * upc_synci_attempt) of the calling thread. */
void upc_memcpy_nbi(tupc_sptr_t dst, tupc_sptr_t src, size_t n);
void upc_memget_nbi(void *dst, tupc_sptr_t src, size_t n);
void upc_memput_nbi(tupc_sptr_t dst, const void *src, size_t n);
void upc_memset_nbi(tupc_sptr_t dst, int c, size_t n);
int upc_synci_attempt(void);
void upc_synci(void);

#ifdef __cplusplus
}
#endif

#endif
