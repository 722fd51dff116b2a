/* The six _x collectives on random cases: blocks anywhere in two source and
 * two destination arrays, at random offsets, of random sizes (zeros
 * included), every sync mode, UPC_PUSH, UPC_PULL or neither, in place for
 * exchange_x and permute_x (with a decoy src), on UPC_TEAM_ALL and on
 * teams of uneven sizes that run at the same time: split by parity, by
 * thread / 3, singletons, and a split of the parity split.
 *
 * Every member computes the same plan from the team's seed. The data is
 * written as loosely as the mode allows: under IN_ALLSYNC one member
 * writes everything (entries of the argument arrays and source blocks)
 * right before its own call; under IN_MYSYNC each member writes what has
 * affinity to its thread right before its call; under IN_NOSYNC all is
 * written before a team barrier. After the call, every byte of every
 * destination block is compared with its source's generator, and the 8
 * bytes after each block must keep their sentinel: under OUT_ALLSYNC by
 * every member at once, under OUT_MYSYNC each member its own blocks,
 * under OUT_NOSYNC after a team barrier. */
#include "tt.h"

#include <upc_collective_ext.h>

#include <stdlib.h>
#include <string.h>

#define DBLK 65536 /* bytes per thread of each data array */
#define GAP 8
#define SENT 0x5A
#define MAXLEN 300

enum { BC, SC, GA, GAA, EX, PE, NFN };

struct data {
    tupc_sptr_t src[2], dst[2];   /* shared [DBLK] char[DBLK * THREADS] */
    tupc_sptr_t sp, dp, nb, perm; /* entries: T * T * T, block size THREADS */
    tupc_sptr_t sp1, dp1, nb1;    /* entries: T * T, block size 1 */
    int iters;
};

struct blk {
    tupc_sptr_t p;
    size_t len, room;
    uint64_t id; /* content generator; 0: sentinel only */
};

struct plan {
    int fn, n, me, in_place;
    upc_flag_t mode;
    struct blk *src, *dst; /* src[k] goes to dst[k] */
    int nblk;
    int *perm;
    /* argument arrays */
    tupc_sptr_t a_dst, a_src, a_nb, a_perm;
    size_t blk_dst, blk_src, blk_nb; /* 1 or THREADS */
    int n_dst, n_src, n_nb;
    tupc_sptr_t *e_dst, *e_src;
    size_t *e_nb;
    tupc_sptr_t bsrc; /* broadcast's src */
    size_t blen;
};

static unsigned char byte_of(uint64_t id, size_t i)
{
    uint64_t s = id * 0x9e3779b97f4a7c15ull + i / 8;
    return (unsigned char)(tt_rand(&s) >> (8 * (i % 8)));
}

static size_t rnd_len(uint64_t *s)
{
    uint64_t r = tt_rand(s) % 10;
    return r == 0 ? 0 : r < 8 ? 1 + tt_rand(s) % 24 : 1 + tt_rand(s) % MAXLEN;
}

/* Places block b (b->room bytes, then GAP) on thread th, in one of the two
 * source or destination arrays, a few bytes after the last block there. */
static void place(const struct data *d, size_t *next, struct blk *b, int th, uint64_t *s, int dst)
{
    int a = (int)(tt_rand(s) % 2);
    size_t *at = &next[(size_t)th * 2 + (size_t)a];
    *at += tt_rand(s) % 5;
    tupc_sptr_t base = dst ? d->dst[a] : d->src[a];
    b->p = tupc_index(base, (ptrdiff_t)((size_t)th * DBLK + *at), DBLK, char);
    *at += b->room + GAP;
    if (*at > DBLK)
        abort();
}

static void make_plan(struct plan *P, const struct data *d, upc_team_t team, uint64_t seed,
                      int colour)
{
    uint64_t s = seed;
    int n = tupc_team_size(team), T = THREADS;
    P->n = n;
    P->me = tupc_team_rank(team);
    P->fn = (int)(tt_rand(&s) % NFN);
    P->mode = tt_sync_flags[tt_rand(&s) % TT_NSYNC];
    int pp = (int)(tt_rand(&s) % 3);
    P->mode |= pp == 0 ? UPC_PUSH : pp == 1 ? UPC_PULL : 0;
    P->in_place = (P->fn == EX || P->fn == PE) && tt_rand(&s) % 3 == 0;
    size_t *next = calloc((size_t)T * 2, sizeof *next);
    int nn = n * n;
    P->src = calloc((size_t)nn, sizeof *P->src);
    P->dst = calloc((size_t)nn, sizeof *P->dst);
    P->e_dst = calloc((size_t)nn, sizeof *P->e_dst);
    P->e_src = calloc((size_t)nn, sizeof *P->e_src);
    P->e_nb = calloc((size_t)nn, sizeof *P->e_nb);
    P->perm = calloc((size_t)n, sizeof *P->perm);
    size_t base = (size_t)colour * (size_t)T * (size_t)T;
    size_t b1 = (size_t)colour * (size_t)T;
    P->a_dst = tupc_index(d->dp, base, T, tupc_sptr_t);
    P->a_src = tupc_index(d->sp, base, T, tupc_sptr_t);
    P->a_nb = tupc_index(d->nb, base, T, size_t);
    P->a_perm = tupc_index(d->perm, b1, 1, int);
    P->blk_dst = P->blk_src = P->blk_nb = (size_t)T;
    uint64_t idbase = seed * 1000003u;
#define TH(r) tupc_team_thread(team, (r))
    int root = (int)(tt_rand(&s) % (uint64_t)n);
    switch (P->fn) {
    case BC:
        P->blen = rnd_len(&s);
        P->src[0] = (struct blk){.len = P->blen, .room = P->blen, .id = idbase};
        place(d, next, &P->src[0], TH(root), &s, 0);
        P->bsrc = P->src[0].p;
        P->nblk = n;
        for (int r = 0; r < n; r++) {
            P->src[r] = P->src[0];
            P->dst[r] = (struct blk){.len = P->blen, .room = P->blen};
            place(d, next, &P->dst[r], TH(r), &s, 1);
            P->e_dst[r] = P->dst[r].p;
        }
        P->n_dst = n, P->n_src = 0, P->n_nb = 0;
        P->blk_dst = 1;
        P->a_dst = tupc_index(d->dp1, b1, 1, tupc_sptr_t);
        break;
    case SC:
    case GA:
    case PE:
        P->nblk = n;
        for (int r = 0; r < n; r++)
            P->perm[r] = r;
        if (P->fn == PE)
            for (int r = n - 1; r > 0; r--) {
                int k = (int)(tt_rand(&s) % (uint64_t)(r + 1)), t = P->perm[r];
                P->perm[r] = P->perm[k], P->perm[k] = t;
            }
        for (int r = 0; r < n; r++)
            P->e_nb[r] = rnd_len(&s);
        for (int r = 0; r < n; r++) {
            size_t len = P->e_nb[r];
            int sth = P->fn == SC ? TH(root) : TH(r);
            int dr = P->fn == PE ? P->perm[r] : r;
            int dth = P->fn == GA ? TH(root) : TH(dr);
            P->src[r] = (struct blk){.len = len, .room = len, .id = idbase + 1 + (uint64_t)r};
            P->dst[r] = (struct blk){.len = len, .room = len};
            if (P->in_place) {
                /* Block dst[r] holds r's data and receives perm^-1[r]'s. */
                P->src[r].room = MAXLEN;
            } else {
                place(d, next, &P->src[r], sth, &s, 0);
                P->e_src[r] = P->src[r].p;
            }
            (void)dth;
        }
        if (P->in_place) {
            for (int r = 0; r < n; r++) {
                place(d, next, &P->src[r], TH(r), &s, 1);
                P->e_dst[r] = P->src[r].p;
            }
            for (int r = 0; r < n; r++) {
                P->dst[r].p = P->e_dst[P->perm[r]];
                P->dst[r].room = MAXLEN;
            }
        } else {
            for (int r = 0; r < n; r++) {
                int dr = P->fn == PE ? P->perm[r] : r;
                int dth = P->fn == GA ? TH(root) : TH(dr);
                place(d, next, &P->dst[r], dth, &s, 1);
                P->e_dst[dr] = P->dst[r].p;
            }
        }
        P->n_dst = P->n_src = P->n_nb = n;
        P->blk_dst = P->blk_src = P->blk_nb = 1;
        P->a_dst = tupc_index(d->dp1, b1, 1, tupc_sptr_t);
        P->a_src = tupc_index(d->sp1, b1, 1, tupc_sptr_t);
        P->a_nb = tupc_index(d->nb1, b1, 1, size_t);
        break;
    case GAA:
        P->nblk = nn;
        for (int r = 0; r < n; r++) {
            P->e_nb[r] = rnd_len(&s);
            struct blk sb = {.len = P->e_nb[r], .room = P->e_nb[r], .id = idbase + 1 + (uint64_t)r};
            place(d, next, &sb, TH(r), &s, 0);
            P->e_src[r] = sb.p;
            for (int i = 0; i < n; i++) {
                P->src[i * n + r] = sb;
                P->dst[i * n + r] = (struct blk){.len = sb.len, .room = sb.len};
                place(d, next, &P->dst[i * n + r], TH(i), &s, 1);
                P->e_dst[i * n + r] = P->dst[i * n + r].p;
            }
        }
        P->n_dst = nn, P->n_src = n, P->n_nb = n;
        P->blk_src = P->blk_nb = 1;
        P->a_src = tupc_index(d->sp1, b1, 1, tupc_sptr_t);
        P->a_nb = tupc_index(d->nb1, b1, 1, size_t);
        break;
    case EX:
        P->nblk = nn;
        for (int k = 0; k < nn; k++)
            P->e_nb[k] = rnd_len(&s);
        /* src[j*n+i] (on j) -> dst[i*n+j] (on i), e_nb[j*n+i] bytes. */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int k = j * n + i;
                size_t len = P->e_nb[k];
                P->src[k] = (struct blk){.len = len, .room = len, .id = idbase + 1 + (uint64_t)k};
                P->dst[k] = (struct blk){.len = len, .room = len};
                if (P->in_place) {
                    size_t back = P->e_nb[i * n + j];
                    P->src[k].room = len > back ? len : back;
                    place(d, next, &P->src[k], TH(j), &s, 1);
                    P->e_dst[k] = P->src[k].p;
                } else {
                    place(d, next, &P->src[k], TH(j), &s, 0);
                    P->e_src[k] = P->src[k].p;
                    place(d, next, &P->dst[k], TH(i), &s, 1);
                    P->e_dst[i * n + j] = P->dst[k].p;
                }
            }
        if (P->in_place)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    P->dst[j * n + i].p = P->e_dst[i * n + j];
                    P->dst[j * n + i].room = P->src[i * n + j].room;
                }
        P->n_dst = P->n_src = P->n_nb = nn;
        break;
    }
#undef TH
    free(next);
}

static void free_plan(struct plan *P)
{
    free(P->src), free(P->dst), free(P->e_dst), free(P->e_src), free(P->e_nb), free(P->perm);
}

/* Writes what the plan needs before the call: entries and sources, and
 * sentinels over destination rooms; `mine_only` >= 0: only what has
 * affinity to that thread, -2: only what has affinity to non-members. */
static void fill(const struct plan *P, upc_team_t team, int which)
{
#define MINE(p)                                                                                    \
    (which == -1 ||                                                                                \
     (which == -2 ? tupc_team_rank_of(team, (int)(p).thread) < 0 : (int)(p).thread == which))
    for (int k = 0; k < P->nblk; k++) {
        const struct blk *d = &P->dst[k];
        if (!P->in_place && d->p.addr && MINE(d->p))
            memset(d->p.addr, SENT, d->room + GAP);
        const struct blk *s = &P->src[k];
        if (s->p.addr && MINE(s->p)) {
            for (size_t i = 0; i < s->len; i++)
                s->p.addr[i] = (char)byte_of(s->id, i);
            if (P->in_place)
                memset(s->p.addr + s->len, SENT, s->room - s->len + GAP);
        }
    }
    for (int k = 0; k < P->n_dst; k++) {
        tupc_sptr_t e = tupc_index(P->a_dst, k, P->blk_dst, tupc_sptr_t);
        if (MINE(e))
            *(tupc_sptr_t *)e.addr = P->e_dst[k];
    }
    for (int k = 0; k < P->n_src; k++) {
        tupc_sptr_t e = tupc_index(P->a_src, k, P->blk_src, tupc_sptr_t);
        if (MINE(e))
            *(tupc_sptr_t *)e.addr = P->e_src[k];
    }
    for (int k = 0; k < P->n_nb; k++) {
        tupc_sptr_t e = tupc_index(P->a_nb, k, P->blk_nb, size_t);
        if (MINE(e))
            *(size_t *)e.addr = P->e_nb[k];
    }
    if (P->fn == PE)
        for (int k = 0; k < P->n; k++) {
            tupc_sptr_t e = tupc_index(P->a_perm, k, 1, int);
            if (MINE(e))
                *(int *)e.addr = P->perm[k];
        }
#undef MINE
}

static void check(const struct plan *P, int which, int it)
{
    for (int k = 0; k < P->nblk; k++) {
        const struct blk *d = &P->dst[k], *s = &P->src[k];
        if (!d->p.addr || (which >= 0 && (int)d->p.thread != which))
            continue;
        size_t bad = (size_t)-1;
        for (size_t i = 0; i < s->len && bad == (size_t)-1; i++)
            if ((unsigned char)d->p.addr[i] != byte_of(s->id, i))
                bad = i;
        size_t end = P->in_place ? d->room : s->len;
        for (size_t i = P->in_place ? end : s->len; i < end + GAP && bad == (size_t)-1; i++)
            if ((unsigned char)d->p.addr[i] != SENT)
                bad = i;
        TCHECK(bad == (size_t)-1,
               "iteration %d fn %d mode 0x%x n %d in_place %d: block %d byte %zu of %zu wrong", it,
               P->fn, (unsigned)P->mode, P->n, P->in_place, k, bad, s->len);
    }
}

static void call(const struct plan *P, upc_team_t team, uint64_t s)
{
    upc_flag_t mode = P->mode;
    int as_src = P->in_place && (s & 1);
    tupc_sptr_t decoy = P->a_nb; /* other data: must not be read as src */
    switch (P->fn) {
    case BC:
        upc_all_broadcast_x(P->a_dst, P->bsrc, P->blen, mode, team);
        break;
    case SC:
        upc_all_scatter_x(P->a_dst, P->a_src, P->a_nb, mode, team);
        break;
    case GA:
        upc_all_gather_x(P->a_dst, P->a_src, P->a_nb, mode, team);
        break;
    case GAA:
        upc_all_gather_all_x(P->a_dst, P->a_src, P->a_nb, mode, team);
        break;
    case EX:
        if (as_src)
            upc_all_exchange_x(P->a_dst, UPC_IN_PLACE, P->a_nb, mode, team);
        else
            upc_all_exchange_x(P->a_dst, P->in_place ? decoy : P->a_src, P->a_nb,
                               mode | (P->in_place ? UPC_IN_PLACE : 0), team);
        break;
    case PE:
        if (as_src)
            upc_all_permute_x(P->a_dst, UPC_IN_PLACE, P->a_perm, P->a_nb, mode, team);
        else
            upc_all_permute_x(P->a_dst, P->in_place ? decoy : P->a_src, P->a_perm, P->a_nb,
                              mode | (P->in_place ? UPC_IN_PLACE : 0), team);
        break;
    }
}

static void run_on(struct data *d, upc_team_t team, uint64_t seed)
{
    int colour = tupc_team_thread(team, 0);
    int last = tupc_team_size(team) - 1;
    for (int it = 0; it < d->iters; it++) {
        struct plan P;
        uint64_t s = seed + (uint64_t)it * 7919u;
        make_plan(&P, d, team, s, colour);
        upc_flag_t in = P.mode & 7, out = P.mode & 0x38;
        if (in == 0 && out != 0)
            in = UPC_IN_ALLSYNC;
        if (out == 0)
            out = UPC_OUT_ALLSYNC;
        if (in == UPC_IN_ALLSYNC) {
            if (P.me == last)
                fill(&P, team, -1);
        } else if (in == UPC_IN_MYSYNC) {
            if (P.me == 0)
                fill(&P, team, -2);
            tupc_team_barrier(team);
            fill(&P, team, MYTHREAD);
        } else {
            fill(&P, team, MYTHREAD);
            if (P.me == 0)
                fill(&P, team, -2);
            tupc_team_barrier(team);
        }
        call(&P, team, s);
        if (out == UPC_OUT_ALLSYNC) {
            check(&P, -1, it);
        } else if (out == UPC_OUT_MYSYNC) {
            check(&P, MYTHREAD, it);
        } else {
            tupc_team_barrier(team);
            check(&P, -1, it);
        }
        tupc_team_barrier(team);
        free_plan(&P);
    }
}

static int body(void *arg)
{
    const int *iters = arg;
    struct data d = {.iters = *iters};
    int T = THREADS;
    for (int a = 0; a < 2; a++) {
        d.src[a] = upc_all_alloc((size_t)T, DBLK);
        d.dst[a] = upc_all_alloc((size_t)T, DBLK);
    }
    size_t TT = (size_t)T * (size_t)T;
    d.dp = upc_all_alloc((size_t)T, TT * sizeof(tupc_sptr_t) + 64);
    d.sp = upc_all_alloc((size_t)T, TT * sizeof(tupc_sptr_t) + 64);
    d.nb = upc_all_alloc((size_t)T, TT * sizeof(size_t) + 64);
    d.dp1 = upc_all_alloc(TT, sizeof(tupc_sptr_t));
    d.sp1 = upc_all_alloc(TT, sizeof(tupc_sptr_t));
    d.nb1 = upc_all_alloc(TT, sizeof(size_t));
    d.perm = upc_all_alloc(TT, sizeof(int));
    /* The T*T*T-entry arrays at block size THREADS: allocated as T blocks
     * of T*T entries, read back as block size T: same bytes per thread. */

    run_on(&d, UPC_TEAM_ALL, 1);
    upc_team_t parity, third, single, nested;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, -MYTHREAD, &parity);
    run_on(&d, parity, 100 + (uint64_t)(MYTHREAD % 2));
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, MYTHREAD, &third);
    run_on(&d, third, 200 + (uint64_t)(MYTHREAD / 3));
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD, 0, &single);
    run_on(&d, single, 300 + (uint64_t)MYTHREAD);
    tupc_team_split(parity, tupc_team_rank(parity) / 2, 0, &nested);
    run_on(&d, nested, 400 + (uint64_t)tupc_team_thread(nested, 0));
    tupc_team_free(&nested);
    tupc_team_free(&single);
    tupc_team_free(&third);
    tupc_team_free(&parity);
    TCHECK(parity == TUPC_TEAM_NONE, "free sets the handle to TUPC_TEAM_NONE");
    upc_barrier();
    return 0;
}

static void test_random(void **state)
{
    (void)state;
    int quick = getenv("TUPC_TEST_QUICK") != NULL;
    static const int threads[] = {1, 2, 3, 4, 5, 8, 16, 32};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        int T = threads[i];
        int iters = T >= 16 ? (quick ? 6 : 20) : (quick ? 30 : 120);
        TT_RUN(T, body, &iters);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
