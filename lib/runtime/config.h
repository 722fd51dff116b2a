/* The environment a run is configured by, read once when tupc_run starts
 * from the one table of config.c (README, "Environment variables"). Sits
 * at the bottom with runtime.h: modules read the struct, nobody else calls
 * getenv. */
#ifndef TUPC_RUNTIME_CONFIG_H
#define TUPC_RUNTIME_CONFIG_H

#include <stddef.h>
#include <stdio.h>

/* Word-valued variables hold the index of their word in the table. */
enum tupc_barrier_kind { TUPC_BARRIER_AUTO = -1, TUPC_BARRIER_FLAT, TUPC_BARRIER_TREE };
enum tupc_placement { TUPC_PLACE_COMPACT, TUPC_PLACE_SCATTER, TUPC_PLACE_NONE };

struct tupc_config {
    /* UPC_THREADS and UPC_SHARED_HEAP_SIZE apply only where the options
     * leave them open, so they are kept as given: tupc_run judges them. */
    const char *threads_env; /* NULL when unset or empty */
    int threads;             /* its value, or -1 when malformed or out of range */
    const char *heap_env;    /* NULL when unset or empty */
    size_t heap_size;        /* its value, or 0 when malformed */
    int barrier;             /* enum tupc_barrier_kind */
    int fence_symmetric;     /* TUPC_FENCE=symmetric */
    long spin, yield, nap;   /* TUPC_SPIN, TUPC_YIELD, TUPC_NAP; -1 when unset */
    size_t stream_min;       /* TUPC_STREAM_MIN; 0 when unset */
    int simd_sse2;           /* TUPC_SIMD=sse2 */
    int hugepages;           /* TUPC_HUGEPAGES (1 unless "0") */
    int placement;           /* enum tupc_placement */
    const char *placement_name;
    int verbose;            /* TUPC_VERBOSE set and not "0" */
    const char *trace_path; /* TUPC_TRACE; NULL when unset or empty */
    int stats;              /* TUPC_STATS: 0 unset or "0", 1 "1", 2 "all" */
    long hang_timeout;      /* TUPC_HANG_TIMEOUT, seconds; -1 when unset */
    int checks;             /* TUPC_CHECKS: enum tupc_check_level, -1 when unset */
};

/* Written by tupc_config_read before the UPC threads start, read-only while
 * they run (pthread_create orders it). */
extern struct tupc_config tupc_config_;

/* Reads the environment into tupc_config_. Returns 0, or -1 with a message
 * in err naming the variable, its value and what was expected. */
int tupc_config_read(char *err, size_t errlen);

/* Prints the README's table of the variables, from the same table
 * (tests/env.sh compares the two). */
void tupc_config_table(FILE *f);

#endif
