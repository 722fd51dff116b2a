#include "runtime/placement.h"

#include "runtime/config.h"
#include "runtime/runtime.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TUPC_HAVE_NUMA
#include <numa.h>
#endif

int tupc_allowed_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

static int have_numa(void)
{
#ifdef TUPC_HAVE_NUMA
    return numa_available() >= 0;
#else
    return 0;
#endif
}

static int node_of_cpu(int cpu)
{
#ifdef TUPC_HAVE_NUMA
    if (have_numa()) {
        int node = numa_node_of_cpu(cpu);
        return node >= 0 ? node : 0;
    }
#endif
    (void)cpu;
    return 0;
}

struct cpu_node {
    int cpu, node, rank; /* rank: position of the CPU within its node */
};

static int by_node_then_cpu(const void *a, const void *b)
{
    const struct cpu_node *x = a, *y = b;
    if (x->node != y->node)
        return x->node - y->node;
    return x->cpu - y->cpu;
}

static int by_rank_then_node(const void *a, const void *b)
{
    const struct cpu_node *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    return x->node - y->node;
}

int tupc_place_threads(int threads, int *cpu_of_thread, int *node_of_thread, char *err,
                       size_t errlen)
{
    const char *policy = tupc_config_.placement_name;
    int scatter = tupc_config_.placement == TUPC_PLACE_SCATTER;
    int none = tupc_config_.placement == TUPC_PLACE_NONE;

    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        none = 1;
    int ncpu = CPU_COUNT(&set);
    struct cpu_node *cpus = calloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof *cpus);
    if (!cpus) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < ncpu; c++)
        if (CPU_ISSET(c, &set)) {
            cpus[n].cpu = c;
            cpus[n].node = node_of_cpu(c);
            n++;
        }
    qsort(cpus, (size_t)n, sizeof *cpus, by_node_then_cpu);
    for (int i = 0; i < n; i++)
        cpus[i].rank = (i > 0 && cpus[i - 1].node == cpus[i].node) ? cpus[i - 1].rank + 1 : 0;
    if (scatter)
        qsort(cpus, (size_t)n, sizeof *cpus, by_rank_then_node);

    /* One CPU per thread while there are enough. With more threads than
     * CPUs, a multiple of them is pinned in equal blocks of consecutive
     * threads (which share the barrier tree's leaves): each CPU's run queue
     * then holds only its block, and a waiter's yield hands the CPU to a
     * thread of it. 64 THREADS on 2 CPUs took 23-25 us per barrier pinned,
     * 31-33 us left to the scheduler, whose migrations put arrived threads
     * in the way of those still running (design.md, "Waiting with more
     * threads than CPUs"). Other counts would load the CPUs unevenly
     * pinned, so the scheduler balances them. */
    int pin = !none && tupc_place_index(0, threads, n) >= 0;
    /* Across processes a thread pinned by its global number would land on
     * another's CPU: the launcher places the processes (--bind-to), or the
     * MPI layer gives each a share of the node's CPUs (mpi/barrier.c). Its
     * memory still goes to the node of a CPU its process may use. */
    const int across = tupc_procs_ > 1;
    for (int t = 0; t < threads; t++) {
        const int i = tupc_place_index(t, threads, n);
        cpu_of_thread[t] = pin && !across ? cpus[i].cpu : -1;
        node_of_thread[t] = pin && have_numa() ? cpus[i].node : -1;
    }
    free(cpus);

    if (tupc_config_.verbose) {
        fprintf(stderr, "tupc: %d threads on %d allowed CPUs, placement %s%s, NUMA %s\n", threads,
                n, policy,
                across ? " (not by thread number across MPI processes: the launcher places them, "
                         "or each process gets a share of the node's CPUs)"
                : pin  ? ""
                       : " (not pinned)",
                have_numa() ? "available" : "not available");
        for (int t = 0; t < threads; t++)
            fprintf(stderr, "tupc:   thread %d: cpu %d, node %d\n", t, cpu_of_thread[t],
                    node_of_thread[t]);
    }
    return 0;
}

void tupc_bind_memory(void *addr, size_t len, int node)
{
#ifdef TUPC_HAVE_NUMA
    if (node >= 0 && have_numa())
        numa_tonode_memory(addr, len, node);
#else
    (void)addr;
    (void)len;
    (void)node;
#endif
}
