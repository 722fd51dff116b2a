/* The raw floor of a checked permute at one rank a process (docs/benchmarks.md,
 * "The 64 KiB permute at one thread a process, its floor"): MPI_Alltoallv of
 * one block to the next rank, against MPI_Allgather of one int (perm) plus
 * the same MPI_Alltoallv, and against the allgather overlapped with a
 * posted pair (what perm_early does). Median of 15 batches of 25.
 *   mpicc.openmpi -O2 -o mpi_permfloor tests/bench/mpi_permfloor.c
 *   mpirun.openmpi --oversubscribe --bind-to none -np 4 ./mpi_permfloor 16384 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    size_t nb = argc > 1 ? (size_t)atol(argv[1]) : 16384;
    char *s = malloc(nb), *d = malloc(nb);
    memset(s, 1, nb);
    int *cnt = calloc(4 * (size_t)np, sizeof(int)), *perm = malloc(sizeof(int) * (size_t)np);
    cnt[(me + 1) % np] = (int)nb;
    cnt[2 * np + (me + np - 1) % np] = (int)nb;
    double t[3][15];
    for (int b = -1; b < 15; b++)
        for (int v = 0; v < 3; v++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < 25; i++) {
                if (v == 0) {
                    MPI_Alltoallv(s, cnt, cnt + np, MPI_BYTE, d, cnt + 2 * np, cnt + 3 * np,
                                  MPI_BYTE, MPI_COMM_WORLD);
                } else if (v == 1) {
                    perm[me] = (me + 1) % np;
                    MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, perm, 1, MPI_INT, MPI_COMM_WORLD);
                    MPI_Alltoallv(s, cnt, cnt + np, MPI_BYTE, d, cnt + 2 * np, cnt + 3 * np,
                                  MPI_BYTE, MPI_COMM_WORLD);
                } else {
                    MPI_Request r[2];
                    MPI_Irecv(d, (int)nb, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r[0]);
                    MPI_Isend(s, (int)nb, MPI_BYTE, (me + 1) % np, 7, MPI_COMM_WORLD, &r[1]);
                    perm[me] = (me + 1) % np;
                    MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, perm, 1, MPI_INT, MPI_COMM_WORLD);
                    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
                }
            }
            if (b >= 0)
                t[v][b] = (MPI_Wtime() - t0) / 25 * 1e6;
        }
    if (me == 0) {
        double m[3];
        for (int v = 0; v < 3; v++) {
            qsort(t[v], 15, sizeof(double), cmp);
            m[v] = t[v][7];
        }
        printf("%d ranks, %zu B: alltoallv %.1f us, allgather+alltoallv %.1f us (%.2f), allgather "
               "beside a pair %.1f us (%.2f)\n",
               np, nb, m[0], m[1], m[1] / m[0], m[2], m[2] / m[0]);
    }
    MPI_Finalize();
    return 0;
}
