/* MPI collectives measured the way bench_reloc measures tupc's (OSU method):
 * per size, warm-up calls, then `iters` calls each timed on its own with an
 * untimed MPI_Barrier between them; each rank's mean; reported: the max over
 * ranks (the latency), the average and min over ranks.
 *
 * Operations: bcast scatter gather allgather alltoall (nbytes per block, as
 * the UPC functions count: bcast nbytes, scatter/gather/allgather nbytes per
 * rank, alltoall nbytes per pair), and reduce allreduce scan exscan on long
 * and double with MPI_SUM (nbytes / sizeof(type) elements, at least 1),
 * and barrier (MPI_Barrier, only when --ops names it; its size is ignored:
 * give --min 8 --max 8).
 *
 * Usage: mpirun -np P mpi_coll [--min BYTES] [--max BYTES] [--ops op,op,...]
 *          [--iters N] [--quick] [--label NAME] [--csv FILE]
 * CSV: impl,np,op,bytes,lat_us,avg_us,min_us (written by rank 0). */
#include "args.h"

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
    BARRIER, /* only when asked for by --ops */
    NOPS
};
static const char *const op_names[NOPS] = {
    "bcast",       "scatter",       "gather",         "allgather",        "alltoall",
    "reduce_long", "reduce_double", "allreduce_long", "allreduce_double", "scan_long",
    "scan_double", "exscan_long",   "exscan_double",  "barrier"};

static int rank, np;
static char *sbuf, *rbuf;

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
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
}

/* Bytes each rank moves, for choosing the iterations (as bench_reloc). */
static size_t moved(int op, size_t nb)
{
    return op == ALLGATHER || op == ALLTOALL ? nb * (size_t)np : nb;
}

enum { O_MIN, O_MAX, O_OPS, O_ITERS, O_QUICK, O_LABEL, O_CSV };
static const struct tb_opt opts[] = {
    [O_MIN] = {"--min", "BYTES", "smallest size, with K, M or G; then times 2 (default 8)"},
    [O_MAX] = {"--max", "BYTES", "largest size (default 16M)"},
    [O_OPS] = {"--ops", "op,op,...",
               "bcast, scatter, (all)gather, alltoall, (all)reduce, (ex)scan, barrier "
               "(default all but barrier)"},
    [O_ITERS] = {"--iters", "N", "timed calls per figure (default by size: 10 to 1000)"},
    [O_QUICK] = {"--quick", NULL, "a tenth of the calls (default off)"},
    [O_LABEL] = {"--label", "NAME", "the MPI's name in the output and the CSV (default mpi)"},
    [O_CSV] = {"--csv", "FILE", "also write every figure to FILE (default none)"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "MPI collectives timed as bench_reloc times tupc's; run it with mpirun -np P.", opts};

int main(int argc, char **argv)
{
    size_t min = 8, max = 16u << 20;
    int iters_opt = 0, quick = 0, use[NOPS], i = 1, k;
    const char *csv_path = NULL, *ops = NULL, *label = "mpi", *v;
    /* Before MPI_Init, so that --help starts no MPI (mpirun's own options
     * never reach argv); each rank prints it. */
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        switch (k) {
        case O_MIN:
            min = tb_parse_size(v);
            break;
        case O_MAX:
            max = tb_parse_size(v);
            break;
        case O_ITERS:
            iters_opt = atoi(v);
            break;
        case O_OPS:
            ops = v;
            break;
        case O_LABEL:
            label = v;
            break;
        case O_CSV:
            csv_path = v;
            break;
        case O_QUICK:
            quick = 1;
            break;
        default:
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int o = 0; o < NOPS; o++)
        use[o] = ops == NULL && o != BARRIER;
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
