/* tupc's remote get and put and its barrier against raw MPI on the same
 * window: mpirun -np P bench_rma -n 1 [reps]. Thread 0 times, against the
 * first thread of the last process: tupc_get/tupc_put of 8 bytes and
 * 64 KiB against MPI_Get/MPI_Put + MPI_Win_flush on tupc's own window;
 * then every thread times upc_barrier against MPI_Barrier. Each figure is
 * the median of 15 batches, in ns per operation, raw and tupc interleaved
 * batch by batch so that both see the same machine. */
#include "mpi/layer.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { BATCHES = 15 };

static double median(double *v)
{
    qsort(v, BATCHES, sizeof *v, cmp);
    return v[BATCHES / 2];
}

static char buf[65536];

/* One batch of reps operations of kind k (0 get, 1 put), through tupc
 * (raw = 0) or raw MPI: ns per operation. */
static double batch(int k, int raw, tupc_sptr_t p, size_t n, int rank, MPI_Aint disp, int reps)
{
    double t0 = now();
    for (int i = 0; i < reps; i++) {
        if (raw) {
            if (k == 0)
                MPI_Get(buf, (int)n, MPI_BYTE, rank, disp, (int)n, MPI_BYTE, tupc_mpi_win_);
            else
                MPI_Put(buf, (int)n, MPI_BYTE, rank, disp, (int)n, MPI_BYTE, tupc_mpi_win_);
            MPI_Win_flush(rank, tupc_mpi_win_);
        } else if (k == 0) {
            tupc_get(buf, p, n);
        } else {
            tupc_put(p, buf, n);
        }
    }
    return (now() - t0) / reps;
}

int tupc_main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 2000;
    int T = THREADS, me = MYTHREAD, per = tupc_impl_local_threads;
    tupc_sptr_t a = upc_all_alloc((size_t)T, sizeof buf);
    if (tupc_isnull(a) || T / per < 2) {
        if (me == 0)
            fprintf(stderr, "bench_rma: needs two processes or more\n");
        return 1;
    }
    int target = T - per; /* the first thread of the last process */
    tupc_sptr_t p = tupc_index(a, target, 1, buf);
    int rank = tupc_mpi_rank_of((uint32_t)target);
    MPI_Aint disp = (MPI_Aint)(p.addr - (tupc_heap_base_ +
                                         (size_t)rank * (size_t)per * tupc_impl_partition_size));
    upc_barrier();
    if (me == 0) {
        printf("# bench_rma: %d processes x %d threads, %d reps per batch, median of %d batches\n",
               T / per, per, reps, BATCHES);
        printf("%-10s %8s %12s %12s %8s\n", "op", "bytes", "raw_ns", "tupc_ns", "ratio");
        static const size_t sizes[] = {8, 65536};
        for (int k = 0; k < 2; k++) {
            for (int s = 0; s < 2; s++) {
                size_t n = sizes[s];
                int r = n > 8 ? reps / 10 + 1 : reps;
                double raw[BATCHES], tu[BATCHES];
                batch(k, 1, p, n, rank, disp, r); /* warm up both */
                batch(k, 0, p, n, rank, disp, r);
                for (int b = 0; b < BATCHES; b++) {
                    raw[b] = batch(k, 1, p, n, rank, disp, r);
                    tu[b] = batch(k, 0, p, n, rank, disp, r);
                }
                double mr = median(raw), mt = median(tu);
                printf("%-10s %8zu %12.0f %12.0f %8.2f\n", k ? "put" : "get", n, mr, mt, mt / mr);
            }
        }
    }
    upc_barrier();
    /* Barriers: every thread of every process, interleaved batches. */
    int br = reps / 4 + 1;
    double raw[BATCHES], tu[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        if (per == 1) /* MPI_Barrier needs one caller per process */
            for (int i = 0; i < br; i++)
                MPI_Barrier(tupc_mpi_comm_);
        raw[b] = (now() - t0) / br;
        t0 = now();
        for (int i = 0; i < br; i++)
            upc_barrier();
        tu[b] = (now() - t0) / br;
    }
    if (me == 0) {
        double mr = median(raw), mt = median(tu);
        if (per == 1)
            printf("%-10s %8s %12.0f %12.0f %8.2f\n", "barrier", "-", mr, mt, mt / mr);
        else
            printf("%-10s %8s %12s %12.0f %8s\n", "barrier", "-", "-", mt, "-");
    }
    upc_barrier();
    return 0;
}
