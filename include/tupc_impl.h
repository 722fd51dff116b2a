/* tupc_impl.h: what the macros and inline functions of the public headers
 * need, and nothing else. Not an API: every name here starts with
 * tupc_impl_ or TUPC_IMPL_ and may change between versions. Included by
 * <upc.h> and <upc_collective_ext.h> where the types a part needs are
 * defined, as liburcu keeps its static/ headers. */
#if !defined(UPC_H)
#error "include <upc.h>, not <tupc_impl.h>"
#endif

#if !defined(TUPC_IMPL_CORE_)
#define TUPC_IMPL_CORE_

#ifdef __cplusplus
/* __thread, not thread_local: a C++ thread_local is reached through a
 * wrapper function that checks for dynamic initialisation. */
#define TUPC_IMPL_THREAD_LOCAL __thread
#define TUPC_IMPL_NORETURN [[noreturn]]
#else
#define TUPC_IMPL_THREAD_LOCAL _Thread_local
#define TUPC_IMPL_NORETURN _Noreturn
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* THREADS, MYTHREAD and the bytes of one thread's partition. */
extern int tupc_impl_threads;
extern TUPC_IMPL_THREAD_LOCAL int tupc_impl_mythread __attribute__((tls_model("initial-exec")));
extern size_t tupc_impl_partition_size;

/* tupc_run_opts with the size of the caller's tupc_options. */
int tupc_impl_run_opts(const tupc_options *opts, size_t size, int (*entry)(void *arg), void *arg);

/* For libtupc_main's main(): upc_global_exit then exits the process. */
void tupc_impl_set_main_mode(void);

/* Floor division, for tupc_ptr_add. */
static inline int64_t tupc_impl_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* upc_forall's affinity test: an integer picks thread a mod THREADS, a
 * pointer-to-shared the thread it has affinity to. */
static inline int tupc_impl_affine_int(long long a)
{
    long long t = a % tupc_impl_threads;
    return (t < 0 ? t + tupc_impl_threads : t) == tupc_impl_mythread;
}
/* Unsigned 64-bit affinities reduce as unsigned: converting one above
 * LLONG_MAX to long long would make it negative and pick another thread. */
static inline int tupc_impl_affine_uint(unsigned long long a)
{
    return (long long)(a % (unsigned long long)tupc_impl_threads) == tupc_impl_mythread;
}
static inline int tupc_impl_affine_ptr(tupc_sptr_t p)
{
    return (int)p.thread == tupc_impl_mythread;
}

#if TUPC_HAVE_MPI
/* This process's threads: MYTHREAD from first to first + local - 1
 * (local is 0 outside a run, where every thread is another's). */
extern int tupc_impl_first_thread;
extern int tupc_impl_local_threads;
static inline int tupc_impl_is_local(uint32_t t)
{
    /* Unsigned: a thread below first wraps to a large number. */
    return t - (uint32_t)tupc_impl_first_thread < (uint32_t)tupc_impl_local_threads;
}
/* The accessors' way to another process's data, through its MPI window. */
void tupc_impl_get(void *dst, tupc_sptr_t src, size_t n, int strict);
void tupc_impl_put(tupc_sptr_t dst, const void *src, size_t n, int strict);
/* Refuses p where func needs an address of this process. */
TUPC_IMPL_NORETURN void tupc_impl_refuse_remote(const char *func, tupc_sptr_t p);
static inline char *tupc_impl_here(tupc_sptr_t p, const char *func)
{
    if (__builtin_expect(!tupc_impl_is_local(p.thread), 0) && p.addr)
        tupc_impl_refuse_remote(func, p);
    return p.addr;
}
#endif

/* A strict access is ordered with every other access of the thread
 * (UPC 1.3 5.1.2.3): a full fence on each side. */
static inline void tupc_impl_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Whether a strict access of n bytes at a is one atomic access: 1, 2, 4
 * or 8 aligned bytes. */
static inline int tupc_impl_strict_fits_word(const void *a, size_t n)
{
    return (n == 1 || n == 2 || n == 4 || n == 8) && !((uintptr_t)a & (n - 1));
}

/* A strict access of 1, 2, 4 or 8 aligned bytes: one atomic load or store
 * between the fences, so that it is never seen in part. 0 where the object
 * is wider or unaligned: tupc_impl_strict_copy then takes it. */
static inline int tupc_impl_strict_word(void *local, void *shared, size_t n, int put)
{
    if (!tupc_impl_strict_fits_word(shared, n))
        return 0;
    tupc_impl_fence();
    /* Each size its own atomic: n is a constant in the typed accessors, so
     * one branch is left. seq_cst as the fences around it. */
#define TUPC_IMPL_WORD_(U)                                                                         \
    if (n == sizeof(U)) {                                                                          \
        U v;                                                                                       \
        if (put) {                                                                                 \
            memcpy(&v, local, sizeof v);                                                           \
            __atomic_store_n((U *)shared, v, __ATOMIC_SEQ_CST);                                    \
        } else {                                                                                   \
            v = __atomic_load_n((U *)shared, __ATOMIC_SEQ_CST);                                    \
            memcpy(local, &v, sizeof v);                                                           \
        }                                                                                          \
    }
    TUPC_IMPL_WORD_(uint8_t)
    TUPC_IMPL_WORD_(uint16_t)
    TUPC_IMPL_WORD_(uint32_t)
    TUPC_IMPL_WORD_(uint64_t)
#undef TUPC_IMPL_WORD_
    tupc_impl_fence();
    return 1;
}

/* A strict access to a wider object (a struct, a long double): a copy
 * under the run's strict lock between two fences, so that no strict read
 * sees parts of two strict writes. put: local to p, else p to local. */
void tupc_impl_strict_copy(void *local, tupc_sptr_t p, size_t n, int put);

/* The typed accessors of <upc.h>: tupc_get_NAME and its put and strict forms. */
#define TUPC_IMPL_ACCESSORS(NAME, T)                                                               \
    static inline T tupc_get_##NAME(tupc_sptr_t p)                                                 \
    {                                                                                              \
        T v;                                                                                       \
        tupc_get(&v, p, sizeof v);                                                                 \
        return v;                                                                                  \
    }                                                                                              \
    static inline void tupc_put_##NAME(tupc_sptr_t p, T v)                                         \
    {                                                                                              \
        tupc_put(p, &v, sizeof v);                                                                 \
    }                                                                                              \
    static inline T tupc_get_strict_##NAME(tupc_sptr_t p)                                          \
    {                                                                                              \
        T v;                                                                                       \
        tupc_get_strict(&v, p, sizeof v);                                                          \
        return v;                                                                                  \
    }                                                                                              \
    static inline void tupc_put_strict_##NAME(tupc_sptr_t p, T v)                                  \
    {                                                                                              \
        tupc_put_strict(p, &v, sizeof v);                                                          \
    }

/* The barrier statements; named is 0 where no id was given. */
void tupc_impl_barrier(int named, int id);
void tupc_impl_notify(int named, int id);
void tupc_impl_wait(int named, int id);

#ifdef __cplusplus
}

extern "C++" {
/* Overloads where C has _Generic: exact matches for the pointer and the
 * unsigned 64-bit types, the template for every other integer. */
inline int tupc_impl_affine(tupc_sptr_t p)
{
    return tupc_impl_affine_ptr(p);
}
inline int tupc_impl_affine(unsigned long a)
{
    return tupc_impl_affine_uint(a);
}
inline int tupc_impl_affine(unsigned long long a)
{
    return tupc_impl_affine_uint(a);
}
template <typename T> inline int tupc_impl_affine(T a)
{
    return tupc_impl_affine_int(static_cast<long long>(a));
}
}
#else
/* clang-format cannot lay out _Generic associations. */
/* clang-format off */
#define tupc_impl_affine(a)                                                                        \
    _Generic((a),                                                                                  \
        tupc_sptr_t: tupc_impl_affine_ptr,                                                         \
        unsigned long: tupc_impl_affine_uint,                                                      \
        unsigned long long: tupc_impl_affine_uint,                                                 \
        default: tupc_impl_affine_int)(a)
/* clang-format on */
#endif

/* An optional barrier id without __VA_OPT__ (C23, C++20): whether the
 * argument list is empty, decided by the preprocessor as in Jens
 * Gustedt's ISEMPTY (an empty list is the only one for which only the
 * last of the four probes below finds a comma). Lists of up to 14 commas.
 * TUPC_IMPL_ID(f, ...) is 0 for an empty list, else f(...). */
#define TUPC_IMPL_ARG15_(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15,     \
                         ...)                                                                      \
    a15
#define TUPC_IMPL_HAS_COMMA_(...)                                                                  \
    TUPC_IMPL_ARG15_(__VA_ARGS__, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, ~)
#define TUPC_IMPL_COMMA_(...) ,
#define TUPC_IMPL_PASTE5_(a, b, c, d, e) a##b##c##d##e
#define TUPC_IMPL_EMPTY_CASE_0001 ,
#define TUPC_IMPL_ISEMPTY_(a, b, c, d)                                                             \
    TUPC_IMPL_HAS_COMMA_(TUPC_IMPL_PASTE5_(TUPC_IMPL_EMPTY_CASE_, a, b, c, d))
#define TUPC_IMPL_ISEMPTY(...)                                                                     \
    TUPC_IMPL_ISEMPTY_(                                                                            \
        TUPC_IMPL_HAS_COMMA_(__VA_ARGS__), TUPC_IMPL_HAS_COMMA_(TUPC_IMPL_COMMA_ __VA_ARGS__),     \
        TUPC_IMPL_HAS_COMMA_(__VA_ARGS__()), TUPC_IMPL_HAS_COMMA_(TUPC_IMPL_COMMA_ __VA_ARGS__()))
#define TUPC_IMPL_CAT_(a, b) a##b
#define TUPC_IMPL_CAT(a, b) TUPC_IMPL_CAT_(a, b)
#define TUPC_IMPL_NAMED_0 1
#define TUPC_IMPL_NAMED_1 0
#define TUPC_IMPL_NAMED(...) TUPC_IMPL_CAT(TUPC_IMPL_NAMED_, TUPC_IMPL_ISEMPTY(__VA_ARGS__))
#define TUPC_IMPL_ID_0(f, ...) f(__VA_ARGS__)
#define TUPC_IMPL_ID_1(f, ...) 0
#define TUPC_IMPL_ID(f, ...)                                                                       \
    TUPC_IMPL_CAT(TUPC_IMPL_ID_, TUPC_IMPL_ISEMPTY(__VA_ARGS__))(f, __VA_ARGS__)

#endif /* TUPC_IMPL_CORE_ */

#if defined(TUPC_IN_PLACE_SPTR) && !defined(TUPC_IMPL_EXT_)
#define TUPC_IMPL_EXT_

/* UPC_IN_PLACE as a src argument: an int becomes TUPC_IN_PLACE_SPTR; any
 * other int value gives a pointer that the called function refuses as
 * outside the heap. */
#ifdef __cplusplus
extern "C++" {
inline tupc_sptr_t tupc_impl_src(tupc_sptr_t p)
{
    return p;
}
inline tupc_sptr_t tupc_impl_src(long v)
{
    return v == UPC_IN_PLACE ? TUPC_IN_PLACE_SPTR
                             : tupc_sptr_t{reinterpret_cast<char *>(uintptr_t{1}), 0u, 0u};
}
}
#else
static inline tupc_sptr_t tupc_impl_src_sptr(tupc_sptr_t p)
{
    return p;
}
static inline tupc_sptr_t tupc_impl_src_int(long v)
{
    return v == UPC_IN_PLACE ? TUPC_IN_PLACE_SPTR : (tupc_sptr_t){(char *)(uintptr_t)1, 0, 0};
}
/* clang-format off */
#define tupc_impl_src(s) _Generic((s), tupc_sptr_t: tupc_impl_src_sptr, default: tupc_impl_src_int)(s)
/* clang-format on */
#endif

/* upc_wait(x): the completion of Extended Collectives 0.3 section 5.4.1
 * for a handle, else the barrier's upc_wait(id) (upc_wait() stays the
 * barrier's). Selected by type, so a handle is never read as a barrier id. */
#ifdef __cplusplus
extern "C++" {
inline void tupc_impl_wait_one(int id)
{
    tupc_impl_wait(1, id);
}
inline void tupc_impl_wait_one(upc_coll_handle_t h)
{
    tupc_wait_handle(h);
}
}
#else
static inline void tupc_impl_wait_id(int id)
{
    tupc_impl_wait(1, id);
}
/* clang-format off */
#define tupc_impl_wait_one(x)                                                                      \
    _Generic((x), upc_coll_handle_t: tupc_wait_handle, default: tupc_impl_wait_id)(x)
/* clang-format on */
#endif

/* upc_wait()'s choice, by whether it has an argument. */
#define tupc_impl_waitsel_1(...) tupc_impl_wait(0, 0)
#define tupc_impl_waitsel_0(...) tupc_impl_wait_one(__VA_ARGS__)

#endif /* TUPC_IMPL_EXT_ */
