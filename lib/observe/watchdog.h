/* The hang watchdog (TUPC_HANG_TIMEOUT): a thread of the run that looks,
 * a few times per timeout, at what each UPC thread is doing. When a thread
 * waits in the library and no thread has made progress for the timeout, it
 * prints one report (each thread's state and who waits for whom) and stops
 * the run. It reads only what a wait writes when it goes to sleep (nothing
 * on the fast paths, nor while a wait spins or yields) and the call records
 * check/calls.h keeps anyway. */
#ifndef TUPC_OBSERVE_WATCHDOG_H
#define TUPC_OBSERVE_WATCHDOG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* What a thread's slow-path wait is about; written by its thread, read by
 * the watchdog (relaxed: a report needs no exact snapshot). */
struct tupc_watch {
    _Atomic uint64_t since;     /* ns the current wait began; 0: not waiting */
    _Atomic(const char *) func; /* the library function waiting, if known */
    _Atomic int peer;           /* the thread waited for; -1 unknown */
    _Atomic int lock_ahead;     /* upc_lock: the thread queued ahead; -1 none */
    _Atomic uint64_t waits;     /* sleeping waits ended so far: progress */
    _Atomic uint64_t last;      /* ns the last sleeping wait ended */
} __attribute__((aligned(64)));

extern struct tupc_watch *tupc_watch_;

/* upc_lock's queueing: the thread ahead, -1 once the lock is held. The
 * waits' sleeps it learns as an observer of the wait (sync/wait.h). */
void tupc_watch_lock(int ahead);

/* Run start (after the threads' state exists) and end. timeout_s 0: off.
 * Return -1 with a message in err if the watchdog cannot start. */
int tupc_watchdog_start(int threads, int timeout_s, char *err, size_t errlen);
void tupc_watchdog_stop(void);

#endif
