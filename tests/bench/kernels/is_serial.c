/* is.upc in plain serial C: the floor. (-DNK=keys, -DNB, -DREPS) */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#ifndef NK
#define NK 1000000
#endif
#ifndef NB
#define NB 1024
#endif
#ifndef REPS
#define REPS 40
#endif
#define MAXKEY (1 << 20)
static int total[NB];

int main(void)
{
    int *key = malloc(sizeof(int) * NK);
    if (!key)
        return 1;
    for (long i = 0; i < NK; i++)
        key[i] = (int)((i * 2654435761u) % MAXKEY);
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int r = 0; r < REPS; r++) {
        memset(total, 0, sizeof total);
        for (long i = 0; i < NK; i++)
            total[key[i] / (MAXKEY / NB)]++;
    }
    double t1 = kern_now();
    KERN_DUMP(0);
    double sum = 0;
    for (int b = 0; b < NB; b++)
        sum += (double)total[b] * (b + 1);
    KERN_REPORT("is", t1 - t0, sum);
    free(key);
    return 0;
}
