/* tupcc front end: what the pre-pass writes refers to these; -include'd
 * before the user's file, never part of the generated C. */
#ifdef __TUPCC_THREADS
enum { __tupc_THREADS = __TUPCC_THREADS };
#else
/* a prime far above any dimension: clang's array sizes say where THREADS is */
enum { __tupc_THREADS = 2147483647 }; /* upctypes.THREADS_PRIME */
#endif
int __tupc_forall();
unsigned long __tupc_blocksizeof(unsigned long);
unsigned long __tupc_elemsizeof(unsigned long);
unsigned long __tupc_localsizeof(unsigned long);
#define __UPC__ 1
#define __UPC_VERSION__ 201311L
/* The optional libraries of UPC 1.3 that tupc provides: <upc_nb.h>,
 * <upc_castable.h>, <upc_atomic.h>. */
#define __UPC_NB__ 1
#define __UPC_CASTABLE__ 1
#define __UPC_ATOMIC__ 1
/* UPC's keywords and predefined names, there without <upc.h>; the
 * generated C always includes tupc's <upc.h>. */
extern const int MYTHREAD;
void upc_barrier();
void upc_notify();
void upc_wait();
void upc_fence(void);
/* tupcc's largest block size (upctypes.MAX_BLOCK), usable in #if (6.3) */
#define UPC_MAX_BLOCK_SIZE 1000000UL
