/* The out-of-line parts of reloc_x.h: the mode's parse and the refusals. */
#include "coll/reloc_x.h"

#include "check/overlap.h"
#include "sync/barrier.h"
#if TUPC_HAVE_MPI
#include "mpi/team.h"

#include <stdlib.h>
#endif

void tupc_x_start(struct tupc_x *x, const char *func, upc_flag_t mode, upc_team_t team,
                  int pull_default, int in_place_ok, tupc_sptr_t src, enum tupc_sync *in,
                  enum tupc_sync *out)
{
    const upc_flag_t sync = 0x3f, known = sync | UPC_PUSH | UPC_PULL | UPC_IN_PLACE | UPC_ASYNC;
    /* The caller and the split phase first, as every collective checks them. */
    tupc_require_thread(func);
    tupc_check_not_split(func);
    if (mode & ~known) {
        tupc_fail(func, TUPC_X_SEC " items 3 to 7",
                  "mode is 0x%x, with bits 0x%x that are no mode; expected UPC_IN_*SYNC | "
                  "UPC_OUT_*SYNC, with UPC_PUSH or UPC_PULL%s",
                  (unsigned)mode, (unsigned)(mode & ~known),
                  in_place_ok ? " and UPC_IN_PLACE" : "");
    }
    /* The sync flags, as every form parses them. */
    tupc_reloc_start(func, mode & sync, in, out);
    x->func = func;
    x->across = 0;
    x->async = (mode & UPC_ASYNC) != 0;
    x->k.req = NULL;
    if ((mode & UPC_PUSH) && (mode & UPC_PULL))
        tupc_fail(func, TUPC_X_SEC " item 5",
                  "mode has both UPC_PUSH and UPC_PULL; expected one of them, or neither");
    x->push = (mode & UPC_PUSH) ? 1 : (mode & UPC_PULL) ? 0 : !pull_default;
    x->in_place = (mode & UPC_IN_PLACE) || tupc_is_in_place(src);
    if (x->in_place && !in_place_ok)
        tupc_fail(func, TUPC_X_SEC " item 6, section 5.2 item 2",
                  "%s UPC_IN_PLACE; expected it only for the exchange, permute and prefix "
                  "reductions, whose src and dst have the same layout",
                  (mode & UPC_IN_PLACE) ? "mode has" : "src is");
    tupc_reloc_join(&x->k, func, team);
}

void tupc_x_check_arrays(struct tupc_x *x, uint64_t sig, const struct tupc_x_array *a, int n)
{
    /* The extents depend on the team's size too: the same arrays on a
     * larger team are checked again. */
    uint64_t key = tupc_call_key_on(x->func, sig, (uint64_t)x->k.self->size);
    uint32_t gen;
    if (__builtin_expect(!tupc_call_unseen(key, &gen), 1))
        return;
    for (int i = 0; i < n; i++) {
        if (!a[i].entries)
            continue;
        tupc_check_sptr(x->func, a[i].arg, a[i].p, a[i].esize);
        /* The far end, then the whole extent in one allocation. */
        tupc_sptr_t last = tupc_ptr_add(a[i].p, (ptrdiff_t)a[i].entries - 1, a[i].blk, a[i].esize);
        (void)tupc_check_in_partition(x->func, a[i].arg, last, a[i].esize);
        tupc_check_range_array(x->func, a[i].arg, a[i].p, a[i].entries, a[i].blk, a[i].esize);
    }
    tupc_call_seen(key, gen);
}

void tupc_x_overlap_fail(struct tupc_x *x, tupc_sptr_t d, tupc_sptr_t s, size_t n)
{
    struct tupc_extent de = {"a destination block", d, n, 0, 1, 0};
    struct tupc_extent se = {"its source block", s, n, 0, 1, 0};
    tupc_check_overlap(x->func, "UPC 1.3 7.4.2; Extended Collectives 0.3 section 5.3", &de, &se);
    tupc_fail(x->func, NULL, "overlapping blocks"); /* not reached */
}

void tupc_x_block_fail(struct tupc_x *x, const char *arg, size_t k, tupc_sptr_t p, size_t n,
                       int want)
{
    char name[48], team[160];
    snprintf(name, sizeof name, "%s[%zu]", arg, k);
    /* A null entry has thread 0 in it: it is null, not on a wrong thread. */
    if (p.addr && p.thread < (uint32_t)tupc_impl_threads && want >= 0 && (int)p.thread != want)
        tupc_fail(x->func, "Extended Collectives 0.3 section 5.3",
                  "%s has affinity to thread %u; expected thread %d (rank %d of %s)", name,
                  p.thread, want, tupc_x_rank_of(x, want),
                  tupc_team_describe(x->k.t, team, sizeof team));
    tupc_check_sptr(x->func, name, p, n);
    tupc_fail(x->func, NULL, "%s is not a pointer-to-shared into the heap", name); /* not reached */
}

#if TUPC_HAVE_MPI
/* The team's part here, and the caller's local index in it. */
static struct tupc_mpi_team *part_of(const struct tupc_x *x, int *li)
{
    struct tupc_mpi_team *g = x->k.t == &tupc_team_all_ ? tupc_mpi_team_all_ : x->k.t->mpi;
    *li = g->lidx[x->k.me];
    return g;
}

void tupc_x_begin_across(struct tupc_x *x, upc_flag_t mode, enum tupc_sync in, enum tupc_sync out,
                         uint64_t sig)
{
    struct tupc_team *t = x->k.t;
    const int all = t == &tupc_team_all_;
    x->across = 1;
    x->async = 0; /* a posted call runs now: its handle is complete */
    x->k.req = NULL;
    x->n = t->n;
    x->k.me = all ? tupc_impl_mythread : tupc_team_my_rank(t);
    x->k.c.in = TUPC_NOSYNC; /* tupc_x_need waits for nobody: the barrier below is the IN sync */
    x->out = out;
    int li;
    struct tupc_mpi_team *g = part_of(x, &li);
    (void)tupc_mpi_team_enter(g, li, t->self[x->k.me], t->id, x->func, (unsigned)mode,
                              tupc_sig(sig, (uint64_t)(unsigned)mode));
    if (in != TUPC_NOSYNC)
        tupc_mpi_team_barrier(g, li, x->func, all ? NULL : t);
    else
        tupc_mpi_sync(); /* puts from other processes, in this process's view */
}

const void *tupc_x_fetch(tupc_sptr_t e, size_t esize)
{
    /* The caller reads it before its next entry. */
    static _Thread_local union {
        tupc_sptr_t p;
        size_t n;
        int i;
    } entry;
    tupc_mpi_get(&entry, e.thread, e.addr, esize);
    return &entry;
}

void tupc_x_copy_across(tupc_sptr_t d, tupc_sptr_t s, size_t n)
{
    const int dl = tupc_impl_is_local(d.thread), sl = tupc_impl_is_local(s.thread);
    if (dl && sl) {
        memmove(d.addr, s.addr, n);
    } else if (dl) {
        tupc_mpi_get(d.addr, s.thread, s.addr, n);
    } else if (sl) {
        tupc_mpi_put(d.thread, d.addr, s.addr, n);
    } else { /* between two other processes: through here */
        char *b = malloc(n);
        if (!b)
            tupc_fail("upc_all_*_x", NULL, "cannot allocate %zu bytes across processes", n);
        tupc_mpi_get(b, s.thread, s.addr, n);
        tupc_mpi_put(d.thread, d.addr, b, n);
        free(b);
    }
}

/* n bytes of p into a buffer of malloc (n > 0). */
static char *read_block(tupc_sptr_t p, size_t n)
{
    char *b = malloc(n);
    if (!b)
        tupc_fail("upc_all_*_x", NULL, "cannot allocate %zu bytes across processes", n);
    tupc_x_copy_across((tupc_sptr_t){b, (uint32_t)tupc_impl_mythread, 0}, p, n);
    return b;
}

void tupc_x_swap_across(tupc_sptr_t a, tupc_sptr_t b, size_t out, size_t back)
{
    char *ab = out ? read_block(a, out) : NULL, *bb = back ? read_block(b, back) : NULL;
    const tupc_sptr_t here_a = {ab, (uint32_t)tupc_impl_mythread, 0},
                      here_b = {bb, (uint32_t)tupc_impl_mythread, 0};
    if (back)
        tupc_x_copy_across(a, here_b, back);
    if (out)
        tupc_x_copy_across(b, here_a, out);
    free(ab);
    free(bb);
}

void tupc_x_move_across(struct tupc_x *x, tupc_sptr_t d, tupc_sptr_t s, size_t n)
{
    char *keep = n ? read_block(s, n) : NULL;
    int li;
    struct tupc_mpi_team *g = part_of(x, &li);
    tupc_mpi_team_barrier(g, li, x->func, x->k.t == &tupc_team_all_ ? NULL : x->k.t);
    if (n)
        tupc_x_copy_across(d, (tupc_sptr_t){keep, (uint32_t)tupc_impl_mythread, 0}, n);
    free(keep);
}

void tupc_x_end_across(struct tupc_x *x)
{
    if (x->out == TUPC_NOSYNC)
        return;
    int li;
    struct tupc_mpi_team *g = part_of(x, &li);
    tupc_mpi_team_barrier(g, li, x->func, x->k.t == &tupc_team_all_ ? NULL : x->k.t);
}
#endif
