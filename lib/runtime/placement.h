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

/* Which of n CPUs thread t of `threads` is pinned to: one CPU each while
 * there are enough, else equal blocks of consecutive threads; -1 for other
 * counts, which are left to the scheduler (placement.c says why). One
 * process's threads on its CPUs, and across MPI processes a process's on
 * its share of the node's (mpi/barrier.c). */
static inline int tupc_place_index(int t, int threads, int n)
{
    if (n <= 0 || (threads > n && threads % n != 0))
        return -1;
    return threads > n ? t / (threads / n) : t;
}

/* Binds [addr, addr + len) to `node` before first touch; no-op without NUMA. */
void tupc_bind_memory(void *addr, size_t len, int node);

#endif
