/* upc.h: the UPC execution model in C (UPC 1.3 sections 6 and 7.2).
 *
 * THREADS and MYTHREAD read a global and a thread-local variable: no call
 * into the library. Shared data lives in one heap partitioned by affinity;
 * a pointer-to-shared is the value type tupc_sptr_t. */
#ifndef UPC_H
#define UPC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <upc_types.h>
#include <tupc_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libtupc exports: it is built with hidden visibility (and a version
 * script, lib/libtupc.map), so its internals stay out of programs' sight. */
#pragma GCC visibility push(default)

/* Not __UPC__: that is a UPC compiler's, and code written
 * `#ifdef __UPC__ ... shared ...` must take its C branch here. */
#define __TUPC__ 1 /* TUPC_VERSION_* (tupc_version.h) say which tupc */
#define __UPC_VERSION__ 201311L
#define __UPC_DYNAMIC_THREADS__ 1

/* Largest block size a blocked layout may name (UPC 1.3 6.5.1.1). */
#define UPC_MAX_BLOCK_SIZE ((size_t)1 << 30)

/* ---- Threads ------------------------------------------------------------ */

#define THREADS ((int)tupc_impl_threads)
#define MYTHREAD ((int)tupc_impl_mythread)

/* Largest THREADS a run may have. */
#define TUPC_MAX_THREADS 1024

/* Options of a run. Zero-initialise, then set what you need. */
typedef struct tupc_options {
    int threads;         /* 0: $UPC_THREADS, else the CPUs the process may use */
    size_t heap_size;    /* per-thread partition bytes; 0: $UPC_SHARED_HEAP_SIZE or 64M */
    int return_on_error; /* nonzero: an error detected by the library makes
                            tupc_run_opts return TUPC_RUN_ERROR instead of exiting */
    int quiet;           /* nonzero: do not print the error message */
    int hang_timeout;    /* seconds without progress before a hang is reported;
                            0: $TUPC_HANG_TIMEOUT or 60; negative: never */
    int checks;          /* TUPC_CHECKS_OFF, _DEFAULT or _FULL; 0: $TUPC_CHECKS or
                            the default level (tupc_run(3), "Check levels") */
} tupc_options;

/* The values of tupc_options.checks. */
#define TUPC_CHECKS_OFF 1
#define TUPC_CHECKS_DEFAULT 2
#define TUPC_CHECKS_FULL 3

#define TUPC_RUN_ERROR (-1)

/* Starts `threads` UPC threads on entry(arg) and waits for them. Returns 0 when
 * every thread returned 0, else the status of the lowest-numbered thread that
 * returned non-zero, or the status given to upc_global_exit. An error detected
 * by the library prints one line and exits the process with status 1. */
int tupc_run(int threads, int (*entry)(void *arg), void *arg);

/* As tupc_run, with options. The macro passes the size of the caller's
 * tupc_options, so that fields added later are read only from callers
 * compiled with them; (tupc_run_opts)(...) is the first layout's. */
int tupc_run_opts(const tupc_options *opts, int (*entry)(void *arg), void *arg);
#define tupc_run_opts(opts, entry, arg) tupc_impl_run_opts((opts), sizeof *(opts), (entry), (arg))

/* The message of the error that ended the last run of this process ("" if none). */
const char *tupc_last_error(void);

/* Whole programs link libtupc_main (pkg-config tupc-main) and define this:
 * every UPC thread runs it, with `-n N` already taken out of argv. */
int tupc_main(int argc, char **argv);

/* ---- Pointers-to-shared ------------------------------------------------- */

/* A pointer-to-shared: the address of the byte it designates, the thread that
 * byte has affinity to, and the phase within its block. Passed by value. */
typedef struct tupc_sptr {
    char *addr;
    uint32_t thread;
    uint32_t phase;
} tupc_sptr_t;

#ifdef __cplusplus
#define TUPC_NULL (tupc_sptr_t{nullptr, 0u, 0u})
#else
#define TUPC_NULL ((tupc_sptr_t){0, 0, 0})
#endif

/* What the macros and inline functions of this header need. */
#include <tupc_impl.h>

/* Ends every thread of the run; the run's status becomes `status`. */
TUPC_IMPL_NORETURN void upc_global_exit(int status);

static inline int tupc_isnull(tupc_sptr_t p)
{
    return p.addr == 0;
}

size_t upc_threadof(tupc_sptr_t p);
size_t upc_phaseof(tupc_sptr_t p);
size_t upc_addrfield(tupc_sptr_t p);
tupc_sptr_t upc_resetphase(tupc_sptr_t p);
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);
void *upc_cast(tupc_sptr_t p);

/* p + i for a pointer to `shared [B] T` with sizeof(T) == esize; B == 0 is the
 * indefinite layout `shared []`. UPC 1.3 6.4.2. */
static inline tupc_sptr_t tupc_ptr_add(tupc_sptr_t p, ptrdiff_t i, size_t B, size_t esize)
{
    if (i == 0) /* also a null pointer plus 0, which C's pointer arithmetic does not allow */
        return p;
    if (B == 0) {
        p.addr += i * (ptrdiff_t)esize;
        return p;
    }
    int64_t T = tupc_impl_threads;
    int64_t pos = (int64_t)p.phase + i;
    if (i >= 0 && pos < (int64_t)B) { /* within the block: no division */
        p.addr += i * (ptrdiff_t)esize;
        p.phase = (uint32_t)pos;
        return p;
    }
    int64_t q = tupc_impl_floordiv(pos, (int64_t)B);
    int64_t phase = pos - q * (int64_t)B;
    int64_t gb = (int64_t)p.thread + q;
    int64_t course = gb >= 0 && gb < T ? 0 : tupc_impl_floordiv(gb, T);
    int64_t thread = gb - course * T;
    p.addr += (course * (int64_t)B + phase - (int64_t)p.phase) * (int64_t)esize +
              (thread - (int64_t)p.thread) * (int64_t)tupc_impl_partition_size;
    p.thread = (uint32_t)thread;
    p.phase = (uint32_t)phase;
    return p;
}

/* a - b in elements, both pointing into the same `shared [B] T` array. */
static inline ptrdiff_t tupc_ptr_diff(tupc_sptr_t a, tupc_sptr_t b, size_t B, size_t esize)
{
    /* Offsets within the partitions: the thread's partition start cancels. */
    int64_t S = (int64_t)tupc_impl_partition_size;
    int64_t offa = (int64_t)(intptr_t)a.addr - (int64_t)a.thread * S;
    int64_t offb = (int64_t)(intptr_t)b.addr - (int64_t)b.thread * S;
    if (B == 0)
        return (ptrdiff_t)((offa - offb) / (int64_t)esize);
    int64_t blk = (int64_t)B * (int64_t)esize;
    offa -= (int64_t)a.phase * (int64_t)esize;
    offb -= (int64_t)b.phase * (int64_t)esize;
    return (ptrdiff_t)(((offa - offb) / blk) * tupc_impl_threads * (int64_t)B +
                       ((int64_t)a.thread - (int64_t)b.thread) * (int64_t)B +
                       ((int64_t)a.phase - (int64_t)b.phase));
}

/* Whether a and b designate the same byte (phases may differ, as in UPC). */
static inline int tupc_ptr_eq(tupc_sptr_t a, tupc_sptr_t b)
{
    return a.addr == b.addr;
}

/* <0, 0, >0 as a is before, at, after b in the same `shared [B] T` array. */
static inline int tupc_ptr_cmp(tupc_sptr_t a, tupc_sptr_t b, size_t B, size_t esize)
{
    ptrdiff_t d = tupc_ptr_diff(a, b, B, esize);
    return (d > 0) - (d < 0);
}

/* Casts to another block size, as `(shared [B2] T2 *)p` does: the phase is
 * reset to 0 (UPC 1.3 6.4.3), unless the new layout is indefinite. */
static inline tupc_sptr_t tupc_ptr_cast(tupc_sptr_t p)
{
    p.phase = 0;
    return p;
}

/* &a[i] and a[i] for `shared [B] T *a`: the spec's examples read almost line
 * for line, e.g. upc_all_broadcast(B, tupc_index(A, 1, 1, int), ...). */
#define tupc_index(p, i, B, T) tupc_ptr_add((p), (ptrdiff_t)(i), (B), sizeof(T))
#if TUPC_HAVE_MPI
/* Across processes only this process's data has an address here: another
 * process's is refused with one line that says to use tupc_get/tupc_put. */
#define tupc_ref(p, i, B, T) (*(T *)tupc_impl_here(tupc_index((p), (i), (B), T), "tupc_ref"))
#else
#define tupc_ref(p, i, B, T) (*(T *)tupc_index((p), (i), (B), T).addr)
#endif

/* Local C pointer to what p designates; valid in every thread of the
 * process (across MPI processes, refused for another process's data). */
static inline void *tupc_local(tupc_sptr_t p)
{
#if TUPC_HAVE_MPI
    return tupc_impl_here(p, "tupc_local");
#else
    return p.addr;
#endif
}

/* ---- Access that may cross processes ------------------------------------ */

/* n bytes between local memory and what a pointer-to-shared designates, on
 * any thread of the run, in this process or (built with MPI) another: a
 * relaxed access, as upc_memget and upc_memput, done when the call returns.
 * This process's data is a memcpy, inline. */
static inline void tupc_get(void *dst, tupc_sptr_t src, size_t n)
{
#if TUPC_HAVE_MPI
    if (__builtin_expect(!tupc_impl_is_local(src.thread), 0)) {
        tupc_impl_get(dst, src, n, 0);
        return;
    }
#endif
    memcpy(dst, src.addr, n);
}

static inline void tupc_put(tupc_sptr_t dst, const void *src, size_t n)
{
#if TUPC_HAVE_MPI
    if (__builtin_expect(!tupc_impl_is_local(dst.thread), 0)) {
        tupc_impl_put(dst, src, n, 0);
        return;
    }
#endif
    memcpy(dst.addr, src, n);
}

/* The strict forms: ordered with every other shared access of the thread,
 * and each seen whole by the other strict accesses. */
static inline void tupc_get_strict(void *dst, tupc_sptr_t src, size_t n)
{
#if TUPC_HAVE_MPI
    /* Out of line here too: a thread that waits on a strict flag of its own
     * must let MPI bring the other processes' puts in. */
    tupc_impl_get(dst, src, n, 1);
#else
    if (!tupc_impl_strict_word(dst, src.addr, n, 0))
        tupc_impl_strict_copy(dst, src, n, 0);
#endif
}

static inline void tupc_put_strict(tupc_sptr_t dst, const void *src, size_t n)
{
#if TUPC_HAVE_MPI
    tupc_impl_put(dst, src, n, 1);
#else
    if (!tupc_impl_strict_word((void *)src, dst.addr, n, 1))
        tupc_impl_strict_copy((void *)src, dst, n, 1);
#endif
}

/* tupc_get_int(p), tupc_put_int(p, v), tupc_get_strict_int(p),
 * tupc_put_strict_int(p, v), and so for each type below: the value at p. */
TUPC_IMPL_ACCESSORS(char, char)
TUPC_IMPL_ACCESSORS(schar, signed char)
TUPC_IMPL_ACCESSORS(uchar, unsigned char)
TUPC_IMPL_ACCESSORS(short, short)
TUPC_IMPL_ACCESSORS(ushort, unsigned short)
TUPC_IMPL_ACCESSORS(int, int)
TUPC_IMPL_ACCESSORS(uint, unsigned int)
TUPC_IMPL_ACCESSORS(long, long)
TUPC_IMPL_ACCESSORS(ulong, unsigned long)
TUPC_IMPL_ACCESSORS(llong, long long)
TUPC_IMPL_ACCESSORS(ullong, unsigned long long)
TUPC_IMPL_ACCESSORS(float, float)
TUPC_IMPL_ACCESSORS(double, double)
TUPC_IMPL_ACCESSORS(ldouble, long double)

/* upc_forall(init, cond, step, affinity): `affinity` is an integer (the thread
 * that runs the iteration is affinity mod THREADS) or a tupc_sptr_t (the
 * thread it has affinity to). Commas replace UPC's semicolons. */
#define upc_forall(init, cond, step, affinity)                                                     \
    for (init; cond; step)                                                                         \
        if (!tupc_impl_affine(affinity)) {                                                         \
        } else

/* ---- Allocation (UPC 1.3 7.2.2) ----------------------------------------- */

tupc_sptr_t upc_global_alloc(size_t nblocks, size_t nbytes);
tupc_sptr_t upc_all_alloc(size_t nblocks, size_t nbytes);
tupc_sptr_t upc_alloc(size_t nbytes);
void upc_free(tupc_sptr_t ptr);
void upc_all_free(tupc_sptr_t ptr);

/* Why the last allocation of the calling thread returned null ("" if it did not). */
const char *tupc_alloc_error(void);

/* ---- Memory (UPC 1.3 7.2.5) --------------------------------------------- */

void upc_memcpy(tupc_sptr_t dst, tupc_sptr_t src, size_t n);
void upc_memget(void *dst, tupc_sptr_t src, size_t n);
void upc_memput(tupc_sptr_t dst, const void *src, size_t n);
void upc_memset(tupc_sptr_t dst, int c, size_t n);
void upc_fence(void);

/* ---- Barriers (UPC 1.3 6.6.1) ------------------------------------------- */

/* upc_barrier(), upc_barrier(id), upc_notify(), upc_notify(id), upc_wait(),
 * upc_wait(id): without an id the statement matches any id. */
#define upc_barrier(...)                                                                           \
    tupc_impl_barrier(TUPC_IMPL_NAMED(__VA_ARGS__), TUPC_IMPL_ID((int), __VA_ARGS__))
#define upc_notify(...)                                                                            \
    tupc_impl_notify(TUPC_IMPL_NAMED(__VA_ARGS__), TUPC_IMPL_ID((int), __VA_ARGS__))
#define upc_wait(...) tupc_impl_wait(TUPC_IMPL_NAMED(__VA_ARGS__), TUPC_IMPL_ID((int), __VA_ARGS__))

/* ---- Locks (UPC 1.3 7.2.4) ---------------------------------------------- */

typedef struct tupc_lock upc_lock_t;

upc_lock_t *upc_global_lock_alloc(void);
upc_lock_t *upc_all_lock_alloc(void);
void upc_lock_free(upc_lock_t *lock);
void upc_all_lock_free(upc_lock_t *lock);
void upc_lock(upc_lock_t *lock);
int upc_lock_attempt(upc_lock_t *lock);
void upc_unlock(upc_lock_t *lock);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
