/* A run across processes that stops early, under tupc_run (not tupc_main):
 * - with return_on_error, an error in the last thread (upc_unlock of a lock
 *   it does not hold) while every other thread waits in a barrier or
 *   computes: every process's tupc_run returns TUPC_RUN_ERROR, and
 *   tupc_last_error names the error in every process;
 * - upc_global_exit(3) by thread 0 while the others wait: every process's
 *   tupc_run returns 3;
 * - an error after every thread of the first process has returned (that
 *   process's run is over when the stop comes): every tupc_run still
 *   returns TUPC_RUN_ERROR, and every process keeps or frees the stopped
 *   run's MPI state alike;
 * - an error while posted reductions across processes are outstanding
 *   (their jobs queued, parked or waiting for messages), small, and large
 *   enough that their messages pass both MPIs' eager limits (a send MPI
 *   may still read from the job's buffer after the stop);
 * - a permute refused across processes (perm's entries all 0, mid-sized
 *   blocks, which one thread a process sends before perm is known whole);
 * - after each, a whole run works: its barriers and data are its own, no
 *   stop of the stopped run reaches it, and its posts start from nothing of
 *   the stopped run's.
 * argv[1]: the processes. Run with each barrier (TUPC_MPI_BARRIER=mpi) and
 * without a progress thread (TUPC_MPI_PROGRESS=0) too. */
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

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

static int per; /* threads per process */

static int early_return(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    upc_barrier();
    if (MYTHREAD < per)
        return 0; /* the first process is done */
    if (MYTHREAD == THREADS - 1) {
        nap_ms(100);
        upc_unlock(l); /* not held: an error */
    }
    upc_barrier(); /* never completes: the first process's threads are gone */
    return 0;
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

/* Element i of an array of blocks of one long. */
static tupc_sptr_t elem(tupc_sptr_t a, int i)
{
    return tupc_ptr_add(a, i, 1, sizeof(long));
}

/* Two posted reductions across processes: a reduce_all (each process's
 * fold a job that sends its partial and waits for the others') and a
 * prefix reduction whose dst and src lie apart (by index ranges, a job in
 * steps, parked while it waits). h gets their handles; src holds thread
 * t's t + k. */
static void post_two(tupc_sptr_t src, tupc_sptr_t all, tupc_sptr_t pre, int k,
                     upc_coll_handle_t h[2])
{
    *(long *)elem(src, MYTHREAD).addr = MYTHREAD + k;
    upc_barrier();
    const upc_flag_t f = UPC_IN_NOSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
    h[0] = tupc_team_reduce_allL(all, src, UPC_ADD, (size_t)THREADS, 1, NULL, f, UPC_TEAM_ALL);
    h[1] = tupc_team_prefix_reduceL(elem(pre, 1), src, UPC_ADD, (size_t)THREADS, 1, NULL, f,
                                    UPC_TEAM_ALL);
}

/* A run that stops with posted reductions across processes outstanding:
 * the last thread fails as soon as it has posted, while the others wait
 * for their handles, whose jobs wait for its process's messages. */
static int failing_posts(void *arg)
{
    (void)arg;
    upc_lock_t *l = upc_all_lock_alloc();
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS, sizeof(long));
    tupc_sptr_t all = upc_all_alloc((size_t)THREADS, sizeof(long));
    tupc_sptr_t pre = upc_all_alloc((size_t)THREADS * 2, sizeof(long));
    upc_coll_handle_t h[2];
    post_two(src, all, pre, 1, h);
    if (MYTHREAD == THREADS - 1)
        upc_unlock(l); /* not held: an error */
    upc_waitall(2, h);
    upc_barrier();
    return 0; /* not reached: the last thread never gets here */
}

/* The same with a prefix reduction whose block totals are 1 MiB per thread
 * (blocks of one long, dst and src alike: by blocks, hier_post_blocks.c),
 * posted twice so that one may be in flight when the stop comes, each into
 * a dst of its own (two outstanding calls that write one dst race, as
 * ThreadSanitizer said when their jobs ran on two threads at once). */
static int failing_big_posts(void *arg)
{
    (void)arg;
    enum { PER = 1 << 17 }; /* elements per thread */
    upc_lock_t *l = upc_all_lock_alloc();
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS * PER, sizeof(long));
    tupc_sptr_t dst = upc_all_alloc((size_t)THREADS * PER, sizeof(long));
    tupc_sptr_t dst2 = upc_all_alloc((size_t)THREADS * PER, sizeof(long));
    long *mine = (long *)elem(src, MYTHREAD).addr; /* blocks of one: contiguous here */
    for (int i = 0; i < PER; i++)
        mine[i] = i;
    upc_barrier();
    const upc_flag_t f = UPC_IN_NOSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
    const size_t n = (size_t)THREADS * PER;
    upc_coll_handle_t h[2];
    h[0] = tupc_team_prefix_reduceL(dst, src, UPC_ADD, n, 1, NULL, f, UPC_TEAM_ALL);
    h[1] = tupc_team_prefix_reduceL(dst2, src, UPC_ADD, n, 1, NULL, f, UPC_TEAM_ALL);
    if (MYTHREAD == THREADS - 1)
        upc_unlock(l); /* not held: an error */
    upc_waitall(2, h);
    upc_barrier();
    return 0; /* not reached */
}

/* A whole run of the same posts: every result right, nothing of the
 * stopped run's jobs or messages in the way. */
static int whole_posts(void *arg)
{
    (void)arg;
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS, sizeof(long));
    tupc_sptr_t all = upc_all_alloc((size_t)THREADS, sizeof(long));
    tupc_sptr_t pre = upc_all_alloc((size_t)THREADS * 2, sizeof(long));
    int bad = 0;
    for (int k = 2; k < 5; k++) {
        upc_coll_handle_t h[2];
        post_two(src, all, pre, k, h);
        upc_wait(h[1]);
        upc_wait(h[0]);
        upc_barrier();
        const long T = THREADS;
        bad |= *(long *)elem(all, MYTHREAD).addr != T * (T - 1) / 2 + T * k;
        /* pre[1 + i] = the sum of src[0..i], the element of thread i + 1 */
        for (int i = 0; i < THREADS; i++) {
            tupc_sptr_t e = elem(pre, 1 + i);
            if ((int)e.thread == MYTHREAD)
                bad |= *(long *)e.addr != (long)i * (i + 1) / 2 + (long)(i + 1) * k;
        }
        upc_barrier();
    }
    upc_all_free(pre);
    upc_all_free(all);
    upc_all_free(src);
    return bad ? 20 + MYTHREAD : 0;
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

/* Permutes of 20000-byte blocks, each thread's to the next process's
 * (a mid-sized block: one thread a process sends it before perm is known
 * whole, mpi/hier_reloc.c's perm_early); with `bad`, perm's entries all
 * 0, which every process refuses alike after taking and dropping what
 * was sent to it. A good one checks every byte of dst. */
enum { PERM_BYTES = 20000 };
static int permuting(void *arg)
{
    const int bad = *(int *)arg;
    tupc_sptr_t perm = upc_all_alloc((size_t)THREADS, sizeof(int));
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS, PERM_BYTES);
    tupc_sptr_t dst = upc_all_alloc((size_t)THREADS, PERM_BYTES);
    const int to = (MYTHREAD + per) % THREADS, from = (MYTHREAD + THREADS - per) % THREADS;
    *(int *)tupc_index(perm, MYTHREAD, 1, int).addr = bad ? 0 : to;
    memset(tupc_index(src, (ptrdiff_t)MYTHREAD * PERM_BYTES, PERM_BYTES, char).addr, MYTHREAD + 1,
           PERM_BYTES);
    int wrong = 0;
    for (int k = 0; k < 3; k++) {
        upc_all_permute(dst, src, perm, PERM_BYTES, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        const char *d = tupc_index(dst, (ptrdiff_t)MYTHREAD * PERM_BYTES, PERM_BYTES, char).addr;
        for (int i = 0; i < PERM_BYTES; i++)
            wrong |= d[i] != (char)(from + 1);
    }
    upc_barrier();
    return wrong ? 30 + MYTHREAD : 0;
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
    per = argc > 2 ? atoi(argv[2]) : 2;
    tupc_options o = {.threads = per, .return_on_error = 1, .quiet = 1};
    for (int round = 1; round <= 2; round++) {
        expect("the failing run", tupc_run_opts(&o, failing, NULL), TUPC_RUN_ERROR);
        if (!strstr(tupc_last_error(), "upc_unlock")) {
            fprintf(stderr, "FAIL: tupc_last_error() is \"%s\"; expected upc_unlock's error\n",
                    tupc_last_error());
            fails++;
        }
        expect("a whole run after it", tupc_run_opts(&o, whole, &round), 0);
        expect("the run that fails after a process is done", tupc_run_opts(&o, early_return, NULL),
               TUPC_RUN_ERROR);
        expect("a whole run after it", tupc_run_opts(&o, whole, &round), 0);
        expect("the exiting run", tupc_run_opts(&o, exiting, NULL), 3);
        expect("a whole run after it", tupc_run_opts(&o, whole, &round), 0);
        expect("the run that fails with posts outstanding", tupc_run_opts(&o, failing_posts, NULL),
               TUPC_RUN_ERROR);
        expect("posts in a whole run after it", tupc_run_opts(&o, whole_posts, NULL), 0);
        expect("the run that fails with large posts outstanding",
               tupc_run_opts(&o, failing_big_posts, NULL), TUPC_RUN_ERROR);
        expect("posts in a whole run after it", tupc_run_opts(&o, whole_posts, NULL), 0);
        int bad = 1, good = 0;
        expect("the run refusing a permute", tupc_run_opts(&o, permuting, &bad), TUPC_RUN_ERROR);
        if (!strstr(tupc_last_error(), "upc_all_permute")) {
            fprintf(stderr,
                    "FAIL: tupc_last_error() is \"%s\"; expected upc_all_permute's refusal\n",
                    tupc_last_error());
            fails++;
        }
        expect("permutes in a whole run after it", tupc_run_opts(&o, permuting, &good), 0);
    }
    if (!fails)
        printf("mpi_stop: every run as expected in each of %d processes\n", procs);
    return fails ? 1 : 0;
}
