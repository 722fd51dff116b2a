/* What the MPI collectives' tests (mpi_coll.c, mpi_team.c) share: the
 * reductions' serial oracle over longs, and addresses in a thread's
 * partition of an area allocated with upc_all_alloc. */
#ifndef TUPC_TESTS_MPI_ORACLE_H
#define TUPC_TESTS_MPI_ORACLE_H

#include <upc.h>
#include <upc_collective.h>

#include <stddef.h>

/* A 2x2 matrix mod 251 packed in four 16-bit fields: the product is
 * associative and does not commute. */
static inline long mat_mul(long a, long b)
{
    long x[4], y[4], z[4];
    for (int i = 0; i < 4; i++)
        x[i] = (a >> (16 * i)) & 0xffff, y[i] = (b >> (16 * i)) & 0xffff;
    z[0] = (x[0] * y[0] + x[1] * y[2]) % 251;
    z[1] = (x[0] * y[1] + x[1] * y[3]) % 251;
    z[2] = (x[2] * y[0] + x[3] * y[2]) % 251;
    z[3] = (x[2] * y[1] + x[3] * y[3]) % 251;
    return z[0] | z[1] << 16 | z[2] << 32 | z[3] << 48;
}
static inline long add_l(long a, long b)
{
    return (long)((unsigned long)a + (unsigned long)b);
}

static inline long val_l(size_t i, int r, upc_op_t op)
{
    if (op == UPC_NONCOMM_FUNC)
        return (long)((i * 7 + r) % 251) | (long)((i * 3 + 1) % 251) << 16 |
               (long)((i * 5 + 2) % 251) << 32 | (long)((i + r + 3) % 251) << 48;
    if (op == UPC_MULT)
        return (long)(i % 3) + 1 - (i % 7 == 3) * 3;
    return (long)((i * 2654435761u + (size_t)r) % 1000003) - 500000;
}

static inline long oper_l(upc_op_t op, long a, long b)
{
    switch (op) {
    case UPC_ADD:
    case UPC_FUNC:
        return add_l(a, b);
    case UPC_MULT:
        return (long)((unsigned long)a * (unsigned long)b);
    case UPC_AND:
        return a & b;
    case UPC_OR:
        return a | b;
    case UPC_XOR:
        return a ^ b;
    case UPC_LOGAND:
        return a && b;
    case UPC_LOGOR:
        return a || b;
    case UPC_MIN:
        return b < a ? b : a;
    case UPC_MAX:
        return b > a ? b : a;
    default:
        return mat_mul(a, b);
    }
}

/* Thread t's area a of call i: the address in its partition. */
static inline unsigned char *part(tupc_sptr_t a, int t, size_t off)
{
    return (unsigned char *)a.addr + (size_t)t * tupc_impl_partition_size + off;
}

/* A pointer to offset off of thread t's partition of area a. */
static inline tupc_sptr_t at(tupc_sptr_t a, int t, size_t off)
{
    a.addr = (char *)part(a, t, off);
    a.thread = (unsigned)t;
    a.phase = 0;
    return a;
}

#endif
