/* The library unit of units.upc. */
#include <upc.h>
#include "units.h"

static shared int counter;
shared int slots[THREADS];

int check_data(shared [BLK] int *p, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += p[i] != i;
    return bad;
}

shared [BLK] int *at(int i)
{
    return &data[i];
}

int lib_counter_bump(void)
{
    upc_lock_t *l = upc_all_lock_alloc();
    upc_lock(l);
    counter += 1;
    upc_unlock(l);
    slots[MYTHREAD] = MYTHREAD;
    upc_barrier;
    upc_all_lock_free(l);
    return 0;
}

int lib_counter_read(void)
{
    return counter;
}
