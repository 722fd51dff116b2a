/* tupc's collectives across processes against the raw MPI collective each
 * becomes, on the same processes: mpirun -np P bench_coll -n T [reps].
 *
 * (mpirun -np P bench_coll -n T reps overlap: the last figure alone; team:
 * the team's figures alone; whole: the team's figures on a split team of
 * every thread, ranks in thread order, against the raw calls of every
 * process: several members a process where T > 1.)
 * Each figure is the median of 15 batches, raw and tupc interleaved batch
 * by batch so that both see the same machine; a batch is `reps` calls back
 * to back (fewer for large sizes), timed by thread 0; ns per call.
 *  - broadcast of n bytes from thread 0: upc_all_broadcast under MY|MY
 *    (the data's own dependencies, as MPI_Bcast) against MPI_Bcast of n
 *    bytes by one thread per process, and under ALL|ALL against
 *    MPI_Barrier, MPI_Bcast, MPI_Barrier;
 *  - scatter, gather, gather_all and exchange of n / THREADS bytes per
 *    block (n bytes in all: the root's src or dst, each thread's dst of
 *    gather_all, each thread's src and dst of exchange) under MY|MY,
 *    against MPI_Scatter, MPI_Gather, MPI_Allgather (n / P bytes per
 *    process) and MPI_Alltoall (n / P^2 bytes per pair of processes), the
 *    calls they become;
 *  - reduce of n bytes of longs (UPC_ADD) to thread 0, blocked so that
 *    each thread holds n / THREADS bytes: upc_all_reduceL under MY|MY
 *    against each process summing its n / P bytes and MPI_Reduce of one
 *    long (MPI_SUM), the MPI program that holds the same data;
 *  - prefix_reduceL of n bytes of longs, one block per thread, into
 *    another array (MY|MY), against each process scanning its n / P bytes
 *    after MPI_Exscan of its total (the raw program with the same data);
 *  - permute of n / THREADS bytes per block, each thread's to the same
 *    thread of the next process, against MPI_Alltoallv of the process's
 *    blocks to the next process;
 *  - reduce_allL (Extended Collectives 0.3) as reduceL, against the same
 *    sums and MPI_Allreduce;
 *  - "reduceL 1/thread": one long per thread (8 bytes each, blocks of 1)
 *    reduced to thread 0, the figure beside co_sum of one value per image
 *    (tests/bench/caf_coll.f90): each process sums its own, MPI_Reduce;
 *  - on a split team of the even threads (one per process at 4 x 1 and
 *    2 x 2; at 2 x 1 it is thread 0 alone: skipped), tupc_team_barrier,
 *    tupc_team_broadcast, tupc_team_scatter, tupc_team_gather,
 *    tupc_team_gather_all (n / members bytes per block),
 *    tupc_team_exchange (n / members^2) and tupc_team_permute (n / members,
 *    each rank's to the next) against MPI_Barrier, MPI_Bcast, MPI_Scatter,
 *    MPI_Gather, MPI_Allgather, MPI_Alltoall and MPI_Alltoallv on a
 *    communicator of the processes that hold them;
 *  - the overlap of a posted 16 MiB broadcast, gather_all, exchange,
 *    reduce_allL (UPC_ADD, blocked as above), permute (each process's
 *    16 MiB, its threads' blocks, to the next process) and prefix_reduceL
 *    into dst one element on (apart from src: by index ranges) (UPC_ASYNC)
 *    with computation as long as the raw call, against MPI_Ibcast,
 *    MPI_Iallgather, MPI_Ialltoall, MPI_Iallreduce of one long (after each
 *    process's sum, which it cannot overlap), MPI_Ialltoallv and
 *    MPI_Iexscan of one long (after the sum; the scan from its seed
 *    after the wait), with the
 *    same computation: (comm + comp - both) /
 * min(comm, comp); on UPC_TEAM_ALL, then the broadcast, gather_all, exchange,
 * reduce_all and permute on a split team of every thread ("team").
 * The raw side runs on the first thread of each process while the others
 * wait at the barrier after the batch. */
#include "args.h"
#include "median.h"
#include "mpi/layer.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <upc_collective.h>
#include <upc_collective_ext.h>

enum { BATCHES = 15 };
enum {
    BCAST_MY,
    BCAST_ALL,
    SCATTER,
    GATHER,
    GATHER_ALL,
    EXCHANGE,
    REDUCE_MY,
    REDUCE_ONE,
    PREFIX_MY,
    REDUCE_ALL,
    PERMUTE,
    NFIG
};
static const char *const fig_names[NFIG] = {
    "broadcast MY|MY",      "broadcast ALL|ALL", "scatter MY|MY", "gather MY|MY",
    "gather_all MY|MY",     "exchange MY|MY",    "reduceL MY|MY", "reduceL 1/thread",
    "prefix_reduceL MY|MY", "reduce_allL MY|MY", "permute MY|MY"};
static const upc_flag_t MY = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;

static MPI_Comm raw_comm;
static tupc_sptr_t S, D, R1, PERM; /* src and dst areas, one long on thread 0 */
static tupc_sptr_t TPERM;          /* the split team's permutation: rank r to r + 1 */
static char *raw_buf, *raw_out;
static double shared_ns[2];

/* Computation of `us` microseconds: a spin on the clock. */
static void spin_us(double us)
{
    double t0 = tb_now_us();
    while (tb_now_us() - t0 < us)
        ;
}

/* A posted 16 MiB broadcast from thread 0 with `comp` microseconds of
 * computation between the post and the wait: MPI_Ibcast by the leaders
 * (raw), tupc_team_broadcast with UPC_ASYNC (MY|MY) by every thread. */
/* The team the posted call runs on: UPC_TEAM_ALL, or a split team of
 * every thread (the team path across processes, mpi/team_coll.c); and the
 * call: a broadcast of n bytes, a gather_all or an exchange of n / THREADS
 * bytes per block (n bytes of dst per thread; on UPC_TEAM_ALL). */
static _Thread_local upc_team_t post_team = UPC_TEAM_ALL; /* each thread its own */
enum { POST_BCAST, POST_GATHER_ALL, POST_EXCHANGE, POST_REDUCE_ALL, POST_PERMUTE, POST_PREFIX };
static _Thread_local int post_verb = POST_BCAST;
static const char *const post_names[] = {"bcast",      "gather_all", "exchange",
                                         "reduce_all", "permute",    "prefix"};

static void post_one(int tupc, size_t n, double comp, int leader)
{
    const size_t nb = n / (size_t)THREADS;
    const int per = tupc_impl_local_threads;
    const size_t ne = n / sizeof(long), blk = (ne + (size_t)THREADS - 1) / (size_t)THREADS;
    if (tupc) {
        upc_coll_handle_t h =
            post_verb == POST_BCAST ? tupc_team_broadcast(D, S, n, MY | UPC_ASYNC, post_team)
            : post_verb == POST_GATHER_ALL
                ? tupc_team_gather_all(D, S, nb, MY | UPC_ASYNC, post_team)
            : post_verb == POST_EXCHANGE ? tupc_team_exchange(D, S, nb, MY | UPC_ASYNC, post_team)
            : post_verb == POST_PERMUTE /* each thread's n / per bytes to the next process */
                ? tupc_team_permute(D, S, PERM, n / (size_t)per, MY | UPC_ASYNC, post_team)
                : post_verb == POST_PREFIX /* dst one element on: apart, by index ranges */
                      ? tupc_team_prefix_reduceL(tupc_ptr_add(D, 1, blk, sizeof(long)), S, UPC_ADD,
                                                 ne, blk, NULL, MY | UPC_ASYNC, post_team)
                      : tupc_team_reduce_allL(D, S, UPC_ADD, ne, blk, NULL, MY | UPC_ASYNC,
                                              post_team);
        spin_us(comp);
        upc_wait(h);
    } else if (leader) {
        MPI_Request r;
        const int k = (int)((size_t)per * nb), k2 = (int)((size_t)per * (size_t)per * nb);
        long sum = 0, all;
        const long *v = (const long *)raw_buf;
        if (post_verb == POST_REDUCE_ALL || post_verb == POST_PREFIX) /* the process's sum */
            for (size_t i = 0; i < (size_t)per * blk; i++)
                sum += v[i];
        if (post_verb == POST_REDUCE_ALL) { /* then one long */
            MPI_Iallreduce(&sum, &all, 1, MPI_LONG, MPI_SUM, raw_comm, &r);
        } else if (post_verb == POST_PREFIX) { /* the seed; the scan after it */
            all = 0;
            MPI_Iexscan(&sum, &all, 1, MPI_LONG, MPI_SUM, raw_comm, &r);
        } else if (post_verb == POST_PERMUTE) { /* n bytes to the next process */
            const int np = THREADS / per, p = MYTHREAD / per;
            int cnt[2 * 64] = {0}, dsp[64] = {0};
            cnt[(p + 1) % np] = (int)n;
            cnt[64 + (p + np - 1) % np] = (int)n;
            MPI_Ialltoallv(raw_buf, cnt, dsp, MPI_BYTE, raw_out, cnt + 64, dsp, MPI_BYTE, raw_comm,
                           &r);
        } else if (post_verb == POST_BCAST)
            MPI_Ibcast(raw_buf, (int)n, MPI_BYTE, 0, raw_comm, &r);
        else if (post_verb == POST_GATHER_ALL)
            MPI_Iallgather(raw_buf, k, MPI_BYTE, raw_out, k, MPI_BYTE, raw_comm, &r);
        else
            MPI_Ialltoall(raw_buf, k2, MPI_BYTE, raw_out, k2, MPI_BYTE, raw_comm, &r);
        spin_us(comp);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (post_verb == POST_PREFIX) { /* the process's scan from its seed */
            long *out = (long *)raw_out;
            for (size_t i = 0; i < (size_t)per * blk; i++)
                out[i] = all += v[i];
        }
    }
}

/* Thread 0's time of f between two barriers, in microseconds. */
static double timed(void (*f)(int, size_t, double, int), int tupc, size_t n, double comp,
                    int leader)
{
    upc_barrier();
    double t0 = tb_now_us();
    f(tupc, n, comp, leader);
    upc_barrier();
    return tb_now_us() - t0;
}

static void comp_one(int tupc, size_t n, double comp, int leader)
{
    (void)n;
    if (tupc || leader)
        spin_us(comp);
}

/* The overlap of a posted broadcast with computation as long as the raw
 * broadcast alone: (comm + comp - both) / min(comm, comp), 1 for all of
 * it hidden, 0 for none; raw and tupc in turns, medians of the batches. */
static void overlap(size_t n, int leader)
{
    double v[6][BATCHES], m[6];
    double comp = 0;
    for (int b = -2; b < BATCHES; b++) {
        double c = timed(post_one, 0, n, 0, leader); /* raw, alone */
        if (b < 0) { /* warm-up (the first touches every page): the computation's length */
            comp = c;
            (void)timed(post_one, 1, n, 0, leader);
            continue;
        }
        v[0][b] = c;
        v[1][b] = timed(post_one, 0, n, comp, leader);
        v[2][b] = timed(post_one, 1, n, 0, leader);
        v[3][b] = timed(post_one, 1, n, comp, leader);
        v[4][b] = timed(comp_one, 0, n, comp, leader); /* the leaders compute */
        v[5][b] = timed(comp_one, 1, n, comp, leader); /* every thread does */
    }
    if (MYTHREAD != 0)
        return;
    for (int k = 0; k < 6; k++)
        m[k] = tb_median(v[k], BATCHES);
    for (int t = 0; t < 2; t++) {
        double comm = m[2 * t], both = m[2 * t + 1], cp = m[4 + t];
        double lo = comm < cp ? comm : cp;
        printf("posted %-10s %-5s %9zu comm %8.0f us  comp %8.0f us  both %8.0f us  overlap "
               "%.2f\n",
               post_names[post_verb], t ? (post_team == UPC_TEAM_ALL ? "tupc" : "team") : "raw", n,
               comm, cp, both, (comm + cp - both) / lo);
    }
    fflush(stdout);
}

/* The raw permute: k bytes from each process of comm to the next, by
 * MPI_Alltoallv (the call tupc's permute becomes). */
static void raw_next(MPI_Comm comm, int k)
{
    int me, np, cnt[2 * 64] = {0}, dsp[64] = {0};
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    if (np > 64)
        return;
    cnt[(me + 1) % np] = k;           /* send */
    cnt[64 + (me + np - 1) % np] = k; /* receive */
    MPI_Alltoallv(raw_buf, cnt, dsp, MPI_BYTE, raw_out, cnt + 64, dsp, MPI_BYTE, comm);
}

/* A split team across processes (mpi/team.h): the even threads, one per
 * process at 4 x 1 (processes 0 and 2) and at 2 x 2 (thread 0 of each),
 * against the raw calls on a communicator of the processes that hold
 * them, by one thread each: tupc_team_barrier against MPI_Barrier, and
 * tupc_team_broadcast (MY|MY) of n bytes from rank 0 against MPI_Bcast. */
static void team_figs(int leader, const size_t *sizes, int reps, int whole)
{
    const int me = MYTHREAD, per = tupc_impl_local_threads;
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, whole ? 0 : me % 2, me, &t);
    /* The raw side: the leaders of the processes that hold an even thread
     * (whole: every process). */
    MPI_Comm sub = MPI_COMM_NULL;
    const int holds = whole || per > 1 || (me / per) % 2 == 0;
    if (leader)
        MPI_Comm_split(raw_comm, holds ? 0 : MPI_UNDEFINED, me, &sub);
    const int raw_side = leader && holds, tupc_side = whole || me % 2 == 0;
    tupc_sptr_t root_src = S; /* rank 0 of the team is thread 0 */
    const int members = whole ? THREADS : (THREADS + 1) / 2;
    int psub = 1;
    if (sub != MPI_COMM_NULL)
        MPI_Comm_size(sub, &psub);
    /* The barrier, then 3 sizes of bcast, scatter, gather, gather_all,
     * exchange (blocks of n / members^2 bytes: n in all each way) and
     * permute (each member's n / members bytes to the next rank, on the
     * next process). */
    for (int f = 0; f < 19; f++) {
        const int v = f == 0 ? 0 : 1 + (f - 1) / 3, s = f == 0 ? -1 : (f - 1) % 3;
        const size_t M = (size_t)members, per = M / (size_t)psub;
        size_t n = s < 0 ? 0 : sizes[s], nb = n / M ? n / M : 1;
        if (v == 5)
            nb = n / (M * M) ? n / (M * M) : 1;
        /* the raw side's bytes per process (exchange: per pair of processes) */
        int k = (int)(nb * (v == 5 ? per * per : per));
        int r = n <= 8 ? reps : n <= 65536 ? reps / 8 + 1 : 3;
        double raw[BATCHES], tu[BATCHES];
        for (int b = -1; b < BATCHES; b++) {
            upc_barrier();
            double t0 = tb_now_us();
            for (int i = 0; i < r && raw_side; i++) {
                if (v == 0)
                    MPI_Barrier(sub);
                else if (v == 1)
                    MPI_Bcast(raw_buf, (int)n, MPI_BYTE, 0, sub);
                else if (v == 2)
                    MPI_Scatter(raw_buf, k, MPI_BYTE, raw_out, k, MPI_BYTE, 0, sub);
                else if (v == 3)
                    MPI_Gather(raw_buf, k, MPI_BYTE, raw_out, k, MPI_BYTE, 0, sub);
                else if (v == 4)
                    MPI_Allgather(raw_buf, k, MPI_BYTE, raw_out, k, MPI_BYTE, sub);
                else if (v == 5)
                    MPI_Alltoall(raw_buf, k, MPI_BYTE, raw_out, k, MPI_BYTE, sub);
                else
                    raw_next(sub, k);
            }
            if (me == 0)
                shared_ns[0] = (tb_now_us() - t0) * 1e3 / r;
            upc_barrier();
            t0 = tb_now_us();
            for (int i = 0; i < r && tupc_side; i++) {
                if (v == 0)
                    tupc_team_barrier(t);
                else if (v == 1)
                    tupc_team_broadcast(D, root_src, n, MY, t);
                else if (v == 2)
                    tupc_team_scatter(D, root_src, nb, MY, t);
                else if (v == 3)
                    tupc_team_gather(D, S, nb, MY, t);
                else if (v == 4)
                    tupc_team_gather_all(D, S, nb, MY, t);
                else if (v == 5)
                    tupc_team_exchange(D, S, nb, MY, t);
                else
                    tupc_team_permute(D, S, whole ? PERM : TPERM, nb, MY, t);
            }
            if (me == 0)
                shared_ns[1] = (tb_now_us() - t0) * 1e3 / r;
            upc_barrier();
            if (b >= 0 && me == 0)
                raw[b] = shared_ns[0], tu[b] = shared_ns[1];
        }
        if (me == 0) {
            double mr = tb_median(raw, BATCHES), mt = tb_median(tu, BATCHES);
            static const char *const nm[] = {"barrier",      "bcast MY|MY",    "scatter MY|MY",
                                             "gather MY|MY", "gath_all MY|MY", "exchange MY|MY",
                                             "permute MY|MY"};
            printf("%-5s %-12s %9zu %12.0f %12.0f %8.2f\n", whole ? "whole" : "team", nm[v], n, mr,
                   mt, mt / mr);
            fflush(stdout);
        }
    }
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    if (t != TUPC_TEAM_NONE)
        tupc_team_free(&t);
}

/* One call of figure f through tupc. */
static void tupc_one(int f, size_t n)
{
    size_t ne = n / sizeof(long), blk = (ne + (size_t)THREADS - 1) / (size_t)THREADS;
    size_t nb = n / (size_t)THREADS ? n / (size_t)THREADS : 1;
    switch (f) {
    case BCAST_MY:
        upc_all_broadcast(D, S, n, MY);
        break;
    case SCATTER:
        upc_all_scatter(D, S, nb, MY);
        break;
    case GATHER:
        upc_all_gather(D, S, nb, MY);
        break;
    case GATHER_ALL:
        upc_all_gather_all(D, S, nb, MY);
        break;
    case EXCHANGE:
        upc_all_exchange(D, S, nb, MY);
        break;
    case BCAST_ALL:
        upc_all_broadcast(D, S, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        break;
    case REDUCE_ONE:
        upc_all_reduceL(R1, S, UPC_ADD, (size_t)THREADS, 1, NULL, MY);
        break;
    case PREFIX_MY:
        upc_all_prefix_reduceL(D, S, UPC_ADD, ne, blk, NULL, MY);
        break;
    case REDUCE_ALL:
        upc_all_reduce_allL(D, S, UPC_ADD, ne, blk, NULL, MY);
        break;
    case PERMUTE:
        upc_all_permute(D, S, PERM, nb, MY);
        break;
    default:
        upc_all_reduceL(R1, S, UPC_ADD, ne, blk, NULL, MY);
    }
}

/* One call of figure f in raw MPI, by the first thread of each process. */
static void raw_one(int f, size_t n, int np)
{
    int per = THREADS / np, nb = (int)(n / (size_t)THREADS ? n / (size_t)THREADS : 1);
    switch (f) {
    case SCATTER:
        MPI_Scatter(raw_buf, per * nb, MPI_BYTE, raw_out, per * nb, MPI_BYTE, 0, raw_comm);
        return;
    case GATHER:
        MPI_Gather(raw_buf, per * nb, MPI_BYTE, raw_out, per * nb, MPI_BYTE, 0, raw_comm);
        return;
    case GATHER_ALL:
        MPI_Allgather(raw_buf, per * nb, MPI_BYTE, raw_out, per * nb, MPI_BYTE, raw_comm);
        return;
    case EXCHANGE:
        MPI_Alltoall(raw_buf, per * per * nb, MPI_BYTE, raw_out, per * per * nb, MPI_BYTE,
                     raw_comm);
        return;
    case PERMUTE: /* every block to the next process, as PERM has it */
        raw_next(raw_comm, per * nb);
        return;
    default:
        break;
    }
    if (f == BCAST_ALL)
        MPI_Barrier(raw_comm);
    if (f == PREFIX_MY) {
        size_t m = n / sizeof(long) / (size_t)np;
        const long *v = (const long *)raw_buf;
        long *out = (long *)raw_out, tot = 0, seed = 0;
        for (size_t i = 0; i < m; i++)
            tot += v[i];
        MPI_Exscan(&tot, &seed, 1, MPI_LONG, MPI_SUM, raw_comm);
        if (MYTHREAD == 0)
            seed = 0; /* MPI_Exscan leaves rank 0's undefined */
        for (size_t i = 0; i < m; i++)
            out[i] = seed += v[i];
        return;
    }
    if (f != REDUCE_MY && f != REDUCE_ONE && f != REDUCE_ALL) {
        MPI_Bcast(raw_buf, (int)n, MPI_BYTE, 0, raw_comm);
        if (f == BCAST_ALL)
            MPI_Barrier(raw_comm);
        return;
    }
    const long *v = (const long *)raw_buf;
    size_t m = f == REDUCE_ONE ? (size_t)per : n / sizeof(long) / (size_t)np;
    long sum = 0, all = 0;
    for (size_t i = 0; i < m; i++)
        sum += v[i];
    if (f == REDUCE_ALL)
        MPI_Allreduce(&sum, &all, 1, MPI_LONG, MPI_SUM, raw_comm);
    else
        MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, raw_comm);
}

int tupc_main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 400;
    int T = THREADS, me = MYTHREAD, per = tupc_impl_local_threads, np = T / per;
    int leader = me % per == 0;
    static const size_t sizes[] = {8, 65536, (size_t)16 << 20};
    const size_t max = sizes[2];
    S = upc_all_alloc((size_t)T, max);
    D = upc_all_alloc((size_t)T, max);
    R1 = upc_all_alloc(1, sizeof(long));
    PERM = upc_all_alloc((size_t)T, sizeof(int));
    if (!tupc_isnull(PERM)) /* each thread's block to the next process's same thread */
        *(int *)(PERM.addr + (size_t)me * tupc_impl_partition_size) = (me + per) % T;
    TPERM = upc_all_alloc((size_t)T, sizeof(int));
    if (!tupc_isnull(TPERM)) /* the even threads' team: rank me / 2 to the next */
        *(int *)(TPERM.addr + (size_t)me * tupc_impl_partition_size) = (me / 2 + 1) % ((T + 1) / 2);
    if (tupc_isnull(S) || tupc_isnull(D) || tupc_isnull(R1) || tupc_isnull(PERM) ||
        tupc_isnull(TPERM) || np < 2) {
        if (me == 0)
            fprintf(stderr,
                    "bench_coll: needs two processes or more and %zu bytes of heap per "
                    "thread\n",
                    2 * max);
        return 1;
    }
    memset(S.addr + (size_t)me * tupc_impl_partition_size, 1, max);
    if (leader) { /* a collective of the leaders */
        MPI_Comm_dup(tupc_mpi_comm_, &raw_comm);
        /* exchange: per * n bytes each way */
        size_t big = max * (size_t)per;
        raw_buf = malloc(big);
        raw_out = malloc(big);
        if (!raw_buf || !raw_out)
            return 1;
        memset(raw_buf, 1, big);
        memset(raw_out, 1, big);
    }
    upc_barrier();
    if (me == 0) {
        printf("# bench_coll: %d processes x %d threads, median of %d batches, ns per call\n", np,
               per, BATCHES);
        printf("%-18s %9s %12s %12s %8s\n", "figure", "bytes", "raw_ns", "tupc_ns", "ratio");
    }
    /* bench_coll -n T REPS overlap: the overlap alone; ... team: the team's
     * figures alone; whole: on a team of every thread. */
    const int only_overlap = argc > 2 && strcmp(argv[2], "overlap") == 0;
    const int only_team = argc > 2 && strcmp(argv[2], "team") == 0;
    const int only_whole = argc > 2 && strcmp(argv[2], "whole") == 0;
    for (int f = 0; f < (only_overlap || only_team || only_whole ? 0 : NFIG); f++) {
        for (int s = 0; s < (f == REDUCE_ONE ? 1 : 3); s++) {
            size_t n = sizes[s];
            int r = n <= 8 ? reps : n <= 65536 ? reps / 8 + 1 : 3;
            double raw[BATCHES], tu[BATCHES];
            for (int b = -1; b < BATCHES; b++) { /* b = -1: warm-up */
                upc_barrier();
                double t0 = tb_now_us();
                if (leader)
                    for (int i = 0; i < r; i++)
                        raw_one(f, n, np);
                if (me == 0)
                    shared_ns[0] = (tb_now_us() - t0) * 1e3 / r;
                upc_barrier();
                t0 = tb_now_us();
                for (int i = 0; i < r; i++)
                    tupc_one(f, n);
                if (me == 0)
                    shared_ns[1] = (tb_now_us() - t0) * 1e3 / r;
                upc_barrier(); /* MY|MY: the last call complete everywhere */
                if (b >= 0 && me == 0)
                    raw[b] = shared_ns[0], tu[b] = shared_ns[1];
            }
            if (me == 0) {
                double mr = tb_median(raw, BATCHES), mt = tb_median(tu, BATCHES);
                printf("%-18s %9zu %12.0f %12.0f %8.2f\n", fig_names[f], n, mr, mt, mt / mr);
                fflush(stdout);
            }
        }
    }
    /* With one thread per process and two processes the even threads are
     * thread 0 alone: its team's calls are copies in one process, and the
     * raw calls on a communicator of one process do nothing. */
    const int team_spans = tupc_impl_local_threads > 1 || THREADS > 2;
    if (!only_overlap && !only_whole && team_spans)
        team_figs(leader, sizes, reps, 0);
    else if (!only_overlap && !only_whole && MYTHREAD == 0)
        printf("# no team figures: the even threads' team is thread 0 alone\n");
    if (only_whole)
        team_figs(leader, sizes, reps, 1);
    if (!only_team && !only_whole) {
        for (post_verb = POST_BCAST; post_verb <= POST_PREFIX; post_verb++)
            overlap(max, leader);
        /* The broadcast, gather_all, exchange, reduce_all and permute on a
         * split team of every thread (its ranks are the threads: PERM holds
         * for it). */
        tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &post_team);
        static const int on_team[] = {POST_BCAST, POST_GATHER_ALL, POST_EXCHANGE, POST_REDUCE_ALL,
                                      POST_PERMUTE};
        for (int i = 0; i < 5; i++) {
            post_verb = on_team[i];
            overlap(max, leader);
        }
        tupc_team_free(&post_team);
    }
    upc_barrier();
    if (leader) {
        MPI_Comm_free(&raw_comm);
        free(raw_out);
        free(raw_buf);
    }
    return 0;
}
