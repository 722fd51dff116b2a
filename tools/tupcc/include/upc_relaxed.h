/* UPC 1.3 6.7.1: the including file's unqualified shared accesses are relaxed. */
/* and declares what <upc.h> declares, as in every UPC toolchain */
#include <upc.h>
#pragma upc relaxed
