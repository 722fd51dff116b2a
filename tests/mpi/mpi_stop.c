/* A run across processes that stops early, under tupc_run (not tupc_main):
 * - with return_on_error, an error in the last thread (upc_unlock of a lock
 *   it does not hold) while every other thread waits in a barrier or
 *   computes: every process's tupc_run returns TUPC_RUN_ERROR, and
 *   tupc_last_error names the error in every process;
 * - upc_global_exit(3) by thread 0 while the others wait: every process's
 *   tupc_run returns 3;
 * - after each, a whole run works: its barriers and data are its own, no
 *   stop of the stopped run reaches it.
 * argv[1]: the processes. Run with each barrier (TUPC_MPI_BARRIER=mpi) and
 * without a progress thread (TUPC_MPI_PROGRESS=0) too. */
#include <upc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int procs;

static void nap_ms(int ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L}, NULL);
}

static int failing(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    upc_barrier();
    if (MYTHREAD == THREADS - 1) {
        nap_ms(50);    /* the others are waiting by now */
        upc_unlock(l); /* not held: an error */
    } else if (MYTHREAD == 1) {
        nap_ms(200); /* computing when the stop comes; then a wait sees it */
    }
    upc_barrier();
    upc_barrier();
    return 0; /* not reached: the barrier never completes */
}

static int exiting(void *arg)
{
    (void)arg;
    upc_barrier();
    if (MYTHREAD == 0) {
        nap_ms(50);
        upc_global_exit(3);
    }
    upc_barrier();
    return 0; /* not reached */
}

/* A whole run: every thread writes its neighbour's element, and reads
 * what its other neighbour wrote. */
static int whole(void *arg)
{
    int round = *(int *)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, sizeof(int));
    int v = round * 1000 + MYTHREAD;
    upc_memput(tupc_index(a, (MYTHREAD + 1) % THREADS, 1, &v), &v, sizeof v);
    upc_barrier();
    int got;
    upc_memget(&got, tupc_index(a, MYTHREAD, 1, &got), sizeof got);
    upc_barrier();
    upc_all_free(a);
    return got == round * 1000 + (MYTHREAD + THREADS - 1) % THREADS ? 0 : 10 + MYTHREAD;
}

static int fails;

static void expect(const char *what, int rc, int want)
{
    if (rc != want) {
        fprintf(stderr, "FAIL: %s returned %d; expected %d\n", what, rc, want);
        fails++;
    }
}

int main(int argc, char **argv)
{
    procs = argc > 1 ? atoi(argv[1]) : 1;
    int per = argc > 2 ? atoi(argv[2]) : 2;
    tupc_options o = {.threads = per, .return_on_error = 1, .quiet = 1};
    for (int round = 1; round <= 2; round++) {
        expect("the failing run", tupc_run_opts(&o, failing, NULL), TUPC_RUN_ERROR);
        if (!strstr(tupc_last_error(), "upc_unlock")) {
            fprintf(stderr, "FAIL: tupc_last_error() is \"%s\"; expected upc_unlock's error\n",
                    tupc_last_error());
            fails++;
        }
        expect("a whole run after it", tupc_run_opts(&o, whole, &round), 0);
        expect("the exiting run", tupc_run_opts(&o, exiting, NULL), 3);
        expect("a whole run after it", tupc_run_opts(&o, whole, &round), 0);
    }
    if (!fails)
        printf("mpi_stop: every run as expected in each of %d processes\n", procs);
    return fails ? 1 : 0;
}
