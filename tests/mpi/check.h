/* What the MPI tests share: a failed check prints where and ends the whole
 * job (upc_global_exit: in tupc_main, MPI_Abort across processes; under
 * tupc_run, every process's run returns 1), never a hang. */
#ifndef TUPC_TESTS_MPI_CHECK_H
#define TUPC_TESTS_MPI_CHECK_H

#include <upc.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "FAIL (thread %d of %d) %s:%d: %s\n", MYTHREAD, THREADS, __FILE__,     \
                    __LINE__, #c);                                                                 \
            upc_global_exit(1);                                                                    \
        }                                                                                          \
    } while (0)

/* THREADS the test expects: its first argument (mpirun -np P prog -n T P*T). */
static inline int expected_threads(int argc, char **argv)
{
    return argc > 1 ? atoi(argv[1]) : THREADS;
}

#endif
