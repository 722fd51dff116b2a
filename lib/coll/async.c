#include "coll/async.h"

#include "check/error.h"
#include "coll/copy.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Copies larger than this are split, so that the owner and the progress
 * thread can share one. */
#define CHUNK ((size_t)1 << 20)

/* The posted requests and the progress thread. posted_word counts posts
 * (the progress thread sleeps on it); done_word counts posts and completed
 * requests (waiters in completion calls sleep on it: a post may bring them
 * chunks to run, when no progress thread runs them): the one wait
 * primitive. */
static struct async_state {
    pthread_mutex_t qlock;
    struct tupc_coll_request *qhead, *qtail; /* chunks nobody has claimed yet, oldest first */
    struct tupc_coll_request *phead, *ptail; /* jobs in steps between two steps, in turn */
    tupc_word posted_word;
    tupc_word done_word;
    pthread_t progress;
    cpu_set_t progress_cpus; /* where the progress thread may run */
    int progress_wanted;     /* a CPU is free for it */
    _Atomic int progress_started;
    _Atomic int progress_stop;
    /* Chunks and steps started: the stalled-work rescue's sign of life. */
    _Atomic uint32_t ran;
    pthread_mutex_t stall_lock;
    uint32_t stall_ran;       /* ran when the rescue last looked, under stall_lock */
    struct timespec stall_at; /* since when it has not moved */
} async_ = {.qlock = PTHREAD_MUTEX_INITIALIZER, .stall_lock = PTHREAD_MUTEX_INITIALIZER};

/* How long posted work may wait with nobody running it before the rescue
 * runs it (tupc_async_help_stalled): long beside a waiter's turn, short
 * beside a hang (the MPI layer's progress thread looks every 20 or 200 us). */
#define STALL_NS 500000L

tupc_word *tupc_async_done_word_(void)
{
    return &async_.done_word;
}

/* The team's table of members, made by the first member to post: a CAS
 * publishes one (acq_rel: its zeroed memory); the others free theirs. A
 * few bytes per member: each member's row of requests comes later, from
 * the member itself. */
static struct tupc_async_ring *ring_of(struct tupc_team *t, const char *func)
{
    struct tupc_async_ring *a = atomic_load_explicit(&t->async, memory_order_acquire);
    if (a)
        return a;
    a = calloc(1, sizeof *a);
    if (a)
        a->member = aligned_alloc(TUPC_CACHELINE, sizeof *a->member * (size_t)t->n);
    if (!a || !a->member)
        tupc_fail(func, "", "out of memory for the asynchronous requests of %d members", t->n);
    memset(a->member, 0, sizeof *a->member * (size_t)t->n);
    struct tupc_async_ring *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&t->async, &none, a, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(a->member);
        free(a);
        a = none;
    }
    return a;
}

struct tupc_coll_request *tupc_async_begin(struct tupc_team *t, int rank, const char *func,
                                           enum tupc_sync out)
{
    struct tupc_async_member *m = &ring_of(t, func)->member[rank];
    struct tupc_coll_request *row = atomic_load_explicit(&m->row, memory_order_relaxed);
    if (!row) {
        row = aligned_alloc(TUPC_CACHELINE, sizeof *row * TUPC_ASYNC_MAX);
        if (!row)
            tupc_fail(func, "", "out of memory for this thread's asynchronous requests");
        memset(row, 0, sizeof *row * TUPC_ASYNC_MAX);
        /* Release: the zeroed row, to members that check its requests. */
        atomic_store_explicit(&m->row, row, memory_order_release);
    }
    uint32_t index = atomic_load_explicit(&m->posted, memory_order_relaxed);
    struct tupc_coll_request *r = &row[index % TUPC_ASYNC_MAX];
    if (r->active) {
        int n = 0;
        for (int i = 0; i < TUPC_ASYNC_MAX; i++)
            n += row[i].active;
        tupc_fail(func, "Extended Collectives 0.3 section 3",
                  "this thread's asynchronous call %u on this team (from %s) is still "
                  "outstanding, %d posts later (%d outstanding in all); expected each to be "
                  "completed with upc_wait, upc_test or their array forms within %d posts on the "
                  "team",
                  (unsigned)r->index + 1, r->func, TUPC_ASYNC_MAX, n, TUPC_ASYNC_MAX);
    }
    /* Release: a member that sees the count sees the request's reset below
     * only through `done`, which it reads with acquire; the count tells a
     * waiter's check that this part is on its way (complete.c). */
    atomic_store_explicit(&m->posted, index + 1, memory_order_release);
    r->nchunks = 0;
    r->index = index;
    r->out = out;
    r->team = t;
    r->owner = tupc_impl_mythread;
    r->func = func;
    r->streams = 0;
    r->also = NULL;
    free(r->job_arg); /* the slot's previous job is done: its request was completed */
    r->job_arg = NULL;
    atomic_store_explicit(&r->next, 0, memory_order_relaxed);
    return r;
}

/* A new chunk of r. */
static struct tupc_async_chunk *add_chunk(struct tupc_coll_request *r)
{
    if (r->nchunks == r->cap) {
        uint32_t cap = r->cap ? 2 * r->cap : 16;
        struct tupc_async_chunk *c = realloc(r->chunk, sizeof *c * cap);
        if (!c)
            tupc_fail(r->func, "", "out of memory for the copies of an asynchronous call");
        r->chunk = c;
        r->cap = cap;
    }
    return &r->chunk[r->nchunks++];
}

void tupc_async_add(struct tupc_coll_request *r, void *dst, const void *src, size_t n, int streams)
{
    r->streams |= streams;
    for (size_t at = 0; at < n; at += CHUNK) {
        size_t len = n - at < CHUNK ? n - at : CHUNK;
        *add_chunk(r) =
            (struct tupc_async_chunk){(char *)dst + at, (const char *)src + at, len, NULL, NULL};
    }
}

void tupc_async_add_job(struct tupc_coll_request *r, void (*job)(void *arg, size_t k), void *arg,
                        size_t k)
{
    r->job_arg = arg;
    *add_chunk(r) = (struct tupc_async_chunk){arg, NULL, k, job, NULL};
}

void tupc_async_add_steps(struct tupc_coll_request *r, int (*step)(void *arg), void *arg)
{
    r->job_arg = arg;
    *add_chunk(r) = (struct tupc_async_chunk){arg, NULL, 0, NULL, step};
}

/* r's part is done. Release: its copies, to whoever sees done reach
 * index + 1. */
static void part_done(struct tupc_coll_request *r)
{
    atomic_store_explicit(&r->done, r->index + 1, memory_order_release);
    tupc_word_add(&async_.done_word);
}

/* Marks one chunk of r done; the last one completes r's part. Acq_rel:
 * every chunk's copy happens before the last decrement, and so before
 * part_done's release. */
static void chunk_done(struct tupc_coll_request *r)
{
    if (atomic_fetch_sub_explicit(&r->left, 1, memory_order_acq_rel) == 1)
        part_done(r);
}

/* A job in steps that is not done goes to the end of the parked list. */
static void park(struct tupc_coll_request *r, uint32_t k)
{
    r->parked_k = k;
    r->pnext = NULL;
    pthread_mutex_lock(&async_.qlock);
    if (async_.ptail)
        async_.ptail->pnext = r;
    else
        async_.phead = r;
    async_.ptail = r;
    pthread_mutex_unlock(&async_.qlock);
    /* Whoever took the job from the list may not be who waits for it: the
     * waiters (done_word) and the progress thread (posted_word) that found
     * the list empty meanwhile must look again, not sleep. */
    tupc_word_add(&async_.posted_word);
    tupc_word_add(&async_.done_word);
}

/* Runs chunk k of r: 1 if it is a job in steps that parked again (it is
 * done once its last step returns 1; r may be completed and reused as
 * soon as its last chunk is done, so nothing of r is read after). */
static int run_chunk(struct tupc_coll_request *r, uint32_t k)
{
    const struct tupc_async_chunk *c = &r->chunk[k];
    /* Relaxed: a count that only has to move, read by the rescue. */
    atomic_fetch_add_explicit(&async_.ran, 1, memory_order_relaxed);
    if (c->step) {
        const int done = c->step(c->dst);
        if (!done) {
            park(r, k);
            return 1;
        }
        if (done == TUPC_ASYNC_KEEP_ARG)
            r->job_arg = NULL;
    } else if (c->job) {
        c->job(c->dst, c->n);
    } else {
        tupc_copy(c->dst, c->src, c->n, r->streams);
    }
    chunk_done(r);
    return 0;
}

/* Takes the first parked job and runs its next step: 0 if none was
 * parked. A step that is not done yields the CPU (it waits for others). */
static int run_parked(void)
{
    pthread_mutex_lock(&async_.qlock);
    struct tupc_coll_request *r = async_.phead;
    if (r) {
        async_.phead = r->pnext;
        if (!async_.phead)
            async_.ptail = NULL;
    }
    pthread_mutex_unlock(&async_.qlock);
    if (!r)
        return 0;
    if (run_chunk(r, r->parked_k))
        sched_yield(); /* parked again: it waits for others */
    return 1;
}

/* Claims and runs one chunk of any queued request, else the next step of
 * a parked job: 0 if there was neither. The progress thread's work, and a
 * waiter's with nothing of its own left. */
int tupc_async_help_any_(void)
{
    pthread_mutex_lock(&async_.qlock);
    for (;;) {
        struct tupc_coll_request *r = async_.qhead;
        if (!r) {
            pthread_mutex_unlock(&async_.qlock);
            return run_parked();
        }
        uint32_t k = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
        if (k + 1 >= r->nchunks) { /* its last chunk is claimed: off the queue */
            async_.qhead = r->qnext;
            if (!async_.qhead)
                async_.qtail = NULL;
            r->queued = 0;
        }
        if (k < r->nchunks) {
            pthread_mutex_unlock(&async_.qlock);
            (void)run_chunk(r, k);
            return 1;
        }
    }
}

int tupc_async_help_stalled(void)
{
    /* Acquire: with the progress thread started it runs everything. */
    if (atomic_load_explicit(&async_.progress_started, memory_order_acquire) == 1 ||
        pthread_mutex_trylock(&async_.stall_lock) != 0)
        return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const uint32_t ran = atomic_load_explicit(&async_.ran, memory_order_relaxed);
    const long since = (now.tv_sec - async_.stall_at.tv_sec) * 1000000000L +
                       (now.tv_nsec - async_.stall_at.tv_nsec);
    const int stalled = ran == async_.stall_ran && since >= STALL_NS;
    if (ran != async_.stall_ran || stalled) {
        async_.stall_ran = ran;
        async_.stall_at = now;
    }
    pthread_mutex_unlock(&async_.stall_lock);
    /* Nothing queued or parked: a lock and a look, every STALL_NS. */
    return stalled && tupc_async_help_any_();
}

static void *progress_main(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t seen = atomic_load_explicit(&async_.posted_word.value, memory_order_acquire);
        /* A run that stops leaves its copies: nobody will wait for them. */
        while (!atomic_load_explicit(&async_.progress_stop, memory_order_acquire) &&
               tupc_async_help_any_())
            ;
        if (atomic_load_explicit(&async_.progress_stop, memory_order_acquire))
            return NULL;
        tupc_wait_idle(&async_.posted_word, seen + 1, &async_.progress_stop);
    }
}

static void start_progress(void)
{
    int zero = 0;
    if (!async_.progress_wanted ||
        atomic_load_explicit(&async_.progress_started, memory_order_acquire) ||
        !atomic_compare_exchange_strong(&async_.progress_started, &zero, 1))
        return;
    atomic_store_explicit(&async_.progress_stop, 0, memory_order_relaxed);
    /* On the CPUs no UPC thread is pinned to, if any, else on any the
     * process may use (it is made by a pinned thread, whose CPU it would
     * inherit); it sleeps while nothing is posted. Without it the owners
     * still make progress in their completion calls. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setaffinity_np(&attr, sizeof async_.progress_cpus, &async_.progress_cpus);
    if (pthread_create(&async_.progress, &attr, progress_main, NULL) != 0)
        atomic_store_explicit(&async_.progress_started, 2, memory_order_release);
    pthread_attr_destroy(&attr);
}

upc_coll_handle_t tupc_async_post(struct tupc_coll_request *r)
{
    r->active = 1;
    if (r->nchunks == 0) { /* nothing to copy, or copied at posting */
        atomic_store_explicit(&r->left, 0, memory_order_relaxed);
        part_done(r);
        return r->handle = tupc_handle_enter(r);
    }
    atomic_store_explicit(&r->left, r->nchunks, memory_order_relaxed);
    r->qnext = NULL;
    pthread_mutex_lock(&async_.qlock); /* publishes the request to the executors */
    if (async_.qtail)
        async_.qtail->qnext = r;
    else
        async_.qhead = r;
    async_.qtail = r;
    r->queued = 1;
    pthread_mutex_unlock(&async_.qlock);
    start_progress();
    tupc_word_add(&async_.posted_word);
    tupc_word_add(&async_.done_word);
    return r->handle = tupc_handle_enter(r);
}

upc_coll_handle_t tupc_async_post_also(struct tupc_coll_request *r, void (*fn)(void *arg, size_t k),
                                       void *job, tupc_word *also, uint32_t at)
{
    if (job)
        tupc_async_add_job(r, fn, job, 0);
    r->also = also;
    r->also_at = at;
    return tupc_async_post(r);
}

/* The owner's help: runs r's unclaimed chunks. */
void tupc_async_help_(struct tupc_coll_request *r, uint32_t most)
{
    for (uint32_t done = 0; done < most; done++) {
        /* Looked at first, so that polling never moves `next` on (after
         * 2^32 polls it would wrap and hand out chunk 0 again). */
        if (atomic_load_explicit(&r->next, memory_order_relaxed) >= r->nchunks)
            return;
        uint32_t k = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed);
        if (k >= r->nchunks)
            return;
        (void)run_chunk(r, k);
    }
}

/* Takes r off the queue if it is still there (all its chunks were claimed
 * by its owner), before the owner reuses it. */
void tupc_async_unqueue_(struct tupc_coll_request *r)
{
    pthread_mutex_lock(&async_.qlock);
    if (r->queued) {
        struct tupc_coll_request **p = &async_.qhead, *prev = NULL;
        while (*p != r) {
            prev = *p;
            p = &(*p)->qnext;
        }
        *p = r->qnext;
        if (async_.qtail == r)
            async_.qtail = prev;
        r->queued = 0;
    }
    pthread_mutex_unlock(&async_.qlock);
}

/* Member `rank`'s oldest outstanding request on t, or NULL. */
static const struct tupc_coll_request *outstanding(struct tupc_team *t, int rank, int *count)
{
    struct tupc_async_ring *a = atomic_load_explicit(&t->async, memory_order_acquire);
    const struct tupc_coll_request *oldest = NULL;
    *count = 0;
    const struct tupc_coll_request *row =
        a ? atomic_load_explicit(&a->member[rank].row, memory_order_acquire) : NULL;
    if (!row)
        return NULL;
    for (int i = 0; i < TUPC_ASYNC_MAX; i++) {
        const struct tupc_coll_request *r = &row[i];
        if (!r->active)
            continue;
        ++*count;
        if (!oldest || (int32_t)(r->index - oldest->index) < 0)
            oldest = r;
    }
    return oldest;
}

void tupc_async_check_free(struct tupc_team *t, int rank, const char *func)
{
    int n;
    const struct tupc_coll_request *r = outstanding(t, rank, &n);
    if (r)
        tupc_fail(func, "Extended Collectives 0.3 section 3",
                  "this thread has %d asynchronous operations outstanding on the team (the "
                  "oldest from %s, its asynchronous call %u there); expected each to be completed "
                  "with upc_wait, upc_test or their array forms first",
                  n, r->func, (unsigned)r->index + 1);
}

int tupc_async_check_end(int threads, char *buf, size_t len)
{
    /* After every thread has been joined: the owners' tables are final. */
    for (int t = 0; t < threads; t++) {
        int n;
        const struct tupc_coll_request *r = tupc_handle_oldest(t, &n);
        if (r) {
            char team[160];
            snprintf(buf, len,
                     "thread %d returned with %d asynchronous operations outstanding (the oldest "
                     "from %s, its asynchronous call %u on %s); expected each to be completed "
                     "with upc_wait, upc_test or their array forms (Extended Collectives 0.3 "
                     "section 3)",
                     t, n, r->func, (unsigned)r->index + 1,
                     tupc_team_describe(r->team, team, sizeof team));
            return 1;
        }
    }
    return 0;
}

void tupc_async_team_free(struct tupc_team *t)
{
    struct tupc_async_ring *a = atomic_load_explicit(&t->async, memory_order_acquire);
    if (!a)
        return;
    for (int j = 0; j < t->n; j++) {
        struct tupc_coll_request *row =
            atomic_load_explicit(&a->member[j].row, memory_order_relaxed);
        if (!row)
            continue;
        for (int i = 0; i < TUPC_ASYNC_MAX; i++) {
            free(row[i].chunk);
            free(row[i].job_arg);
        }
        free(row);
    }
    free(a->member);
    free(a);
    atomic_store_explicit(&t->async, NULL, memory_order_relaxed);
}

void tupc_async_init(void)
{
    static const struct tupc_team_client requests = {tupc_async_check_free, tupc_async_team_free};
    tupc_team_attach(&requests);
    async_.progress_wanted = 0;
    (void)tupc_handle_init(tupc_run_.threads); /* without tables, a post fails and says so */
    if (sched_getaffinity(0, sizeof async_.progress_cpus, &async_.progress_cpus) != 0)
        return; /* no progress thread: the waiters copy */
    cpu_set_t free_cpus = async_.progress_cpus;
    for (int t = 0; t < tupc_run_.threads; t++)
        if (tupc_run_.cpu_of_thread && tupc_run_.cpu_of_thread[t] >= 0)
            CPU_CLR(tupc_run_.cpu_of_thread[t], &free_cpus);
    /* Only where a CPU is free: on a busy CPU it would take time from a
     * thread that computes, and a chunk it holds while descheduled would
     * keep the waiters waiting. The waiters run the chunks then. */
    async_.progress_wanted =
        CPU_COUNT(&free_cpus) > 0 && tupc_run_.crowd < CPU_COUNT(&async_.progress_cpus);
    if (async_.progress_wanted)
        async_.progress_cpus = free_cpus;
}

void tupc_async_fini(void)
{
    if (atomic_load_explicit(&async_.progress_started, memory_order_acquire) == 1) {
        atomic_store_explicit(&async_.progress_stop, 1, memory_order_release);
        tupc_word_add(&async_.posted_word);
        pthread_join(async_.progress, NULL);
    }
    atomic_store_explicit(&async_.progress_started, 0, memory_order_relaxed);
    /* Each parked job's step once more: in a run that stopped, a step that
     * sees the stop ends its messages (a receive left posted would write
     * into the job's memory once it is freed); in a run that ended well
     * none is parked. The threads are joined: nobody else runs them. */
    while (async_.phead) {
        struct tupc_coll_request *r = async_.phead;
        async_.phead = r->pnext;
        const struct tupc_async_chunk *c = &r->chunk[r->parked_k];
        if (c->step(c->dst) == TUPC_ASYNC_KEEP_ARG)
            r->job_arg = NULL;
    }
    /* A run that stopped may leave requests queued or jobs parked: their
     * memory goes with the teams, and the next run starts with neither. */
    async_.qhead = async_.qtail = NULL;
    async_.phead = async_.ptail = NULL;
    tupc_async_team_free(&tupc_team_all_);
    tupc_handle_fini();
}
