/* Teams across processes: each team is a communicator of the processes
 * that hold its members (MPI_Comm_create_group of its parent's), and in
 * each of those processes a part that its members there meet in: the
 * first of them (the leader) makes the team's MPI calls.
 *
 * mpi/team.c: the parts, the entry of a call, the team barrier and the
 * exchange of one item per member; mpi/team_coll.c: the team forms of the
 * collectives across processes. UPC_TEAM_ALL has a part too
 * (tupc_mpi_team_all_), which tupc_team_split on it uses; its collectives
 * take mpi/hier*.c. docs/design.md, "Teams across processes". */
#ifndef TUPC_MPI_TEAM_H
#define TUPC_MPI_TEAM_H

#include "mpi/hier.h"
#include "mpi/layer.h"
#include "sync/wait.h"

#include <stddef.h>
#include <stdint.h>

struct tupc_team;
struct tupc_coll_self;

/* One member's words, written by that member and read by the leader (its
 * own line pair, as struct tupc_hier_member). */
struct tupc_mpi_tmember {
    tupc_word entered;         /* the calls (and barriers) it has entered */
    tupc_word put;             /* the calls whose item it has left in `item` */
    tupc_word done;            /* the calls whose gathered items it has read */
    uint32_t seq;              /* its calls and barriers on the team */
    uint32_t calls;            /* its collective calls, for the barrier's check */
    uint32_t posts;            /* its posted calls on the team (team_coll.c) */
    struct tupc_hier_buf item; /* its item of an exchange */
    struct tupc_team *result;  /* a split: its new team (the leader's) */
    /* A small gather's block, by call (team_coll.c, rooted_ring): a slot
     * per line, as struct tupc_hier_member's. */
    _Alignas(TUPC_HIER_SMALL) unsigned char small[TUPC_HIER_SLOTS][TUPC_HIER_SMALL];
} __attribute__((aligned(128)));

struct tupc_mpi_team {
    MPI_Comm comm;              /* the processes that hold members, by their first member's rank */
    int n, L;                   /* members, and members here */
    int P;                      /* processes in comm */
    int ident;                  /* process order is rank order (order[i] == i) */
    int *local;                 /* by local index: the member's rank (ascending), */
    int *lthread;               /* and its thread */
    int *lidx;                  /* by rank: the local index here, or -1 */
    int *proc;                  /* by rank: its process's rank in comm */
    int *count;                 /* by rank in comm: members there, */
    int *displ;                 /* and the first of them in process order */
    int *order;                 /* process order -> rank */
    int *of_proc;               /* by MPI rank (the run's communicator): its rank in comm, or -1 */
    struct tupc_mpi_tmember *m; /* by local index */
    tupc_word ready;            /* the leader's: calls complete among the processes */
    int perm_ok, perm_bad[3];   /* the leader's verdict on a small permute's perm */
    uint32_t last;              /* the leader's: its last exchange's number */
    /* Posted broadcast p is complete here once posted[p % POSTS] reaches p. */
    tupc_word posted[TUPC_HIER_POSTS];
    struct tupc_hier_buf out, in, all; /* the leader's buffers of an exchange */
    /* The leader's buffers of small broadcasts, scatters and gathers, by
     * call (team_coll.c, ring_buffer): it runs up to TUPC_HIER_SLOTS calls
     * ahead of its members rather than meeting them in every call. */
    struct tupc_hier_buf slot[TUPC_HIER_SLOTS];
};

/* UPC_TEAM_ALL's part (every thread, by number). */
extern struct tupc_mpi_team *tupc_mpi_team_all_;

/* The part of UPC_TEAM_ALL, once per run (collective), and its end. */
int tupc_mpi_team_start(char *err, size_t len);
void tupc_mpi_team_stop(void);

/* A new team's part, made by the leader of its parent's part in this
 * process: `thread` its members' threads by rank, `prank` their ranks in
 * the parent; `tag` tells the parent's concurrent makings apart (every
 * process that holds a member makes it, with the same tag). NULL with a
 * message in err. Collective over the team's processes. */
struct tupc_mpi_team *tupc_mpi_team_make(const struct tupc_mpi_team *parent, const int *thread,
                                         const int *prank, int n, int tag, char *err, size_t len);
/* Frees a part (collective over its processes: MPI_Comm_free). */
void tupc_mpi_team_unmake(struct tupc_mpi_team *g);

/* The entry of call `func` (arguments' signature `args`, flags) of the
 * member of local index li, whose own state on the team is self: counts
 * it in the member's ledger and returns the number it takes in the part's
 * sequence. */
uint32_t tupc_mpi_team_enter(struct tupc_mpi_team *g, int li, struct tupc_coll_self *self,
                             int team_id, const char *func, unsigned flags, uint64_t args);
/* A barrier of the team's members (its own number in the sequence), which
 * also checks that every member has made as many collective calls on the
 * team (counted at each entry): the member of local index li. Every process's
 * transfers before it are complete and seen after it. t names the team
 * in a message (NULL: UPC_TEAM_ALL). */
void tupc_mpi_team_barrier(struct tupc_mpi_team *g, int li, const char *func,
                           const struct tupc_team *t);
/* Exchange number s: every member leaves `size` bytes, and gets back the
 * items of every member by rank (n * size bytes, the leader's), to read
 * until it calls tupc_mpi_team_done(g, li, s). */
const void *tupc_mpi_team_allgather(struct tupc_mpi_team *g, int li, uint32_t s, const void *item,
                                    size_t size, const char *func);
void tupc_mpi_team_done(struct tupc_mpi_team *g, int li, uint32_t s);
/* The leader: waits until every other local member's word at offset w of
 * its struct tupc_mpi_tmember has reached s. */
void tupc_mpi_team_wait_members(struct tupc_mpi_team *g, size_t w, uint32_t s, const char *func);

/* Range q of n elements cut in P balanced ranges: *lo and *m elements. */
static inline void tupc_mpi_range(size_t n, int P, int q, size_t *lo, size_t *m)
{
    size_t b = n / (size_t)P, x = n % (size_t)P, Q = (size_t)q;
    *lo = b * Q + (Q < x ? Q : x);
    *m = b + (Q < x);
}

/* The exchange of a sort across processes (coll/sort.c), by each part's
 * leader: part q (its rank in g's communicator, of P) holds range q of the
 * n elements (es bytes each; tupc_mpi_range), sorted, in `mine`; the first
 * part gathers them, merges them (merge(arg, all, tmp, off, P): the runs
 * in all, run r from element off[r] to off[r + 1], into the sorted n
 * elements, returned: in all or in tmp, each n * es bytes), and sends each
 * part its range of the result back into mine. */
typedef char *tupc_mpi_merge_fn(void *arg, char *all, char *tmp, size_t *off, int parts);
void tupc_mpi_team_sort_runs(struct tupc_mpi_team *g, const char *func, char *mine, size_t n,
                             size_t es, tupc_mpi_merge_fn *merge, void *arg);

/* ---- team_coll.c: the team forms across processes ---------------------- */

enum tupc_mpi_team_verb {
    TUPC_MPI_BCAST,
    TUPC_MPI_SCATTER,
    TUPC_MPI_GATHER,
    TUPC_MPI_GATHER_ALL,
    TUPC_MPI_EXCHANGE,
    TUPC_MPI_PERMUTE
};
/* A relocalization on c->team: 0, or for a permute -1 with bad[] as
 * tupc_mpi_permute gives it. */
int tupc_mpi_team_reloc(const struct tupc_mpi_call *c, enum tupc_mpi_team_verb v, tupc_sptr_t dst,
                        tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes, int in_place, int bad[3]);
/* A relocalization (an exchange in place too) posted (UPC_ASYNC, not
 * OUT_ALLSYNC) on c->team, as tupc_mpi_reloc_post on UPC_TEAM_ALL:
 * *mark (set to the result once this member's part is done) and *job (the
 * leader's, NULL elsewhere). */
uint32_t tupc_mpi_team_reloc_post(const struct tupc_mpi_call *c, enum tupc_mpi_team_verb v,
                                  tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes, void **job,
                                  tupc_word **mark);
/* A permute (in place too: src is dst) posted on c->team, as
 * tupc_mpi_team_reloc_post; 0 on every member, with bad[] as
 * tupc_mpi_team_reloc gives it, for a bad perm (the caller refuses the
 * call). */
uint32_t tupc_mpi_team_permute_post(const struct tupc_mpi_call *c, tupc_sptr_t dst, tupc_sptr_t src,
                                    tupc_sptr_t perm, size_t nb, int bad[3], void **job,
                                    tupc_word **mark);
/* The posting of a call on c->team (UPC_TEAM_ALL too: its part is the
 * run's) whose rest is the job of the leader's request: the entry and IN
 * sync (IN_ALLSYNC a team barrier; with `entries` 2, IN_MYSYNC too), the
 * post's number p and the mark that reaches p once the post is done here;
 * on the leader, the wait for the post that last used the mark and, with
 * `entries` 1, for every local member's entry under IN_MYSYNC (the job
 * reads and writes their data). tupc_mpi_team_post_end once the job is
 * made. */
struct tupc_mpi_team_post {
    uint32_t s, p;           /* the call's number in the part, and the post's */
    tupc_word *mark;         /* reaches p once the post is done here */
    int leader;              /* this member makes the job */
    int rank;                /* this process's rank in the team's communicator */
    struct tupc_mpi_team *g; /* the team's part here */
};
void tupc_mpi_team_post_begin(const struct tupc_mpi_call *c, int entries,
                              struct tupc_mpi_team_post *tp);
void tupc_mpi_team_post_end(const struct tupc_mpi_call *c, const struct tupc_mpi_team_post *tp);
/* A reduction (what 0), reduce_all (2) or prefix reduction (1, in place
 * and exclusive as flagged) on c->team, cut as tupc_team_reduce(3) says. */
void tupc_mpi_team_reduce(const struct tupc_mpi_call *c, const struct tupc_red_type *ty, int what,
                          tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                          size_t blk_size, void (*f)(void), int in_place, int excl);

/* Elements lo..lo+m-1 of the array at L->src, reduced into *out (scan 0)
 * or scanned into dst (1 inclusive, 2 exclusive, from seed or none), each
 * read and written where it lies (its own process, or through the window);
 * the cut of tupc_mpi_team_reduce. */
void tupc_mpi_team_walk(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                        tupc_sptr_t dst, size_t lo, size_t m, upc_op_t op, tupc_red_fn f, int scan,
                        const void *seed, union tupc_red_val *out, const char *func);

/* ---- team_post_ranges.c: any reduction posted on a team, by ranges ---- */

/* A reduction (what 0), reduce_all (2) or prefix reduction (1, exclusive
 * with excl; in place where src is dst) posted on c->team (UPC_TEAM_ALL
 * too: a prefix whose dst and src lie apart), cut as tupc_mpi_team_reduce
 * cuts it: the entry and IN sync at posting (a team barrier but under
 * IN_NOSYNC); *mark as tupc_mpi_reduce_post's, and on the leader *job, a
 * job in steps (coll/async.h) to run as tupc_mpi_team_ranges_step. */
uint32_t tupc_mpi_team_reduce_post_ranges(const struct tupc_mpi_call *c,
                                          const struct tupc_red_type *ty, int what, int excl,
                                          tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                                          size_t nelems, size_t blk_size, void (*f)(void),
                                          void **job, tupc_word **mark);
/* 0: to be called again; 1: done; TUPC_MPI_STEP_KEEP: done in a stopped
 * run whose sends MPI may still read from arg, which must stay allocated
 * (coll/async.h's TUPC_ASYNC_KEEP_ARG). */
enum { TUPC_MPI_STEP_KEEP = 2 };
int tupc_mpi_team_ranges_step(void *arg);

/* ---- hier_post_reduce.c: reductions posted on a team ------------------- */

/* Whether a reduction (every 0) or reduce_all or prefix reduction (1)
 * posted on c->team (UPC_ASYNC, not OUT_ALLSYNC) posts: where every
 * process that holds an element of src, and a reduction's dst, holds a
 * member (a prefix's dst shares src's layout); alike on every process. */
int tupc_mpi_team_reduce_posts(const struct tupc_mpi_call *c, int every, tupc_sptr_t dst,
                               tupc_sptr_t src, size_t nelems, size_t blk_size);

/* The posting of a reduction across processes (hier_post_reduce.c), on
 * UPC_TEAM_ALL (c->team NULL) or c->team: the entry and IN sync, the
 * post's number p and the mark that reaches p once the post is done here;
 * on the leader (1), once the post that last used the mark is complete and
 * under IN_MYSYNC every member here has entered, w: where its partials go.
 * tupc_hier_post_red_end after. */
struct tupc_hier_posting {
    uint32_t s, p;
    tupc_word *mark;
    struct tupc_mpi_team_post tp;
};
int tupc_hier_post_red_begin(const struct tupc_mpi_call *c, tupc_sptr_t dst,
                             struct tupc_hier_posting *ps, struct tupc_hier_where *w);
void tupc_hier_post_red_end(const struct tupc_mpi_call *c, const struct tupc_hier_posting *ps);
#endif
