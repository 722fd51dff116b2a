/* The C unit of units.upc: tupc's C API on units_lib.upc's slots
 * (shared int slots[THREADS], block size 1). */
#include <upc.h>

#include "units.h"

extern tupc_sptr_t slots;

int c_side_sum(void)
{
    int s = 0;
    for (int t = 0; t < THREADS; t++)
        s += tupc_ref(slots, t, 1, int);
    return s;
}
