/* Spec example: UPC 1.3 Required Library 7.5.2.2 para 4, EXAMPLE 1: the
 * upc_tick interface in use.
 *
 *   #include <upc_tick.h>
 *   #include <stdio.h>
 *
 *   upc_tick_t start = upc_ticks_now();
 *     compute_foo(); // do something that needs to be timed
 *   upc_tick_t end = upc_ticks_now();
 *
 *   printf("Time was: %f seconds\n", upc_ticks_to_ns(end-start)/1.0E-9);
 *
 * Two notes. The spec's printf divides nanoseconds by 1.0E-9, which gives
 * billions of seconds; seconds are nanoseconds times 1.0E-9, as below.
 * And ticks belong to a thread (7.5.1.1): each thread times its own
 * compute_foo, and only intervals converted to ns may be compared between
 * threads. The check: the ticks, in ns, must agree with CLOCK_MONOTONIC,
 * read inside and outside the timed region. Run: tick_ex1 -n 3 */
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

/* UPC's private globals (one per thread) are C11 _Thread_local. */
static _Thread_local uint64_t foo_begin, foo_end; /* compute_foo's own clock */
static _Thread_local double foo_sum;

/* Something to time: sums 1/(k^2+1) until FOO_NS have passed. */
static void compute_foo(void)
{
    long k = 0;
    foo_begin = mono_ns();
    do {
        for (int j = 0; j < 10000; j++, k++)
            foo_sum += 1.0 / ((double)k * (double)k + 1.0);
    } while ((foo_end = mono_ns()) - foo_begin < FOO_NS);
}

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    uint64_t outer_begin = mono_ns();

    upc_tick_t start = upc_ticks_now();
    compute_foo(); // do something that needs to be timed
    upc_tick_t end = upc_ticks_now();

    uint64_t outer_end = mono_ns();
    printf("thread %d: Time was: %f seconds\n", MYTHREAD, upc_ticks_to_ns(end - start) * 1.0E-9);

    /* The tick interval holds compute_foo's clock readings and lies inside
     * the outer ones; 3% for the conversion factor the timer measured. */
    double ns = (double)upc_ticks_to_ns(end - start);
    double lo = 0.97 * (double)(foo_end - foo_begin), hi = 1.03 * (double)(outer_end - outer_begin);
    if (end < start || ns < lo || ns > hi) {
        fprintf(stderr, "tick_ex1: thread %d: %.0f ns by the ticks, expected %.0f to %.0f\n",
                MYTHREAD, ns, lo, hi);
        return 1;
    }
    return foo_sum > 0 ? 0 : 1; /* uses the result, so the work is not optimized away */
}
