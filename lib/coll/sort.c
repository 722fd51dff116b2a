/* upc_all_sort (Collectives 1.0 4.3.4): stable, in place, any blk_size and
 * phase of A.
 *
 * Algorithm: a parallel merge sort. The nelems elements are split into
 * THREADS balanced index ranges ("chunks", chunk k on thread k).
 *  1. Thread k copies its chunk of A (run by run through the layout) into
 *     a temporary array and sorts it stably (insertion sort of short runs,
 *     then bottom-up merging, ping-ponging between the two halves of the
 *     area: the chunk is copied into the half where the passes end).
 *  2. ceil(log2 THREADS) rounds merge neighbouring sorted runs pairwise.
 *     Run boundaries are chunk boundaries, so each thread produces exactly
 *     the output range of its chunk: it finds where that range starts and
 *     ends in the two input runs by binary search along the merge path and
 *     merges that part. Ties take the left run, which holds the lower
 *     original indices: the sort is stable.
 *  3. Thread k copies the sorted chunk back to A's index range k.
 * Memory: one temporary area of 2 * nelems * elem_size bytes from malloc,
 * allocated by thread 0 per call and freed by the last thread out (documented
 * in the man page): the shared heap would need that much in one partition.
 * The comparator receives pointers-to-shared to the elements' copies there
 * (thread: the calling thread, phase 0); it may read the element through
 * them (tupc_local, upc_cast, tupc_ref) and must not keep them.
 * Sync: a barrier after the allocation and after each phase (the data of
 * every thread flows to every thread); IN_MYSYNC waits for every thread to
 * have entered (a chunk may lie in any partition); OUT_MYSYNC waits for
 * every thread, since any thread may write any element of A. */
#include "observe/trace.h"
#include "check/error.h"
#include "coll/copy.h"
#include "coll/syncmode.h"
#include "heap/heap.h"
#include "sync/barrier.h"
#if TUPC_HAVE_MPI
#include "mpi/team.h"
#endif

#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*sort_cmp)(tupc_sptr_t, tupc_sptr_t);

struct sort_ctx {
    sort_cmp cmp;
    size_t es;
    uint32_t me;
};

static inline int cmp_at(const struct sort_ctx *s, char *a, char *b)
{
    return s->cmp((tupc_sptr_t){a, s->me, 0}, (tupc_sptr_t){b, s->me, 0});
}

/* Header of the temporary area: the last thread to leave frees it. */
struct sort_tmp {
    _Atomic int left;
    _Alignas(64) char data[];
};

static void chunk_of(size_t n, int T, int k, size_t *lo, size_t *hi)
{
    size_t base = n / (size_t)T, extra = n % (size_t)T, q = (size_t)k;
    *lo = q * base + (q < extra ? q : extra);
    *hi = *lo + base + (q < extra);
}

/* Index of the first element of chunk k; nelems past the last chunk. */
static size_t run_start(size_t n, int T, int k)
{
    size_t lo, hi;
    if (k >= T)
        return n;
    chunk_of(n, T, k, &lo, &hi);
    return lo;
}

/* Copies elements [lo, lo + m) of A to or from buf, one block run at a
 * time (a run in another process's partition through the run's window). */
static void copy_chunk(tupc_sptr_t A, size_t B, size_t es, size_t lo, size_t m, char *buf, int to_a)
{
    tupc_sptr_t p = tupc_ptr_add(A, (ptrdiff_t)lo, B, es);
    while (m) {
        size_t r = B ? B - p.phase : m;
        r = r < m ? r : m;
#if TUPC_HAVE_MPI
        if (!tupc_impl_is_local(p.thread) && to_a)
            tupc_mpi_put(p.thread, p.addr, buf, r * es);
        else if (!tupc_impl_is_local(p.thread))
            tupc_mpi_get(buf, p.thread, p.addr, r * es);
        else
#endif
            if (to_a)
            memcpy(p.addr, buf, r * es);
        else
            memcpy(buf, p.addr, r * es);
        buf += r * es;
        m -= r;
        if (m)
            p = tupc_ptr_add(p, (ptrdiff_t)r, B, es);
    }
}

/* Merges x[0..nx) and y[0..ny) into out; ties take x. */
static void merge(const struct sort_ctx *s, char *x, size_t nx, char *y, size_t ny, char *out)
{
    size_t es = s->es;
    while (nx && ny) {
        if (cmp_at(s, y, x) < 0) {
            tupc_copy_elem(out, y, es);
            y += es;
            ny--;
        } else {
            tupc_copy_elem(out, x, es);
            x += es;
            nx--;
        }
        out += es;
    }
    memcpy(out, x, nx * es);
    memcpy(out + nx * es, y, ny * es);
}

enum { RUN = 16 };

/* Merge passes local_sort makes over n elements. */
static int sort_passes(size_t n)
{
    int p = 0;
    for (size_t w = RUN; w < n; w *= 2)
        p++;
    return p;
}

/* Stable sort of a[0..n) using tmp[0..n); the result ends in a when
 * sort_passes(n) is even, in tmp when it is odd (no copy back: the caller
 * puts the input where the result should end). */
static void local_sort(const struct sort_ctx *s, char *a, char *tmp, size_t n)
{
    size_t es = s->es;
    char one[256], *save = es <= sizeof one ? one : malloc(es);
    if (!save)
        tupc_fail("upc_all_sort", NULL, "cannot allocate %zu bytes", es);
    for (size_t r = 0; r < n; r += RUN) {
        size_t end = r + RUN < n ? r + RUN : n;
        for (size_t i = r + 1; i < end; i++) {
            size_t j = i;
            tupc_copy_elem(save, a + i * es, es);
            while (j > r && cmp_at(s, save, a + (j - 1) * es) < 0) {
                tupc_copy_elem(a + j * es, a + (j - 1) * es, es);
                j--;
            }
            tupc_copy_elem(a + j * es, save, es);
        }
    }
    if (save != one)
        free(save);
    char *from = a, *to = tmp;
    for (size_t w = RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge(s, from + lo * es, mid - lo, from + mid * es, hi - mid, to + lo * es);
        }
        char *t = from;
        from = to;
        to = t;
    }
}

/* How many of the first d outputs of merging x and y come from x. */
static size_t corank(const struct sort_ctx *s, char *x, size_t nx, char *y, size_t ny, size_t d)
{
    size_t lo = d > ny ? d - ny : 0, hi = d < nx ? d : nx;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2; /* x[mid] vs y[d - mid - 1] */
        if (cmp_at(s, y + (d - mid - 1) * s->es, x + mid * s->es) < 0)
            hi = mid; /* y[d-mid-1] comes before x[mid]: fewer than mid+1 from x */
        else
            lo = mid + 1;
    }
    return lo;
}

/* The sort on a team (UPC_TEAM_ALL for upc_all_sort): "thread k" above is
 * rank k of the team, the barriers are the team's. */
/* The argument checks of upc_all_sort and its team form; returns A as the
 * call uses it (phase 0 for an indefinite layout). */
static tupc_sptr_t check_args(const char *fn, tupc_sptr_t A, size_t elem_size, size_t nelems,
                              size_t blk_size, int (*func)(tupc_sptr_t, tupc_sptr_t))
{
    if (!func)
        tupc_fail(fn, "Collectives 1.0 4.3.4 para 5",
                  "func is NULL; expected a comparison function");
    if (elem_size == 0)
        tupc_fail(fn, "Collectives 1.0 4.3.4 para 1", "elem_size is 0; expected the element size");
    if (blk_size > UPC_MAX_BLOCK_SIZE)
        tupc_fail(fn, "UPC 1.3 6.5.1.1", "blk_size is %zu; expected at most %zu", blk_size,
                  (size_t)UPC_MAX_BLOCK_SIZE);
    if (nelems > (SIZE_MAX / 2 - sizeof(struct sort_tmp)) / elem_size)
        tupc_fail(fn, "Collectives 1.0 4.3.4 para 1",
                  "nelems is %zu; expected at most %zu elements of %zu bytes", nelems,
                  (SIZE_MAX / 2 - sizeof(struct sort_tmp)) / elem_size, elem_size);
    if (nelems) {
        if (blk_size && A.phase >= blk_size)
            tupc_fail(fn, "Collectives 1.0 4.3.4 para 4",
                      "A has phase %u; expected less than blk_size %zu", A.phase, blk_size);
        if (blk_size == 0) {
            A.phase = 0;
            (void)tupc_check_in_partition(fn, "A", A, nelems * elem_size);
        } else {
            (void)tupc_check_in_partition(fn, "A", A, elem_size);
            (void)tupc_check_in_partition(
                fn, "A", tupc_ptr_add(A, (ptrdiff_t)nelems - 1, blk_size, elem_size), elem_size);
        }
        tupc_check_range_array(fn, "A", A, nelems, blk_size, elem_size);
    }
    return A;
}

#if TUPC_HAVE_MPI
/* The first part's merge of the parts' sorted runs (mpi/team.h's
 * tupc_mpi_merge_fn): passes of pairwise merges of neighbouring runs,
 * between all and tmp; on ties the earlier run's element first, as the
 * runs are index ranges in order: stable. */
static char *merge_runs(void *arg, char *all, char *tmp, size_t *off, int k)
{
    const struct sort_ctx *s = arg;
    const size_t es = s->es;
    while (k > 1) {
        int w = 0;
        for (int r = 0; r < k; r += 2, w++) {
            const size_t a = off[r], b = off[r + 1], e = r + 1 < k ? off[r + 2] : b;
            merge(s, all + a * es, b - a, all + b * es, e - b, tmp + a * es);
            off[w] = a;
        }
        off[w] = off[k];
        k = w;
        char *t = all;
        all = tmp;
        tmp = t;
    }
    return all;
}

/* Across processes (mpi/team.h), in two phases: each process's part of
 * the team reads one of the parts' balanced index ranges of A (through the
 * window where it lies elsewhere) and sorts it with the stable merge sort,
 * the parts' leaders at once; the team's first part gathers the sorted
 * runs, merges them and sends each part its range back (MPI_Gatherv,
 * MPI_Scatterv), which the part writes to A. Every range is read before
 * any is written: a part writes only after the first part has every run.
 * Between the team's barriers that the sync modes ask for (IN_MYSYNC and
 * OUT_MYSYNC as every thread's: any element may lie anywhere). */
static void sort_across(struct tupc_team *t, const char *fn, tupc_sptr_t A, size_t es, size_t n,
                        size_t B, sort_cmp func, upc_flag_t flags, enum tupc_sync in,
                        enum tupc_sync out, uint64_t sig)
{
    const int all = t == &tupc_team_all_, me = tupc_team_my_rank(t);
    struct tupc_mpi_team *g = all ? tupc_mpi_team_all_ : t->mpi;
    const int li = g->lidx[me];
    (void)tupc_mpi_team_enter(g, li, t->self[me], t->id, fn, (unsigned)flags, sig);
    if (in != TUPC_NOSYNC)
        tupc_mpi_team_barrier(g, li, fn, all ? NULL : t);
    else
        tupc_mpi_sync(); /* puts from other processes, in this process's view */
    if (li == 0 && n >= 2) {
        size_t lo, m;
        tupc_mpi_range(n, g->P, g->of_proc[tupc_mpi_rank_], &lo, &m);
        char *buf = malloc(2 * m * es + 1);
        if (!buf)
            tupc_fail(fn, NULL, "cannot allocate %zu bytes of temporary memory", 2 * m * es);
        struct sort_ctx s = {func, es, (uint32_t)tupc_impl_mythread};
        const int odd = sort_passes(m) & 1; /* the result ends in the first half */
        copy_chunk(A, B, es, lo, m, buf + (size_t)odd * m * es, 0);
        local_sort(&s, buf + (size_t)odd * m * es, buf + (size_t)!odd * m * es, m);
        tupc_mpi_team_sort_runs(g, fn, buf, n, es, merge_runs, &s);
        copy_chunk(A, B, es, lo, m, buf, 1);
        free(buf);
    }
    if (out != TUPC_NOSYNC)
        tupc_mpi_team_barrier(g, li, fn, all ? NULL : t);
}
#endif

static void sort_on(upc_team_t team, const char *fn, tupc_sptr_t A, size_t elem_size, size_t nelems,
                    size_t blk_size, int (*func)(tupc_sptr_t, tupc_sptr_t), upc_flag_t flags)
{
    TUPC_TRACE_VOID(sort_on(team, fn, A, elem_size, nelems, blk_size, func, flags), fn,
                    (uint64_t)elem_size * nelems, flags, team);
    tupc_require_thread(fn);
    enum tupc_sync in, out;
    tupc_coll_flags(fn, flags, &in, &out);
    struct tupc_team *team_p = tupc_team_get(fn, team);
    A = check_args(fn, A, elem_size, nelems, blk_size, func);

    struct tupc_coll c;
    uint64_t sig = tupc_calls_args("*A,elem_size,nelems,blk_size,&func", (uintptr_t)A.addr,
                                   elem_size, nelems, blk_size, (uintptr_t)func, 0);
#if TUPC_HAVE_MPI
    if (tupc_procs_ > 1) {
        tupc_check_not_split(fn);
        sort_across(team_p, fn, A, elem_size, nelems, blk_size, func, flags, in, out, sig);
        return;
    }
#endif
    tupc_coll_begin_team(&c, team_p, tupc_coll_self_on(team_p), fn, flags, in, out, sig);
    const int T = tupc_coll_state(&c)->size, me = tupc_coll_state(&c)->me;
    if (in == TUPC_MYSYNC)
        for (int j = 0; j < T; j++)
            tupc_coll_need(&c, j);
    if (nelems < 2) {
        tupc_coll_leave_symmetric(&c);
        return;
    }

    /* Rank 0 allocates; the barrier hands the area to every member through
     * rank 0's scratch slot, which the barrier orders. */
    struct sort_tmp *tmp = NULL;
    size_t bytes = 2 * nelems * elem_size;
    if (me == 0) {
        /* The struct keeps its counter on its own cache line: allocate it
         * with that alignment, rounded as aligned_alloc requires. */
        size_t total = (sizeof *tmp + bytes + 63) & ~(size_t)63;
        tmp = aligned_alloc(64, total);
        if (tmp)
            atomic_init(&tmp->left, T);
    }
    if (me == 0)
        *(struct sort_tmp **)tupc_coll_scratch_claim(&c) = tmp;
    tupc_coll_barrier(&c);
    tmp = *(struct sort_tmp **)tupc_coll_scratch(&c, 0);
    if (!tmp)
        tupc_fail(fn, NULL, "cannot allocate %zu bytes of temporary memory", bytes);

    struct sort_ctx s = {func, elem_size, (uint32_t)tupc_impl_mythread};
    char *buf[2] = {tmp->data, tmp->data + nelems * elem_size};
    size_t lo, hi;
    chunk_of(nelems, T, me, &lo, &hi);
    /* Start where an even or odd number of merge passes ends in buf[0]. */
    int odd = sort_passes(hi - lo) & 1;
    copy_chunk(A, blk_size, elem_size, lo, hi - lo, buf[odd] + lo * elem_size, 0);
    local_sort(&s, buf[odd] + lo * elem_size, buf[!odd] + lo * elem_size, hi - lo);
    tupc_coll_barrier(&c);

    int cur = 0;
    for (int w = 1; w < T; w *= 2, cur ^= 1) {
        int first = me / (2 * w) * (2 * w); /* my pair: runs [first, first+w), [first+w, +2w) */
        size_t plo = run_start(nelems, T, first), pmid = run_start(nelems, T, first + w),
               phi = run_start(nelems, T, first + 2 * w);
        char *xs = buf[cur] + plo * elem_size, *ys = buf[cur] + pmid * elem_size;
        size_t nx = pmid - plo, ny = phi - pmid;
        size_t d0 = lo - plo, d1 = hi - plo;
        size_t i0 = corank(&s, xs, nx, ys, ny, d0), i1 = corank(&s, xs, nx, ys, ny, d1);
        merge(&s, xs + i0 * elem_size, i1 - i0, ys + (d0 - i0) * elem_size, (d1 - i1) - (d0 - i0),
              buf[cur ^ 1] + lo * elem_size);
        tupc_coll_barrier(&c);
    }

    copy_chunk(A, blk_size, elem_size, lo, hi - lo, buf[cur] + lo * elem_size, 1);
    /* acq_rel: the last thread out sees every other thread's reads of the
     * area before it frees it. */
    if (atomic_fetch_sub_explicit(&tmp->left, 1, memory_order_acq_rel) == 1)
        free(tmp);
    tupc_coll_leave_symmetric(&c); /* OUT_MYSYNC: any thread may have written my part of A */
}

void upc_all_sort(tupc_sptr_t A, size_t elem_size, size_t nelems, size_t blk_size,
                  int (*func)(tupc_sptr_t, tupc_sptr_t), upc_flag_t flags)
{
    sort_on(UPC_TEAM_ALL, "upc_all_sort", A, elem_size, nelems, blk_size, func, flags);
}

void tupc_team_sort(tupc_sptr_t A, size_t elem_size, size_t nelems, size_t blk_size,
                    int (*func)(tupc_sptr_t, tupc_sptr_t), upc_flag_t flags, upc_team_t team)
{
    sort_on(team, "tupc_team_sort", A, elem_size, nelems, blk_size, func, flags);
}
