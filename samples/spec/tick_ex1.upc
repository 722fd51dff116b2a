/* UPC 1.3 Required Library 7.5.2.2 para 4, EXAMPLE 1, as the spec writes it
 * (tick_ex1.c is its C translation): compute_foo and the check added. The
 * spec divides ns by 1.0E-9; seconds are ns times 1.0E-9, as here. */
#include <upc.h>
#include <upc_tick.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define FOO_NS 20000000 /* compute_foo runs at least 20 ms */

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* private, so each thread's own */
static uint64_t foo_begin, foo_end;
static double foo_sum;

static void compute_foo(void)
{
    long k = 0;
    foo_begin = mono_ns();
    do {
        for (int j = 0; j < 10000; j++, k++)
            foo_sum += 1.0 / ((double)k * (double)k + 1.0);
    } while ((foo_end = mono_ns()) - foo_begin < FOO_NS);
}

int main(void)
{
    uint64_t outer_begin = mono_ns();

    upc_tick_t start = upc_ticks_now();
      compute_foo(); // do something that needs to be timed
    upc_tick_t end = upc_ticks_now();

    uint64_t outer_end = mono_ns();
    printf("Time was: %f seconds\n", upc_ticks_to_ns(end-start)*1.0E-9);

    /* the ticks hold compute_foo's own clock and lie inside the outer one */
    double ns = (double)upc_ticks_to_ns(end - start);
    double lo = 0.97 * (double)(foo_end - foo_begin), hi = 1.03 * (double)(outer_end - outer_begin);
    if (end < start || ns < lo || ns > hi) {
        fprintf(stderr, "tick_ex1: thread %d: %.0f ns by the ticks, expected %.0f to %.0f\n",
                MYTHREAD, ns, lo, hi);
        return 1;
    }
    return foo_sum > 0 ? 0 : 1;
}
