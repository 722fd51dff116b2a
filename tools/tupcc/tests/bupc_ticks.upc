/* Berkeley UPC's timers, called without a header as its users do: a
 * barrier-separated sleep of 20 ms measures between 20 ms and 2 s in
 * microseconds and in nanoseconds, the clock only goes forward, and the
 * granularity and overhead are positive and small. */
#include <upc.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
    int fails = 0;
    bupc_tick_t t0 = bupc_ticks_now();
    nanosleep(&(struct timespec){0, 20000000}, NULL);
    bupc_poll();
    upc_barrier;
    bupc_tick_t t1 = bupc_ticks_now();
    uint64_t us = bupc_ticks_to_us(t1 - t0), ns = bupc_ticks_to_ns(t1 - t0);
    if (t1 < t0 || us < 20000 || us > 2000000 || ns / 1000 != us) {
        printf("thread %d: %llu us, %llu ns\n", MYTHREAD, (unsigned long long)us, (unsigned long long)ns);
        fails++;
    }
    double g = bupc_tick_granularityus(), o = bupc_tick_overheadus();
    if (!(g > 0 && g < 1000 && o >= 0 && o < 1000)) {
        printf("thread %d: granularity %g us, overhead %g us\n", MYTHREAD, g, o);
        fails++;
    }
    if (BUPC_TICK_MAX <= BUPC_TICK_MIN)
        fails++;
    return fails != 0;
}
