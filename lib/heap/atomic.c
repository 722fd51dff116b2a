/* <upc_atomic.h>: atomic domains and their operations. Every thread shares
 * one address space, so an operation is an atomic read-modify-write on the
 * object itself: GCC's __atomic builtins, which act on a plain T (the
 * program declared the object as T, not _Atomic T), lock-free for the
 * integers, float and double; pointers-to-shared (16 bytes) under a lock
 * picked by their address.
 *
 * A domain is a number (slot and generation, as a lock is), never
 * dereferenced, so a freed or made-up domain is refused, not read. */
#include "check/error.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"

#include <upc_atomic.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define SECTION "UPC 1.3 <upc_atomic.h>"
#define MAX_DOMAINS 4096
#define ALL_OPS                                                                                    \
    (UPC_GET | UPC_SET | UPC_CSWAP | UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | UPC_DEC | UPC_AND |  \
     UPC_OR | UPC_XOR | UPC_MIN | UPC_MAX)
#define BIT_OPS (UPC_AND | UPC_OR | UPC_XOR)
#define PTS_OPS (UPC_GET | UPC_SET | UPC_CSWAP)

typedef unsigned long ulong_; /* a name for INT_OP */

struct domain {
    /* Odd while the slot holds a live domain: bumped by each allocation and
     * each free, so a freed domain's number no longer matches. */
    _Atomic uint32_t gen;
    upc_type_t type;
    upc_op_t ops;
};

#define STRIPES 64

/* The domains' table, and the locks of the pointer-to-shared operations
 * (stripes, by the target's address). */
static struct atomic_state {
    struct domain domains[MAX_DOMAINS];
    pthread_mutex_t table_lock;
    pthread_mutex_t stripes[STRIPES];
} atomic_ = {.table_lock = PTHREAD_MUTEX_INITIALIZER,
             .stripes = {[0 ... STRIPES - 1] = PTHREAD_MUTEX_INITIALIZER}};

static const char *type_name(upc_type_t t)
{
    switch (t) {
    case UPC_INT:
        return "UPC_INT";
    case UPC_UINT:
        return "UPC_UINT";
    case UPC_LONG:
        return "UPC_LONG";
    case UPC_ULONG:
        return "UPC_ULONG";
    case UPC_INT32:
        return "UPC_INT32";
    case UPC_UINT32:
        return "UPC_UINT32";
    case UPC_INT64:
        return "UPC_INT64";
    case UPC_UINT64:
        return "UPC_UINT64";
    case UPC_FLOAT:
        return "UPC_FLOAT";
    case UPC_DOUBLE:
        return "UPC_DOUBLE";
    case UPC_PTS:
        return "UPC_PTS";
    default:
        return NULL;
    }
}

static size_t type_size(upc_type_t t)
{
    switch (t) {
    case UPC_INT:
    case UPC_UINT:
        return sizeof(int);
    case UPC_LONG:
    case UPC_ULONG:
        return sizeof(long);
    case UPC_INT32:
    case UPC_UINT32:
        return 4;
    case UPC_INT64:
    case UPC_UINT64:
        return 8;
    case UPC_FLOAT:
        return sizeof(float);
    case UPC_DOUBLE:
        return sizeof(double);
    default:
        return sizeof(tupc_sptr_t);
    }
}

static const char *op_name(upc_op_t op)
{
    switch (op) {
    case UPC_GET:
        return "UPC_GET";
    case UPC_SET:
        return "UPC_SET";
    case UPC_CSWAP:
        return "UPC_CSWAP";
    case UPC_ADD:
        return "UPC_ADD";
    case UPC_SUB:
        return "UPC_SUB";
    case UPC_MULT:
        return "UPC_MULT";
    case UPC_INC:
        return "UPC_INC";
    case UPC_DEC:
        return "UPC_DEC";
    case UPC_AND:
        return "UPC_AND";
    case UPC_OR:
        return "UPC_OR";
    case UPC_XOR:
        return "UPC_XOR";
    case UPC_MIN:
        return "UPC_MIN";
    case UPC_MAX:
        return "UPC_MAX";
    default:
        return "no single atomic operation";
    }
}

/* type and ops make a domain: refused in one line otherwise. */
static void check_type_ops(const char *func, upc_type_t type, upc_op_t ops)
{
    if (!type_name(type))
        tupc_fail(func, SECTION,
                  "type is %d; expected UPC_INT, UPC_UINT, UPC_LONG, UPC_ULONG, UPC_INT32, "
                  "UPC_UINT32, UPC_INT64, UPC_UINT64, UPC_FLOAT, UPC_DOUBLE or UPC_PTS",
                  type);
    if (ops <= 0 || (ops & ~ALL_OPS))
        tupc_fail(func, SECTION,
                  "ops is %#x; expected a non-empty OR of UPC_GET, UPC_SET, UPC_CSWAP, UPC_ADD, "
                  "UPC_SUB, UPC_MULT, UPC_INC, UPC_DEC, UPC_AND, UPC_OR, UPC_XOR, UPC_MIN, UPC_MAX",
                  (unsigned)ops);
    if (type == UPC_PTS && (ops & ~PTS_OPS))
        tupc_fail(func, SECTION,
                  "ops is %#x with type UPC_PTS; expected an OR of UPC_GET, UPC_SET and UPC_CSWAP "
                  "only (pointers-to-shared have no arithmetic)",
                  (unsigned)ops);
    if ((type == UPC_FLOAT || type == UPC_DOUBLE) && (ops & BIT_OPS))
        tupc_fail(func, SECTION,
                  "ops is %#x with floating type %s; expected no bitwise operation (UPC_AND, "
                  "UPC_OR, UPC_XOR)",
                  (unsigned)ops, type_name(type));
}

upc_atomicdomain_t *upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops,
                                               upc_atomichint_t hints)
{
    const char *func = "upc_all_atomicdomain_alloc";
    tupc_require_thread(func);
    check_type_ops(func, type, ops);
    if (hints != UPC_ATOMIC_HINT_DEFAULT && hints != UPC_ATOMIC_HINT_LATENCY &&
        hints != UPC_ATOMIC_HINT_THROUGHPUT)
        tupc_fail(func, SECTION,
                  "hints is %d; expected UPC_ATOMIC_HINT_DEFAULT, UPC_ATOMIC_HINT_LATENCY or "
                  "UPC_ATOMIC_HINT_THROUGHPUT",
                  hints);
    uintptr_t number = 0;
    if (tupc_impl_mythread == 0) {
        pthread_mutex_lock(&atomic_.table_lock);
        for (uint32_t i = 0; i < MAX_DOMAINS && !number; i++) {
            struct domain *d = &atomic_.domains[i];
            /* Relaxed: the table lock orders allocations and frees. */
            uint32_t gen = atomic_load_explicit(&d->gen, memory_order_relaxed);
            if (gen & 1)
                continue;
            d->type = type;
            d->ops = ops;
            /* Relaxed: the broadcast below is a barrier, which publishes
             * type and ops with the number to every thread. */
            atomic_store_explicit(&d->gen, gen + 1, memory_order_relaxed);
            number = (uintptr_t)(gen + 1) << 32 | (uintptr_t)i << 1 | 1;
        }
        pthread_mutex_unlock(&atomic_.table_lock);
        if (!number)
            tupc_fail(func, SECTION,
                      "%d atomic domains are live; expected fewer (free some with "
                      "upc_all_atomicdomain_free)",
                      MAX_DOMAINS);
    }
    upc_atomicdomain_t *h =
        tupc_barrier_bcast(func, tupc_impl_mythread == 0 ? (void *)number : NULL);
    const struct domain *d = &atomic_.domains[((uintptr_t)h & 0xffffffffu) >> 1];
    if (d->type != type || d->ops != ops)
        tupc_fail(func, SECTION,
                  "type %s and ops %#x differ from thread 0's %s and %#x; expected the same "
                  "arguments on every thread",
                  type_name(type), (unsigned)ops, type_name(d->type), (unsigned)d->ops);
    return h;
}

/* The domain that number h names, or a failure naming func. */
static struct domain *domain_of(const char *func, upc_atomicdomain_t *h)
{
    uintptr_t v = (uintptr_t)h;
    uint32_t i = (uint32_t)v >> 1, gen = (uint32_t)(v >> 32);
    if (!h)
        tupc_fail(func, SECTION, "domain is NULL; expected one from upc_all_atomicdomain_alloc");
    if (!(v & 1) || !(gen & 1) || i >= MAX_DOMAINS)
        tupc_fail(func, SECTION,
                  "domain (%p) is none that upc_all_atomicdomain_alloc returned; expected one of "
                  "its domains",
                  (void *)h);
    struct domain *d = &atomic_.domains[i];
    /* Relaxed: a match needs no ordering (the allocation reached this
     * thread through a barrier); a mismatch means the domain was freed. */
    if (atomic_load_explicit(&d->gen, memory_order_relaxed) != gen)
        tupc_fail(func, SECTION,
                  "domain (%p) was freed by upc_all_atomicdomain_free; expected a live domain",
                  (void *)h);
    return d;
}

void upc_all_atomicdomain_free(upc_atomicdomain_t *h)
{
    const char *func = "upc_all_atomicdomain_free";
    tupc_require_thread(func);
    if (h)
        (void)domain_of(func, h);
    /* Every thread must be done with the domain before it goes. */
    tupc_barrier_all(func);
    if (h && tupc_impl_mythread == 0) {
        pthread_mutex_lock(&atomic_.table_lock);
        struct domain *d = domain_of(func, h);
        /* Relaxed: under the table lock; a later use is refused by number. */
        atomic_fetch_add_explicit(&d->gen, 1, memory_order_relaxed);
        pthread_mutex_unlock(&atomic_.table_lock);
    }
    /* No thread may see the domain live after this call returns. */
    tupc_barrier_all(func);
}

/* One operation on an integer type T, in memory order mo. MULT, MIN and
 * MAX are compare-and-swap loops; the rest are one builtin each. */
#define INT_OP(T)                                                                                  \
    static T int_op_##T(upc_op_t op, T *p, const T *a, const T *b, int mo)                         \
    {                                                                                              \
        T old, next;                                                                               \
        switch (op) {                                                                              \
        case UPC_GET:                                                                              \
            return __atomic_load_n(p, mo);                                                         \
        case UPC_SET:                                                                              \
            return __atomic_exchange_n(p, *a, mo);                                                 \
        case UPC_CSWAP:                                                                            \
            old = *a;                                                                              \
            /* on failure, old becomes the value found: what CSWAP returns */                      \
            __atomic_compare_exchange_n(p, &old, *b, 0, mo, mo);                                   \
            return old;                                                                            \
        case UPC_ADD:                                                                              \
            return __atomic_fetch_add(p, *a, mo);                                                  \
        case UPC_SUB:                                                                              \
            return __atomic_fetch_sub(p, *a, mo);                                                  \
        case UPC_INC:                                                                              \
            return __atomic_fetch_add(p, 1, mo);                                                   \
        case UPC_DEC:                                                                              \
            return __atomic_fetch_sub(p, 1, mo);                                                   \
        case UPC_AND:                                                                              \
            return __atomic_fetch_and(p, *a, mo);                                                  \
        case UPC_OR:                                                                               \
            return __atomic_fetch_or(p, *a, mo);                                                   \
        case UPC_XOR:                                                                              \
            return __atomic_fetch_xor(p, *a, mo);                                                  \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
        old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                \
        do {                                                                                       \
            if (op == UPC_MULT)                                                                    \
                next = (T)((uint64_t)old * (uint64_t)*a); /* wraps, as the builtins do */          \
            else if (op == UPC_MIN)                                                                \
                next = *a < old ? *a : old;                                                        \
            else                                                                                   \
                next = *a > old ? *a : old;                                                        \
        } while (!__atomic_compare_exchange_n(p, &old, next, 1, mo, __ATOMIC_RELAXED));            \
        return old;                                                                                \
    }

/* The same on float or double: every operation a compare-and-swap loop on
 * the value (CSWAP compares values, as C's == does: -0.0 equals 0.0). */
#define FLOAT_OP(T)                                                                                \
    static T float_op_##T(upc_op_t op, T *p, const T *a, const T *b, int mo)                       \
    {                                                                                              \
        T old, next;                                                                               \
        if (op == UPC_GET) {                                                                       \
            __atomic_load(p, &old, mo);                                                            \
            return old;                                                                            \
        }                                                                                          \
        __atomic_load(p, &old, __ATOMIC_RELAXED);                                                  \
        do {                                                                                       \
            switch (op) {                                                                          \
            case UPC_SET:                                                                          \
                next = *a;                                                                         \
                break;                                                                             \
            case UPC_CSWAP:                                                                        \
                if (!(old == *a)) {                                                                \
                    /* no store: still one access in the order mo asks */                          \
                    __atomic_load(p, &old, mo);                                                    \
                    if (!(old == *a))                                                              \
                        return old;                                                                \
                }                                                                                  \
                next = *b;                                                                         \
                break;                                                                             \
            case UPC_ADD:                                                                          \
                next = old + *a;                                                                   \
                break;                                                                             \
            case UPC_SUB:                                                                          \
                next = old - *a;                                                                   \
                break;                                                                             \
            case UPC_MULT:                                                                         \
                next = old * *a;                                                                   \
                break;                                                                             \
            case UPC_INC:                                                                          \
                next = old + 1;                                                                    \
                break;                                                                             \
            case UPC_DEC:                                                                          \
                next = old - 1;                                                                    \
                break;                                                                             \
            case UPC_MIN:                                                                          \
                next = *a < old ? *a : old;                                                        \
                break;                                                                             \
            default:                                                                               \
                next = *a > old ? *a : old;                                                        \
                break;                                                                             \
            }                                                                                      \
        } while (!__atomic_compare_exchange(p, &old, &next, 1, mo, __ATOMIC_RELAXED));             \
        return old;                                                                                \
    }

INT_OP(int)
INT_OP(unsigned)
INT_OP(long)
INT_OP(ulong_)
INT_OP(int32_t)
INT_OP(uint32_t)
INT_OP(int64_t)
INT_OP(uint64_t)
FLOAT_OP(float)
FLOAT_OP(double)

/* GET, SET and CSWAP on a pointer-to-shared, under its stripe's lock; the
 * lock's acquire and release order it with the other operations on it. */
static tupc_sptr_t pts_op(upc_op_t op, tupc_sptr_t *p, const tupc_sptr_t *a, const tupc_sptr_t *b)
{
    pthread_mutex_t *m = &atomic_.stripes[((uintptr_t)p >> 4) % STRIPES];
    pthread_mutex_lock(m);
    tupc_sptr_t old = *p;
    if (op == UPC_SET)
        *p = *a;
    else if (op == UPC_CSWAP && tupc_ptr_eq(old, *a))
        *p = *b;
    pthread_mutex_unlock(m);
    return old;
}

static void atomic_op(const char *func, int strict, upc_atomicdomain_t *h, void *fetch_ptr,
                      upc_op_t op, tupc_sptr_t target, const void *a, const void *b)
{
    tupc_require_thread(func);
    const struct domain *d = domain_of(func, h);
    if (op <= 0 || (op & (op - 1)) || !(op & ALL_OPS))
        tupc_fail(func, SECTION, "op is %#x; expected one atomic operation (UPC_GET, UPC_SET, ...)",
                  (unsigned)op);
    if (!(d->ops & op))
        tupc_fail(func, SECTION,
                  "op is %s, which the domain (type %s, ops %#x) was not allocated with; "
                  "expected one of its operations",
                  op_name(op), type_name(d->type), (unsigned)d->ops);
    if (!target.addr)
        tupc_fail(func, SECTION, "target is the null pointer-to-shared; expected a shared object");
    size_t size = type_size(d->type);
    if ((uintptr_t)target.addr % (size > 8 ? 8 : size))
        tupc_fail(func, SECTION,
                  "target (%p) is not aligned for %s; expected an object of that type",
                  (void *)target.addr, type_name(d->type));
    if (op == UPC_GET && !fetch_ptr)
        tupc_fail(func, SECTION, "fetch_ptr is NULL with UPC_GET; expected where to put the value");
    if (!a && !(op & (UPC_GET | UPC_INC | UPC_DEC)))
        tupc_fail(func, SECTION, "operand1 is NULL with %s; expected the operand's address",
                  op_name(op));
    if (!b && op == UPC_CSWAP)
        tupc_fail(func, SECTION,
                  "operand2 is NULL with UPC_CSWAP; expected the address of the value to store");
    /* Strict: ordered as a strict access (UPC 1.3 B): a full fence before
     * and after, and the operation itself sequentially consistent. Relaxed:
     * atomic, and ordered only by the program's own fences and barriers. */
    int mo = strict ? __ATOMIC_SEQ_CST : __ATOMIC_RELAXED;
    if (strict)
        upc_fence();
    void *p = target.addr;
    union {
        int i;
        unsigned u;
        long l;
        unsigned long ul;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f;
        double g;
        tupc_sptr_t s;
    } r;
    switch (d->type) {
    case UPC_INT:
        r.i = int_op_int(op, p, a, b, mo);
        break;
    case UPC_UINT:
        r.u = int_op_unsigned(op, p, a, b, mo);
        break;
    case UPC_LONG:
        r.l = int_op_long(op, p, a, b, mo);
        break;
    case UPC_ULONG:
        r.ul = int_op_ulong_(op, p, a, b, mo);
        break;
    case UPC_INT32:
        r.i32 = int_op_int32_t(op, p, a, b, mo);
        break;
    case UPC_UINT32:
        r.u32 = int_op_uint32_t(op, p, a, b, mo);
        break;
    case UPC_INT64:
        r.i64 = int_op_int64_t(op, p, a, b, mo);
        break;
    case UPC_UINT64:
        r.u64 = int_op_uint64_t(op, p, a, b, mo);
        break;
    case UPC_FLOAT:
        r.f = float_op_float(op, p, a, b, mo);
        break;
    case UPC_DOUBLE:
        r.g = float_op_double(op, p, a, b, mo);
        break;
    default:
        r.s = pts_op(op, p, a, b);
        break;
    }
    if (strict)
        upc_fence();
    if (fetch_ptr)
        memcpy(fetch_ptr, &r, size);
}

void upc_atomic_strict(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                       tupc_sptr_t target, const void *restrict operand1,
                       const void *restrict operand2)
{
    atomic_op("upc_atomic_strict", 1, domain, fetch_ptr, op, target, operand1, operand2);
}

void upc_atomic_relaxed(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                        tupc_sptr_t target, const void *restrict operand1,
                        const void *restrict operand2)
{
    atomic_op("upc_atomic_relaxed", 0, domain, fetch_ptr, op, target, operand1, operand2);
}

int upc_atomic_isfast(upc_type_t type, upc_op_t ops, tupc_sptr_t addr)
{
    tupc_require_thread("upc_atomic_isfast");
    check_type_ops("upc_atomic_isfast", type, ops);
    (void)addr; /* one node: where the object is changes nothing */
    /* Lock-free on every properly aligned object of the type: fast. */
    if (type == UPC_PTS)
        return 0;
    return type_size(type) == 4 ? __atomic_always_lock_free(4, 0) : __atomic_always_lock_free(8, 0);
}
