/* also: units_lib.upc units_c.c */
/* Separate compilation: shared objects
 * defined in one unit and declared extern in another, each unit's static
 * shared objects allocated before main, functions taking and returning
 * pointers-to-shared across units, and a C file using tupc's C API. */
#include <upc.h>
#include <stdio.h>
#include "units.h"

shared [BLK] int data[BLK * THREADS];

int main(void)
{
    int i;
    upc_forall (i = 0; i < BLK * THREADS; i++; &data[i])
        data[i] = i;
    upc_barrier;
    int bad = check_data(&data[0], BLK * THREADS);
    bad += lib_counter_bump();
    upc_barrier;
    bad += lib_counter_read() != THREADS;
    bad += c_side_sum() != THREADS * (THREADS - 1) / 2;
    shared [BLK] int *p = at(5 % (BLK * THREADS));
    bad += *p != 5 % (BLK * THREADS);
    if (bad)
        fprintf(stderr, "thread %d: %d failures\n", MYTHREAD, bad);
    return bad != 0;
}
