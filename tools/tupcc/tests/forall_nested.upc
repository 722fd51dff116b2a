/* Nested upc_forall (UPC 1.3 6.6.2): the outermost with an affinity
 * controls, also across a function call; upc_forall as the body of an if
 * with an else. */
#include <upc.h>
#include <stdio.h>
shared int hits[4 * THREADS];
static int inner_runs;
static void inner(void)
{
    int k;
    upc_forall (k = 0; k < 4; k++; k)
        inner_runs++;
}
int main(void)
{
    int i;
    if (THREADS > 0)
        upc_forall (i = 0; i < 4 * THREADS; i++; &hits[i])
            hits[i] += 1;
    else
        return 3;
    upc_forall (i = 0; i < THREADS; i++; i)
        inner();
    upc_barrier;
    for (i = 0; i < 4 * THREADS; i++)
        if (hits[i] != 1)
            return 1;
    /* called from a controlling loop: all 4 iterations, once per outer iteration of this thread */
    if (inner_runs != 4)
        return 2;
    inner_runs = 0;
    inner();
    return inner_runs != (4 + THREADS - 1 - MYTHREAD) / THREADS;
}
