/* Teams: the table of handles, tupc_team_split and tupc_team_free, and the
 * queries (see team.h).
 *
 * The team barrier is in team_barrier.c, below the engine that this file
 * uses for tupc_team_split. */
#include "observe/trace.h"
#include "coll/team.h"

#include "check/calls.h"
#include "check/error.h"
#include "coll/syncmode.h"
#include "runtime/runtime.h"
#include "sync/barrier.h"
#include "sync/wait.h"

#if TUPC_HAVE_MPI
#include "mpi/team.h"
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEC "Extended Collectives 0.3 section 4 item 9"
#define SLOTS TUPC_TEAM_SLOTS
#define GEN_MAX 0x7fff

/* Slot s holds the team whose handle is ids[s], or NULL. Written under
 * `lock`; read without it (acquire) by lookups, which see a team that a
 * split made once the split's barrier has ordered its publication. */
_Atomic(struct tupc_team *) tupc_team_table_[SLOTS];
_Atomic int tupc_team_ids_[SLOTS];
#define table tupc_team_table_
#define ids tupc_team_ids_
/* Each slot's generation, the slot used last, and the client that checks
 * and frees what hangs on a team (tupc_team_attach). */
static struct team_table {
    uint16_t gens[SLOTS];
    pthread_mutex_t lock;
    int last_slot; /* under lock */
    /* Set before the UPC threads start (pthread_create orders it) and never
     * cleared: the client's functions stay valid. */
    const struct tupc_team_client *client;
} teams_ = {.lock = PTHREAD_MUTEX_INITIALIZER};

_Thread_local struct tupc_team_cache tupc_team_cache_ __attribute__((tls_model("initial-exec")));

/* tupc_calls_team_namer: the team of number id, if it is alive. Under the
 * table's lock, which every member takes to take a team out of the table
 * before the last one deletes it. */
static const char *name_team(int id, char *buf, size_t len)
{
    int s = id & 0xffff;
    pthread_mutex_lock(&teams_.lock);
    const struct tupc_team *t =
        id >= 0 && s < SLOTS && atomic_load_explicit(&ids[s], memory_order_relaxed) == id
            ? atomic_load_explicit(&table[s], memory_order_relaxed)
            : NULL;
    if (t && t->id == id)
        tupc_team_describe(t, buf, len);
    else
        snprintf(buf, len, "team %d", id);
    pthread_mutex_unlock(&teams_.lock);
    return buf;
}

int tupc_team_init(int threads)
{
    (void)threads;
    tupc_calls_team_namer = name_team;
    atomic_store_explicit(&table[0], &tupc_team_all_, memory_order_relaxed);
    atomic_store_explicit(&ids[0], UPC_TEAM_ALL, memory_order_relaxed);
    return 0;
}

int tupc_team_check_end(char *buf, size_t len)
{
    /* After every thread has been joined: the members' states are final. */
    for (int s = 1; s < SLOTS; s++) {
        const struct tupc_team *t = atomic_load_explicit(&table[s], memory_order_relaxed);
        if (!t)
            continue;
        /* Across processes, the members here: the others' states are
         * their processes' (their counts meet in the team barrier). */
        int ra = -1;
        for (int r = 0; r < t->n; r++) {
#if TUPC_HAVE_MPI
            if (t->mpi && t->mpi->lidx[r] < 0)
                continue;
#endif
            if (ra < 0)
                ra = r;
            const struct tupc_coll_self *a = t->self[ra], *b = t->self[r];
            if (b->ledger.n == a->ledger.n && b->ledger.sig == a->ledger.sig)
                continue;
            char team[160];
            snprintf(buf, len,
                     "when the threads ended (an implicit barrier, UPC 1.3 3 \"program "
                     "termination\"): member %d of %s (thread %d) made %u calls on the team, "
                     "the last %s, where its rank %d (thread %d) made %u, the last %s; expected "
                     "every member to make the same calls on the team with the same "
                     "single-valued arguments (UPC 1.3 7.4 para 3 and 4; " SEC ")",
                     r, tupc_team_describe(t, team, sizeof team), t->thread[r],
                     (unsigned)b->ledger.n, b->func ? b->func : "none", ra, t->thread[ra],
                     (unsigned)a->ledger.n, a->func ? a->func : "none");
            return 1;
        }
    }
    return 0;
}

void tupc_team_attach(const struct tupc_team_client *c)
{
    teams_.client = c;
}

static void team_delete(struct tupc_team *t)
{
    if (teams_.client)
        teams_.client->team_free(t);
#if TUPC_HAVE_MPI
    tupc_mpi_team_unmake(t->mpi);
#endif
    tupc_coll_team_unmake(t);
    free(t);
}

void tupc_team_fini(void)
{
    /* Teams a program did not free end with the run. */
    for (int s = 1; s < SLOTS; s++) {
        struct tupc_team *t = atomic_load_explicit(&table[s], memory_order_relaxed);
        if (t)
            team_delete(t);
        atomic_store_explicit(&table[s], NULL, memory_order_relaxed);
        atomic_store_explicit(&ids[s], -1, memory_order_relaxed);
    }
}

static _Noreturn void unknown_team(const char *func, upc_team_t team)
{
    if (team == TUPC_TEAM_NONE)
        tupc_fail(func, SEC,
                  "team is TUPC_TEAM_NONE, which tupc_team_split gives a thread that passed a "
                  "negative colour (or tupc_team_free leaves); expected a team this thread is a "
                  "member of");
    tupc_fail(func, SEC,
              "team is %d, which names no team (never made by tupc_team_split, or freed); "
              "expected UPC_TEAM_ALL or a team from tupc_team_split",
              team);
}

struct tupc_team *tupc_team_find_(const char *func, upc_team_t team)
{
    /* Outside a UPC thread the cache never hits, so every lookup there
     * comes here first: the callers' fast paths need not check. */
    tupc_require_thread(func);
    int s = team & 0xffff;
    /* Acquire: a team is seen once the split's barrier has ordered its
     * publication, and its fields with it. */
    if (team < 0 || s >= SLOTS || atomic_load_explicit(&ids[s], memory_order_acquire) != team)
        unknown_team(func, team);
    struct tupc_team *t = atomic_load_explicit(&table[s], memory_order_acquire);
    if (!t)
        unknown_team(func, team);
    int r = t->rank[tupc_impl_mythread];
    if (__builtin_expect(r >= 0, 1)) {
        tupc_team_cache_ = (struct tupc_team_cache){team, t, t->self[r]};
        return t;
    }
    /* A member cannot see its team freed before it calls free itself; a
     * non-member can, so the message is written under the table's lock
     * from a team that is still there. */
    pthread_mutex_lock(&teams_.lock);
    t = atomic_load_explicit(&ids[s], memory_order_relaxed) == team
            ? atomic_load_explicit(&table[s], memory_order_relaxed)
            : NULL;
    char msg[300], desc[160];
    if (t)
        snprintf(msg, sizeof msg,
                 "this thread is not a member of team %d, %s; expected a call on a team by "
                 "its members only",
                 team, tupc_team_describe(t, desc, sizeof desc));
    pthread_mutex_unlock(&teams_.lock);
    if (!t)
        unknown_team(func, team);
    tupc_fail(func, SEC, "%s", msg);
}

/* ---- Split and free ----------------------------------------------------- */

/* What each member of a split leaves in its scratch slot of the call. */
struct split_entry {
    int colour, key;
    _Atomic(struct tupc_team *) made; /* the leader's new team */
};

struct ranked {
    int key, prank;
};

static int by_key(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->prank > y->prank) - (x->prank < y->prank);
}

/* The team of members m[0..n-1] of parent, or NULL: out of memory, or with
 * *full set, every slot of the table taken. */
static struct tupc_team *team_new(const struct tupc_team *parent, const struct ranked *m, int n,
                                  int *full)
{
    struct tupc_team *t = aligned_alloc(TUPC_CACHELINE, sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    if (tupc_coll_team_make(t, n) != 0) {
        free(t);
        return NULL;
    }
    for (int r = 0; r < n; r++) {
        int th = tupc_team_thread_of(parent, m[r].prank);
        t->thread[r] = th;
        t->rank[th] = r;
    }
    pthread_mutex_lock(&teams_.lock);
    /* The slot after the last one taken, round robin: a handle comes back
     * only after every other free slot has been used 32767 times. */
    int s = 0;
    for (int k = 0; k < SLOTS - 1 && !s; k++) {
        int c = (teams_.last_slot + k) % (SLOTS - 1) + 1;
        if (!atomic_load_explicit(&table[c], memory_order_relaxed))
            s = c;
    }
    if (!s) {
        pthread_mutex_unlock(&teams_.lock);
        team_delete(t);
        *full = 1;
        return NULL;
    }
    teams_.last_slot = s;
    teams_.gens[s] = teams_.gens[s] == GEN_MAX ? 1 : (uint16_t)(teams_.gens[s] + 1);
    t->id = (int)teams_.gens[s] << 16 | s;
    atomic_store_explicit(&table[s], t, memory_order_relaxed);
    atomic_store_explicit(&ids[s], t->id, memory_order_release);
    pthread_mutex_unlock(&teams_.lock);
    return t;
}

#define SPLIT "tupc_team_split"

#if TUPC_HAVE_MPI
static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static _Noreturn void split_refused(int full, int n)
{
    if (full)
        tupc_fail(SPLIT, SEC,
                  "%d teams are alive; expected at most %d (free teams with tupc_team_free)",
                  SLOTS - 1, SLOTS - 1);
    tupc_fail(SPLIT, NULL, "out of memory for a team of %d members", n);
}

/* The leader of parent p's part g here: makes each new team that holds a
 * member of this process, from every member's (colour, key) by rank, in
 * ascending colour order, the colour's index among all the colours its
 * tag (mpi/team.c says why), and leaves each local member's team in its
 * words. */
static void split_make(struct tupc_team *p, struct tupc_mpi_team *g, const int *ck)
{
    const int n = p->n;
    int *cols = malloc(sizeof *cols * (size_t)n), nc = 0;
    struct ranked *m = malloc(sizeof *m * (size_t)n);
    int *prank = malloc(sizeof *prank * (size_t)n);
    if (!cols || !m || !prank)
        tupc_fail(SPLIT, NULL, "out of memory for a split of %d members", n);
    for (int r = 0; r < n; r++)
        if (ck[2 * r] >= 0)
            cols[nc++] = ck[2 * r];
    qsort(cols, (size_t)nc, sizeof *cols, by_int);
    int distinct = 0;
    for (int i = 0; i < nc; i++)
        if (i == 0 || cols[i] != cols[i - 1])
            cols[distinct++] = cols[i];
    for (int j = 0; j < g->L; j++)
        g->m[j].result = NULL;
    for (int ci = 0; ci < distinct; ci++) {
        const int colour = cols[ci];
        int here = 0, k = 0;
        for (int j = 0; j < g->L; j++)
            here |= ck[2 * g->local[j]] == colour;
        if (!here)
            continue;
        for (int r = 0; r < n; r++)
            if (ck[2 * r] == colour)
                m[k++] = (struct ranked){ck[2 * r + 1], r};
        qsort(m, (size_t)k, sizeof *m, by_key);
        int full = 0;
        struct tupc_team *t = team_new(p, m, k, &full);
        if (!t)
            split_refused(full, k);
        t->colour = colour;
        for (int i = 0; i < k; i++)
            prank[i] = m[i].prank;
        char err[200];
        t->mpi = tupc_mpi_team_make(g, t->thread, prank, k, ci, err, sizeof err);
        if (!t->mpi)
            tupc_fail(SPLIT, NULL, "%s", err);
        for (int j = 0; j < g->L; j++)
            if (ck[2 * g->local[j]] == colour)
                g->m[j].result = t;
    }
    free(prank);
    free(m);
    free(cols);
}

/* tupc_team_split with members in several processes: every member's
 * (colour, key) goes to every process holding one; each process's leader
 * makes the teams of its members; a barrier of the parent publishes them. */
static void split_across(struct tupc_team *p, upc_team_t parent, int colour, int key,
                         upc_team_t *newteam)
{
    struct tupc_mpi_team *g = p == &tupc_team_all_ ? tupc_mpi_team_all_ : p->mpi;
    const int pr = tupc_team_my_rank(p), li = g->lidx[pr];
    const uint32_t s =
        tupc_mpi_team_enter(g, li, p->self[pr], p->id, SPLIT, UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                            (uint64_t)(unsigned)parent);
    const int item[2] = {colour, key};
    const int *ck = tupc_mpi_team_allgather(g, li, s, item, sizeof item, SPLIT);
    if (li == 0)
        split_make(p, g, ck);
    tupc_mpi_team_done(g, li, s);
    /* Acquire (in the barrier): the leader's teams and their fields. */
    tupc_mpi_team_barrier(g, li, SPLIT, p == &tupc_team_all_ ? NULL : p);
    const struct tupc_team *t = g->m[li].result;
    *newteam = t ? t->id : TUPC_TEAM_NONE;
}
#endif

void tupc_team_split(upc_team_t parent, int colour, int key, upc_team_t *newteam)
{
    TUPC_TRACE_VOID(tupc_team_split(parent, colour, key, newteam), __func__, 0, -1, parent);
    tupc_require_thread(SPLIT);
    struct tupc_team *p = tupc_team_get(SPLIT, parent);
    if (!newteam)
        tupc_fail(SPLIT, SEC, "newteam is NULL; expected where to store the new team");
    _Static_assert(sizeof(struct split_entry) <= TUPC_SCRATCH_BYTES, "one scratch slot");
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_check_not_split(SPLIT);
        split_across(p, parent, colour, key, newteam);
        return;
    }
#endif

    /* Every member waits for every other twice: NOSYNC in and out, and the
     * two barriers below. */
    struct tupc_coll c;
    tupc_coll_begin_team(&c, p, tupc_coll_self_on(p), SPLIT, UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                         TUPC_NOSYNC, TUPC_NOSYNC, (uint64_t)(unsigned)parent);
    struct split_entry *mine = tupc_coll_scratch_claim(&c);
    mine->colour = colour;
    mine->key = key;
    atomic_store_explicit(&mine->made, NULL, memory_order_relaxed);
    tupc_coll_barrier(&c);

    if (colour < 0) {
        *newteam = TUPC_TEAM_NONE;
        tupc_coll_barrier(&c);
        tupc_coll_finish(&c);
        return;
    }
    /* The members of our colour in order; the leader (first) makes the team. */
    int n = 0;
    struct ranked *m = malloc(sizeof *m * (size_t)p->n);
    if (!m)
        tupc_fail(SPLIT, NULL, "out of memory for %d members", p->n);
    for (int r = 0; r < p->n; r++) {
        const struct split_entry *e = tupc_coll_scratch(&c, r);
        if (e->colour == colour)
            m[n++] = (struct ranked){e->key, r};
    }
    qsort(m, (size_t)n, sizeof *m, by_key);
    int leader = m[0].prank;
    if (leader == tupc_coll_state(&c)->me) {
        int full = 0;
        struct tupc_team *t = team_new(p, m, n, &full);
        if (!t) {
            free(m); /* a refusal must leak nothing: a test may loop over it */
            if (full)
                tupc_fail(SPLIT, SEC,
                          "%d teams are alive; expected at most %d (free teams with "
                          "tupc_team_free)",
                          SLOTS - 1, SLOTS - 1);
            tupc_fail(SPLIT, NULL, "out of memory for a team of %d members", n);
        }
        t->colour = colour;
        /* Release: the team's fields, for the members' acquire below. */
        atomic_store_explicit(&mine->made, t, memory_order_release);
    }
    free(m);
    tupc_coll_barrier(&c);
    const struct split_entry *le = tupc_coll_scratch(&c, leader);
    struct tupc_team *t = atomic_load_explicit(&le->made, memory_order_acquire);
    *newteam = t->id;
    tupc_coll_finish(&c);
}

#define FREE "tupc_team_free"

void tupc_team_free(upc_team_t *team)
{
    TUPC_TRACE_VOID(tupc_team_free(team), __func__, 0, -1, team ? *team : -1);
    tupc_require_thread(FREE);
    if (!team)
        tupc_fail(FREE, SEC, "team is NULL; expected the address of a team handle");
    if (*team == UPC_TEAM_ALL)
        tupc_fail(FREE, SEC, "team is UPC_TEAM_ALL; expected a team from tupc_team_split");
    tupc_check_not_split(FREE);
    struct tupc_team *t = tupc_team_find_(FREE, *team);
    int me = tupc_team_my_rank(t);
    if (teams_.client)
        teams_.client->check_free(t, me, FREE);
    /* Every member has returned from its calls on the team: nothing of the
     * team is read after this barrier but `left`. */
    int n = t->n;
#if TUPC_HAVE_MPI
    if (t->mpi) { /* the members here leave; the others, in their processes */
        tupc_mpi_team_barrier(t->mpi, t->mpi->lidx[me], FREE, t);
        n = t->mpi->L;
    } else
#endif
        tupc_team_barrier_(t, me, FREE);
    int s = t->id & 0xffff, id = t->id; /* read before `left`: t may go after it */
    *team = TUPC_TEAM_NONE;
    if (tupc_team_cache_.team == t)
        tupc_team_cache_ = (struct tupc_team_cache){0, NULL, NULL};
    /* Every member takes the team out of the table before it returns (the
     * first one does it), so that none of them finds it again through a
     * stale handle while the last one deletes it. */
    pthread_mutex_lock(&teams_.lock);
    if (atomic_load_explicit(&ids[s], memory_order_relaxed) == id) {
        atomic_store_explicit(&ids[s], -1, memory_order_relaxed);
        atomic_store_explicit(&table[s], NULL, memory_order_relaxed);
    }
    pthread_mutex_unlock(&teams_.lock);
    /* acq_rel: the last member to leave sees every other member done with
     * the team, and deletes it. */
    if (atomic_fetch_add_explicit(&t->left, 1, memory_order_acq_rel) + 1 == n) {
        team_delete(t);
    }
}

/* ---- Queries ------------------------------------------------------------ */

int tupc_team_size(upc_team_t team)
{
    tupc_require_thread("tupc_team_size");
    return tupc_team_get("tupc_team_size", team)->n;
}

int tupc_team_rank(upc_team_t team)
{
    tupc_require_thread("tupc_team_rank");
    return tupc_team_my_rank(tupc_team_get("tupc_team_rank", team));
}

int tupc_team_thread(upc_team_t team, int rank)
{
    tupc_require_thread("tupc_team_thread");
    const struct tupc_team *t = tupc_team_get("tupc_team_thread", team);
    if (rank < 0 || rank >= t->n) {
        char desc[160];
        tupc_fail("tupc_team_thread", SEC, "rank is %d; expected 0..%d, the ranks of %s", rank,
                  t->n - 1, tupc_team_describe(t, desc, sizeof desc));
    }
    return tupc_team_thread_of(t, rank);
}

int tupc_team_rank_of(upc_team_t team, int thread)
{
    tupc_require_thread("tupc_team_rank_of");
    const struct tupc_team *t = tupc_team_get("tupc_team_rank_of", team);
    if (thread < 0 || thread >= tupc_impl_threads)
        tupc_fail("tupc_team_rank_of", SEC, "thread is %d; expected 0..THREADS-1 (%d)", thread,
                  tupc_impl_threads - 1);
    return tupc_team_rank_in(t, thread);
}

void tupc_team_barrier(upc_team_t team)
{
    TUPC_TRACE_VOID(tupc_team_barrier(team), __func__, 0, -1, team);
    tupc_require_thread("tupc_team_barrier");
    tupc_check_not_split("tupc_team_barrier");
    struct tupc_team *t = tupc_team_get("tupc_team_barrier", team);
#if TUPC_HAVE_MPI
    if (t->mpi) {
        tupc_mpi_team_barrier(t->mpi, t->mpi->lidx[tupc_team_my_rank(t)], "tupc_team_barrier", t);
        return;
    }
#endif
    tupc_team_barrier_(t, tupc_team_my_rank(t), "tupc_team_barrier");
}
