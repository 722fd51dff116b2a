/* MPI collectives measured the way bench_reloc measures tupc's (OSU method):
 * per size, warm-up calls, then `iters` calls each timed on its own with an
 * untimed MPI_Barrier between them; each rank's mean; reported: the max over
 * ranks (the latency), the average and min over ranks.
 *
 * Operations: bcast scatter gather allgather alltoall (nbytes per block, as
 * the UPC functions count: bcast nbytes, scatter/gather/allgather nbytes per
 * rank, alltoall nbytes per pair), and reduce allreduce scan exscan on long
 * and double with MPI_SUM (nbytes / sizeof(type) elements, at least 1).
 *
 * Usage: mpirun -np P mpi_coll [--min BYTES] [--max BYTES] [--ops op,op,...]
 *          [--iters N] [--quick] [--label NAME] [--csv FILE]
 * CSV: impl,np,op,bytes,lat_us,avg_us,min_us (written by rank 0). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
    BCAST,
    SCATTER,
    GATHER,
    ALLGATHER,
    ALLTOALL,
    REDUCE_L,
    REDUCE_D,
    ALLREDUCE_L,
    ALLREDUCE_D,
    SCAN_L,
    SCAN_D,
    EXSCAN_L,
    EXSCAN_D,
    NOPS
};
static const char *const op_names[NOPS] = {
    "bcast",       "scatter",       "gather",         "allgather",        "alltoall",
    "reduce_long", "reduce_double", "allreduce_long", "allreduce_double", "scan_long",
    "scan_double", "exscan_long",   "exscan_double"};

static int rank, np;
static char *sbuf, *rbuf;

static size_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*end == 'K' || *end == 'k')
        v *= 1024;
    else if (*end == 'M' || *end == 'm')
        v *= 1024 * 1024;
    else if (*end == 'G' || *end == 'g')
        v *= 1024.0 * 1024 * 1024;
    return (size_t)v;
}

static void one(int op, size_t nb)
{
    int n = (int)nb;
    int nl = (int)(nb / sizeof(long)) > 0 ? (int)(nb / sizeof(long)) : 1;
    int nd = (int)(nb / sizeof(double)) > 0 ? (int)(nb / sizeof(double)) : 1;
    switch (op) {
    case BCAST:
        MPI_Bcast(rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case SCATTER:
        MPI_Scatter(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case GATHER:
        MPI_Gather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case REDUCE_L:
        MPI_Reduce(sbuf, rbuf, nl, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case REDUCE_D:
        MPI_Reduce(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE_L:
        MPI_Allreduce(sbuf, rbuf, nl, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLREDUCE_D:
        MPI_Allreduce(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case SCAN_L:
        MPI_Scan(sbuf, rbuf, nl, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        break;
    case SCAN_D:
        MPI_Scan(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case EXSCAN_L:
        MPI_Exscan(sbuf, rbuf, nl, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        break;
    case EXSCAN_D:
        MPI_Exscan(sbuf, rbuf, nd, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    }
}

/* Bytes each rank moves, for choosing the iterations (as bench_reloc). */
static size_t moved(int op, size_t nb)
{
    return op == ALLGATHER || op == ALLTOALL ? nb * (size_t)np : nb;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    size_t min = 8, max = 16u << 20;
    int iters_opt = 0, quick = 0, use[NOPS];
    const char *csv_path = NULL, *ops = NULL, *label = "mpi";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(a, "--quick") == 0) {
            quick = 1;
            continue;
        }
        i++;
        if (strcmp(a, "--min") == 0)
            min = parse_size(v);
        else if (strcmp(a, "--max") == 0)
            max = parse_size(v);
        else if (strcmp(a, "--iters") == 0)
            iters_opt = atoi(v);
        else if (strcmp(a, "--ops") == 0)
            ops = v;
        else if (strcmp(a, "--label") == 0)
            label = v;
        else if (strcmp(a, "--csv") == 0)
            csv_path = v;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: mpi_coll [--min B] [--max B] [--ops op,...] [--iters N] "
                                "[--quick] [--label NAME] [--csv FILE]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    for (int o = 0; o < NOPS; o++)
        use[o] = ops == NULL;
    if (ops) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", ops);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
            for (int o = 0; o < NOPS; o++)
                if (strcmp(t, op_names[o]) == 0 ||
                    (strncmp(op_names[o], t, strlen(t)) == 0 && op_names[o][strlen(t)] == '_'))
                    use[o] = 1;
    }
    size_t cap = max * (size_t)np + 64;
    sbuf = malloc(cap);
    rbuf = malloc(cap);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(sbuf, 1, cap);
    memset(rbuf, 0, cap);
    FILE *csv = NULL;
    if (rank == 0) {
        if (csv_path && !(csv = fopen(csv_path, "w")))
            perror(csv_path);
        if (csv)
            fprintf(csv, "impl,np,op,bytes,lat_us,avg_us,min_us\n");
        printf("# mpi_coll (%s): %d ranks, %zu .. %zu bytes%s\n", label, np, min, max,
               quick ? ", quick" : "");
        printf("%-17s %9s %10s %10s %10s\n", "op", "bytes", "lat us", "avg us", "min us");
    }
    for (size_t nb = min; nb <= max; nb *= 2)
        for (int o = 0; o < NOPS; o++) {
            if (!use[o])
                continue;
            size_t m = moved(o, nb);
            int iters = iters_opt ? iters_opt : m <= 8192 ? 1000 : (int)((size_t)(64u << 20) / m);
            iters = iters < 10 ? 10 : iters > 1000 ? 1000 : iters;
            if (quick)
                iters = (iters + 9) / 10;
            for (int i = 0; i < iters / 10 + 2; i++) {
                one(o, nb);
                MPI_Barrier(MPI_COMM_WORLD);
            }
            double sum = 0;
            for (int i = 0; i < iters; i++) {
                double t0 = MPI_Wtime();
                one(o, nb);
                sum += MPI_Wtime() - t0;
                MPI_Barrier(MPI_COMM_WORLD);
            }
            double mean = sum / iters * 1e6, mx, mn, av;
            MPI_Reduce(&mean, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            MPI_Reduce(&mean, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
            MPI_Reduce(&mean, &av, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                av /= np;
                printf("%-17s %9zu %10.2f %10.2f %10.2f\n", op_names[o], nb, mx, av, mn);
                if (csv)
                    fprintf(csv, "%s,%d,%s,%zu,%.3f,%.3f,%.3f\n", label, np, op_names[o], nb, mx,
                            av, mn);
            }
        }
    if (csv)
        fclose(csv);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
