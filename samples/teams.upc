/* teams.c in UPC: splitting the work between teams. Two independent jobs
 * run at the same time, each on its own team of threads. tupc_team_split
 * (tupc's extension, <upc_collective_ext.h>) makes the teams, as
 * MPI_Comm_split does; each team fills its job's shared array and reduces
 * it with a team collective, tupc_team_reduceL, whose synchronization
 * involves the team's members only: one team never waits for the other.
 * Job 0 sums f(i) over data0, job 1 finds the largest g(i) over data1. With
 * one thread, its one team does both jobs in turn. Run: teams -n 4 */
#include <upc.h>
#include <upc_collective_ext.h>
#include <stdio.h>

#define N 100000 /* elements per job, whatever THREADS */
#define JOBS 2

/* Each job's N elements, cyclic over the threads: allocated at run time,
 * since under dynamic THREADS a shared array's size must name THREADS
 * (UPC 1.3 6.5.2.1), and N does not. */
shared long *data0, *data1;
shared [] long result[JOBS]; /* on thread 0 */

static long f(long i)
{
    return i % 7 * (i % 11);
}

static long g(long i)
{
    return i * 7919 % 100003;
}

int main(void)
{
    const int T = THREADS, me = MYTHREAD;
    const size_t B = 1;
    data0 = upc_all_alloc(N, sizeof(long));
    data1 = upc_all_alloc(N, sizeof(long));

    /* The colour picks the team: even threads form team 0, odd ones team 1.
     * The key, MYTHREAD, orders the members: rank 0 is the lowest thread. */
    const int nteams = T < JOBS ? T : JOBS;
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, me % nteams, me, &team);
    const int rank = tupc_team_rank(team), size = tupc_team_size(team);
    if (rank == 0)
        printf("teams: team %d has %d of the %d threads, led by thread %d\n", me % nteams, size, T,
               me);

    for (int job = me % nteams; job < JOBS; job += nteams) {
        /* Member `rank` of `size` fills its share of the job's array. The
         * elements live on all THREADS: some writes are to other threads. */
        for (long i = N * rank / size; i < N * (rank + 1) / size; i++) {
            if (job == 0)
                data0[i] = f(i);
            else
                data1[i] = g(i);
        }
        /* ALLSYNC in waits for every member of this team to enter, so
         * their writes are done; it does not wait for the other team. */
        if (job == 0)
            tupc_team_reduceL(&result[0], data0, UPC_ADD, N, B, NULL,
                              UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, team);
        else
            tupc_team_reduceL(&result[1], data1, UPC_MAX, N, B, NULL,
                              UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, team);
    }
    upc_barrier; /* all threads: both jobs are done */

    /* Check against serial runs of both jobs. */
    int bad = 0;
    if (me == 0) {
        long sum = 0, max = g(0);
        for (long i = 0; i < N; i++) {
            sum += f(i);
            max = g(i) > max ? g(i) : max;
        }
        if (result[0] != sum || result[1] != max) {
            fprintf(stderr, "teams: sum %ld and max %ld, expected %ld and %ld\n", result[0],
                    result[1], sum, max);
            bad = 1;
        } else {
            printf("teams: job 0, sum of f = %ld; job 1, max of g = %ld\n", result[0], result[1]);
        }
    }
    tupc_team_free(&team);
    upc_all_free(data0);
    upc_all_free(data1);
    return bad;
}
