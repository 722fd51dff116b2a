/* The Extended Collectives 0.3 (5.3): the six _x relocalizations, whose
 * blocks lie anywhere and differ in size, and a collective on a team made
 * by tupc_team_split. Every _x section draws two arrays as the figures of
 * 0.3 do: src, where each thread's row holds the labels t.0, t.1, ..., and
 * dst, empty before the call; a box is a block of the call, one or two
 * labels long, at the offset that the argument arrays give it. */
#include "tour.h"

#include <upc_collective_ext.h>

#include <stdio.h>
#include <stdlib.h>

#define LB sizeof(struct label)

/* A block of an _x call: n labels from `from` to `to` (to.n == from.n). */
struct xblock {
    struct box from, to;
};

/* One _x section: its arrays, its argument arrays, and its blocks (the
 * plan, which every thread computes alike). */
struct xsetup {
    struct area areas[3]; /* src, [perm,] dst: the columns of the pictures */
    int nareas;
    struct area *src, *dst;
    tupc_sptr_t dstp, srcp, nbytes; /* the call's arrays of pointers and sizes */
    struct xblock *b;
    struct box *sb, *db; /* the boxes drawn in src and in dst */
    int n;
};

/* Labels per thread in src and dst: room for the T blocks of one or two
 * labels that gather_all_x and exchange_x put on each thread. */
static int xwidth(void)
{
    int w = THREADS + (THREADS + 1) / 2;
    return w < 3 ? 3 : w;
}

static int size_of(int r) /* the varying block: one label, or two */
{
    return 1 + r % 2;
}

/* The argument arrays: per_thread entries of esize bytes on every thread,
 * read as shared [per_thread] arrays (1 for the arrays of THREADS entries,
 * THREADS for those of THREADS * THREADS; upc_collective_ext.h). */
static tupc_sptr_t args_new(int per_thread, size_t esize)
{
    return upc_all_alloc((size_t)THREADS, (size_t)per_thread * esize);
}

#define PTR_AT(arr, k, per) tupc_ref(arr, k, (size_t)(per), tupc_sptr_t)
#define SIZE_AT(arr, k, per) tupc_ref(arr, k, (size_t)(per), size_t)

/* src, then perm (permute_x only), then dst; and the argument arrays, with
 * `per` entries per thread. */
static void x_begin(struct xsetup *x, int nblocks, int with_perm, int per)
{
    x->nareas = 0;
    x->areas[x->nareas++] = area_new("src", CELL_LABEL, xwidth());
    if (with_perm)
        x->areas[x->nareas++] = area_new("perm", CELL_INT, 1);
    x->areas[x->nareas++] = area_new("dst", CELL_LABEL, xwidth());
    x->src = &x->areas[0];
    x->dst = &x->areas[x->nareas - 1];
    area_fill_labels(x->src);
    x->dstp = args_new(per, sizeof(tupc_sptr_t));
    x->srcp = args_new(per, sizeof(tupc_sptr_t));
    x->nbytes = args_new(per, sizeof(size_t));
    x->n = nblocks;
    x->b = calloc((size_t)nblocks, sizeof *x->b);
    x->sb = calloc((size_t)nblocks, sizeof *x->sb);
    x->db = calloc((size_t)nblocks, sizeof *x->db);
    if (!x->b || !x->sb || !x->db)
        upc_global_exit(1);
}

/* Once the plan is made: the boxes of the pictures are its blocks. */
static void x_boxes(struct xsetup *x)
{
    for (int k = 0; k < x->n; k++)
        x->sb[k] = x->b[k].from, x->db[k] = x->b[k].to;
    x->src->boxes = x->sb, x->src->nboxes = x->n;
    x->dst->boxes = x->db, x->dst->nboxes = x->n;
}

static void x_end(struct xsetup *x)
{
    for (int k = 0; k < x->nareas; k++)
        area_free(&x->areas[k]);
    upc_all_free(x->dstp);
    upc_all_free(x->srcp);
    upc_all_free(x->nbytes);
    free(x->b);
    free(x->sb);
    free(x->db);
}

/* Block k of the plan: where it is read, where it is written, its size. */
static tupc_sptr_t from_ptr(const struct xsetup *x, int k)
{
    return area_at(x->src, x->b[k].from.thread, x->b[k].from.off);
}

static tupc_sptr_t to_ptr(const struct xsetup *x, int k)
{
    return area_at(x->dst, x->b[k].to.thread, x->b[k].to.off);
}

static size_t bytes(const struct xsetup *x, int k)
{
    return (size_t)x->b[k].from.n * LB;
}

/* Under the pictures: what the PUSH or PULL hint asked for. */
static void x_hint(const struct section *s)
{
    if (s->flags & UPC_PULL)
        tour_para("", "UPC_PULL: a hint that the destination threads read the data (0.3 section "
                      "4 item 5); in tupc the thread of each block's dst copies it.");
    else
        tour_para("", "UPC_PUSH: a hint that the source threads write the data (0.3 section 4 "
                      "item 5); in tupc the thread of each block's src copies it.");
}

static struct section x_section(struct xsetup *x, const char *name, const char *cite,
                                const char *quote, upc_flag_t flags, const char *args)
{
    struct section s = {.name = name,
                        .cite = cite,
                        .quote = quote,
                        .flags = flags,
                        .areas = x->areas,
                        .nareas = x->nareas,
                        .extra = x_hint};
    char f[128];
    snprintf(s.call, sizeof s.call, "%s(%s, %s, UPC_TEAM_ALL)", name, args,
             flags_text(flags, f, sizeof f));
    return s;
}

void tour_broadcast_x(void)
{
    const int W = xwidth(), r = 1 % THREADS;
    struct xsetup x;
    x_begin(&x, THREADS, 0, 1);
    for (int i = 0; i < THREADS; i++) /* two labels of the root, anywhere on each thread */
        x.b[i] = (struct xblock){{r, 0, 2}, {i, i % (W - 1), 2}};
    x_boxes(&x);
    x.src->only = r;
    if (MYTHREAD == 0) /* as in the spec's examples, thread 0 fills the arrays */
        for (int i = 0; i < THREADS; i++)
            PTR_AT(x.dstp, i, 1) = to_ptr(&x, i);
    char a[64];
    snprintf(a, sizeof a, "dst, &src[%d][0], 2 * sizeof(struct label)", r);
    struct section s =
        x_section(&x, "upc_all_broadcast_x", "Extended Collectives 0.3 5.3.1 para 1",
                  "The upc_all_broadcast_x function copies a block of data with affinity to a "
                  "single thread to an arbitrary location on each destination thread.",
                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, a);
    tour_before(&s);
    upc_all_broadcast_x(x.dstp, from_ptr(&x, 0), 2 * LB, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

/* scatter_x, gather_x: entry i of each array is block i's. */
static void fill_by_block(const struct xsetup *x)
{
    if (MYTHREAD == 0)
        for (int i = 0; i < THREADS; i++) {
            PTR_AT(x->srcp, i, 1) = from_ptr(x, i);
            PTR_AT(x->dstp, i, 1) = to_ptr(x, i);
            SIZE_AT(x->nbytes, i, 1) = bytes(x, i);
        }
}

void tour_scatter_x(void)
{
    const int W = xwidth(), r = 1 % THREADS;
    struct xsetup x;
    x_begin(&x, THREADS, 0, 1);
    /* The root's blocks one after the other; block i anywhere on thread i. */
    for (int i = 0, at = 0; i < THREADS; at += size_of(i), i++)
        x.b[i] = (struct xblock){{r, at, size_of(i)}, {i, i % (W - 1), size_of(i)}};
    x_boxes(&x);
    x.src->only = r;
    fill_by_block(&x);
    struct section s = x_section(
        &x, "upc_all_scatter_x", "Extended Collectives 0.3 5.3.2 para 1",
        "The upc_all_scatter_x function allows varying blocks of data (possibly located in "
        "separate arrays) on the source thread to be copied to (possibly separate arrays on) the "
        "destination threads.",
        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, "dst, src, nbytes");
    tour_before(&s);
    upc_all_scatter_x(x.dstp, x.srcp, x.nbytes, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

void tour_gather_x(void)
{
    const int W = xwidth(), r = 1 % THREADS;
    struct xsetup x;
    x_begin(&x, THREADS, 0, 1);
    /* Block i anywhere on thread i; on the root, in the reverse order. */
    for (int i = THREADS - 1, at = 0; i >= 0; at += size_of(i), i--)
        x.b[i] = (struct xblock){{i, i % (W - 1), size_of(i)}, {r, at, size_of(i)}};
    x_boxes(&x);
    x.dst->only = r;
    fill_by_block(&x);
    struct section s = x_section(
        &x, "upc_all_gather_x", "Extended Collectives 0.3 5.3.3 para 1",
        "The upc_all_gather_x function allows a varying block of data (located possibly in "
        "separate arrays) to be copied from each thread to (possibly separate arrays on) a single "
        "thread.",
        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PUSH, "dst, src, nbytes");
    tour_before(&s);
    upc_all_gather_x(x.dstp, x.srcp, x.nbytes, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

void tour_gather_all_x(void)
{
    const int T = THREADS, W = xwidth();
    struct xsetup x;
    x_begin(&x, T * T, 0, T);
    /* Block k = i * T + q: thread q's block on thread i, which stores the
     * blocks in its own order, starting with its own. */
    for (int i = 0; i < T; i++)
        for (int j = 0, at = 0; j < T; j++) {
            int q = (i + j) % T;
            x.b[i * T + q] = (struct xblock){{q, q % (W - 1), size_of(q)}, {i, at, size_of(q)}};
            at += size_of(q);
        }
    x_boxes(&x);
    if (MYTHREAD == 0) {
        /* src and nbytes: THREADS entries (block size 1); dst: T * T (block size T). */
        for (int q = 0; q < T; q++) {
            PTR_AT(x.srcp, q, 1) = from_ptr(&x, q);
            SIZE_AT(x.nbytes, q, 1) = bytes(&x, q);
        }
        for (int k = 0; k < T * T; k++)
            PTR_AT(x.dstp, k, T) = to_ptr(&x, k);
    }
    struct section s = x_section(
        &x, "upc_all_gather_all_x", "Extended Collectives 0.3 5.3.4 para 1",
        "The upc_all_gather_all_x function allows a varying block of data (located possibly in "
        "separate arrays) to be copied from each thread to (possibly separate arrays on) all the "
        "threads.",
        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PUSH, "dst, src, nbytes");
    tour_before(&s);
    upc_all_gather_all_x(x.dstp, x.srcp, x.nbytes, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

void tour_exchange_x(void)
{
    const int T = THREADS;
    struct xsetup x;
    x_begin(&x, T * T, 0, T);
    /* Block i of thread j goes to block j of thread i (k = j * T + i), one
     * label or two; thread j's blocks lie in order, thread i's received
     * ones in the reverse order of j. */
    for (int j = 0; j < T; j++)
        for (int i = 0, at = 0; i < T; at += size_of(i + j), i++)
            x.b[j * T + i].from = (struct box){j, at, size_of(i + j)};
    for (int i = 0; i < T; i++)
        for (int j = T - 1, at = 0; j >= 0; at += size_of(i + j), j--)
            x.b[j * T + i].to = (struct box){i, at, size_of(i + j)};
    x_boxes(&x);
    if (MYTHREAD == 0) /* T * T entries each: src and nbytes by source, dst by destination */
        for (int j = 0; j < T; j++)
            for (int i = 0; i < T; i++) {
                PTR_AT(x.srcp, j * T + i, T) = from_ptr(&x, j * T + i);
                SIZE_AT(x.nbytes, j * T + i, T) = bytes(&x, j * T + i);
                PTR_AT(x.dstp, i * T + j, T) = to_ptr(&x, j * T + i);
            }
    struct section s = x_section(
        &x, "upc_all_exchange_x", "Extended Collectives 0.3 5.3.5 para 1",
        "The upc_all_exchange_x function allows a varying block of data (located possibly in "
        "separate arrays) to be copied from each thread to (possibly separate arrays on) threads "
        "corresponding to the block number.",
        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, "dst, src, nbytes");
    tour_before(&s);
    upc_all_exchange_x(x.dstp, x.srcp, x.nbytes, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

void tour_permute_x(void)
{
    const int T = THREADS, W = xwidth();
    struct xsetup x;
    x_begin(&x, T, 1, 1);
    /* shared [1] int perm[THREADS]: a rotation, each thread its own entry */
    struct area *perm = &x.areas[1];
    perm->cw = snprintf(NULL, 0, "%d", T - 1);
    INT_AT(perm, MYTHREAD, 0) = (MYTHREAD + 1) % T;
    for (int i = 0; i < T; i++)
        x.b[i] = (struct xblock){{i, i % (W - 1), size_of(i)},
                                 {(i + 1) % T, 2 * i % (W - 1), size_of(i)}};
    x_boxes(&x);
    if (MYTHREAD == 0) /* src and nbytes by source; dst by destination, dst[perm[i]] */
        for (int i = 0; i < T; i++) {
            PTR_AT(x.srcp, i, 1) = from_ptr(&x, i);
            SIZE_AT(x.nbytes, i, 1) = bytes(&x, i);
            PTR_AT(x.dstp, (i + 1) % T, 1) = to_ptr(&x, i);
        }
    struct section s = x_section(
        &x, "upc_all_permute_x", "Extended Collectives 0.3 5.3.6 para 1",
        "The upc_all_permute_x function allows a varying block of data (located possibly in "
        "separate arrays) to be copied from one thread to another (possibly in separate arrays).",
        UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_PULL, "dst, src, perm, nbytes");
    tour_before(&s);
    upc_all_permute_x(x.dstp, x.srcp, perm->base, x.nbytes, s.flags, UPC_TEAM_ALL);
    tour_after(&s);
    x_end(&x);
}

/* ---- Teams ------------------------------------------------------------------ */

/* The split below ranks the members by key MYTHREAD: thread t is rank t / 2. */
static void team_note(int t, char *buf, size_t cap)
{
    snprintf(buf, cap, "team %s, rank %d", t % 2 ? "odd" : "even", t / 2);
}

static void team_extra(const struct section *s)
{
    (void)s;
    tour_para("", "Each team broadcast from its rank 0 (thread 0 to the even threads, thread 1 "
                  "to the odd ones), both at once; on a team, the sync modes speak of its members "
                  "(docs/extended.md).");
}

void tour_team(void)
{
    struct area areas[] = {area_new("src", CELL_LABEL, 1), area_new("dst", CELL_LABEL, 1)};
    area_fill_labels(&areas[0]);
    static const struct box roots[] = {{0, 0, 1}, {1, 0, 1}}; /* rank 0 of each team */
    areas[0].boxes = roots;
    areas[0].nboxes = THREADS > 1 ? 2 : 1;
    upc_team_t half; /* the even threads, and the odd ones */
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &half);
    struct section s = {
        .name = "tupc_team_broadcast",
        .cite = "Extended Collectives 0.3 section 4 item 9",
        .quote = "The last argument of each function is the variable team of type upc_team_t, "
                 "which allows specifying a collective operation to work on a group of threads.",
        .flags = UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
        .areas = areas,
        .nareas = 2,
        .note = team_note,
        .extra = team_extra,
    };
    char f[96];
    snprintf(s.call, sizeof s.call,
             "tupc_team_split(UPC_TEAM_ALL, MYTHREAD %% 2, MYTHREAD, &half); "
             "tupc_team_broadcast(dst, &src[rank 0 of half], sizeof(struct label), %s, half)",
             flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    tupc_team_broadcast(areas[1].base, area_at(&areas[0], tupc_team_thread(half, 0), 0), LB,
                        s.flags, half);
    tour_after(&s);
    tupc_team_free(&half);
    area_free(&areas[0]);
    area_free(&areas[1]);
}
