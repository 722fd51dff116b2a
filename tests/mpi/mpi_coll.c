/* The collectives of UPC 1.3 across processes (mpi/hier*.c): each
 * relocalization at several sizes and sync modes, every byte of every
 * thread's part of dst checked against the spec, with guard bytes around
 * each block that must keep their fill; under IN_ALLSYNC the source is put
 * just before the call by a thread of another process (T / 2 away), under
 * IN_MYSYNC written by its owner just before. The reductions and prefix
 * reductions of several types, operators (UPC_FUNC, and UPC_NONCOMM_FUNC
 * with a product of 2x2 matrices, which does not commute), block sizes and
 * start threads, against an oracle that every thread computes serially. */
#include "check.h"
#include "oracle.h"
#include "verbs.h"

#include <string.h>
#include <unistd.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#define G 8       /* guard bytes before and after each area */
#define FILL 0xEE /* what guards and untouched dst bytes hold */

static const upc_flag_t modes[] = {
    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
    UPC_IN_NOSYNC | UPC_OUT_NOSYNC,   UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,
    UPC_IN_NOSYNC | UPC_OUT_MYSYNC,   UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
};
#define NMODES (int)(sizeof modes / sizeof modes[0])

/* Byte k of thread t's source area in round r. */
static unsigned char S(int t, size_t k, int r)
{
    return (unsigned char)(t * 37 + k * 11 + (k >> 8) + r * 53 + 1);
}

struct call {
    enum verb v;
    size_t nb;
    int root, shift, r; /* the root thread, perm's shift (perm_of) */
    size_t slen, dlen;  /* source and dst area of each (or the root's) thread */
    int src_all, dst_all;
};

/* A permute's target of thread i: a shift, reversed in odd rounds, so that
 * the blocks one process sends another go to its threads in either order. */
static int perm_of(const struct call *c, int i)
{
    int T = THREADS;
    return c->r % 2 ? (T - 1 - i + c->shift) % T : (i + c->shift) % T;
}
/* The thread whose block thread t gets. */
static int perm_from(const struct call *c, int t)
{
    int T = THREADS;
    return c->r % 2 ? (T - 1 - t + c->shift) % T : ((t - c->shift) % T + T) % T;
}

/* The expected byte k of thread t's dst area, or -1 where it keeps FILL. */
static int expect(const struct call *c, int t, size_t k)
{
    size_t nb = c->nb, j = k / nb, o = k % nb;
    switch (c->v) {
    case BROADCAST:
        return S(c->root, k, c->r);
    case SCATTER:
        return S(c->root, (size_t)t * nb + k, c->r);
    case GATHER:
        return t == c->root ? S((int)j, o, c->r) : -1;
    case GATHER_ALL:
        return S((int)j, o, c->r);
    case EXCHANGE:
    case EXCHANGE_IN_PLACE:
        return S((int)j, (size_t)t * nb + o, c->r);
    case PERMUTE:
    case PERMUTE_IN_PLACE:
        return S(perm_from(c, t), k, c->r);
    default:
        return -1;
    }
}

/* Area of thread t in an allocation of blocks of G + len + G bytes. */
static tupc_sptr_t area(tupc_sptr_t base, size_t len, int t)
{
    return tupc_ptr_add(base, (ptrdiff_t)((size_t)t * (len + 2 * G) + G), len + 2 * G, 1);
}

/* Thread me checks its own dst block, guards included. */
static void check_dst(const struct call *c, tupc_sptr_t dbase, unsigned char *buf)
{
    int me = MYTHREAD;
    size_t bs = c->dlen + 2 * G;
    upc_memget(buf, tupc_ptr_add(dbase, (ptrdiff_t)((size_t)me * bs), bs, 1), bs);
    for (size_t x = 0; x < bs; x++) {
        int want =
            x < G || x >= G + c->dlen || (!c->dst_all && me != c->root) ? -1 : expect(c, me, x - G);
        if (want < 0)
            want = FILL;
        if (buf[x] != want) {
            fprintf(stderr, "%s nbytes %zu round %d: thread %d byte %zu is %d, expected %d\n",
                    names[c->v], c->nb, c->r, me, x, buf[x], want);
            CHECK(0);
        }
    }
}

/* The source of thread t, written as the sync mode allows just before the
 * call: by a thread of another process under IN_ALLSYNC, by t otherwise. */
static void write_src(const struct call *c, tupc_sptr_t sbase, upc_flag_t flags, unsigned char *buf)
{
    int T = THREADS, me = MYTHREAD;
    for (int t = 0; t < T; t++) {
        if (!c->src_all && t != c->root)
            continue;
        int writer = (flags & UPC_IN_ALLSYNC) ? (t + T / 2) % T : t;
        if (writer != me)
            continue;
        for (size_t k = 0; k < c->slen; k++)
            buf[k] = S(t, k, c->r);
        upc_memput(area(sbase, c->slen, t), buf, c->slen);
    }
}

static void run(enum verb v, size_t nb, int r, upc_flag_t flags, unsigned char *buf)
{
    int T = THREADS, me = MYTHREAD;
    struct call c = {v, nb, (r * 3 + 1) % T, r % T + 1, r, nb, nb, 1, 1};
    if (v == SCATTER)
        c.slen = (size_t)T * nb, c.src_all = 0;
    if (v == BROADCAST)
        c.src_all = 0;
    if (v == GATHER)
        c.dlen = (size_t)T * nb, c.dst_all = 0;
    if (v == GATHER_ALL)
        c.dlen = (size_t)T * nb;
    if (v == EXCHANGE || v == EXCHANGE_IN_PLACE)
        c.slen = c.dlen = (size_t)T * nb;
    tupc_sptr_t sbase = upc_all_alloc((size_t)T, c.slen + 2 * G);
    tupc_sptr_t dbase = upc_all_alloc((size_t)T, c.dlen + 2 * G);
    tupc_sptr_t perm = upc_all_alloc((size_t)T, sizeof(int));
    if (v == EXCHANGE_IN_PLACE || v == PERMUTE_IN_PLACE)
        sbase = dbase; /* the source is dst's area */
    /* Fill my dst block, then (at the latest) everyone's before anyone
     * writes a source. */
    memset(buf, FILL, c.dlen + 2 * G);
    upc_memput(tupc_ptr_add(dbase, (ptrdiff_t)((size_t)me * (c.dlen + 2 * G)), c.dlen + 2 * G, 1),
               buf, c.dlen + 2 * G);
    tupc_put_int(tupc_index(perm, me, 1, int), perm_of(&c, me));
    upc_barrier();
    write_src(&c, sbase, flags, buf);
    if (flags & UPC_IN_NOSYNC)
        upc_barrier();
    tupc_sptr_t d = area(dbase, c.dlen, 0), s = area(sbase, c.slen, c.src_all ? 0 : c.root);
    switch (v) {
    case BROADCAST:
        upc_all_broadcast(d, s, nb, flags);
        break;
    case SCATTER:
        upc_all_scatter(d, s, nb, flags);
        break;
    case GATHER:
        d = area(dbase, c.dlen, c.root);
        upc_all_gather(d, s, nb, flags);
        break;
    case GATHER_ALL:
        upc_all_gather_all(d, s, nb, flags);
        break;
    case EXCHANGE:
        upc_all_exchange(d, s, nb, flags);
        break;
    case EXCHANGE_IN_PLACE:
        upc_all_exchange(d, d, nb, flags | UPC_IN_PLACE);
        break;
    case PERMUTE:
        upc_all_permute(d, s, perm, nb, flags);
        break;
    case PERMUTE_IN_PLACE:
        upc_all_permute(d, UPC_IN_PLACE, perm, nb, flags);
        break;
    default:
        break;
    }
    /* OUT_MYSYNC and OUT_ALLSYNC: my own dst is complete when I return. */
    if (!(flags & UPC_OUT_NOSYNC))
        check_dst(&c, dbase, buf);
    upc_barrier();
    check_dst(&c, dbase, buf);
    upc_barrier();
    upc_all_free(perm);
    upc_all_free(dbase);
    if (v != EXCHANGE_IN_PLACE && v != PERMUTE_IN_PLACE)
        upc_all_free(sbase);
}

/* ---- Reductions ---------------------------------------------------------- */

/* x -> m x + c mod 251, packed (m, c) in an int: composition, a before b. */
static int aff(int a, int b)
{
    int ma = a >> 8, ca = a & 0xff, mb = b >> 8, cb = b & 0xff;
    return (ma * mb % 251) << 8 | (mb * ca + cb) % 251;
}
/* An array of n elements of es bytes, shared [B], from element `off` of
 * its allocation; fills element i with v(i) as the sync mode allows. */
struct arr {
    tupc_sptr_t base, p;
    size_t n, B, es;
};

static struct arr arr_alloc(size_t n, size_t B, size_t es, size_t off)
{
    int T = THREADS;
    struct arr a = {{0}, {0}, n, B, es};
    size_t total = n + off + (B ? B * (size_t)T : 0);
    /* upc_all_alloc(nblocks, B * es): block k on thread k % THREADS, the
     * layout of shared [B] TYPE; B == 0: all on thread 0. */
    if (B == 0)
        a.base = upc_all_alloc(1, total * es);
    else
        a.base = upc_all_alloc((total + B - 1) / B, B * es);
    a.p = tupc_ptr_add(a.base, (ptrdiff_t)off, B, es);
    return a;
}

static tupc_sptr_t arr_at(const struct arr *a, size_t i)
{
    return tupc_ptr_add(a->p, (ptrdiff_t)i, a->B, a->es);
}

/* Every element of the allocation with my affinity set to FILL bytes. */
static void arr_fill(const struct arr *a, size_t off)
{
    int me = MYTHREAD;
    size_t total = a->n + off + (a->B ? a->B * (size_t)THREADS : 0);
    unsigned char f[16];
    memset(f, FILL, sizeof f);
    tupc_sptr_t e0 = tupc_ptr_add(a->p, -(ptrdiff_t)off, a->B, a->es);
    for (size_t i = 0; i < total; i++) {
        tupc_sptr_t e = tupc_ptr_add(e0, (ptrdiff_t)i, a->B, a->es);
        if ((int)upc_threadof(e) == me)
            upc_memput(e, f, a->es);
    }
}

static void red_long(size_t n, size_t B, size_t off, int r, upc_op_t op, upc_flag_t flags)
{
    int T = THREADS, me = MYTHREAD;
    struct arr a = arr_alloc(n, B, sizeof(long), off);
    struct arr d = arr_alloc(n, B, sizeof(long), off);
    tupc_sptr_t one = upc_all_alloc((size_t)T, 3 * sizeof(long));
    int root = (r * 5 + 2) % T;
    tupc_sptr_t dst = tupc_ptr_add(one, (ptrdiff_t)(root * 3 + 1), 3, sizeof(long));
    arr_fill(&d, off);
    if (me == root)
        for (int k = 0; k < 3; k++)
            tupc_put_long(tupc_ptr_add(one, (ptrdiff_t)(root * 3 + k), 3, sizeof(long)), -7);
    upc_barrier();
    for (size_t i = 0; i < n; i++) { /* the source, as write_src does */
        tupc_sptr_t e = arr_at(&a, i);
        int t = (int)upc_threadof(e);
        if (((flags & UPC_IN_ALLSYNC) ? (t + T / 2) % T : t) == me)
            tupc_put_long(e, val_l(i, r, op));
    }
    if (flags & UPC_IN_NOSYNC)
        upc_barrier();
    long (*fn)(long, long) = op == UPC_FUNC ? add_l : mat_mul;
    upc_all_reduceL(dst, a.p, op, n, B, op & (UPC_FUNC | UPC_NONCOMM_FUNC) ? fn : NULL, flags);
    if (B) /* an indefinite layout: the reduction only */
        upc_all_prefix_reduceL(d.p, a.p, op, n, B, op & (UPC_FUNC | UPC_NONCOMM_FUNC) ? fn : NULL,
                               flags);
    upc_barrier();
    long acc = 0;
    for (size_t i = 0; i < n; i++) { /* my elements of the prefix */
        acc = i == 0 ? val_l(0, r, op) : oper_l(op, acc, val_l(i, r, op));
        tupc_sptr_t e = arr_at(&d, i);
        long got = acc;
        if (B && (int)upc_threadof(e) == me)
            got = tupc_get_long(e);
        if (got != acc) {
            fprintf(stderr, "prefix_reduceL op %d n %zu B %zu off %zu: [%zu] %ld, expected %ld\n",
                    (int)op, n, B, off, i, got, acc);
            CHECK(0);
        }
    }
    long fill;
    memset(&fill, FILL, sizeof fill);
    if (B) { /* elements around the prefix's dst */
        if (off)
            CHECK(tupc_get_long(arr_at(&d, (size_t)-1)) == fill);
        CHECK(tupc_get_long(arr_at(&d, n)) == fill);
    }
    long got = tupc_get_long(dst);
    if (got != (n ? acc : -7)) {
        fprintf(stderr, "reduceL op %d n %zu B %zu off %zu flags %#x: %ld, expected %ld\n", (int)op,
                n, B, off, (unsigned)flags, got, acc);
        CHECK(0);
    }
    CHECK(tupc_get_long(tupc_ptr_add(one, (ptrdiff_t)(root * 3), 3, sizeof(long))) == -7);
    CHECK(tupc_get_long(tupc_ptr_add(one, (ptrdiff_t)(root * 3 + 2), 3, sizeof(long))) == -7);
    upc_barrier();
    upc_all_free(one);
    upc_all_free(d.base);
    upc_all_free(a.base);
}

/* The prefix reduction's extensions across processes (mpi/hier_prefix.c):
 * exclusive (UPC_EXCLUSIVE_PREFIX_REDUCE: element 0 keeps what dst held)
 * and in place (UPC_IN_PLACE: dst is src), every element of mine against
 * the serial oracle, the elements around dst untouched. */
static void prefix_x(size_t n, size_t B, size_t off, int r, upc_op_t op, upc_flag_t extra)
{
    const int me = MYTHREAD;
    const int in_place = (extra & UPC_IN_PLACE) != 0,
              excl = (extra & UPC_EXCLUSIVE_PREFIX_REDUCE) != 0;
    struct arr a = arr_alloc(n, B, sizeof(long), off);
    struct arr d = in_place ? a : arr_alloc(n, B, sizeof(long), off);
    arr_fill(&a, off);
    if (!in_place)
        arr_fill(&d, off);
    upc_barrier();
    for (size_t i = 0; i < n; i++)
        if ((int)upc_threadof(arr_at(&a, i)) == me)
            tupc_put_long(arr_at(&a, i), val_l(i, r, op));
    long (*fn)(long, long) = op == UPC_FUNC ? add_l : mat_mul;
    upc_all_prefix_reduceL(d.p, a.p, op, n, B, op & (UPC_FUNC | UPC_NONCOMM_FUNC) ? fn : NULL,
                           UPC_IN_MYSYNC | UPC_OUT_MYSYNC | extra);
    upc_barrier();
    long fill;
    memset(&fill, FILL, sizeof fill);
    long acc = 0;
    for (size_t i = 0; i < n; i++) {
        long want = excl ? (i == 0 ? (in_place ? val_l(0, r, op) : fill) : acc) : 0;
        acc = i == 0 ? val_l(0, r, op) : oper_l(op, acc, val_l(i, r, op));
        if (!excl)
            want = acc;
        tupc_sptr_t e = arr_at(&d, i);
        if ((int)upc_threadof(e) == me && tupc_get_long(e) != want) {
            fprintf(stderr, "prefix_x op %d n %zu B %zu off %zu%s%s: [%zu] %ld, expected %ld\n",
                    (int)op, n, B, off, excl ? " exclusive" : "", in_place ? " in place" : "", i,
                    tupc_get_long(e), want);
            CHECK(0);
        }
    }
    if (off)
        CHECK(tupc_get_long(arr_at(&d, (size_t)-1)) == fill);
    CHECK(tupc_get_long(arr_at(&d, n)) == fill);
    upc_barrier();
    if (!in_place)
        upc_all_free(d.base);
    upc_all_free(a.base);
}

/* Other types: a reduction and a prefix of each, against the same oracle
 * computed here. */
#define RED_TYPE(T_, TYPE, OP, EXPR, VAL)                                                          \
    static void red_##T_##_##OP(size_t n, size_t B, size_t off, int r)                             \
    {                                                                                              \
        int T = THREADS, me = MYTHREAD;                                                            \
        (void)r;                                                                                   \
        struct arr a = arr_alloc(n, B, sizeof(TYPE), off);                                         \
        struct arr d = arr_alloc(n, B, sizeof(TYPE), off);                                         \
        tupc_sptr_t one = upc_all_alloc(1, sizeof(TYPE));                                          \
        for (size_t i = 0; i < n; i++) {                                                           \
            tupc_sptr_t e = arr_at(&a, i);                                                         \
            if ((int)upc_threadof(e) == (me + T / 2) % T) {                                        \
                TYPE v = (VAL);                                                                    \
                upc_memput(e, &v, sizeof v);                                                       \
            }                                                                                      \
        }                                                                                          \
        upc_all_reduce##T_(one, a.p, UPC_##OP, n, B, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);      \
        upc_all_prefix_reduce##T_(d.p, a.p, UPC_##OP, n, B, NULL,                                  \
                                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);                               \
        TYPE acc = 0, got;                                                                         \
        for (size_t i = 0; i < n; i++) {                                                           \
            TYPE v = (VAL), a_ = acc, b_ = v;                                                      \
            acc = i == 0 ? v : (TYPE)(EXPR);                                                       \
            (void)a_, (void)b_;                                                                    \
            if ((int)upc_threadof(arr_at(&d, i)) == me) {                                          \
                upc_memget(&got, arr_at(&d, i), sizeof got);                                       \
                CHECK(got == acc);                                                                 \
            }                                                                                      \
        }                                                                                          \
        upc_memget(&got, one, sizeof got);                                                         \
        CHECK(got == acc);                                                                         \
        upc_barrier();                                                                             \
        upc_all_free(one);                                                                         \
        upc_all_free(d.base);                                                                      \
        upc_all_free(a.base);                                                                      \
    }
RED_TYPE(D, double, ADD, a_ + b_, (double)((i * 37 + (size_t)r) % 1001) - 500.0)
RED_TYPE(D, double, MAX, b_ > a_ ? b_ : a_, (double)((i * 37 + (size_t)r) % 1001) - 500.0)
RED_TYPE(UC, unsigned char, ADD, a_ + b_, (unsigned char)(i * 7 + (size_t)r))
RED_TYPE(UC, unsigned char, XOR, a_ ^ b_, (unsigned char)(i * 13 + (size_t)r))
RED_TYPE(LD, long double, ADD, a_ + b_, (long double)(i % 17) * 0.5L)
RED_TYPE(F, float, MIN, b_ < a_ ? b_ : a_, (float)((i * 29 + (size_t)r) % 97))
RED_TYPE(US, unsigned short, OR, a_ | b_, (unsigned short)(1u << (i % 16)))

/* UPC_NONCOMM_FUNC on int: affine maps composed in index order. */
static void red_int(size_t n, size_t B, size_t off, int r)
{
    int me = MYTHREAD;
    struct arr a = arr_alloc(n, B, sizeof(int), off);
    struct arr d = arr_alloc(n, B, sizeof(int), off);
    tupc_sptr_t one = upc_all_alloc(1, sizeof(int));
    for (size_t i = 0; i < n; i++) {
        tupc_sptr_t e = arr_at(&a, i);
        if ((int)upc_threadof(e) == me) /* IN_MYSYNC: the owner, just before */
            tupc_put_int(e, (int)((i * 3 + (size_t)r) % 250 + 1) << 8 | (int)((i * 7) % 251));
    }
    upc_all_reduceI(one, a.p, UPC_NONCOMM_FUNC, n, B, aff, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    upc_all_prefix_reduceI(d.p, a.p, UPC_NONCOMM_FUNC, n, B, aff, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC);
    int acc = 0;
    for (size_t i = 0; i < n; i++) {
        int v = (int)((i * 3 + (size_t)r) % 250 + 1) << 8 | (int)((i * 7) % 251);
        acc = i == 0 ? v : aff(acc, v);
        if ((int)upc_threadof(arr_at(&d, i)) == me)
            CHECK(tupc_get_int(arr_at(&d, i)) == acc);
    }
    CHECK(tupc_get_int(one) == acc);
    upc_barrier();
    upc_all_free(one);
    upc_all_free(d.base);
    upc_all_free(a.base);
}

/* Odd threads fall behind before each call of a chain (not a timing: a
 * perturbation), so that a leader that runs ahead reuses its buffers
 * while they still read: a leader that did not wait for them overwrites
 * what they have still to copy. */
static void lag(void)
{
    if (MYTHREAD % 2 == 1)
        usleep(300);
}

/* Calls back to back (mpi/hier.c): `k` broadcasts from a root that moves
 * from call to call, each into its own dst area, then `k` reductions of
 * their own data to a dst thread that moves too, in one sync mode; then
 * every byte and every result is checked. Under IN_NOSYNC every source is
 * written before a barrier, and under OUT_NOSYNC nothing is read before
 * the barrier after the chain; more calls than the leader's slots (8), so
 * that a slot is reused while threads may still be behind, and a size past
 * the slots (1 MiB) that goes through the leader's own dst block. */
static void chain(size_t nb, int k, upc_flag_t flags, int r)
{
    const int T = THREADS, me = MYTHREAD;
    tupc_sptr_t src = upc_all_alloc((size_t)T, nb * (size_t)k);
    tupc_sptr_t dst = upc_all_alloc((size_t)T, nb * (size_t)k);
    tupc_sptr_t rsrc = upc_all_alloc((size_t)T, sizeof(long) * (size_t)k);
    tupc_sptr_t rdst = upc_all_alloc((size_t)T, sizeof(long) * (size_t)k);
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst) && !tupc_isnull(rsrc) && !tupc_isnull(rdst));
    unsigned char *mine = (unsigned char *)src.addr + (size_t)me * tupc_impl_partition_size;
    long *rmine = (long *)(rsrc.addr + (size_t)me * tupc_impl_partition_size);
    for (int i = 0; i < k; i++) {
        for (size_t b = 0; b < nb; b++)
            mine[(size_t)i * nb + b] = S(me, b, r + i);
        rmine[i] = (long)(me + 1) * (r + i + 1);
    }
    upc_barrier();
    for (int i = 0; i < k; i++) {
        lag();
        int root = (i * 5 + r) % T;
        tupc_sptr_t s = tupc_ptr_add(
            src, (ptrdiff_t)((size_t)root * nb * (size_t)k + (size_t)i * nb), nb * (size_t)k, 1);
        tupc_sptr_t d = tupc_ptr_add(dst, (ptrdiff_t)((size_t)i * nb), nb * (size_t)k, 1);
        upc_all_broadcast(d, s, nb, flags);
    }
    for (int i = 0; i < k; i++) {
        lag();
        /* Element i of each thread's block: with block size 1 from thread
         * 0's, element t is thread t's (the same offset everywhere). */
        tupc_sptr_t s1 = rsrc, d = rdst;
        s1.addr += (size_t)i * sizeof(long);
        s1.phase = 0;
        int to = (i * 3 + r + 1) % T;
        d.thread = (unsigned)to;
        d.addr += (size_t)to * tupc_impl_partition_size + (size_t)i * sizeof(long);
        d.phase = 0;
        upc_all_reduceL(d, s1, UPC_ADD, (size_t)T, 1, NULL, flags);
    }
    upc_barrier();
    const unsigned char *got =
        (const unsigned char *)dst.addr + (size_t)me * tupc_impl_partition_size;
    for (int i = 0; i < k; i++) {
        int root = (i * 5 + r) % T;
        for (size_t b = 0; b < nb; b++)
            if (got[(size_t)i * nb + b] != S(root, b, r + i)) {
                fprintf(stderr,
                        "chain: broadcast %d of %d (%zu bytes, flags %#x): byte %zu of "
                        "thread %d is %d, expected %d\n",
                        i, k, nb, (unsigned)flags, b, me, got[(size_t)i * nb + b],
                        S(root, b, r + i));
                CHECK(0);
            }
        int to = (i * 3 + r + 1) % T;
        if (to == me) {
            long want = 0;
            for (int t = 0; t < T; t++)
                want += (long)(t + 1) * (r + i + 1);
            long v = ((const long *)(rdst.addr + (size_t)me * tupc_impl_partition_size))[i];
            if (v != want) {
                fprintf(stderr,
                        "chain: reduction %d of %d (flags %#x) on thread %d: %ld, "
                        "expected %ld\n",
                        i, k, (unsigned)flags, me, v, want);
                CHECK(0);
            }
        }
    }
    upc_barrier();
    upc_all_free(rdst);
    upc_all_free(rsrc);
    upc_all_free(dst);
    upc_all_free(src);
}

/* k gathers of nb bytes per thread back to back under IN_MYSYNC |
 * OUT_MYSYNC, the root moving every 16 calls (so that the others may run
 * ahead of it and of their leaders), each thread rewriting
 * its one src block right before each call and right after it returns
 * (OUT_MYSYNC: its src is no longer read), each call into an area of its
 * own; then every byte of every area. Small blocks go through each
 * thread's slots (mpi/hier_reloc.c), whose reuse a thread that runs ahead
 * of its leader exercises. */
static void gather_chain(size_t nb, int k, int r)
{
    const int T = THREADS, me = MYTHREAD;
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    const size_t row = (size_t)T * nb;
    tupc_sptr_t src = upc_all_alloc((size_t)T, nb), dst = upc_all_alloc((size_t)T, row * (size_t)k);
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst));
    memset(part(dst, me, 0), FILL, row * (size_t)k);
    upc_barrier();
    for (int i = 0; i < k; i++) {
        for (size_t b = 0; b < nb; b++)
            part(src, me, 0)[b] = S(me, b, r + i);
        /* Call i's area: row i of the root's dst, every thread's block. */
        tupc_sptr_t d =
            tupc_ptr_add(dst, (ptrdiff_t)((size_t)(i / 16 % T) * row * (size_t)k + (size_t)i * row),
                         row * (size_t)k, 1);
        upc_all_gather(d, src, nb, my);
        memset(part(src, me, 0), 0, nb);
    }
    upc_barrier();
    for (int i = 0; i < k; i++) {
        if (i / 16 % T != me)
            continue;
        const unsigned char *got = part(dst, me, (size_t)i * row);
        for (int t = 0; t < T; t++)
            for (size_t b = 0; b < nb; b++)
                if (got[(size_t)t * nb + b] != S(t, b, r + i)) {
                    fprintf(stderr,
                            "gather chain nbytes %zu call %d: block of thread %d byte %zu "
                            "is %d, expected %d\n",
                            nb, i, t, b, got[(size_t)t * nb + b], S(t, b, r + i));
                    CHECK(0);
                }
    }
    upc_barrier();
    upc_all_free(dst);
    upc_all_free(src);
}

/* The same for the other relocalizations that move data through the
 * leaders' buffers: k calls each of exchange, gather_all, scatter and
 * gather, back to back, each with its own data and dst, the roots moving;
 * then every byte is checked. */
static void chain_reloc(size_t nb, int k, upc_flag_t flags, int r)
{
    const int T = THREADS, me = MYTHREAD;
    const size_t row = (size_t)T * nb, len = row * (size_t)k;
    tupc_sptr_t sx = upc_all_alloc((size_t)T, len), dx = upc_all_alloc((size_t)T, len);
    tupc_sptr_t sg = upc_all_alloc((size_t)T, len), dg = upc_all_alloc((size_t)T, len);
    tupc_sptr_t ds = upc_all_alloc((size_t)T, len), dgg = upc_all_alloc((size_t)T, len);
    CHECK(!tupc_isnull(sx) && !tupc_isnull(dx) && !tupc_isnull(sg) && !tupc_isnull(dg) &&
          !tupc_isnull(ds) && !tupc_isnull(dgg));
    for (int i = 0; i < k; i++)
        for (int j = 0; j < T; j++)
            for (size_t b = 0; b < nb; b++) {
                part(sx, me, (size_t)i * row)[(size_t)j * nb + b] = S(me * 7 + j, b, r + i);
                if (j == 0)
                    part(sg, me, (size_t)i * nb)[b] = S(me * 7 + 100, b, r + i);
            }
    upc_barrier();
    for (int i = 0; i < k; i++) {
        lag();
        upc_all_exchange(at(dx, 0, (size_t)i * row), at(sx, 0, (size_t)i * row), nb, flags);
        upc_all_gather_all(at(dg, 0, (size_t)i * row), at(sg, 0, (size_t)i * nb), nb, flags);
        int sroot = (i * 3 + r) % T, groot = (i * 5 + r + 2) % T;
        upc_all_scatter(at(ds, 0, (size_t)i * nb), at(sx, sroot, (size_t)i * row), nb, flags);
        upc_all_gather(at(dgg, groot, (size_t)i * row), at(sg, 0, (size_t)i * nb), nb, flags);
    }
    upc_barrier();
    for (int i = 0; i < k; i++) {
        int sroot = (i * 3 + r) % T, groot = (i * 5 + r + 2) % T;
        for (int j = 0; j < T; j++)
            for (size_t b = 0; b < nb; b++) {
                size_t o = (size_t)i * row + (size_t)j * nb + b;
                int bad = part(dx, me, 0)[o] != S(j * 7 + me, b, r + i)                    ? 1
                          : part(dg, me, 0)[o] != S(j * 7 + 100, b, r + i)                 ? 2
                          : me == groot && part(dgg, me, 0)[o] != S(j * 7 + 100, b, r + i) ? 4
                          : j == 0 && part(ds, me, (size_t)i * nb)[b] != S(sroot * 7 + me, b, r + i)
                              ? 3
                              : 0;
                if (bad) {
                    fprintf(stderr,
                            "chain_reloc: %s %d of %d (%zu bytes, flags %#x): thread %d, "
                            "block %d, byte %zu wrong\n",
                            bad == 1   ? "exchange"
                            : bad == 2 ? "gather_all"
                            : bad == 3 ? "scatter"
                                       : "gather",
                            i, k, nb, (unsigned)flags, me, j, b);
                    CHECK(0);
                }
            }
    }
    upc_barrier();
    upc_all_free(dgg);
    upc_all_free(ds);
    upc_all_free(dg);
    upc_all_free(sg);
    upc_all_free(dx);
    upc_all_free(sx);
}

/* Calls whose paths need no thread to wait for the leader (with one thread
 * per process: gather_all and exchange in place of the leader's buffers),
 * more of them than the leader's slots, then reductions, which wait for
 * the leader's count of calls: it must have counted those too (it had
 * not, and the first reduction after 200 exchanges hung at 4 x 1). */
static void many_then_reduce(int r)
{
    const int T = THREADS, me = MYTHREAD;
    tupc_sptr_t a = upc_all_alloc((size_t)T, 8 * (size_t)T);
    tupc_sptr_t d = upc_all_alloc((size_t)T, 8 * (size_t)T);
    tupc_sptr_t v = upc_all_alloc((size_t)T, sizeof(long));
    tupc_sptr_t one = upc_all_alloc(1, sizeof(long));
    CHECK(!tupc_isnull(a) && !tupc_isnull(d) && !tupc_isnull(v) && !tupc_isnull(one));
    *(long *)part(v, me, 0) = me + r;
    upc_barrier();
    const upc_flag_t no = UPC_IN_NOSYNC | UPC_OUT_NOSYNC;
    for (int i = 0; i < 12; i++) {
        upc_all_gather_all(d, a, 8, no);
        upc_all_exchange(d, a, 8, no);
    }
    for (int i = 0; i < 3; i++)
        upc_all_reduceL(one, v, UPC_ADD, (size_t)T, 1, NULL, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    if (me == 0) {
        long want = 0;
        for (int t = 0; t < T; t++)
            want += t + r;
        CHECK(*(long *)one.addr == want);
    }
    upc_barrier();
    upc_all_free(one);
    upc_all_free(v);
    upc_all_free(d);
    upc_all_free(a);
}

/* upc_all_reduce_allL and _allD across processes (mpi/hier_prefix.c): every
 * dst[i] against the serial oracle (longs), and every thread's double the
 * same bits as thread 0's (Extended Collectives 0.3 5.5.1 footnote 7), with
 * values whose sum depends on the order of the additions. */
/* A gather under OUT_MYSYNC returns once the caller's src is read, and
 * not before: each thread overwrites its src as soon as the call returns,
 * and every root's dst must hold the blocks as they were at entry. The
 * even threads (each process's leader, at 2 threads per process) come
 * late and copy their own block first, so the others wait in the call
 * while the leader reads theirs. */
static void gather_overwrite(int r)
{
    const int T = THREADS, me = MYTHREAD;
    const size_t nb = (size_t)256 << 10;
    tupc_sptr_t src = upc_all_alloc((size_t)T, nb), dst = upc_all_alloc((size_t)T, (size_t)T * nb);
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst));
    unsigned char *mine = (unsigned char *)src.addr + (size_t)me * tupc_impl_partition_size;
    upc_barrier();
    for (int i = 0; i < T; i++) {
        for (size_t b = 0; b < nb; b++)
            mine[b] = S(me, b, r + i);
        if (me % 2 == 0)
            usleep(300);
        tupc_sptr_t d = dst;
        d.thread = (unsigned)i;
        d.addr += (size_t)i * tupc_impl_partition_size;
        upc_all_gather(d, src, nb, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        memset(mine, 0xEE, nb);
    }
    upc_barrier();
    const unsigned char *got =
        (const unsigned char *)dst.addr + (size_t)me * tupc_impl_partition_size;
    for (int t = 0; t < T; t++)
        for (size_t b = 0; b < nb; b++)
            if (got[(size_t)t * nb + b] != S(t, b, r + me)) {
                fprintf(stderr,
                        "gather_overwrite: root %d: byte %zu of thread %d's block is %d, "
                        "expected %d\n",
                        me, b, t, got[(size_t)t * nb + b], S(t, b, r + me));
                CHECK(0);
            }
    upc_barrier();
    upc_all_free(dst);
    upc_all_free(src);
}

static void red_all(size_t n, size_t B, size_t off, int r, upc_op_t op, upc_flag_t flags)
{
    const int T = THREADS, me = MYTHREAD;
    struct arr a = arr_alloc(n, B, sizeof(long), off), x = arr_alloc(n, B, sizeof(double), off);
    tupc_sptr_t dl = upc_all_alloc((size_t)T, sizeof(long));
    tupc_sptr_t dd = upc_all_alloc((size_t)T, sizeof(double));
    for (size_t i = 0; i < n; i++) {
        if ((int)upc_threadof(arr_at(&a, i)) != me)
            continue;
        tupc_put_long(arr_at(&a, i), val_l(i, r, op));
        double v = (i % 3 == 0 ? 1e16 : 1.0) * (double)(i % 7 + 1) * (i % 2 ? -1 : 1);
        upc_memput(arr_at(&x, i), &v, sizeof v);
    }
    upc_barrier();
    long (*fn)(long, long) = op == UPC_FUNC ? add_l : mat_mul;
    upc_all_reduce_allL(dl, a.p, op, n, B, op & (UPC_FUNC | UPC_NONCOMM_FUNC) ? fn : NULL, flags);
    upc_all_reduce_allD(dd, x.p, UPC_ADD, n, B, NULL, flags);
    upc_barrier();
    long acc = 0;
    for (size_t i = 0; i < n; i++)
        acc = i == 0 ? val_l(0, r, op) : oper_l(op, acc, val_l(i, r, op));
    long got = *(const long *)part(dl, me, 0);
    if (n && got != acc) {
        fprintf(stderr,
                "reduce_allL op %d n %zu B %zu off %zu flags %#x: thread %d has %ld, "
                "expected %ld\n",
                (int)op, n, B, off, (unsigned)flags, me, got, acc);
        CHECK(0);
    }
    double mine = *(const double *)part(dd, me, 0), first;
    upc_memget(&first, dd, sizeof first);
    CHECK(memcmp(&mine, &first, sizeof mine) == 0);
    upc_barrier();
    upc_all_free(dd);
    upc_all_free(dl);
    upc_all_free(x.base);
    upc_all_free(a.base);
}

/* Byte k of call c's src block of thread i. */
static unsigned char perm_byte(int c, int i, size_t k)
{
    return (unsigned char)(c * 31 + i * 7 + (int)(k % 251));
}

/* Permutes while a posted one is in flight: post A, then blocking B with
 * A's pairs of threads and C with others, then post D before A is waited
 * for. Each call's blocks travel as messages whose tags repeat from call to
 * call (mpi/hier_reloc.c, perm_messages): MPI must pair each call's with
 * its own. Every byte of each dst. */
static void permutes_in_flight(int r)
{
    enum { NB = 5000, CALLS = 4 };
    const int T = THREADS, me = MYTHREAD;
    const int shift[CALLS] = {1, 1, -1, 2}; /* -1: reversed */
    tupc_sptr_t src[CALLS], dst[CALLS], perm[CALLS];
    for (int c = 0; c < CALLS; c++) {
        src[c] = upc_all_alloc((size_t)T, NB);
        dst[c] = upc_all_alloc((size_t)T, NB);
        perm[c] = upc_all_alloc((size_t)T, sizeof(int));
        CHECK(!tupc_isnull(src[c]) && !tupc_isnull(dst[c]) && !tupc_isnull(perm[c]));
        unsigned char *s = (unsigned char *)tupc_index(src[c], (ptrdiff_t)me * NB, NB, char).addr;
        for (size_t k = 0; k < NB; k++)
            s[k] = perm_byte(c + r, me, k);
        memset(tupc_index(dst[c], (ptrdiff_t)me * NB, NB, char).addr, FILL, NB);
        *(int *)tupc_index(perm[c], me, 1, int).addr =
            shift[c] < 0 ? T - 1 - me : (me + shift[c]) % T;
    }
    upc_barrier();
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    upc_coll_handle_t a =
        tupc_team_permute(dst[0], src[0], perm[0], NB, my | UPC_ASYNC, UPC_TEAM_ALL);
    upc_all_permute(dst[1], src[1], perm[1], NB, my);
    upc_all_permute(dst[2], src[2], perm[2], NB, my);
    upc_coll_handle_t d =
        tupc_team_permute(dst[3], src[3], perm[3], NB, my | UPC_ASYNC, UPC_TEAM_ALL);
    upc_wait(a);
    upc_wait(d);
    upc_barrier();
    for (int c = 0; c < CALLS; c++) {
        const int from = shift[c] < 0 ? T - 1 - me : ((me - shift[c]) % T + T) % T;
        const unsigned char *got =
            (const unsigned char *)tupc_index(dst[c], (ptrdiff_t)me * NB, NB, char).addr;
        for (size_t k = 0; k < NB; k++)
            if (got[k] != perm_byte(c + r, from, k)) {
                fprintf(stderr,
                        "FAIL: thread %d, permute %d of 4 (round %d): byte %zu is %d; expected %d "
                        "(thread %d's)\n",
                        me, c + 1, r, k, got[k], perm_byte(c + r, from, k), from);
                exit(1);
            }
    }
    upc_barrier();
    for (int c = 0; c < CALLS; c++) {
        upc_all_free(perm[c]);
        upc_all_free(dst[c]);
        upc_all_free(src[c]);
    }
}

int tupc_main(int argc, char **argv)
{
    CHECK(THREADS == expected_threads(argc, argv));
    unsigned char *buf = malloc((THREADS > 4 ? (size_t)THREADS * 5000 : 20000) + 2 * G);
    CHECK(buf);
    static const size_t sizes[] = {1, 7, 256, 5000};
    int r = 0;
    for (int v = 0; v < NVERBS; v++)
        for (int s = 0; s < 4; s++)
            for (int m = 0; m < NMODES; m++, r++)
                run((enum verb)v, sizes[s], r, modes[m], buf);
    /* A permute past 32 KiB a process (a message a block, from src and
     * into dst as they lie), each perm of perm_of. */
    for (int m = 0; m < 2 * NMODES; m++, r++)
        run(PERMUTE, 20000, r, modes[m % NMODES], buf);
    free(buf);
    for (int m = 0; m < NMODES; m++, r++) {
        chain(8, 40, modes[m], r);
        chain(3000, 12, modes[m], r);
        chain_reloc(8, 12, modes[m], r);
        chain_reloc(700, 10, modes[m], r);
        /* Past 32 KiB a process (TUPC_HIER_STAGE): a broadcast, and with
         * two threads a process a gather_all into the leader's dst and a
         * gather whose src blocks MPI reads where they lie. */
        chain(40000, 4, modes[m], r);
        chain_reloc(20000, 2, modes[m], r);
    }
    chain(((size_t)1 << 20) + 40, 3, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, r++);
    chain(((size_t)1 << 20) + 40, 3, UPC_IN_MYSYNC | UPC_OUT_MYSYNC, r++);
    many_then_reduce(r++);
    gather_chain(8, 48, r++);
    gather_chain(64, 40, r++);
    gather_chain(65, 20, r++);
    /* gather_all's and exchange's buffers past 1 MiB: one buffer, reused. */
    chain_reloc(300000, 2, UPC_IN_NOSYNC | UPC_OUT_NOSYNC, r++);
    chain_reloc(300000, 2, UPC_IN_MYSYNC | UPC_OUT_MYSYNC, r++);
    gather_overwrite(r++);
    permutes_in_flight(r++);

    static const upc_op_t ops[] = {UPC_ADD, UPC_MULT,   UPC_AND,         UPC_OR,
                                   UPC_XOR, UPC_LOGAND, UPC_LOGOR,       UPC_MIN,
                                   UPC_MAX, UPC_FUNC,   UPC_NONCOMM_FUNC};
    static const size_t shapes[][3] = {/* n, B, off */
                                       {1, 1, 0},     {5, 1, 3},   {40, 3, 2},  {40, 0, 5},
                                       {1000, 64, 7}, {257, 5, 0}, {600, 1, 1}, {64, 64, 0}};
    for (int o = 0; o < 11; o++)
        for (int s = 0; s < 8; s++, r++) {
            size_t B = shapes[s][1];
            red_long(shapes[s][0], B, shapes[s][2], r, ops[o], modes[r % NMODES]);
        }
    for (int s = 0; s < 8; s++, r++) {
        size_t n = shapes[s][0], B = shapes[s][1], off = shapes[s][2];
        if (B == 0)
            continue;
        red_D_ADD(n, B, off, r);
        red_D_MAX(n, B, off, r);
        red_UC_ADD(n, B, off, r);
        red_UC_XOR(n, B, off, r);
        red_LD_ADD(n, B, off, r);
        red_F_MIN(n, B, off, r);
        red_US_OR(n, B, off, r);
        red_int(n, B, off, r);
    }
    static const upc_flag_t xs[] = {UPC_EXCLUSIVE_PREFIX_REDUCE, UPC_IN_PLACE,
                                    UPC_IN_PLACE | UPC_EXCLUSIVE_PREFIX_REDUCE};
    for (int x = 0; x < 3; x++)
        for (int s = 0; s < 8; s++, r++)
            if (shapes[s][1]) {
                prefix_x(shapes[s][0], shapes[s][1], shapes[s][2], r, UPC_ADD, xs[x]);
                prefix_x(shapes[s][0], shapes[s][1], shapes[s][2], r, UPC_NONCOMM_FUNC, xs[x]);
            }
    /* At most one block per thread, from thread 0 (with a phase too): the
     * processes' scan of one partial each (mpi/hier_prefix.c), MPI's own
     * op where it computes what the library does, the library's where not. */
    static const size_t one_each[][3] = {{48, 16, 0}, {40, 16, 5}, {16, 16, 0}, {31, 8, 0}};
    static const upc_op_t pops[] = {UPC_ADD,    UPC_MULT, UPC_MAX,         UPC_XOR,
                                    UPC_LOGAND, UPC_FUNC, UPC_NONCOMM_FUNC};
    for (int s = 0; s < 4; s++)
        for (int o = 0; o < 7; o++, r++) {
            prefix_x(one_each[s][0], one_each[s][1], one_each[s][2], r, pops[o], 0);
            prefix_x(one_each[s][0], one_each[s][1], one_each[s][2], r, pops[o],
                     UPC_EXCLUSIVE_PREFIX_REDUCE);
        }
    static const upc_op_t aops[] = {UPC_ADD, UPC_MAX, UPC_LOGOR, UPC_FUNC, UPC_NONCOMM_FUNC};
    for (int s = 0; s < 8; s++)
        for (int o = 0; o < 5; o++, r++)
            red_all(shapes[s][0], shapes[s][1], shapes[s][2], r, aops[o], modes[r % NMODES]);
    if (MYTHREAD == 0)
        printf("mpi_coll: %d THREADS: every collective gave the spec's answer\n", THREADS);
    return 0;
}
