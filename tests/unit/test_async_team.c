/* UPC_ASYNC on the team forms of the 1.3 collectives (a tupc extension):
 * the six relocalizations, reduce, prefix_reduce and reduce_all, posted on
 * a team and on UPC_TEAM_ALL. Chains of 200 posted calls of every kind
 * without a barrier, completed in several orders; an asynchronous
 * reduction gives the bits of the blocking team form (double, long double,
 * complex, a non-commutative function in index order); a member that
 * computes long after posting while the others wait; the refusals. */
#include "tt.h"

#include <upc_collective_ext.h>

#include <float.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum {
    OPS = 200, /* calls in a chain */
    W = 8,     /* bytes of a relocalization's block */
    BLK = 256, /* bytes each call owns in each partition, per team */
    KINDS = 9,
};

enum kind { BCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE, PERMUTE, REDUCE, PREFIX, REDUCE_ALL };

/* The areas of a chain: S (sources), D (destinations) and P (perm) hold
 * BLK bytes (P: one int) per call in each partition, a second set for the
 * second team of a split, so the two teams never share a byte. */
struct chain {
    tupc_sptr_t S, D, P;
    upc_team_t team;
    int n, colour;
};

/* Call k's area in thread t's partition, phase 0 (an array may start there). */
static tupc_sptr_t area(const struct chain *c, tupc_sptr_t base, int k, int thread)
{
    size_t per = (size_t)2 * OPS * BLK; /* bytes of base in each partition */
    size_t off = ((size_t)c->colour * OPS + (size_t)k) * BLK;
    return tupc_ptr_cast(tupc_index(base, (size_t)thread * per + off, per, char));
}

/* Call k's perm: an int in each partition, from thread 0's, block size 1. */
static tupc_sptr_t perm_of(const struct chain *c, int k)
{
    size_t per = (size_t)2 * OPS;
    return tupc_ptr_cast(tupc_index(c->P, (size_t)c->colour * OPS + (size_t)k, per, int));
}

static int thread_of(const struct chain *c, int r)
{
    return tupc_team_thread(c->team, r);
}

/* Byte i of the source area of call k in thread t's partition. */
static unsigned char byte_of(int k, int t, int i)
{
    return (unsigned char)(k * 13 + t * 7 + i + 1);
}

/* The reductions' arrays: nelems longs from area(S, k, 0), block size 1 or
 * 3, over every thread; element e holds value_of(k, e). */
static size_t nelems_of(int k)
{
    return (size_t)(2 * THREADS + 1 + k % 3);
}

static size_t blk_of(int k)
{
    return k % 2 ? 3 : 1;
}

static long value_of(int k, size_t e)
{
    return (long)(k * 1000 + (long)e * 3 - 7);
}

static const unsigned char UNTOUCHED = 0xee;

static void chain_setup(struct chain *c, upc_team_t team, int colour)
{
    c->team = team;
    c->colour = colour;
    c->n = tupc_team_size(team);
    c->S = upc_all_alloc(THREADS, (size_t)2 * OPS * BLK);
    c->D = upc_all_alloc(THREADS, (size_t)2 * OPS * BLK);
    c->P = upc_all_alloc(THREADS, (size_t)2 * OPS * sizeof(int));
    /* Both teams' areas in this thread's partition: a team's reductions
     * read and write every thread's. */
    int me = tupc_team_rank(team);
    struct chain both = *c;
    for (both.colour = 0; both.colour < 2; both.colour++)
        for (int k = 0; k < OPS; k++) {
            char *s = area(&both, c->S, k, MYTHREAD).addr;
            for (int i = 0; i < BLK; i++)
                s[i] = (char)byte_of(k, MYTHREAD, i);
            memset(area(&both, c->D, k, MYTHREAD).addr, UNTOUCHED, BLK);
            if (k % KINDS >= REDUCE)
                for (size_t e = 0; e < nelems_of(k); e++) {
                    tupc_sptr_t p = tupc_index(area(&both, c->S, k, 0), e, blk_of(k), long);
                    if ((int)p.thread == MYTHREAD)
                        *(long *)p.addr = value_of(k, e);
                }
        }
    /* Rank r sends its block to rank r + k. */
    for (int k = 0; k < OPS; k++)
        *(int *)tupc_index(perm_of(c, k), MYTHREAD, 1, int).addr = (me + k) % c->n;
}

static upc_coll_handle_t post(const struct chain *c, int k, upc_flag_t sync)
{
    int n = c->n, root = thread_of(c, k % n);
    upc_flag_t f = sync | UPC_ASYNC;
    tupc_sptr_t S0 = area(c, c->S, k, 0), D0 = area(c, c->D, k, 0);
    switch ((enum kind)(k % KINDS)) {
    case BCAST:
        return tupc_team_broadcast(D0, area(c, c->S, k, root), W, f, c->team);
    case SCATTER:
        return tupc_team_scatter(D0, area(c, c->S, k, root), W, f, c->team);
    case GATHER:
        return tupc_team_gather(area(c, c->D, k, root), S0, W, f, c->team);
    case GATHER_ALL:
        return tupc_team_gather_all(D0, S0, W, f, c->team);
    case EXCHANGE:
        return tupc_team_exchange(D0, S0, W, f, c->team);
    case PERMUTE:
        return tupc_team_permute(D0, S0, perm_of(c, k), W, f, c->team);
    case REDUCE:
        return tupc_team_reduceL(area(c, c->D, k, root), S0, UPC_ADD, nelems_of(k), blk_of(k), NULL,
                                 f, c->team);
    case PREFIX:
        return tupc_team_prefix_reduceL(D0, S0, UPC_ADD, nelems_of(k), blk_of(k), NULL,
                                        f | (k % 2 ? UPC_EXCLUSIVE_PREFIX_REDUCE : 0), c->team);
    case REDUCE_ALL:
        return tupc_team_reduce_allL(D0, S0, UPC_ADD, nelems_of(k), blk_of(k), NULL, f, c->team);
    }
    return UPC_HANDLE_COMPLETE;
}

/* Whether W bytes at d are those of thread t's source area of call k from
 * byte `from`. */
static int block_is(int k, const char *what, int r, const unsigned char *d, int t, int from)
{
    for (int i = 0; i < W; i++)
        if (d[i] != byte_of(k, t, from + i)) {
            TCHECK(0, "call %d (%s), rank %d, byte %d: %d, expected %d", k, what, r, i, d[i],
                   byte_of(k, t, from + i));
            return 0;
        }
    return 1;
}

static void expect_long(int k, const char *what, size_t e, const void *p, long want)
{
    long got;
    memcpy(&got, p, sizeof got);
    TCHECK(got == want, "call %d (%s), element %zu: %ld, expected %ld", k, what, e, got, want);
}

/* After every call completed: rank 0 of the team checks every member's
 * results (a barrier before lets it read them). */
static void chain_check(const struct chain *c)
{
    int n = c->n;
    for (int k = 0; k < OPS; k++) {
        int root = thread_of(c, k % n);
        const unsigned char *rootd = (const unsigned char *)area(c, c->D, k, root).addr;
        long sum = 0;
        for (size_t e = 0; e < nelems_of(k); e++)
            sum += value_of(k, e);
        for (int r = 0; r < n; r++) {
            int t = thread_of(c, r);
            const unsigned char *d = (const unsigned char *)area(c, c->D, k, t).addr;
            switch ((enum kind)(k % KINDS)) {
            case BCAST:
                block_is(k, "broadcast", r, d, root, 0);
                break;
            case SCATTER:
                block_is(k, "scatter", r, d, root, r * W);
                break;
            case GATHER:
                block_is(k, "gather", r, rootd + r * W, t, 0);
                break;
            case GATHER_ALL:
                for (int j = 0; j < n; j++)
                    block_is(k, "gather_all", r, d + j * W, thread_of(c, j), 0);
                break;
            case EXCHANGE:
                for (int j = 0; j < n; j++)
                    block_is(k, "exchange", r, d + j * W, thread_of(c, j), r * W);
                break;
            case PERMUTE: /* rank r got the block of rank r - k */
                block_is(k, "permute", r, d, thread_of(c, ((r - k) % n + n) % n), 0);
                break;
            case REDUCE:
                if (t == root)
                    expect_long(k, "reduce", 0, d, sum);
                break;
            case REDUCE_ALL:
                expect_long(k, "reduce_all", 0, d, sum);
                break;
            case PREFIX:
                break;
            }
        }
        if (k % KINDS == PREFIX) {
            /* The whole array, on every thread: the team's members write it all. */
            long acc = 0;
            for (size_t e = 0; e < nelems_of(k); e++) {
                tupc_sptr_t p = tupc_index(area(c, c->D, k, 0), e, blk_of(k), long);
                if (k % 2 && e == 0) {
                    TCHECK(*(unsigned char *)p.addr == UNTOUCHED,
                           "call %d (exclusive prefix): dst[0] was written", k);
                } else {
                    long want = acc + (k % 2 ? 0 : value_of(k, e));
                    expect_long(k, "prefix", e, p.addr, want);
                }
                acc += value_of(k, e);
            }
        }
    }
}

/* 200 calls of the nine kinds, posted without a barrier, completed as
 * a->how says (tt_complete_all); on UPC_TEAM_ALL or on two teams (even and
 * odd threads). */
static int chain_program(void *arg)
{
    const struct tt_chain_arg *a = arg;
    upc_team_t team = UPC_TEAM_ALL;
    if (a->teams)
        tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &team);
    struct chain c;
    chain_setup(&c, team, a->teams ? MYTHREAD % 2 : 0);
    upc_barrier();
    upc_coll_handle_t h[OPS];
    for (int k = 0; k < OPS; k++)
        h[k] = post(&c, k, a->sync);
    tt_complete_all(a->how, OPS, h);
    upc_barrier();
    if (tupc_team_rank(team) == 0)
        chain_check(&c);
    upc_barrier();
    if (a->teams)
        tupc_team_free(&team);
    return 0;
}

static void test_chains(void **state)
{
    (void)state;
    tt_chain_sweep(chain_program);
}

/* ---- the bits of the blocking team form -------------------------------- */

/* A 2x2 matrix of 16-bit entries in a long, multiplied modulo 2^16:
 * associative, not commutative. */
static long matmul(long a, long b)
{
    uint16_t x[4], y[4], z[4];
    for (int i = 0; i < 4; i++) {
        x[i] = (uint16_t)((unsigned long)a >> (16 * i));
        y[i] = (uint16_t)((unsigned long)b >> (16 * i));
    }
    /* In unsigned: uint16_t operands would be promoted to int and overflow. */
    z[0] = (uint16_t)((uint32_t)x[0] * y[0] + (uint32_t)x[1] * y[2]);
    z[1] = (uint16_t)((uint32_t)x[0] * y[1] + (uint32_t)x[1] * y[3]);
    z[2] = (uint16_t)((uint32_t)x[2] * y[0] + (uint32_t)x[3] * y[2]);
    z[3] = (uint16_t)((uint32_t)x[2] * y[1] + (uint32_t)x[3] * y[3]);
    unsigned long r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned long)z[i] << (16 * i);
    return (long)r;
}

enum { NB = 1003, NB_B = 7 }; /* elements of the bit-identity arrays, their block size */

struct bits {
    upc_team_t on, same; /* the async call's team; the blocking form's */
    tupc_sptr_t src, d1, d2;
};

/* Element e of an array of es-byte elements from a (block size NB_B). */
static void *elem(tupc_sptr_t a, size_t e, size_t es)
{
    return tupc_ptr_add(a, (ptrdiff_t)e, NB_B, es).addr;
}

static int mine(tupc_sptr_t a, size_t e, size_t es)
{
    return (int)tupc_ptr_add(a, (ptrdiff_t)e, NB_B, es).thread == MYTHREAD;
}

/* Values whose sums round differently in different orders. */
static double dval(size_t e)
{
    return (e % 3 ? 1e-3 : 1e5) / (double)(e + 1) * (e % 2 ? -1 : 1);
}

/* This thread's elements of src: kind 0 double, 1 long double, 2 double
 * _Complex, 3 a matrix in a long. */
static void fill(const struct bits *b, int kind)
{
    for (size_t e = 0; e < NB; e++) {
        switch (kind) {
        case 0:
            if (mine(b->src, e, sizeof(double)))
                *(double *)elem(b->src, e, sizeof(double)) = dval(e);
            break;
        case 1:
            if (mine(b->src, e, sizeof(long double)))
                *(long double *)elem(b->src, e, sizeof(long double)) = dval(e) / 3;
            break;
        case 2:
            if (mine(b->src, e, sizeof(double _Complex)))
                *(double _Complex *)elem(b->src, e, sizeof(double _Complex)) =
                    1 + dval(e) + (dval(e + 1) / 7) * 1.0i;
            break;
        case 3:
            if (mine(b->src, e, sizeof(long)))
                *(long *)elem(b->src, e, sizeof(long)) =
                    (long)((e * 0x9e3779b97f4a7c15ul) & 0x0003000700050001ul) | 0x0001000000000001l;
            break;
        }
    }
}

/* After a barrier: elements from..NB-1 of d1 and d2 hold the same bytes. */
static void same_array(const struct bits *b, size_t es, size_t from, const char *what)
{
    upc_barrier();
    for (size_t e = from; e < NB; e++)
        if (memcmp(elem(b->d1, e, es), elem(b->d2, e, es), es)) {
            TCHECK(0, "%s: element %zu differs between the asynchronous and the blocking call",
                   what, e);
            break;
        }
    upc_barrier();
}

/* After a barrier: the element at the start of the partition of each
 * member of `on` (reduce_all's dst from thread 0) the same in d1 and d2,
 * in its first `bytes` bytes (the others may be padding). */
static void same_each(const struct bits *b, size_t es, size_t bytes, const char *what)
{
    upc_barrier();
    for (int r = 0; r < tupc_team_size(b->on); r++) {
        size_t e = (size_t)tupc_team_thread(b->on, r) * NB_B;
        TCHECK(!memcmp(elem(b->d1, e, es), elem(b->d2, e, es), bytes),
               "%s: rank %d's element differs between the asynchronous and the blocking call", what,
               r);
    }
    upc_barrier();
}

#define SYNC (UPC_IN_MYSYNC | UPC_OUT_MYSYNC)

static void bits_double(const struct bits *b)
{
    const size_t es = sizeof(double);
    fill(b, 0);
    upc_barrier();
    for (int excl = 0; excl < 2; excl++) {
        upc_flag_t f = SYNC | (excl ? UPC_EXCLUSIVE_PREFIX_REDUCE : 0);
        tupc_team_prefix_reduceD(b->d1, b->src, UPC_ADD, NB, NB_B, NULL, f, b->same);
        upc_wait(
            tupc_team_prefix_reduceD(b->d2, b->src, UPC_ADD, NB, NB_B, NULL, f | UPC_ASYNC, b->on));
        same_array(b, es, (size_t)excl, excl ? "exclusive prefix D" : "prefix D");
        /* In place: both arrays start as src (every element, as the
         * team's call reads every thread's; a barrier lets the other
         * half's calls end first). */
        for (size_t e = 0; e < NB; e++)
            if (mine(b->src, e, es)) {
                memcpy(elem(b->d1, e, es), elem(b->src, e, es), es);
                memcpy(elem(b->d2, e, es), elem(b->src, e, es), es);
            }
        upc_barrier();
        tupc_team_prefix_reduceD(b->d1, b->d1, UPC_ADD, NB, NB_B, NULL, f | UPC_IN_PLACE, b->same);
        upc_wait(tupc_team_prefix_reduceD(b->d2, b->d2, UPC_ADD, NB, NB_B, NULL,
                                          f | UPC_IN_PLACE | UPC_ASYNC, b->on));
        same_array(b, es, (size_t)excl, "prefix D in place");
    }
    tupc_sptr_t on1 = tupc_index(
        b->d1, NB_B * (size_t)tupc_team_thread(b->on, 1 % tupc_team_size(b->on)), NB_B, double);
    tupc_sptr_t on2 = tupc_index(
        b->d2, NB_B * (size_t)tupc_team_thread(b->on, 1 % tupc_team_size(b->on)), NB_B, double);
    tupc_team_reduceD(on1, b->src, UPC_ADD, NB, NB_B, NULL, SYNC, b->same);
    upc_wait(tupc_team_reduceD(on2, b->src, UPC_ADD, NB, NB_B, NULL, SYNC | UPC_ASYNC, b->on));
    upc_barrier();
    TCHECK(!memcmp(on1.addr, on2.addr, es), "reduce D: %a asynchronous, %a blocking",
           *(double *)on2.addr, *(double *)on1.addr);
    tupc_team_reduce_allD(b->d1, b->src, UPC_ADD, NB, NB_B, NULL, SYNC, b->same);
    upc_wait(
        tupc_team_reduce_allD(b->d2, b->src, UPC_ADD, NB, NB_B, NULL, SYNC | UPC_ASYNC, b->on));
    same_each(b, es, es, "reduce_all D");
}

static void bits_others(const struct bits *b)
{
    fill(b, 1);
    upc_barrier();
    tupc_team_reduce_allLD(b->d1, b->src, UPC_ADD, NB, NB_B, NULL, SYNC, b->same);
    upc_wait(
        tupc_team_reduce_allLD(b->d2, b->src, UPC_ADD, NB, NB_B, NULL, SYNC | UPC_ASYNC, b->on));
    /* x87's long double: 10 bytes of value, the rest padding. */
    same_each(b, sizeof(long double), LDBL_MANT_DIG == 64 ? 10 : sizeof(long double),
              "reduce_all LD");
    fill(b, 2);
    upc_barrier();
    for (int mult = 0; mult < 2; mult++) {
        upc_op_t op = mult ? UPC_MULT : UPC_ADD;
        tupc_team_reduce_allDX(b->d1, b->src, op, NB, NB_B, NULL, SYNC, b->same);
        upc_wait(
            tupc_team_reduce_allDX(b->d2, b->src, op, NB, NB_B, NULL, SYNC | UPC_ASYNC, b->on));
        same_each(b, sizeof(double _Complex), sizeof(double _Complex),
                  mult ? "reduce_all DX MULT" : "reduce_all DX ADD");
    }
}

/* A non-commutative function: index order, against a serial fold. */
static void bits_noncomm(const struct bits *b)
{
    const size_t es = sizeof(long);
    fill(b, 3);
    upc_barrier();
    upc_coll_handle_t h[3];
    h[0] = tupc_team_prefix_reduceL(b->d2, b->src, UPC_NONCOMM_FUNC, NB, NB_B, matmul,
                                    SYNC | UPC_ASYNC | UPC_EXCLUSIVE_PREFIX_REDUCE, b->on);
    h[1] = UPC_HANDLE_COMPLETE;
    h[2] = tupc_team_reduce_allL(b->d1, b->src, UPC_NONCOMM_FUNC, NB, NB_B, matmul,
                                 SYNC | UPC_ASYNC, b->on);
    upc_waitall(3, h);
    upc_barrier();
    long acc = 0;
    for (size_t e = 0; e < NB; e++) {
        if (e && mine(b->d2, e, es))
            TCHECK(*(long *)elem(b->d2, e, es) == acc,
                   "exclusive prefix L, NONCOMM_FUNC, element %zu: %lx, expected %lx", e,
                   *(long *)elem(b->d2, e, es), acc);
        long v = *(long *)elem(b->src, e, es);
        acc = e ? matmul(acc, v) : v;
    }
    for (int r = 0; r < tupc_team_size(b->on); r++) {
        long got = *(long *)elem(b->d1, (size_t)tupc_team_thread(b->on, r) * NB_B, es);
        TCHECK(got == acc, "reduce_all L, NONCOMM_FUNC, rank %d: %lx, expected %lx", r, got, acc);
    }
    upc_barrier();
}

static int bits_program(void *arg)
{
    (void)arg;
    upc_team_t half, whole;
    tupc_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD, &half);
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &whole);
    size_t blocks = (NB + NB_B * THREADS - 1) / (NB_B * THREADS) * THREADS;
    const size_t big = NB_B * sizeof(long double _Complex);
    struct bits b;
    b.src = upc_all_alloc(blocks, big);
    /* The two halves' arrays: a team's prefix writes every thread's elements. */
    tupc_sptr_t d1[2] = {upc_all_alloc(blocks, big), upc_all_alloc(blocks, big)};
    tupc_sptr_t d2[2] = {upc_all_alloc(blocks, big), upc_all_alloc(blocks, big)};
    for (int pass = 0; pass < 2; pass++) {
        b.on = pass ? UPC_TEAM_ALL : half;
        b.same = pass ? whole : half;
        b.d1 = d1[pass ? 0 : MYTHREAD % 2];
        b.d2 = d2[pass ? 0 : MYTHREAD % 2];
        bits_double(&b);
        bits_others(&b);
        bits_noncomm(&b);
    }
    upc_barrier();
    tupc_team_free(&half);
    tupc_team_free(&whole);
    return 0;
}

static void test_bits(void **state)
{
    (void)state;
    for (int n = 1; n <= 5; n += 2)
        TT_RUN(n, bits_program, NULL);
}

/* ---- a member that computes after posting ----------------------------- */

static _Atomic int waits_done; /* threads other than 0 whose waits ended */

/* Thread 0, rank 0 of the team and so the one whose request holds the
 * reductions' job, posts a 1 MiB reduce_allL, a prefix and a 4 MiB
 * broadcast, then stays in user code until every other thread's waits
 * have ended: under OUT_MYSYNC they need thread 0's parts, so the work
 * must move without it. The 60 s bound is for a failure, not a timing. */
static int compute_program(void *arg)
{
    (void)arg;
    enum { NL = 1 << 17, BIG = 4 << 20 };
    tupc_sptr_t src = upc_all_alloc(THREADS, NL / THREADS * sizeof(long) + sizeof(long));
    tupc_sptr_t pre = upc_all_alloc(THREADS, NL / THREADS * sizeof(long) + sizeof(long));
    tupc_sptr_t all = upc_all_alloc(THREADS, sizeof(long));
    tupc_sptr_t S = upc_all_alloc(1, BIG), D = upc_all_alloc(THREADS, BIG);
    size_t B = NL / THREADS + 1;
    for (size_t e = 0; e < NL; e++)
        if ((int)tupc_index(src, e, B, long).thread == MYTHREAD)
            tupc_ref(src, e, B, long) = (long)(e % 1000) - 300;
    if (MYTHREAD == 0) {
        atomic_store(&waits_done, 0);
        for (size_t i = 0; i < BIG; i++)
            S.addr[i] = (char)(i * 13 + 5);
    }
    upc_barrier();
    const upc_flag_t f = UPC_IN_MYSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
    upc_coll_handle_t h[3] = {
        tupc_team_reduce_allL(all, src, UPC_ADD, NL, B, NULL, f, UPC_TEAM_ALL),
        tupc_team_prefix_reduceL(pre, src, UPC_ADD, NL, B, NULL, f, UPC_TEAM_ALL),
        tupc_team_broadcast(D, S, BIG, f, UPC_TEAM_ALL),
    };
    if (MYTHREAD == 0) {
        tt_compute_until(&waits_done, THREADS - 1);
        upc_waitall(3, h);
    } else {
        upc_waitall(3, h);
        atomic_fetch_add(&waits_done, 1);
    }
    long sum = 0;
    for (size_t e = 0; e < NL; e++) {
        sum += (long)(e % 1000) - 300;
        tupc_sptr_t p = tupc_index(pre, e, B, long);
        if ((int)p.thread == MYTHREAD && *(long *)p.addr != sum) {
            TCHECK(0, "prefix element %zu: %ld, expected %ld", e, *(long *)p.addr, sum);
            break;
        }
    }
    long got = tupc_ref(all, MYTHREAD, 1, long);
    TCHECK(got == sum, "reduce_all: %ld, expected %ld", got, sum);
    const char *d = tupc_index(D, (size_t)MYTHREAD * BIG, BIG, char).addr;
    for (size_t i = 0; i < BIG; i += 4093)
        TCHECK(d[i] == (char)(i * 13 + 5), "broadcast byte %zu is %d", i, d[i]);
    upc_barrier();
    return 0;
}

static void test_progress_while_computing(void **state)
{
    (void)state;
    for (int n = 2; n <= 3; n++)
        TT_RUN(n, compute_program, NULL);
}

/* ---- refusals ---------------------------------------------------------- */

static int misuse(void *arg)
{
    int how = *(int *)arg;
    tupc_sptr_t a = upc_all_alloc(THREADS, 8 * sizeof(long));
    upc_team_t team;
    tupc_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &team);
    if (how == 0) /* a 1.3 function returns no handle */
        upc_all_reduceL(a, a, UPC_ADD, 8, 8, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC | UPC_ASYNC);
    else if (how == 1) /* the team freed with a posted call outstanding */
        (void)tupc_team_reduce_allL(a, a, UPC_ADD, 8, 8, NULL,
                                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, team);
    else if (how == 2) /* returned with a posted call outstanding */
        (void)tupc_team_broadcast(a, a, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC,
                                  UPC_TEAM_ALL);
    if (how != 2)
        tupc_team_free(&team);
    return 0;
}

static void test_refusals(void **state)
{
    (void)state;
    static const int how[3] = {0, 1, 2};
    tt_expect_error(2, misuse, (void *)&how[0], "upc_all_reduceL", "UPC_ASYNC", "tupc_team_reduceL",
                    NULL);
    tt_expect_error(2, misuse, (void *)&how[1], "tupc_team_free", "outstanding",
                    "tupc_team_reduce_allL", NULL);
    tt_expect_error(2, misuse, (void *)&how[2], "returned with 1 asynchronous",
                    "tupc_team_broadcast", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chains),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_progress_while_computing),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
