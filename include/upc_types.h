/* upc_types.h: upc_op_t and upc_flag_t with their constants (UPC 1.3 7.3.1). */
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

/* Operators of the computational collectives. */
typedef int upc_op_t;

#define UPC_ADD 0
#define UPC_MULT 1
#define UPC_AND 2
#define UPC_OR 3
#define UPC_XOR 4
#define UPC_LOGAND 5
#define UPC_LOGOR 6
#define UPC_MIN 7
#define UPC_MAX 8
#define UPC_FUNC 9
#define UPC_NONCOMM_FUNC 10

#endif
