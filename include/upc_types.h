/* upc_types.h: upc_op_t, upc_type_t and upc_flag_t with their constants (UPC 1.3 7.3). */
#ifndef UPC_TYPES_H
#define UPC_TYPES_H

/* Sync-mode flags. Each constant is its own bit, so a value that names two IN
 * modes (or two OUT modes) can be told apart from a valid one and refused. */
typedef int upc_flag_t;

#define UPC_IN_NOSYNC 0x01
#define UPC_IN_MYSYNC 0x02
#define UPC_IN_ALLSYNC 0x04
#define UPC_OUT_NOSYNC 0x08
#define UPC_OUT_MYSYNC 0x10
#define UPC_OUT_ALLSYNC 0x20

/* Operators: of the computational collectives, and (OR-ed into a set) of
 * an atomic domain. UPC 1.3 7.3.1 wants every OR of them distinct and
 * below 65536: each is its own bit. <upc_atomic.h> adds its own bits. */
typedef int upc_op_t;

#define UPC_ADD (1 << 0)
#define UPC_MULT (1 << 1)
#define UPC_AND (1 << 2)
#define UPC_OR (1 << 3)
#define UPC_XOR (1 << 4)
#define UPC_LOGAND (1 << 5)
#define UPC_LOGOR (1 << 6)
#define UPC_MIN (1 << 7)
#define UPC_MAX (1 << 8)
#define UPC_FUNC (1 << 9)
#define UPC_NONCOMM_FUNC (1 << 10)

/* Types, as the atomic domains name them (UPC 1.3 7.3.2): distinct values
 * from 1, below 65536. */
typedef int upc_type_t;

#define UPC_CHAR 1
#define UPC_UCHAR 2
#define UPC_SHORT 3
#define UPC_USHORT 4
#define UPC_INT 5
#define UPC_UINT 6
#define UPC_LONG 7
#define UPC_ULONG 8
#define UPC_LLONG 9
#define UPC_ULLONG 10
#define UPC_INT8 11
#define UPC_UINT8 12
#define UPC_INT16 13
#define UPC_UINT16 14
#define UPC_INT32 15
#define UPC_UINT32 16
#define UPC_INT64 17
#define UPC_UINT64 18
#define UPC_FLOAT 19
#define UPC_DOUBLE 20
#define UPC_LDOUBLE 21
#define UPC_PTS 22

#endif
