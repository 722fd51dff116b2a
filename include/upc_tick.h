/* upc_tick.h: high-resolution wall-clock timers (UPC 1.3 7.5). */
#ifndef UPC_TICK_H
#define UPC_TICK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libtupc exports: it is built with hidden visibility (and a version
 * script, lib/libtupc.map), so its internals stay out of programs' sight. */
#pragma GCC visibility push(default)

#define __UPC_TICK__ 1

typedef uint64_t upc_tick_t;

#define UPC_TICK_MIN ((upc_tick_t)0)
#define UPC_TICK_MAX ((upc_tick_t)UINT64_MAX)

/* Ticks since a fixed point in the past: the invariant TSC where the CPU has
 * one, else CLOCK_MONOTONIC in nanoseconds. */
upc_tick_t upc_ticks_now(void);

/* Converts a number of ticks to nanoseconds. */
uint64_t upc_ticks_to_ns(upc_tick_t ticks);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif
