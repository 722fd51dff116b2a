/* walk.upc in plain serial C: the floor, one thread's two walks. (-DBW, -DREPS) */
#include <stdlib.h>
#include "common.h"
#ifndef BW
#define BW 1000000
#endif
#ifndef REPS
#define REPS 40
#endif

int main(void)
{
    int *w = malloc(sizeof(int) * BW);
    if (!w)
        return 1;
    for (long j = 0; j < BW; j++)
        w[j] = (int)(j % 9);
    long sum = 0;
    double t0 = kern_now();
    KERN_ZERO(0);
    for (int r = 0; r < REPS; r++) {
        for (const int *p = w; p < w + BW; p++)
            sum += *p;
        for (const int *p = w; p != w + BW; ++p)
            sum += *p;
    }
    double t1 = kern_now();
    KERN_DUMP(0);
    KERN_REPORT("walk", t1 - t0, sum);
    free(w);
    return 0;
}
