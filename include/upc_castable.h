/* upc_castable.h: castability (the UPC 1.3 optional library
 * <upc_castable.h>): which pointers-to-shared a thread may turn into
 * ordinary pointers with upc_cast. tupc runs every thread in one address
 * space, so every shared object of the run is castable from every thread. */
#ifndef UPC_CASTABLE_H
#define UPC_CASTABLE_H

#include <upc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define __UPC_CASTABLE__ 1

/* Kinds of shared objects, as bits of upc_thread_info_t's fields. */
#define UPC_CASTABLE_ALL_ALLOC (1 << 0)    /* upc_all_alloc */
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1) /* upc_global_alloc */
#define UPC_CASTABLE_ALLOC (1 << 2)        /* upc_alloc */
#define UPC_CASTABLE_STATIC (1 << 3)       /* objects of static storage duration */
#define UPC_CASTABLE_ALL                                                                           \
    (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC | UPC_CASTABLE_STATIC)

/* Which kinds of the objects with affinity to a thread the calling thread
 * can cast: for certain, and most likely. */
typedef struct {
    int guaranteedCastable;
    int probablyCastable;
} upc_thread_info_t;

upc_thread_info_t upc_thread_info(size_t threadId);

#ifdef __cplusplus
}
#endif

#endif
