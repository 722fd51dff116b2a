/* What across processes must end the job with one line, never hang:
 * argv[2] says which. ref: tupc_ref on another process's element.
 * id: upc_barrier ids that differ. exit: upc_global_exit(5) by one thread
 * while the others wait in a barrier. hang: a lock never granted, across
 * processes, which the hang watchdog reports. coll: what stays in one process
 * (upc_free of a upc_all_alloc block; every collective runs across
 * processes, mpi_coll and mpi_team).
 * perm: upc_all_permute with a perm whose entries are all 0, found by
 * every process alike (mpi/hier_reloc.c) and worded as in one process.
 * teamperm: the same on a split team, whose leaders check it alike.
 * postperm: a posted permute on UPC_TEAM_ALL whose perm[1] is THREADS,
 * refused at posting by the leaders. teamrange: on a split team, the entry
 * of rank 1 (thread 3) out of range, posted: the message names rank 1's
 * thread, whichever member reports it. teamrange_now: the same blocking
 * (a small team permute: one MPI_Alltoallv, checked by every leader).
 * typedperm: perm's zeros in a permute of 5000-byte blocks (a message a
 * block), refused before any block moves.
 * bigperm: a permute in place (packed: one MPI_Alltoallv) whose process
 * sends more bytes than an MPI count holds (two 1.25 GiB blocks), refused
 * before any count wraps; not in place its blocks go as a message each.
 * teamcalls: a member of a team across processes makes one collective call
 * more than the others before a team barrier: the hang report names it. */
#include "check.h"

#include <string.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

int tupc_main(int argc, char **argv)
{
    CHECK(argc > 2);
    const char *what = argv[2];
    int T = THREADS, me = MYTHREAD;
    tupc_sptr_t a = upc_all_alloc((size_t)T, sizeof(int));
    if (strcmp(what, "ref") == 0) {
        int v = tupc_ref(a, (me + T / 2) % T, 1, int); /* another process's with P > 1 */
        printf("read %d\n", v);
    } else if (strcmp(what, "id") == 0) {
        upc_barrier(me == T - 1 ? 2 : 1);
    } else if (strcmp(what, "exit") == 0) {
        if (me == T - 1)
            upc_global_exit(5);
        upc_barrier();
    } else if (strcmp(what, "hang") == 0) {
        /* TUPC_HANG_TIMEOUT=2: thread 0 keeps a lock the last thread
         * waits for, the others wait in the barrier below. */
        upc_lock_t *l = upc_all_lock_alloc();
        if (me == 0)
            upc_lock(l);
        upc_barrier();
        if (me == T - 1)
            upc_lock(l);
    } else if (strcmp(what, "perm") == 0) {
        tupc_sptr_t d = upc_all_alloc((size_t)T, sizeof(int));
        tupc_put_int(tupc_index(a, me, 1, int), 0);
        upc_all_permute(d, d, a, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    } else if (strcmp(what, "teamperm") == 0) { /* a team's perm of zeros, across processes */
        tupc_sptr_t d = upc_all_alloc((size_t)T, sizeof(int));
        upc_team_t t;
        tupc_team_split(UPC_TEAM_ALL, me % 2, me, &t);
        tupc_put_int(tupc_index(a, me, 1, int), 0);
        tupc_team_permute(d, d, a, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, t);
    } else if (strcmp(what, "postperm") == 0) {
        tupc_sptr_t d = upc_all_alloc((size_t)T, sizeof(int));
        tupc_put_int(tupc_index(a, me, 1, int), me == 1 ? T : (me + 1) % T);
        upc_wait(tupc_team_permute(d, d, a, sizeof(int),
                                   UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, UPC_TEAM_ALL));
    } else if (strcmp(what, "teamrange") == 0) {
        tupc_sptr_t d = upc_all_alloc((size_t)T, sizeof(int));
        upc_team_t t;
        tupc_team_split(UPC_TEAM_ALL, me % 2, me, &t);
        tupc_put_int(tupc_index(a, me, 1, int), me == 3 ? 5 : (me / 2 + 1) % 2);
        upc_wait(tupc_team_permute(d, d, a, sizeof(int),
                                   UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, t));
    } else if (strcmp(what, "typedperm") == 0) { /* 5000-byte blocks: a message a block */
        tupc_sptr_t s = upc_all_alloc((size_t)T, 5000), d = upc_all_alloc((size_t)T, 5000);
        tupc_put_int(tupc_index(a, me, 1, int), 0);
        upc_all_permute(d, s, a, 5000, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    } else if (strcmp(what, "teamrange_now") == 0) {
        tupc_sptr_t d = upc_all_alloc((size_t)T, sizeof(int));
        upc_team_t t;
        tupc_team_split(UPC_TEAM_ALL, me % 2, me, &t);
        tupc_put_int(tupc_index(a, me, 1, int), me == 3 ? 5 : (me / 2 + 1) % 2);
        tupc_team_permute(d, d, a, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_MYSYNC, t);
    } else if (strcmp(what, "bigperm") == 0) { /* 2 x 1.25 GiB blocks per process */
        const size_t nb = (size_t)5 << 28;
        tupc_sptr_t d = upc_all_alloc((size_t)T, nb);
        tupc_put_int(tupc_index(a, me, 1, int), (me + 2) % T);
        tupc_team_permute(d, UPC_IN_PLACE, a, nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_TEAM_ALL);
    } else if (strcmp(what, "teamcalls") == 0) {
        tupc_sptr_t b = upc_all_alloc((size_t)T, sizeof(int));
        upc_team_t t;
        tupc_team_split(UPC_TEAM_ALL, me % 2, me, &t); /* members in both processes */
        if (me == T - 1)
            tupc_team_broadcast(b, a, sizeof(int), UPC_IN_NOSYNC | UPC_OUT_NOSYNC, t);
        tupc_team_barrier(t);
    } else if (strcmp(what, "coll") == 0) { /* what stays in one process: upc_free of an
                                             * upc_all_alloc block */
        tupc_sptr_t b = upc_all_alloc((size_t)T, sizeof(int));
        upc_all_broadcast(b, a, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* runs */
        if (me == 0)
            upc_free(b);
    }
    upc_barrier();
    return 0;
}
