/* MPI_Ibcast, MPI_Ialltoall and MPI_Iallreduce overlapped with computation,
 * measured as bench_async.c measures tupc's posted broadcast_x, exchange_x
 * and reduce_allD (MPI_Allreduce of doubles combines element by element
 * across the ranks, a different reduction from reduce_all's of a whole
 * array to one value, but the same data volume per rank)
 * (common/overlap.h): the blocking call alone (MPI_Bcast, MPI_Alltoall),
 * the computation alone (as long as the blocking call), post + compute +
 * MPI_Wait, and post + MPI_Wait at once; the slowest rank's time, median
 * over the rounds. One rank's MPI_Bcast moves nothing (the root is the
 * only receiver), so the broadcast figures mean something from 2 ranks on.
 *
 * Usage: mpirun -np P mpi_overlap [--bytes BYTES] [--rounds R] [--label NAME] */
#include "args.h"
#include "median.h"
#include "overlap.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXR = 31 };
enum { BCAST, ALLTOALL, ALLREDUCE, NCOLL };
enum { COLL, COMP, BOTH, POSTWAIT };
static const char *const names[NCOLL] = {"Ibcast", "Ialltoall", "Iallreduce"};

static int rank, np;
static size_t bytes = 16 << 20;
static char *buf, *sbuf, *rbuf;
static long iters;
static volatile double sink;

static void call(int c, MPI_Request *req)
{
    int per = (int)(bytes / (size_t)np);
    if (c == BCAST) {
        if (req)
            MPI_Ibcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, req);
        else
            MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (c == ALLREDUCE) {
        /* bytes / np per rank, as tupc's reduce_all reads from each thread */
        int nd = per / (int)sizeof(double);
        if (req)
            MPI_Iallreduce(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, req);
        else
            MPI_Allreduce(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else {
        if (req)
            MPI_Ialltoall(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, MPI_COMM_WORLD, req);
        else
            MPI_Alltoall(sbuf, per, MPI_BYTE, rbuf, per, MPI_BYTE, MPI_COMM_WORLD);
    }
}

static double round_of(int c, int what)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = tb_now_us();
    MPI_Request req = MPI_REQUEST_NULL;
    if (what == COLL)
        call(c, NULL);
    if (what == BOTH || what == POSTWAIT)
        call(c, &req);
    if (what == COMP || what == BOTH)
        sink = tb_compute(iters);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    double mine = tb_now_us() - t0, most;
    MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return most;
}

int main(int argc, char **argv)
{
    int rounds = 7;
    const char *label = "mpi";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
            bytes = tb_parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--label") && i + 1 < argc)
            label = argv[++i];
        else {
            if (rank == 0)
                fprintf(stderr, "usage: mpi_overlap [--bytes BYTES] [--rounds R] [--label NAME]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAXR)
        rounds = 7;
    buf = malloc(bytes);
    sbuf = malloc(bytes);
    rbuf = malloc(bytes);
    memset(buf, rank + 1, bytes);
    memset(sbuf, rank + 1, bytes);
    memset(rbuf, 0, bytes);
    for (int c = 0; c < NCOLL; c++) {
        double t[MAXR], coll[MAXR], comp[MAXR], both[MAXR], pw[MAXR];
        for (int w = 0; w < 2; w++) {
            (void)round_of(c, COLL);
            (void)round_of(c, POSTWAIT);
        }
        for (int r = 0; r < rounds; r++)
            t[r] = round_of(c, COLL);
        double alone = tb_median(t, rounds);
        iters = tb_calibrate(alone > 1 ? alone : 1);
        MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < 3; r++)
                t[r] = round_of(c, COMP);
            double took = tb_median(t, 3);
            if (alone > 1)
                iters = (long)((double)iters * alone / took);
            MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        }
        for (int r = 0; r < rounds; r++) {
            coll[r] = round_of(c, COLL);
            comp[r] = round_of(c, COMP);
            both[r] = round_of(c, BOTH);
            pw[r] = round_of(c, POSTWAIT);
        }
        double mc = tb_median(coll, rounds), mp = tb_median(comp, rounds),
               mb = tb_median(both, rounds), mw = tb_median(pw, rounds);
        if (rank == 0)
            printf("%-8s %-12s P=%-2d bytes %-9zu coll %8.1f us  comp %8.1f us  both %8.1f us"
                   "  ratio %.3f  | post+wait %8.1f us, ratio to it %.3f\n",
                   label, names[c], np, bytes, mc, mp, mb, mb / (mc + mp), mw, mb / (mw + mp));
    }
    free(buf);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
