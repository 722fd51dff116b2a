/* Median of a small array of timings (sorts it in place). */
#ifndef TB_MEDIAN_H
#define TB_MEDIAN_H

#include <stdlib.h>

static int tb_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double tb_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, tb_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
