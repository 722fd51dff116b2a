/* Where each UPC thread runs: pinning to CPUs and NUMA nodes. */
#ifndef TUPC_RUNTIME_PLACEMENT_H
#define TUPC_RUNTIME_PLACEMENT_H

#include <stddef.h>

/* Number of CPUs the process may use (sched_getaffinity; cgroup cpusets show there). */
int tupc_allowed_cpus(void);

/* Fills cpu_of_thread (-1: not pinned) and node_of_thread (-1: no binding)
 * from $TUPC_PLACEMENT (compact, scatter, none); prints the placement when
 * $TUPC_VERBOSE is set. Returns 0, or -1 with a message in err. */
int tupc_place_threads(int threads, int *cpu_of_thread, int *node_of_thread, char *err,
                       size_t errlen);

/* Binds [addr, addr + len) to `node` before first touch; no-op without NUMA. */
void tupc_bind_memory(void *addr, size_t len, int node);

#endif
