/* The profile summary (TUPC_STATS): per function and per thread, calls,
 * bytes, time in the call and time waiting for other threads, and the
 * thread waited for most, printed when the run ends in the manner of
 * mpiP. Fed by the trace's hooks (check/trace.c), which run only while
 * the trace or the summary is on. */
#ifndef TUPC_OBSERVE_STATS_H
#define TUPC_OBSERVE_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 0 off, 1 the summary and each thread's rows up to 16 THREADS, 2 every
 * thread's rows (TUPC_STATS=all). */
int tupc_stats_start(int threads, int level, char *err, size_t errlen);
void tupc_stats_open(int depth, const char *name, uint64_t bytes, uint64_t now);
void tupc_stats_close(int depth, uint64_t now);
void tupc_stats_wait(int depth, uint64_t ns, int peer);
/* Gives the wait of ns counted at depth with no peer to `peer`. */
void tupc_stats_blame(int depth, uint64_t ns, int peer);
/* Prints the summary to f; elapsed: the run's ns. */
void tupc_stats_finish(FILE *f, uint64_t elapsed);
/* Frees the state (once no thread can touch it). */
void tupc_stats_free(void);

#endif
