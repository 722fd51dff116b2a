/* Teams (Extended Collectives 0.3 section 4 item 9): the threads a collective
 * call runs on, and the state the call runs with.
 *
 * A team owns everything the sync-mode engine (coll/syncmode.h) keeps per
 * call sequence: each member's line of counters and its scratch, eager lines
 * and mailboxes, each member's own running state (calls made, the running
 * signature), and a barrier of its own. So two teams run their calls
 * without ever reading each other's counters, and a thread in several teams
 * keeps one call sequence per team.
 *
 * Every team is made by one constructor (tupc_coll_team_make, the engine's)
 * and owns the same parts: its members' lines, their own states, their
 * barrier lines and the maps between ranks and threads. UPC_TEAM_ALL is the
 * team tupc_team_all_, made when the run starts, whose members are the
 * threads by number (its maps are the identity). Each member's state holds
 * its ledger of calls on the team (struct tupc_ledger), UPC_TEAM_ALL's as
 * every other's, in the member's part of the team; each thread keeps a
 * cached pointer to its own on UPC_TEAM_ALL (tupc_coll_self_), which a 1.3
 * call reaches with one load. Its barrier is a form like
 * the others' (TUPC_TEAM_BAR_ALL): sync/barrier.c's, which also serves
 * upc_barrier and reads the ledger through the pointer the engine leaves in
 * check/calls.h's tupc_calls_self_.all. The engine's paths take the team as
 * an argument; the 1.3 functions pass &tupc_team_all_, a constant, so that
 * the map reads fold away.
 *
 * Other teams are made by tupc_team_split (coll/team.c) and freed by
 * tupc_team_free. A upc_team_t names one: slot | generation << 16, so a
 * handle of a freed team is refused, not taken for the slot's next team. */
#ifndef TUPC_COLL_TEAM_H
#define TUPC_COLL_TEAM_H

#include <upc_collective_ext.h>

#include "check/calls.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdatomic.h>
#include <stdint.h>

/* One member's own state on one team; written by that member only, read by
 * others only to explain an error or in the team barrier (see team.c).
 * Each lies in its member's part of the team, beside the member's line
 * (syncmode.c), a few KiB from the next member's: states side by side, even
 * two lines apart, made members' writes of their own states slow each
 * other (a prefetcher fetches neighbouring lines; at 2 THREADS a split
 * team's 8-byte MY|MY broadcast was 1.5 times UPC_TEAM_ALL's with states
 * one line apart, its 64 KiB NO|NO broadcast 1.25-1.3 times with them two
 * lines apart). */
struct tupc_coll_self {
    struct tupc_ledger ledger; /* calls made on this team and their running signature,
                                  compared with the other members' */
    int calls_mod;             /* ledger.n % team size, kept without a division */
    const char *func;          /* the function of call ledger.n */
    uint32_t finished;         /* newest call every member is known to have finished */
    uint32_t episode;          /* team barriers this member has arrived at */
    struct tupc_coll_line *line;
    struct tupc_team *team; /* the team, */
    int me, size;           /* this member's rank in it, and its size */
} __attribute__((aligned(2 * TUPC_CACHELINE)));

struct tupc_coll_member; /* syncmode.c: a member's lines and scratch */
struct tupc_async_ring;  /* async.h */
struct tupc_mpi_team;    /* mpi/team.h */

/* What each member leaves for an episode of the team barrier (team_barrier.c),
 * in slot episode % 2: written by the member, read by the last arriver (the
 * counter form) or by every other member (the flat form). */
struct tupc_team_bar {
    struct {
        _Atomic uint32_t episode;   /* the episode this slot is of */
        _Atomic uint32_t calls;     /* calls made on the team */
        _Atomic uint64_t sig;       /* their running signature */
        _Atomic(const char *) func; /* the function that arrived */
    } slot[2];
    tupc_word arrive; /* the flat form: the last episode this member arrived at */
} __attribute__((aligned(TUPC_CACHELINE)));

_Static_assert(sizeof(struct tupc_team_bar) == TUPC_CACHELINE, "one line per member");

/* The team barrier's forms, one chosen when the team is made
 * (tupc_team_barrier_choose), as sync/barrier.c chooses for all threads;
 * UPC_TEAM_ALL's is sync/barrier.c's own barrier of all threads. */
enum tupc_team_bar_form { TUPC_TEAM_BAR_COUNTER, TUPC_TEAM_BAR_FLAT, TUPC_TEAM_BAR_ALL };

/* Largest team whose members wait for each other's entry by reading every
 * member's entered counter rather than through a barrier (O(n) reads each,
 * no tree): the reductions' IN_ALLSYNC, and their small calls, where one
 * member reads every piece. */
#define TUPC_TEAM_SCAN_MAX 16

/* The algorithms a team's calls run, chosen once, when the team is made,
 * for its size and the machine (tupc_coll_team_make), as Open MPI's coll
 * framework picks per communicator; the paths read these, not the size.
 * tupc_team_algos_describe words them (TUPC_VERBOSE prints UPC_TEAM_ALL's). */
struct tupc_team_algos {
    unsigned char barrier;    /* enum tupc_team_bar_form */
    unsigned char scan_in;    /* IN_ALLSYNC of the reductions: the entries read (n <= 16) */
    unsigned char red_direct; /* small reductions: one member reads every piece; 0 while
                                 a trace or the stats are on, so that each call takes the
                                 out-of-line path that opens its span */
};

struct tupc_team {
    int n;                           /* members */
    struct tupc_coll_member *member; /* by rank */
    struct tupc_coll_self **self;    /* by rank: each member's own state */
    int *thread;                     /* rank -> thread */
    int *rank;                       /* thread -> rank, -1 for a non-member */
    struct tupc_team_bar *bar;       /* by rank: what each arrival says (team.c) */
    upc_team_t id;
    int colour; /* of the split that made it */
    struct tupc_team_algos alg;
    /* Across processes, this process's part of the team (mpi/team.h): its
     * calls take mpi/team_coll.c's paths; NULL in one process. */
    struct tupc_mpi_team *mpi;
    /* The members' asynchronous requests (coll/async.h), made by the first
     * member to post one; NULL before. */
    _Atomic(struct tupc_async_ring *) async;
    /* The team barrier (team.c): arrivals of all episodes, never reset. */
    _Alignas(TUPC_CACHELINE) _Atomic uint32_t arrived;
    /* Beside it, in episode e % 2: the digest of what the first arrival
     * said, and whether another said something else (team_barrier.c). */
    _Atomic uint64_t digest[2];
    _Atomic uint32_t differ[2];
    _Alignas(TUPC_CACHELINE) tupc_word release; /* last episode completed */
    _Alignas(TUPC_CACHELINE) _Atomic int left;  /* members past tupc_team_free's barrier */
};

extern struct tupc_team tupc_team_all_;

/* The thread of team rank r. The engine's paths take the team as an
 * argument; the 1.3 functions pass &tupc_team_all_, a constant, so the
 * comparison folds and they index nothing. */
static inline int tupc_team_thread_of(const struct tupc_team *t, int r)
{
    /* Every other team has its maps from its making (team.c). */
    return t == &tupc_team_all_ ? r : t->thread[r];
}

/* Each UPC thread's own state on UPC_TEAM_ALL, tupc_team_all_.self[MYTHREAD],
 * cached: a call on all threads reaches it with one load. */
extern _Thread_local struct tupc_coll_self *tupc_coll_self_
    __attribute__((tls_model("initial-exec")));

/* The team table (team.c): slot s holds the team whose handle is
 * tupc_team_ids_[s], or NULL. Read by tupc_team_find_; the slow path
 * explains a refusal. */
#define TUPC_TEAM_SLOTS 4096 /* teams alive at once, UPC_TEAM_ALL included */
extern _Atomic(struct tupc_team *) tupc_team_table_[TUPC_TEAM_SLOTS];
extern _Atomic int tupc_team_ids_[TUPC_TEAM_SLOTS];
/* The team this thread last found by its handle, a member of it, and its
 * own state there: calls on one team in a row find both with one compare,
 * as a call on UPC_TEAM_ALL finds tupc_coll_self_. Cleared by the member's
 * tupc_team_free, so a freed team's handle misses and is refused; threads
 * are new in each run, and start with it empty: handle 0 is UPC_TEAM_ALL's,
 * which never gets this far. */
struct tupc_team_cache {
    upc_team_t handle;
    struct tupc_team *team;
    struct tupc_coll_self *self;
};
extern _Thread_local struct tupc_team_cache tupc_team_cache_
    __attribute__((tls_model("initial-exec")));

/* Finds the team that handle `team` names, with the caller a member of it,
 * and keeps it in tupc_team_cache_, or fails naming `func`. */
struct tupc_team *tupc_team_find_(const char *func, upc_team_t team);

/* The team that handle `team` names, with the caller a member of it, or a
 * failure naming `func`. Inline for UPC_TEAM_ALL, which every 1.3 call
 * and most _x calls name, and for the team named last. */
static inline struct tupc_team *tupc_team_get(const char *func, upc_team_t team)
{
    if (__builtin_expect(team == UPC_TEAM_ALL, 1))
        return &tupc_team_all_;
    struct tupc_team *t;
    if (__builtin_expect(team == tupc_team_cache_.handle, 1))
        t = tupc_team_cache_.team;
    else
        t = tupc_team_find_(func, team);
    /* No other handle names UPC_TEAM_ALL, and the cache holds t now: the
     * tests for either that follow fold. */
    if (t == &tupc_team_all_ || t != tupc_team_cache_.team)
        __builtin_unreachable();
    return t;
}

/* The caller's state on the team that handle `team` names (its team is
 * ->team), or a failure naming `func`. */
static inline struct tupc_coll_self *tupc_team_member(const char *func, upc_team_t team)
{
    if (__builtin_expect(team == UPC_TEAM_ALL, 1))
        return tupc_coll_self_;
    if (__builtin_expect(team != tupc_team_cache_.handle, 0))
        (void)tupc_team_find_(func, team);
    return tupc_team_cache_.self;
}

/* A team form's blocking call on UPC_TEAM_ALL is its 1.3 function's, under
 * that name in the call ledger (so that it matches a thread that calls the
 * 1.3 function) and under its own in messages (tupc_fail_as, check/error.h). */
#define TUPC_TEAM_FORM_ON_ALL(team, flags, name13, name, call)                                     \
    do {                                                                                           \
        if ((team) == UPC_TEAM_ALL && !((flags)&UPC_ASYNC)) {                                      \
            tupc_fail_as(name13, name);                                                            \
            call;                                                                                  \
            tupc_fail_as(NULL, NULL);                                                              \
            return UPC_HANDLE_COMPLETE;                                                            \
        }                                                                                          \
    } while (0)

/* Team t as a message names it: "UPC_TEAM_ALL", or its size, the colour it
 * was split with and its rank 0's thread (its handle's number means nothing
 * to a reader). Returns buf. */
const char *tupc_team_describe(const struct tupc_team *t, char *buf, size_t len);

/* Team t's algorithms (t->alg) in words, e.g. "barrier: flat; reductions'
 * IN_ALLSYNC: each member's entry read; small reductions: one member reads
 * every piece". Returns buf. */
const char *tupc_team_algos_describe(const struct tupc_team *t, char *buf, size_t len);

/* The rank in t of thread th, -1 for a non-member. */
static inline int tupc_team_rank_in(const struct tupc_team *t, int th)
{
    return t == &tupc_team_all_ ? th : t->rank[th];
}

/* The team's size: THREADS for UPC_TEAM_ALL, read as such so that the 1.3
 * paths load what they loaded before teams took part. */
static inline int tupc_team_n(const struct tupc_team *t)
{
    return t == &tupc_team_all_ ? tupc_impl_threads : t->n;
}

/* Whether t's members read each other's entries instead of a barrier
 * (t->alg.scan_in): for UPC_TEAM_ALL, a constant in the 1.3 functions, the
 * same rule on THREADS, which folds into their code as it did before the
 * table (the table's byte cost an 8-byte upc_all_reduceL 2-3 instructions). */
static inline int tupc_team_scans(const struct tupc_team *t)
{
    return t == &tupc_team_all_ ? tupc_impl_threads <= TUPC_TEAM_SCAN_MAX : t->alg.scan_in;
}

/* The caller's rank in t (a member). */
static inline int tupc_team_my_rank(const struct tupc_team *t)
{
    return tupc_team_rank_in(t, tupc_impl_mythread);
}

/* Barrier of the members of t, for a library call named func. Compares the
 * members' running signatures of calls on t, as the barrier of all threads
 * does for theirs. */
void tupc_team_barrier_own_(struct tupc_team *t, int rank, const char *func);
static inline void tupc_team_barrier_(struct tupc_team *t, int rank, const char *func)
{
    /* Inline: a call on all threads goes to the barrier of all threads as
     * directly as before teams took part. */
    if (t->alg.barrier == TUPC_TEAM_BAR_ALL)
        tupc_barrier_all(func);
    else
        tupc_team_barrier_own_(t, rank, func);
}

/* Chooses t->alg.barrier for a team of t->n members (when it is made). */
void tupc_team_barrier_choose(struct tupc_team *t);

/* Fails the run explaining that member j's calls on t differ from those of
 * member `me` (which a compared signature showed), in `func`. */
_Noreturn void tupc_team_calls_differ(const struct tupc_team *t, int me, const char *func, int j);

/* Once every thread has returned (run.c): 1 and a message in buf when the
 * members of a team still alive made different calls on it, as the end of
 * the threads is a barrier; UPC_TEAM_ALL's calls are check/calls.h's. */
int tupc_team_check_end(char *buf, size_t len);

/* Set up and tear down the team table and UPC_TEAM_ALL (run.c). */
int tupc_team_init(int threads);
void tupc_team_fini(void);

/* What a module above the teams keeps on a team (coll/async.c: the
 * members' requests, t->async): asked before a member frees the team
 * (check_free fails the run, naming func, if the member may not) and told
 * when the team is deleted. Attached by that module when the run starts,
 * so that the teams call nothing above them. */
struct tupc_team_client {
    void (*check_free)(struct tupc_team *t, int rank, const char *func);
    void (*team_free)(struct tupc_team *t);
};
void tupc_team_attach(const struct tupc_team_client *c);

#endif
