/* upc_atomic.h: atomic memory operations (the UPC 1.3 optional library
 * <upc_atomic.h>). An atomic domain names a type and a set of operations;
 * the operations of one domain on one object are atomic with respect to
 * each other. All threads share one address space here: the operations are
 * C11 atomics on the object, lock-free where the hardware allows. */
#ifndef UPC_ATOMIC_H
#define UPC_ATOMIC_H

#include <upc.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#define __UPC_ATOMIC__ 1

/* The atomic operations beyond those of <upc_types.h> (UPC_ADD, UPC_MULT,
 * UPC_AND, UPC_OR, UPC_XOR, UPC_MIN, UPC_MAX), in bits of their own. */
#define UPC_GET (1 << 11)
#define UPC_SET (1 << 12)
#define UPC_CSWAP (1 << 13)
#define UPC_SUB (1 << 14)
#define UPC_INC (1 << 15)
#define UPC_DEC (1 << 16)

/* Hints to upc_all_atomicdomain_alloc: tupc has one implementation. */
typedef int upc_atomichint_t;
#define UPC_ATOMIC_HINT_DEFAULT 0
#define UPC_ATOMIC_HINT_LATENCY 1
#define UPC_ATOMIC_HINT_THROUGHPUT 2

/* A domain, as the program holds it: a number, never dereferenced. */
typedef struct tupc_atomicdomain upc_atomicdomain_t;

upc_atomicdomain_t *upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops,
                                               upc_atomichint_t hints);
void upc_all_atomicdomain_free(upc_atomicdomain_t *domain);
void upc_atomic_strict(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                       tupc_sptr_t target, const void *restrict operand1,
                       const void *restrict operand2);
void upc_atomic_relaxed(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                        tupc_sptr_t target, const void *restrict operand1,
                        const void *restrict operand2);
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, tupc_sptr_t addr);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
