/* upc_tick.h. The invariant TSC is read in a few ns and runs at a fixed rate
 * on every core; without it (or off x86) CLOCK_MONOTONIC's vDSO is used, in
 * nanoseconds. The TSC rate is calibrated once against CLOCK_MONOTONIC over
 * at least 20 ms from library load, each end of the interval a TSC read
 * bracketed by two clock reads within 1 us (clock_pair). */
#include <upc_tick.h>

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

/* The clock's calibration: made once per process, kept across runs. */
static struct tick_clock {
    int use_tsc;
    uint64_t tsc0;
    uint64_t ns0;
    _Atomic uint64_t fs_per_tick; /* femtoseconds per tick, 0 until calibrated */
} clock_;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
/* Both clocks at one instant: the TSC between two reads of CLOCK_MONOTONIC,
 * the tightest bracket of up to 1000 tries (under 1 us ends them). Read
 * one after the other, a preemption between the two reads on a loaded
 * machine skewed the rate: CI saw upc_ticks_to_ns 5.2% short for the rest
 * of a process. */
static void clock_pair(uint64_t *ns, uint64_t *tsc)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000 && best > 1000; i++) {
        uint64_t a = mono_ns(), t = __rdtsc(), b = mono_ns();
        if (b - a < best) {
            best = b - a;
            *ns = a + (b - a) / 2;
            *tsc = t;
        }
    }
}
#endif

__attribute__((constructor)) static void tick_init(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    /* CPUID 0x80000007 EDX bit 8: invariant TSC. */
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
        __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
        clock_.use_tsc = 1;
        clock_pair(&clock_.ns0, &clock_.tsc0);
    }
#endif
}

upc_tick_t upc_ticks_now(void)
{
#if defined(__x86_64__)
    if (clock_.use_tsc)
        return __rdtsc();
#endif
    return mono_ns();
}

static uint64_t calibrate(void)
{
    uint64_t ns = mono_ns();
    while (ns - clock_.ns0 < 20 * 1000 * 1000)
        ns = mono_ns();
#if defined(__x86_64__)
    uint64_t tsc;
    clock_pair(&ns, &tsc);
#else
    uint64_t tsc = ns;
#endif
    uint64_t fs = (uint64_t)((double)(ns - clock_.ns0) * 1e6 / (double)(tsc - clock_.tsc0) + 0.5);
    return fs ? fs : 1;
}

uint64_t upc_ticks_to_ns(upc_tick_t ticks)
{
    if (!clock_.use_tsc)
        return ticks;
    /* Relaxed: the value is a pure function of the two clocks; two threads
     * calibrating at once store values that differ only by rounding. */
    uint64_t fs = atomic_load_explicit(&clock_.fs_per_tick, memory_order_relaxed);
    if (!fs) {
        fs = calibrate();
        atomic_store_explicit(&clock_.fs_per_tick, fs, memory_order_relaxed);
    }
    return (uint64_t)((unsigned __int128)ticks * fs / 1000000);
}
