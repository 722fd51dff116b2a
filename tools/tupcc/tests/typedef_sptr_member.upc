/* Pointers-to-shared in a struct defined inside a typedef (as the
 * collectives libraries write their handles), in prototypes, shared
 * pointers to shared, arrays of them, and null pointer constants. */
#include <upc.h>
#include <stddef.h>
#include <stdio.h>
typedef struct {
    shared int *p;
    shared [] int *blk[2];
    int n;
} handle_t, *handle_p;
typedef shared int sint;
shared int data[THREADS];
shared int *shared owner;
shared int *ptrs[3];

static int bump(handle_t *h, shared int *q);
static int bump(handle_t *h, shared int *q)
{
    *h->p += h->n;
    return q == NULL;
}

int main(void)
{
    int bad = 0;
    handle_t h = {&data[MYTHREAD], {NULL, 0}, 2};
    handle_p hp = &h;
    data[MYTHREAD] = 1;
    bad += bump(hp, NULL) != 1 || data[MYTHREAD] != 3;
    bad += h.blk[0] != NULL || h.blk[1] != (void *)0;
    ptrs[0] = (sint *)&data[0];
    ptrs[1] = 0;
    bad += ptrs[1] != NULL || sizeof(sint) != sizeof(int);
    if (MYTHREAD == 0)
        owner = &data[THREADS - 1];
    upc_barrier;
    bad += owner != &data[THREADS - 1] || *ptrs[0] != 3;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
