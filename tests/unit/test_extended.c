/* The examples of Extended Collectives 0.3 5.3.1 to 5.3.6 (figures 1 to 6),
 * at THREADS = 3 as drawn, every byte of D1 and D2 checked against a serial
 * oracle that applies the spec's definition to a copy of C1 and C2; teams
 * (split, nesting, queries, barriers); and every refusal of bad input. */
#include "tt.h"

#include <upc_collective_ext.h>

#include <stdlib.h>
#include <string.h>

#define BLK 9
#define NELEMS (BLK * 3)
#define SENT '.'

struct arrays {
    tupc_sptr_t A, B, nb, P, C1, C2, D1, D2;
};

/* shared [BLK] char X[NELEMS] */
static tupc_sptr_t ch(tupc_sptr_t X, int i)
{
    return tupc_index(X, i, BLK, char);
}

static void alloc_all(struct arrays *a, size_t ptr_blk)
{
    a->A = upc_all_alloc(3, ptr_blk * sizeof(tupc_sptr_t));
    a->B = upc_all_alloc(3, ptr_blk * sizeof(tupc_sptr_t));
    a->nb = upc_all_alloc(3, ptr_blk * sizeof(size_t));
    a->P = upc_all_alloc(3, sizeof(int));
    a->C1 = upc_all_alloc(3, BLK);
    a->C2 = upc_all_alloc(3, BLK);
    a->D1 = upc_all_alloc(3, BLK);
    a->D2 = upc_all_alloc(3, BLK);
    if (MYTHREAD == 0)
        for (int i = 0; i < NELEMS; i++) {
            tupc_ref(a->C1, i, BLK, char) = (char)('A' + i);
            tupc_ref(a->C2, i, BLK, char) = (char)('a' + i);
            tupc_ref(a->D1, i, BLK, char) = SENT;
            tupc_ref(a->D2, i, BLK, char) = SENT;
        }
}

/* Local images of C1, C2, D1, D2, indexed as the arrays. */
struct image {
    char c[2][NELEMS], d[2][NELEMS];
};

static void image_init(struct image *m)
{
    for (int i = 0; i < NELEMS; i++) {
        m->c[0][i] = (char)('A' + i), m->c[1][i] = (char)('a' + i);
        m->d[0][i] = m->d[1][i] = SENT;
    }
}

/* The oracle's copy: n bytes from C<cs>[ci] to D<ds>[di]. */
static void ocopy(struct image *m, int ds, int di, int cs, int ci, size_t n)
{
    memcpy(&m->d[ds - 1][di], &m->c[cs - 1][ci], n);
}

static void compare(const struct arrays *a, const struct image *m, const char *what)
{
    for (int i = 0; i < NELEMS; i++) {
        TCHECK(tupc_ref(a->D1, i, BLK, char) == m->d[0][i], "%s: D1[%d] is '%c', expected '%c'",
               what, i, tupc_ref(a->D1, i, BLK, char), m->d[0][i]);
        TCHECK(tupc_ref(a->D2, i, BLK, char) == m->d[1][i], "%s: D2[%d] is '%c', expected '%c'",
               what, i, tupc_ref(a->D2, i, BLK, char), m->d[1][i]);
    }
}

#define PTR(arr, k, blk) tupc_ref(arr, k, blk, tupc_sptr_t)
#define SZ(arr, k, blk) tupc_ref(arr, k, blk, size_t)

static int fig1(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 1);
    if (MYTHREAD == 0) {
        PTR(a.B, 0, 1) = ch(a.D1, 0);
        PTR(a.B, 1, 1) = ch(a.D2, 11);
        PTR(a.B, 2, 1) = ch(a.D2, 23);
    }
    upc_all_broadcast_x(a.B, ch(a.C1, 1), 4, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra,
                        UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    ocopy(&m, 1, 0, 1, 1, 4);
    ocopy(&m, 2, 11, 1, 1, 4);
    ocopy(&m, 2, 23, 1, 1, 4);
    compare(&a, &m, "figure 1");
    return 0;
}

static void set_nb3(const struct arrays *a, size_t x, size_t y, size_t z)
{
    SZ(a->nb, 0, 1) = x, SZ(a->nb, 1, 1) = y, SZ(a->nb, 2, 1) = z;
}

static int fig2(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 1);
    if (MYTHREAD == 0) {
        set_nb3(&a, 2, 3, 1);
        PTR(a.A, 0, 1) = ch(a.C1, 1), PTR(a.A, 1, 1) = ch(a.C2, 3), PTR(a.A, 2, 1) = ch(a.C2, 8);
        PTR(a.B, 0, 1) = ch(a.D1, 5), PTR(a.B, 1, 1) = ch(a.D2, 9), PTR(a.B, 2, 1) = ch(a.D1, 19);
    }
    upc_all_scatter_x(a.B, a.A, a.nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra, UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    ocopy(&m, 1, 5, 1, 1, 2);
    ocopy(&m, 2, 9, 2, 3, 3);
    ocopy(&m, 1, 19, 2, 8, 1);
    compare(&a, &m, "figure 2");
    return 0;
}

static int fig3(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 1);
    if (MYTHREAD == 0) {
        set_nb3(&a, 2, 3, 1);
        PTR(a.A, 0, 1) = ch(a.C1, 5), PTR(a.A, 1, 1) = ch(a.C2, 9), PTR(a.A, 2, 1) = ch(a.C1, 19);
        PTR(a.B, 0, 1) = ch(a.D1, 1), PTR(a.B, 1, 1) = ch(a.D2, 3), PTR(a.B, 2, 1) = ch(a.D2, 8);
    }
    upc_all_gather_x(a.B, a.A, a.nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra, UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    ocopy(&m, 1, 1, 1, 5, 2);
    ocopy(&m, 2, 3, 2, 9, 3);
    ocopy(&m, 2, 8, 1, 19, 1);
    compare(&a, &m, "figure 3");
    return 0;
}

static int fig4(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 3);
    static const int bd[9][2] = {{1, 1},  {2, 3},  {2, 8},  {2, 10}, {1, 12},
                                 {1, 17}, {2, 18}, {2, 21}, {2, 25}};
    static const int as[3][2] = {{1, 5}, {2, 9}, {1, 19}};
    static const size_t nb[3] = {2, 3, 1};
    if (MYTHREAD == 0) {
        set_nb3(&a, nb[0], nb[1], nb[2]);
        for (int r = 0; r < 3; r++)
            PTR(a.A, r, 1) = ch(as[r][0] == 1 ? a.C1 : a.C2, as[r][1]);
        for (int k = 0; k < 9; k++)
            PTR(a.B, k, 3) = ch(bd[k][0] == 1 ? a.D1 : a.D2, bd[k][1]);
    }
    upc_all_gather_all_x(a.B, a.A, a.nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra, UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    for (int i = 0; i < 3; i++)
        for (int r = 0; r < 3; r++)
            ocopy(&m, bd[i * 3 + r][0], bd[i * 3 + r][1], as[r][0], as[r][1], nb[r]);
    compare(&a, &m, "figure 4");
    return 0;
}

static const int ex_a[9][2] = {{1, 1},  {2, 3},  {1, 7},  {2, 9}, {1, 13},
                               {2, 15}, {1, 18}, {1, 24}, {2, 20}};
static const int ex_b[9][2] = {{2, 0},  {2, 3},  {1, 6},  {1, 9}, {2, 13},
                               {1, 15}, {2, 19}, {2, 22}, {1, 23}};
static const size_t ex_nb[9] = {2, 3, 1, 4, 2, 3, 1, 3, 4};

static int fig5(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 3);
    if (MYTHREAD == 0)
        for (int k = 0; k < 9; k++) {
            SZ(a.nb, k, 3) = ex_nb[k];
            PTR(a.A, k, 3) = ch(ex_a[k][0] == 1 ? a.C1 : a.C2, ex_a[k][1]);
            PTR(a.B, k, 3) = ch(ex_b[k][0] == 1 ? a.D1 : a.D2, ex_b[k][1]);
        }
    upc_all_exchange_x(a.B, a.A, a.nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra, UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    /* src[j*3+i] (block i of thread j) to dst[i*3+j], nbytes[j*3+i]. */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            int s = j * 3 + i, d = i * 3 + j;
            ocopy(&m, ex_b[d][0], ex_b[d][1], ex_a[s][0], ex_a[s][1], ex_nb[s]);
        }
    compare(&a, &m, "figure 5");
    return 0;
}

static int fig6(void *arg)
{
    upc_flag_t extra = *(const upc_flag_t *)arg;
    struct arrays a;
    alloc_all(&a, 1);
    static const int perm[3] = {2, 0, 1};
    static const size_t nb[3] = {3, 4, 5};
    static const int as[3][2] = {{1, 2}, {2, 14}, {1, 21}};
    static const int bd[3][2] = {{2, 0}, {1, 9}, {1, 19}};
    if (MYTHREAD == 0)
        for (int r = 0; r < 3; r++) {
            tupc_ref(a.P, r, 1, int) = perm[r];
            SZ(a.nb, r, 1) = nb[r];
            PTR(a.A, r, 1) = ch(as[r][0] == 1 ? a.C1 : a.C2, as[r][1]);
            PTR(a.B, r, 1) = ch(bd[r][0] == 1 ? a.D1 : a.D2, bd[r][1]);
        }
    upc_all_permute_x(a.B, a.A, a.P, a.nb, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | extra, UPC_TEAM_ALL);
    struct image m;
    image_init(&m);
    for (int r = 0; r < 3; r++)
        ocopy(&m, bd[perm[r]][0], bd[perm[r]][1], as[r][0], as[r][1], nb[r]);
    compare(&a, &m, "figure 6");
    return 0;
}

static void test_figures(void **state)
{
    (void)state;
    static const upc_flag_t extras[] = {0, UPC_PUSH, UPC_PULL};
    int (*const figs[])(void *) = {fig1, fig2, fig3, fig4, fig5, fig6};
    for (size_t f = 0; f < 6; f++)
        for (size_t e = 0; e < 3; e++)
            TT_RUN(3, figs[f], (void *)&extras[e]);
}

/* ---- Teams ---------------------------------------------------------------- */

static int teams_body(void *arg)
{
    (void)arg;
    int T = THREADS;
    upc_team_t odd, sub;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, T - MYTHREAD, &odd);
    int n = (T + 1 - MYTHREAD % 2) / 2;
    TCHECK(tupc_team_size(odd) == n, "size %d, expected %d", tupc_team_size(odd), n);
    /* Ranked by key T - MYTHREAD: the highest thread first. */
    int r = tupc_team_rank(odd);
    int expect = (T - 1 - MYTHREAD) / 2; /* same-parity threads above this one */
    TCHECK(r == expect, "thread %d has rank %d, expected %d", MYTHREAD, r, expect);
    TCHECK(tupc_team_thread(odd, r) == MYTHREAD, "thread of my rank");
    TCHECK(tupc_team_rank_of(odd, MYTHREAD) == r, "rank_of");
    if (MYTHREAD + 1 < T)
        TCHECK(tupc_team_rank_of(odd, MYTHREAD + 1) == -1, "a thread of the other parity");
    TCHECK(tupc_team_size(UPC_TEAM_ALL) == T && tupc_team_rank(UPC_TEAM_ALL) == MYTHREAD,
           "UPC_TEAM_ALL");
    /* Negative colour: no team. */
    tupc_team_split(odd, r == 0 ? -1 : 1, 0, &sub);
    if (r == 0)
        TCHECK(sub == TUPC_TEAM_NONE, "a negative colour gives TUPC_TEAM_NONE");
    else
        TCHECK(tupc_team_size(sub) == n - 1, "sub size");
    /* Barrier-free chains of NOSYNC and MYSYNC broadcasts in each team, at once. */
    tupc_sptr_t buf = upc_all_alloc((size_t)T, 64 * 8);
    tupc_sptr_t ptrs = upc_all_alloc((size_t)T * (size_t)T * 8, sizeof(tupc_sptr_t));
    tupc_sptr_t src = upc_all_alloc((size_t)T, 8 * 8);
    int base = tupc_team_thread(odd, 0); /* a region per team */
    for (int k = 0; k < 8; k++) {
        /* Entry r of chain k at ptrs[(base * 8 + k) * T + r]: a region per team. */
        tupc_sptr_t arr =
            tupc_index(ptrs, (ptrdiff_t)((size_t)(base * 8 + k) * (size_t)T), 1, tupc_sptr_t);
        tupc_ref(arr, r, 1, tupc_sptr_t) =
            tupc_index(buf, (ptrdiff_t)((size_t)MYTHREAD * 512 + (size_t)k * 8), 512, char);
    }
    tupc_sptr_t my_src = tupc_index(src, (ptrdiff_t)((size_t)MYTHREAD * 64), 64, char);
    for (int k = 0; k < 8; k++)
        *(uint64_t *)tupc_index(my_src, k * 8, 64, char).addr =
            (uint64_t)MYTHREAD * 1000 + (uint64_t)k;
    upc_barrier();
    for (int k = 0; k < 8; k++) {
        tupc_sptr_t arr =
            tupc_index(ptrs, (ptrdiff_t)((size_t)(base * 8 + k) * (size_t)T), 1, tupc_sptr_t);
        int root = tupc_team_thread(odd, k % n);
        tupc_sptr_t s = tupc_index(src, (ptrdiff_t)((size_t)root * 64 + (size_t)k * 8), 64, char);
        upc_flag_t f = k % 2 ? UPC_IN_NOSYNC | UPC_OUT_NOSYNC : UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
        upc_all_broadcast_x(arr, s, 8, f, odd);
    }
    tupc_team_barrier(odd);
    for (int k = 0; k < 8; k++) {
        int root = tupc_team_thread(odd, k % n);
        uint64_t got = tupc_ref(
            tupc_index(buf, (ptrdiff_t)((size_t)MYTHREAD * 512 + (size_t)k * 8), 512, char), 0, 512,
            uint64_t);
        TCHECK(got == (uint64_t)root * 1000 + (uint64_t)k, "chain %d: %llu", k,
               (unsigned long long)got);
    }
    /* UPC_TEAM_ALL is a team like the others: its maps are the identity,
     * and its barrier orders what each thread wrote before it. */
    for (int t = 0; t < T; t++)
        TCHECK(tupc_team_thread(UPC_TEAM_ALL, t) == t && tupc_team_rank_of(UPC_TEAM_ALL, t) == t,
               "UPC_TEAM_ALL maps thread %d to rank %d and rank %d to thread %d", t,
               tupc_team_rank_of(UPC_TEAM_ALL, t), t, tupc_team_thread(UPC_TEAM_ALL, t));
    tupc_sptr_t stamp = upc_all_alloc((size_t)T, sizeof(int));
    for (int e = 1; e <= 3; e++) {
        tupc_ref(stamp, MYTHREAD, 1, int) = e * 1000 + MYTHREAD;
        tupc_team_barrier(UPC_TEAM_ALL);
        int nb = (MYTHREAD + 1) % T, got = tupc_ref(stamp, nb, 1, int);
        TCHECK(got == e * 1000 + nb, "after UPC_TEAM_ALL's barrier %d, thread %d's stamp is %d", e,
               nb, got);
        tupc_team_barrier(UPC_TEAM_ALL);
    }
    /* Calls alternating between two teams, so that each call finds its team
     * again where the lookup kept the other one. */
    upc_team_t every;
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &every);
    tupc_sptr_t dst = upc_all_alloc((size_t)T, 8);
    for (int k = 0; k < 6; k++) {
        upc_team_t tm = k % 2 ? odd : every;
        int root = tupc_team_thread(tm, k % tupc_team_size(tm));
        tupc_sptr_t s = tupc_index(src, (ptrdiff_t)((size_t)root * 64 + (size_t)k * 8), 64, char);
        tupc_team_broadcast(dst, s, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, tm);
        uint64_t got = tupc_ref(dst, MYTHREAD, 1, uint64_t);
        TCHECK(got == (uint64_t)root * 1000 + (uint64_t)k, "alternating call %d: %llu", k,
               (unsigned long long)got);
    }
    tupc_team_free(&every);
    if (sub != TUPC_TEAM_NONE)
        tupc_team_free(&sub);
    tupc_team_free(&odd);
    upc_barrier();
    return 0;
}

static void test_teams(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8, 32};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], teams_body, NULL);
}

/* ---- The 1.3 relocalizations on teams -------------------------------------- */

static unsigned char pat(int thread, size_t pos, int it)
{
    return (unsigned char)(thread * 131 + (int)(pos * 7) + it);
}

enum { TBC, TSC, TGA, TGAA, TEX, TPE };

static void team_call(int fn, tupc_sptr_t D, tupc_sptr_t S, tupc_sptr_t P, size_t A, size_t nb,
                      int root_th, upc_flag_t f, upc_team_t team)
{
    tupc_sptr_t rootS = tupc_index(S, (ptrdiff_t)((size_t)root_th * A), A, char);
    tupc_sptr_t rootD = tupc_index(D, (ptrdiff_t)((size_t)root_th * A), A, char);
    switch (fn) {
    case TBC:
        tupc_team_broadcast(D, rootS, nb, f, team);
        break;
    case TSC:
        tupc_team_scatter(D, rootS, nb, f, team);
        break;
    case TGA:
        tupc_team_gather(rootD, S, nb, f, team);
        break;
    case TGAA:
        tupc_team_gather_all(D, S, nb, f, team);
        break;
    case TEX:
        tupc_team_exchange(D, S, nb, f, team);
        break;
    case TPE:
        tupc_team_permute(D, S, P, nb, f, team);
        break;
    }
}

/* What my D area must hold after fn: byte k of block b. Returns the number
 * of blocks to check (0: none on this thread). */
static int team_expect(int fn, upc_team_t team, int root, int b, size_t k, size_t nb, int it,
                       const int *perm, unsigned char *out)
{
    int n = tupc_team_size(team), me = tupc_team_rank(team);
    int rt = tupc_team_thread(team, root);
    switch (fn) {
    case TBC:
        *out = pat(rt, k, it);
        return 1;
    case TSC:
        *out = pat(rt, (size_t)me * nb + k, it);
        return 1;
    case TGA:
        *out = pat(tupc_team_thread(team, b), k, it);
        return me == root ? n : 0;
    case TGAA:
        *out = pat(tupc_team_thread(team, b), k, it);
        return n;
    case TEX:
        *out = pat(tupc_team_thread(team, b), (size_t)me * nb + k, it);
        return n;
    default:
        for (int w = 0; w < n; w++)
            if (perm[w] == me)
                *out = pat(tupc_team_thread(team, w), k, it);
        return 1;
    }
}

static int team_reloc_body(void *arg)
{
    (void)arg;
    int T = THREADS;
    static const size_t sizes[] = {1, 13, 200};
    size_t A = (size_t)T * 200;
    tupc_sptr_t S = upc_all_alloc((size_t)T, A), D = upc_all_alloc((size_t)T, A);
    tupc_sptr_t P = upc_all_alloc((size_t)T, sizeof(int));
    /* Halves, thirds in reverse order, and every thread in reverse order:
     * the team forms take the 1.3 paths where the members hold the data. */
    upc_team_t teams[3];
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &teams[0]);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, -MYTHREAD, &teams[1]);
    tupc_team_split(UPC_TEAM_ALL, 0, T - 1 - MYTHREAD, &teams[2]);
    int it = 0;
    for (int ti = 0; ti < 2; ti++) {
        upc_team_t team = teams[ti];
        int n = tupc_team_size(team), me = tupc_team_rank(team);
        int *perm = malloc(sizeof(int) * (size_t)n);
        for (int fn = TBC; fn <= TPE; fn++)
            for (int m = 0; m < TT_NSYNC; m++)
                for (size_t z = 0; z < 3; z++, it++) {
                    size_t nb = sizes[z];
                    int root = it % n;
                    for (int r = 0; r < n; r++)
                        perm[r] = (r + it) % n;
                    unsigned char *mineS =
                        (unsigned char *)tupc_index(S, (ptrdiff_t)((size_t)MYTHREAD * A), A, char)
                            .addr;
                    unsigned char *mineD =
                        (unsigned char *)tupc_index(D, (ptrdiff_t)((size_t)MYTHREAD * A), A, char)
                            .addr;
                    for (size_t k = 0; k < A; k++)
                        mineS[k] = pat(MYTHREAD, k, it), mineD[k] = 0;
                    tupc_ref(P, MYTHREAD, 1, int) = perm[me];
                    upc_barrier();
                    team_call(fn, D, S, P, A, nb, tupc_team_thread(team, root), tt_sync_flags[m],
                              team);
                    upc_barrier();
                    unsigned char want = 0;
                    int blocks = team_expect(fn, team, root, 0, 0, nb, it, perm, &want);
                    for (int b = 0; b < blocks; b++)
                        for (size_t k = 0; k < nb; k++) {
                            team_expect(fn, team, root, b, k, nb, it, perm, &want);
                            unsigned char got = mineD[(size_t)b * nb + k];
                            TCHECK(got == want,
                                   "fn %d flags 0x%x nb %zu team %d: block %d byte %zu "
                                   "is %d, expected %d",
                                   fn, (unsigned)tt_sync_flags[m], nb, ti, b, k, got, want);
                            if (got != want)
                                b = blocks, k = nb;
                        }
                    /* Nothing written past the blocks. */
                    size_t used = (size_t)blocks * nb;
                    for (size_t k = used; k < used + nb && k < A; k++)
                        TCHECK(mineD[k] == 0, "fn %d: byte %zu past the blocks written", fn, k);
                }
        free(perm);
    }
    tupc_team_free(&teams[1]);
    tupc_team_free(&teams[0]);
    return 0;
}

static void test_team_reloc(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8, 16};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], team_reloc_body, NULL);
}

/* ---- Reductions on teams ------------------------------------------------------ */

/* Non-commutative: a 2x2 integer matrix product packed in a long, mod 2^16
 * per entry (order matters, associativity holds). */
static long matmul(long a, long b)
{
    unsigned long x = (unsigned long)a, y = (unsigned long)b;
    unsigned a0 = x & 0xffff, a1 = (x >> 16) & 0xffff, a2 = (x >> 32) & 0xffff, a3 = x >> 48;
    unsigned b0 = y & 0xffff, b1 = (y >> 16) & 0xffff, b2 = (y >> 32) & 0xffff, b3 = y >> 48;
    unsigned long c0 = (a0 * b0 + a1 * b2) & 0xffff, c1 = (a0 * b1 + a1 * b3) & 0xffff;
    unsigned long c2 = (a2 * b0 + a3 * b2) & 0xffff, c3 = (a2 * b1 + a3 * b3) & 0xffff;
    return (long)(c0 | c1 << 16 | c2 << 32 | c3 << 48);
}

static long elem(size_t i, int it)
{
    uint64_t s = i * 31 + (uint64_t)it * 1000003u;
    return (long)(tt_rand(&s) & 0x0003000300030003ull);
}

static int team_reduce_body(void *arg)
{
    (void)arg;
    int T = THREADS;
    static const size_t ns[] = {0, 1, 7, 100, 1000};
    static const size_t blks[] = {0, 1, 3, 64};
    /* Halves, thirds in reverse order, and every thread in reverse order:
     * the team forms take the 1.3 paths where the members hold the data. */
    upc_team_t teams[3];
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &teams[0]);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, -MYTHREAD, &teams[1]);
    tupc_team_split(UPC_TEAM_ALL, 0, T - 1 - MYTHREAD, &teams[2]);
    size_t per = 1000 + 64;
    tupc_sptr_t A = upc_all_alloc((size_t)T, per * sizeof(long));
    tupc_sptr_t R = upc_all_alloc((size_t)T, per * sizeof(long));
    tupc_sptr_t out = upc_all_alloc((size_t)T, sizeof(long) * 4);
    tupc_sptr_t Ab = upc_all_alloc((size_t)T, per * sizeof(long));
    tupc_sptr_t Rb = upc_all_alloc((size_t)T, per * sizeof(long));
    int it = 0;
    for (int ti = 0; ti < 3; ti++) {
        upc_team_t team = teams[ti];
        int lead = tupc_team_thread(team, 0), me = tupc_team_rank(team);
        for (size_t a = 0; a < 5; a++)
            for (size_t b = 0; b < 4; b++)
                for (int m = 0; m < TT_NPAIRS; m += 2, it++) {
                    size_t n = ns[a], B = blks[b];
                    if (B == 0 && n > per)
                        continue;
                    int noncomm = it % 2;
                    /* Blocked arrays spread over every thread: only the
                     * team of thread 0 runs those, on Ab and Rb. The
                     * indefinite ones lie in block `lead` of A and R, one
                     * per team, so that teams never share an element. */
                    if (B && tupc_team_rank_of(team, 0) < 0)
                        continue;
                    tupc_sptr_t src = B ? tupc_index(Ab, 0, B, long)
                                        : tupc_index(A, (ptrdiff_t)((size_t)lead * per), per, long);
                    tupc_sptr_t dst = B ? tupc_index(Rb, 0, B, long)
                                        : tupc_index(R, (ptrdiff_t)((size_t)lead * per), per, long);
                    if (me == 0)
                        for (size_t i = 0; i < n; i++)
                            tupc_ref(src, i, B, long) = elem(i, it), tupc_ref(dst, i, B, long) = 0;
                    tupc_sptr_t res = tupc_index(out, lead * 4, 4, long);
                    if (me == 0)
                        tupc_ref(res, 0, 4, long) = -1;
                    tupc_team_barrier(team);
                    upc_flag_t f = tt_sync_flags[m];
                    if (noncomm)
                        tupc_team_reduceL(res, src, UPC_NONCOMM_FUNC, n, B, matmul, f, team);
                    else
                        tupc_team_reduceL(res, src, UPC_ADD, n, B, NULL, f, team);
                    if (it % 3 == 0) { /* in place: dst holds the input */
                        if (me == 0)
                            for (size_t i = 0; i < n; i++)
                                tupc_ref(dst, i, B, long) = elem(i, it);
                        tupc_team_barrier(team);
                        tupc_team_prefix_reduceL(dst, UPC_IN_PLACE,
                                                 noncomm ? UPC_NONCOMM_FUNC : UPC_ADD, n, B,
                                                 noncomm ? matmul : NULL, f, team);
                    } else {
                        tupc_team_prefix_reduceL(dst, src, noncomm ? UPC_NONCOMM_FUNC : UPC_ADD, n,
                                                 B, noncomm ? matmul : NULL, f, team);
                    }
                    tupc_team_barrier(team);
                    long acc = 0;
                    for (size_t i = 0; i < n; i++) {
                        long e = elem(i, it);
                        acc = i == 0 ? e : noncomm ? matmul(acc, e) : acc + e;
                        long got = tupc_ref(dst, i, B, long);
                        TCHECK(got == acc, "prefix n %zu B %zu team %d noncomm %d: [%zu] %ld, %ld",
                               n, B, ti, noncomm, i, got, acc);
                        if (got != acc)
                            break;
                    }
                    long r = tupc_ref(res, 0, 4, long);
                    TCHECK(r == (n ? acc : -1), "reduce n %zu B %zu team %d noncomm %d: %ld, %ld",
                           n, B, ti, noncomm, r, n ? acc : -1);
                    tupc_team_barrier(team);
                }
    }
    upc_barrier();
    tupc_team_free(&teams[2]);
    tupc_team_free(&teams[1]);
    tupc_team_free(&teams[0]);
    return 0;
}

static void test_team_reduce(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], team_reduce_body, NULL);
}

/* ---- 1.3 exchange and permute in place ----------------------------------- */

static int in_place_13_body(void *arg)
{
    (void)arg;
    int T = THREADS, it = 0;
    static const size_t sizes[] = {1, 13, 1000};
    tupc_sptr_t D = upc_all_alloc((size_t)T, 1000 * (size_t)T);
    tupc_sptr_t decoy = upc_all_alloc((size_t)T, 1000 * (size_t)T);
    tupc_sptr_t P = upc_all_alloc((size_t)T, sizeof(int));
    upc_team_t teams[2] = {UPC_TEAM_ALL, 0};
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, -MYTHREAD, &teams[1]);
    for (int ti = 0; ti < 2; ti++) {
        upc_team_t team = teams[ti];
        int n = tupc_team_size(team), me = tupc_team_rank(team);
        for (int ex = 0; ex < 2; ex++)
            for (size_t z = 0; z < 3; z++)
                for (int m = 0; m < TT_NSYNC; m++, it++) {
                    size_t nb = sizes[z], area = ex ? nb * (size_t)n : nb;
                    unsigned char *mine =
                        (unsigned char *)tupc_index(D, (ptrdiff_t)((size_t)MYTHREAD * 1000 * T),
                                                    1000 * (size_t)T, char)
                            .addr;
                    for (size_t k = 0; k < area; k++)
                        mine[k] = pat(MYTHREAD, k, it);
                    memset(tupc_index(decoy, (ptrdiff_t)((size_t)MYTHREAD * 1000 * T),
                                      1000 * (size_t)T, char)
                               .addr,
                           0xEE, area);
                    tupc_ref(P, MYTHREAD, 1, int) = (me + it) % n;
                    upc_barrier();
                    upc_flag_t f = tt_sync_flags[m];
                    if (ex && it % 2)
                        tupc_team_exchange(D, UPC_IN_PLACE, nb, f, team);
                    else if (ex)
                        tupc_team_exchange(D, decoy, nb, f | UPC_IN_PLACE, team);
                    else if (it % 2)
                        tupc_team_permute(D, UPC_IN_PLACE, P, nb, f, team);
                    else
                        tupc_team_permute(D, decoy, P, nb, f | UPC_IN_PLACE, team);
                    upc_barrier();
                    for (size_t k = 0; k < area; k++) {
                        /* exchange: my block j came from block me of rank
                         * j; permute: from rank w with perm[w] == me. */
                        int w = (me - it % n + n) % n;
                        unsigned char want = ex ? pat(tupc_team_thread(team, (int)(k / nb)),
                                                      (size_t)me * nb + k % nb, it)
                                                : pat(tupc_team_thread(team, w), k, it);
                        TCHECK(mine[k] == want,
                               "%s team %d nb %zu flags 0x%x: byte %zu is %d, expected %d",
                               ex ? "exchange" : "permute", ti, nb, (unsigned)f, k, mine[k], want);
                        if (mine[k] != want)
                            break;
                    }
                    upc_barrier();
                }
    }
    tupc_team_free(&teams[1]);
    return 0;
}

static void test_in_place_13(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8, 16};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], in_place_13_body, NULL);
}

/* ---- Sort on teams -------------------------------------------------------- */

struct kv {
    int key, idx;
};

static int by_key_only(tupc_sptr_t a, tupc_sptr_t b)
{
    const struct kv *x = tupc_local(a), *y = tupc_local(b);
    return (x->key > y->key) - (x->key < y->key);
}

static int team_sort_body(void *arg)
{
    (void)arg;
    int T = THREADS;
    /* Halves, thirds in reverse order, and every thread in reverse order:
     * the team forms take the 1.3 paths where the members hold the data. */
    upc_team_t teams[3];
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &teams[0]);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 3, -MYTHREAD, &teams[1]);
    tupc_team_split(UPC_TEAM_ALL, 0, T - 1 - MYTHREAD, &teams[2]);
    size_t per = 3000;
    tupc_sptr_t A = upc_all_alloc((size_t)T, per * sizeof(struct kv));
    tupc_sptr_t Ab = upc_all_alloc((size_t)T, per * sizeof(struct kv));
    static const size_t ns[] = {0, 1, 2, 17, 1000, 3000};
    static const size_t blks[] = {0, 1, 7, 100};
    int it = 0;
    for (int ti = 0; ti < 3; ti++) {
        upc_team_t team = teams[ti];
        int lead = tupc_team_thread(team, 0), me = tupc_team_rank(team);
        for (size_t a = 0; a < 6; a++)
            for (size_t b = 0; b < 4; b++, it++) {
                size_t n = ns[a], B = blks[b];
                if (B && lead != 0) /* blocked arrays span every thread: one team */
                    continue;
                tupc_sptr_t arr =
                    B ? tupc_index(Ab, 0, B, struct kv)
                      : tupc_index(A, (ptrdiff_t)((size_t)lead * per), per, struct kv);
                if (me == 0)
                    for (size_t i = 0; i < n; i++) {
                        uint64_t st = i * 7919 + (uint64_t)it;
                        tupc_ref(arr, i, B, struct kv) =
                            (struct kv){(int)(tt_rand(&st) % 50), (int)i};
                    }
                upc_flag_t f = tt_sync_flags[it % TT_NPAIRS];
                tupc_team_barrier(team);
                tupc_team_sort(arr, sizeof(struct kv), n, B, by_key_only, f, team);
                tupc_team_barrier(team);
                /* Every element once, with its key, */
                char *seen = calloc(n + 1, 1);
                for (size_t i = 0; i < n; i++) {
                    struct kv e = tupc_ref(arr, i, B, struct kv);
                    uint64_t st = (uint64_t)e.idx * 7919 + (uint64_t)it;
                    int ok = e.idx >= 0 && (size_t)e.idx < n && !seen[e.idx] &&
                             e.key == (int)(tt_rand(&st) % 50);
                    TCHECK(ok, "team %d n %zu B %zu: [%zu] is (%d,%d)", ti, n, B, i, e.key, e.idx);
                    if (!ok)
                        break;
                    seen[e.idx] = 1;
                }
                free(seen);
                /* in order, equal keys in their first order. */
                for (size_t i = 1; i < n; i++) {
                    struct kv p = tupc_ref(arr, i - 1, B, struct kv);
                    struct kv q = tupc_ref(arr, i, B, struct kv);
                    int ok = p.key < q.key || (p.key == q.key && p.idx < q.idx);
                    TCHECK(ok, "team %d n %zu B %zu: [%zu] (%d,%d) before (%d,%d)", ti, n, B, i,
                           p.key, p.idx, q.key, q.idx);
                    if (!ok)
                        break;
                }
                tupc_team_barrier(team);
            }
    }
    upc_barrier();
    tupc_team_free(&teams[1]);
    tupc_team_free(&teams[0]);
    return 0;
}

static void test_team_sort(void **state)
{
    (void)state;
    static const int threads[] = {1, 2, 3, 5, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        TT_RUN(threads[i], team_sort_body, NULL);
}

/* ---- In-place prefix reduction ------------------------------------------- */

struct prefix_case {
    size_t nelems, blk;
    upc_flag_t flags;
    int as_src; /* UPC_IN_PLACE as the src argument, else in flags with a decoy src */
};

/* Each thread fills the elements with affinity to it, the call scans in
 * place, every thread checks every element against a serial scan. */
static int prefix_in_place(void *arg)
{
    const struct prefix_case *pc = arg;
    size_t n = pc->nelems, B = pc->blk, T = (size_t)THREADS;
    size_t per = B ? (n + B * T - 1) / (B * T) * B : n;
    tupc_sptr_t A = upc_all_alloc(T, per * sizeof(long) + 8);
    tupc_sptr_t decoy = upc_all_alloc(T, per * sizeof(long) + 8);
    for (size_t i = 0; i < n; i++) {
        tupc_sptr_t e = tupc_index(A, i, B, long);
        if (B == 0 ? MYTHREAD == 0 : (int)e.thread == MYTHREAD)
            *(long *)e.addr = (long)(i * 2654435761u % 1000) - 500;
        tupc_sptr_t d = tupc_index(decoy, i, B, long);
        if (B == 0 ? MYTHREAD == 0 : (int)d.thread == MYTHREAD)
            *(long *)d.addr = 77;
    }
    upc_barrier();
    if (pc->as_src)
        upc_all_prefix_reduceL(A, UPC_IN_PLACE, UPC_ADD, n, B, NULL, pc->flags);
    else
        upc_all_prefix_reduceL(A, decoy, UPC_ADD, n, B, NULL, pc->flags | UPC_IN_PLACE);
    upc_barrier();
    long run = 0;
    for (size_t i = 0; i < n; i++) {
        run += (long)(i * 2654435761u % 1000) - 500;
        long got = tupc_ref(A, i, B, long);
        TCHECK(got == run, "n %zu blk %zu flags 0x%x: element %zu is %ld, expected %ld", n, B,
               (unsigned)pc->flags, i, got, run);
        if (got != run)
            break;
    }
    return 0;
}

static void test_prefix_in_place(void **state)
{
    (void)state;
    static const size_t sizes[][2] = {
        {1, 1},     {5, 1},       {7, 3},    {100, 0},
        {1000, 16}, {1000, 1000}, {3000, 5}, {(3u << 20) / 8, (3u << 20) / 8}};
    static const upc_flag_t flags[] = {UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
                                       UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                                       UPC_IN_MYSYNC | UPC_OUT_MYSYNC};
    for (int T = 1; T <= 4; T++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t f = 0; f < 3; f++) {
                size_t blk = sizes[s][1];
                if (blk >= sizes[s][0] && T > 1 && s == 7)
                    blk = (sizes[s][0] + (size_t)T - 1) / (size_t)T; /* one block per thread */
                struct prefix_case pc = {sizes[s][0], blk, flags[f], (int)(s + f) % 2};
                TT_RUN(T, prefix_in_place, &pc);
            }
}

/* ---- Refusals ------------------------------------------------------------- */

static int bad_team(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64);
    upc_all_broadcast_x(a, a, 8, 0, 12345);
    return 0;
}

static int negative_team(void *arg)
{
    const int *which = arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64);
    tupc_team_broadcast(a, a, 8, 0, *which);
    return 0;
}

static int not_member(void *arg)
{
    (void)arg;
    upc_team_t t, other;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &t);
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, 0, &other);
    /* Thread 0 names a team of odd threads: trade handles by broadcast. */
    tupc_sptr_t h = upc_all_alloc((size_t)THREADS, sizeof(int));
    tupc_ref(h, MYTHREAD, 1, int) = t;
    upc_barrier();
    if (MYTHREAD == 0)
        tupc_team_barrier(tupc_ref(h, 1, 1, int));
    return 0;
}

/* A call on the team first, so that each member's lookup has it at hand
 * (team.h's one-entry cache, which the free must clear). */
static int freed_team(void *arg)
{
    (void)arg;
    upc_team_t t, keep;
    tupc_team_split(UPC_TEAM_ALL, 0, 0, &t);
    tupc_team_barrier(t);
    keep = t;
    tupc_team_free(&t);
    tupc_team_barrier(keep);
    return 0;
}

static int push_pull(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64);
    upc_all_broadcast_x(a, a, 8, UPC_PUSH | UPC_PULL, UPC_TEAM_ALL);
    return 0;
}

static int in_place_refused(void *arg)
{
    (void)arg;
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64);
    upc_all_gather_x(a, a, a, UPC_IN_PLACE, UPC_TEAM_ALL);
    return 0;
}

/* A posted call that is never completed is reported when the thread ends. */
static int async_never_completed(void *arg)
{
    (void)arg;
    tupc_sptr_t ptrs = upc_all_alloc((size_t)THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) = tupc_index(data, MYTHREAD * 64, 64, char);
    upc_barrier();
    (void)upc_all_broadcast_x(ptrs, data, 8, UPC_ASYNC | UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
                              UPC_TEAM_ALL);
    return 0;
}

static int wrong_affinity(void *arg)
{
    (void)arg;
    tupc_sptr_t ptrs = upc_all_alloc((size_t)THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    /* dst[1] on thread 0, the others right. */
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) =
        tupc_index(data, MYTHREAD == 1 ? 8 : MYTHREAD * 64, 64, char);
    upc_barrier();
    upc_all_broadcast_x(ptrs, upc_all_alloc((size_t)THREADS, 8), 8, 0, UPC_TEAM_ALL);
    return 0;
}

static int past_end(void *arg)
{
    (void)arg;
    tupc_sptr_t ptrs = upc_all_alloc((size_t)THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) = tupc_index(data, MYTHREAD * 64 + 60, 64, char);
    upc_barrier();
    upc_all_broadcast_x(ptrs, upc_all_alloc((size_t)THREADS, 8), 8, 0, UPC_TEAM_ALL);
    return 0;
}

static int not_a_perm(void *arg)
{
    const int *pull = arg;
    tupc_sptr_t ptrs = upc_all_alloc((size_t)THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t nb = upc_all_alloc((size_t)THREADS, sizeof(size_t));
    tupc_sptr_t perm = upc_all_alloc((size_t)THREADS, sizeof(int));
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) = tupc_index(data, MYTHREAD * 64, 64, char);
    tupc_ref(nb, MYTHREAD, 1, size_t) = 8;
    tupc_ref(perm, MYTHREAD, 1, int) = MYTHREAD == 1 ? 0 : MYTHREAD; /* 0 twice */
    upc_barrier();
    upc_all_permute_x(ptrs, ptrs, perm, nb, *pull ? UPC_PULL : UPC_PUSH, UPC_TEAM_ALL);
    return 0;
}

static int members_disagree(void *arg)
{
    (void)arg;
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, 0, 0, &t);
    tupc_sptr_t ptrs = upc_all_alloc((size_t)THREADS, sizeof(tupc_sptr_t));
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    tupc_ref(ptrs, MYTHREAD, 1, tupc_sptr_t) = tupc_index(data, MYTHREAD * 64, 64, char);
    upc_barrier();
    tupc_sptr_t src = upc_all_alloc((size_t)THREADS, 8);
    upc_all_broadcast_x(ptrs, src, MYTHREAD ? 8 : 4, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, t);
    tupc_team_barrier(t);
    return 0;
}

static int in_place_names_dst(void *arg)
{
    (void)arg;
    tupc_sptr_t data = upc_all_alloc((size_t)THREADS, 64);
    tupc_sptr_t perm = upc_all_alloc((size_t)THREADS, sizeof(int));
    tupc_ref(perm, MYTHREAD, 1, int) = MYTHREAD;
    upc_barrier();
    upc_all_permute(tupc_index(data, 64, 64, char), UPC_IN_PLACE, perm, 8, 0);
    return 0;
}

static int team_end_mismatch(void *arg)
{
    (void)arg;
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, 0, 0, &t);
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, 64);
    tupc_sptr_t b = upc_all_alloc((size_t)THREADS, 64);
    if (MYTHREAD == 0) /* the others skip it, and nothing waits */
        tupc_team_broadcast(b, a, 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, t);
    return 0;
}

/* The same call on a larger team must be checked again: the root area of
 * a gather grows with the team. */
static int team_size_rechecked(void *arg)
{
    (void)arg;
    upc_team_t half, all;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD / 2, MYTHREAD, &half);
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &all);
    tupc_sptr_t D = upc_all_alloc((size_t)THREADS, 16); /* room for 2 blocks of 8 */
    tupc_sptr_t S = upc_all_alloc((size_t)THREADS, 8);
    tupc_sptr_t root = tupc_index(D, 0, 16, char);
    /* Both halves make the very same call (one after the other: they share
     * the root area), so every thread has seen it checked on 2 members. */
    if (MYTHREAD < 2)
        tupc_team_gather(root, S, 8, 0, half);
    upc_barrier();
    if (MYTHREAD >= 2)
        tupc_team_gather(root, S, 8, 0, half);
    upc_barrier();
    tupc_team_gather(root, S, 8, 0, all);
    return 0;
}

static void test_refusals(void **state)
{
    (void)state;
    tt_expect_error(4, team_size_rechecked, NULL, "tupc_team_gather", "dst covers bytes 0 to 32",
                    NULL);
    static const int zero = 0, one = 1;
    for (int T = 2; T <= 4; T += 2) {
        tt_expect_error(T, bad_team, NULL, "upc_all_broadcast_x", "team is 12345", NULL);
        static const int minus5 = -5, none = TUPC_TEAM_NONE;
        tt_expect_error(T, negative_team, (void *)&minus5, "tupc_team_broadcast", "team is -5",
                        NULL);
        tt_expect_error(T, negative_team, (void *)&none, "tupc_team_broadcast",
                        "team is TUPC_TEAM_NONE", NULL);
        tt_expect_error(T, not_member, NULL, "tupc_team_barrier", "not a member", NULL);
        tt_expect_error(T, freed_team, NULL, "tupc_team_barrier", "names no team", NULL);
        tt_expect_error(T, push_pull, NULL, "both UPC_PUSH and UPC_PULL", NULL);
        tt_expect_error(T, in_place_refused, NULL, "upc_all_gather_x", "UPC_IN_PLACE", NULL);
        tt_expect_error(T, async_never_completed, NULL, "returned with 1 asynchronous operations",
                        "upc_all_broadcast_x", NULL);
        tt_expect_error(T, wrong_affinity, NULL, "dst[1] has affinity to thread 0",
                        "expected thread 1", NULL);
        tt_expect_error(T, past_end, NULL, "upc_all_broadcast_x", "past the end", NULL);
        tt_expect_error(T, not_a_perm, (void *)&zero, "upc_all_permute_x", "both 0", NULL);
        tt_expect_error(T, not_a_perm, (void *)&one, "upc_all_permute_x", "holds 0 twice", NULL);
        tt_expect_error(T, members_disagree, NULL, "members split with colour 0", " passed nbytes ",
                        "to upc_all_broadcast_x (collective call 1 on the team", NULL);
        tt_expect_error(T, in_place_names_dst, NULL, "upc_all_permute",
                        "dst has affinity to thread 1", NULL);
        tt_expect_error(T, team_end_mismatch, NULL, "when the threads ended",
                        "member 1 of the team of", NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures),         cmocka_unit_test(test_teams),
        cmocka_unit_test(test_prefix_in_place), cmocka_unit_test(test_team_reloc),
        cmocka_unit_test(test_team_reduce),     cmocka_unit_test(test_team_sort),
        cmocka_unit_test(test_in_place_13),     cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
