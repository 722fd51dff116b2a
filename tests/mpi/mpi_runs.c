/* Two runs in one process under mpirun (tupc_run, not tupc_main): MPI
 * starts once, each run maps its heap and makes its windows, and the
 * second run sees none of the first's allocations; a run whose threads
 * return non-zero gives every process the lowest failing thread's status.
 * argv[1]: the processes. */
#include "check.h"

#include <string.h>

static int procs;

static int entry(void *arg)
{
    int per = *(int *)arg;
    CHECK(THREADS == procs * per);
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 4096);
    CHECK(!tupc_isnull(a));
    char mine[4096];
    memset(mine, MYTHREAD + 1, sizeof mine);
    upc_memput(tupc_index(a, (MYTHREAD + 1) % THREADS, 1, mine), mine, sizeof mine);
    upc_barrier();
    char got[4096];
    upc_memget(got, tupc_index(a, MYTHREAD, 1, got), sizeof got);
    for (size_t i = 0; i < sizeof got; i++)
        CHECK(got[i] == (char)((MYTHREAD + THREADS - 1) % THREADS + 1));
    upc_barrier();
    upc_all_free(a);
    return MYTHREAD >= THREADS - 2 ? 40 + MYTHREAD : 0;
}

int main(int argc, char **argv)
{
    procs = argc > 1 ? atoi(argv[1]) : 1;
    for (int per = 1; per <= 2; per++) {
        int rc = tupc_run(per, entry, &per);
        int T = procs * per;
        if (rc != 40 + T - 2) {
            fprintf(stderr, "FAIL: run of %d x %d returned %d; expected %d\n", procs, per, rc,
                    40 + T - 2);
            return 1;
        }
    }
    return 0;
}
