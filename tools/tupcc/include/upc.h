/* tupcc front end: <upc.h> as UPC sees it (UPC 1.3 7.2), read only by the
 * translator; the generated C includes tupc's real <upc.h>. A
 * pointer-to-shared is `shared void *` here, so the real headers'
 * declarations in terms of tupc_sptr_t read as UPC. */
#ifndef UPC_H
#define UPC_H
#include <stddef.h>
#include <stdint.h>
#include <upc_types.h>
#include <tupc_version.h>

#define __TUPC__ 1
/* tupcc's largest block size (upctypes.MAX_BLOCK), usable in #if (6.3) */
#define UPC_MAX_BLOCK_SIZE 1000000UL
#define TUPC_MAX_THREADS 1024

typedef shared void *tupc_sptr_t;
#define TUPC_NULL ((shared void *)0)

extern const int MYTHREAD;

void upc_barrier();
void upc_notify();
void upc_wait();
void upc_fence(void);
_Noreturn void upc_global_exit(int status);

size_t upc_threadof(shared void *p);
size_t upc_phaseof(shared void *p);
size_t upc_addrfield(shared void *p);
shared void *upc_resetphase(shared void *p);
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);
void *upc_cast(shared void *p);

shared void *upc_global_alloc(size_t nblocks, size_t nbytes);
shared void *upc_all_alloc(size_t nblocks, size_t nbytes);
shared void *upc_alloc(size_t nbytes);
/* UPC 1.1 and 1.2, deprecated: upc_alloc(nblocks * nbytes) (tupcc_rt.h) */
shared void *upc_local_alloc(size_t nblocks, size_t nbytes);
void upc_free(shared void *ptr);
void upc_all_free(shared void *ptr);
const char *tupc_alloc_error(void);

void upc_memcpy(shared void *dst, shared const void *src, size_t n);
void upc_memget(void *dst, shared const void *src, size_t n);
void upc_memput(shared void *dst, const void *src, size_t n);
void upc_memset(shared void *dst, int c, size_t n);

typedef struct tupc_lock upc_lock_t;
upc_lock_t *upc_global_lock_alloc(void);
upc_lock_t *upc_all_lock_alloc(void);
void upc_lock_free(upc_lock_t *lock);
void upc_all_lock_free(upc_lock_t *lock);
void upc_lock(upc_lock_t *lock);
int upc_lock_attempt(upc_lock_t *lock);
void upc_unlock(upc_lock_t *lock);

/* Berkeley UPC's timers and poll, which UPC programs and tests call
 * without a header (tupcc_rt.h defines them on <upc_tick.h>). */
typedef uint64_t bupc_tick_t;
#define BUPC_TICK_MIN ((bupc_tick_t)0)
#define BUPC_TICK_MAX ((bupc_tick_t)UINT64_MAX)
bupc_tick_t bupc_ticks_now(void);
uint64_t bupc_ticks_to_us(bupc_tick_t ticks);
uint64_t bupc_ticks_to_ns(bupc_tick_t ticks);
double bupc_tick_granularityus(void);
double bupc_tick_overheadus(void);
void bupc_poll(void);
#endif
