/* Teams across processes (mpi/team*.c): splits whose teams interleave the
 * processes' threads (colour MYTHREAD % 2), rank them backwards, leave
 * threads out, lie in one process, and nest; on each team, every
 * relocalization form at several sizes and sync modes, every byte of
 * every member's dst checked with the guards around it, the source put
 * by a member of another process under IN_ALLSYNC; the reductions,
 * reduce_all and prefix reductions (inclusive, exclusive, in place) of
 * arrays over all THREADS, members or not, against a serial oracle; team
 * barriers; and many splits and frees in a row. */
#include "check.h"
#include "oracle.h"
#include "verbs.h"

#include <string.h>
#include <time.h>
#include <upc_castable.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#define G 8
#define FILL 0xEE
#define NC 4 /* teams of a split at most */

static const upc_flag_t modes[] = {
    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
    UPC_IN_NOSYNC | UPC_OUT_NOSYNC,   UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,
    UPC_IN_NOSYNC | UPC_OUT_MYSYNC,   UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
};
#define NMODES (int)(sizeof modes / sizeof modes[0])

/* Byte k of rank i's source in round r. */
static unsigned char S(int i, size_t k, int r)
{
    return (unsigned char)(i * 37 + k * 11 + (k >> 8) + r * 53 + 1);
}

/* ---- Splits -------------------------------------------------------------- */

/* Split kind k of parent rank p (of n): colour (negative: none) and key. */
static int colour_of(int k, int p, int n)
{
    switch (k) {
    case 0:
        return p % 2;
    case 1:
        return p % 2;
    case 2:
        return p == 0 ? -1 : p % 3;
    case 3:
        return p < n / 2 ? 0 : 1;
    default: /* 4, 5: every thread */
        return 0;
    }
}
static int key_of(int k, int p)
{
    return k == 1 || k == 5 ? -p : k == 2 ? 0 : p;
}

/* Splits parent (of n members, the caller's rank p) by kind k and checks
 * the new team's size, ranks and threads against the rule: ranked by key,
 * then by parent rank. */
static upc_team_t split(upc_team_t parent, int k)
{
    const int n = tupc_team_size(parent), p = tupc_team_rank(parent), c = colour_of(k, p, n);
    upc_team_t t;
    tupc_team_split(parent, c, key_of(k, p), &t);
    if (c < 0) {
        CHECK(t == TUPC_TEAM_NONE);
        return t;
    }
    int size = 0, rank = 0;
    for (int q = 0; q < n; q++) {
        if (colour_of(k, q, n) != c)
            continue;
        int kq = key_of(k, q), kp = key_of(k, p);
        rank += kq < kp || (kq == kp && q < p);
        size++;
    }
    CHECK(tupc_team_size(t) == size);
    CHECK(tupc_team_rank(t) == rank);
    CHECK(tupc_team_thread(t, rank) == MYTHREAD);
    CHECK(tupc_team_rank_of(t, MYTHREAD) == rank);
    for (int r = 0; r < size; r++) /* every member's thread, in the parent too */
        CHECK(colour_of(k, tupc_team_rank_of(parent, tupc_team_thread(t, r)), n) == c);
    return t;
}

/* ---- Relocalizations ----------------------------------------------------- */

/* The expected byte k of rank me's dst (of n), or -1 where it keeps FILL. */
static int expect(enum verb v, size_t nb, int n, int me, int root, int shift, int r, size_t k)
{
    size_t j = k / nb, o = k % nb;
    switch (v) {
    case BROADCAST:
        return S(root, k, r);
    case SCATTER:
        return S(root, (size_t)me * nb + k, r);
    case GATHER:
        return me == root ? S((int)j, o, r) : -1;
    case GATHER_ALL:
        return S((int)j, o, r);
    case EXCHANGE:
    case EXCHANGE_IN_PLACE:
        return S((int)j, (size_t)me * nb + o, r);
    default:
        return S(((me - shift) % n + n) % n, k, r);
    }
}

/* The areas of every call, allocated once (an allocation per call took
 * most of the test's time): per thread, POOL bytes of src and of dst, an
 * int of perm; and for the reductions, per team of a split, the source
 * and the prefix's dst (any block size: upc_all_alloc(n, b) lays its
 * blocks out as shared [B] does, so one region serves every B), the
 * reduction's and reduce_all's dst. */
#define POOL ((size_t)64 << 10)
static _Thread_local struct { /* each thread's own copy of the pointers */
    tupc_sptr_t s, d, p, a[NC], pd[NC], one[NC], all[NC];
} pool;

static void pool_alloc(void)
{
    const size_t T = (size_t)THREADS;
    pool.s = upc_all_alloc(T, POOL);
    pool.d = upc_all_alloc(T, POOL);
    pool.p = upc_all_alloc(T, sizeof(int));
    CHECK(!tupc_isnull(pool.s) && !tupc_isnull(pool.d) && !tupc_isnull(pool.p));
    for (int k = 0; k < NC; k++) {
        pool.a[k] = upc_all_alloc(T, POOL);
        pool.pd[k] = upc_all_alloc(T, POOL);
        pool.one[k] = upc_all_alloc(T, sizeof(long));
        pool.all[k] = upc_all_alloc(T, sizeof(long));
        CHECK(!tupc_isnull(pool.a[k]) && !tupc_isnull(pool.pd[k]) && !tupc_isnull(pool.one[k]) &&
              !tupc_isnull(pool.all[k]));
    }
}

/* Every thread calls; the members of tm run verb v, the others wait at
 * the barriers. */
static void reloc(upc_team_t tm, enum verb v, size_t nb, int r, upc_flag_t flags)
{
    const int T = THREADS, mine = MYTHREAD;
    const size_t len = (size_t)T * nb + 2 * G; /* the largest area, guards included */
    CHECK(len <= POOL);
    tupc_sptr_t sb = pool.s, db = pool.d, pb = pool.p;
    if (v == EXCHANGE_IN_PLACE || v == PERMUTE_IN_PLACE)
        sb = db;
    memset(part(db, mine, 0), FILL, len);
    upc_barrier();
    if (tm != TUPC_TEAM_NONE) {
        const int n = tupc_team_size(tm), me = tupc_team_rank(tm);
        const int root = (r * 3 + 1) % n, shift = r % n + 1;
        const size_t slen =
            v == SCATTER || v == EXCHANGE || v == EXCHANGE_IN_PLACE ? (size_t)n * nb : nb;
        const size_t dlen =
            v == GATHER || v == GATHER_ALL || v == EXCHANGE || v == EXCHANGE_IN_PLACE
                ? (size_t)n * nb
                : nb;
        *(int *)part(pb, mine, 0) = (me + shift) % n;
        /* Rank i's source, put by rank i + n / 2 under IN_ALLSYNC (another
         * process's thread where the team spans two), else by i. */
        unsigned char *buf = malloc(slen);
        CHECK(buf);
        for (int i = 0; i < n; i++) {
            if ((v == BROADCAST || v == SCATTER) && i != root)
                continue;
            if (((flags & UPC_IN_ALLSYNC) ? (i + n / 2) % n : i) != me)
                continue;
            for (size_t k = 0; k < slen; k++)
                buf[k] = S(i, k, r);
            upc_memput(at(sb, tupc_team_thread(tm, i), G), buf, slen);
        }
        free(buf);
        if (flags & UPC_IN_NOSYNC)
            tupc_team_barrier(tm);
        const int rt = tupc_team_thread(tm, root);
        tupc_sptr_t d0 = at(db, 0, G), s0 = at(sb, 0, G), p0 = at(pb, 0, 0);
        upc_coll_handle_t h;
        switch (v) {
        case BROADCAST:
            h = tupc_team_broadcast(d0, at(sb, rt, G), nb, flags, tm);
            break;
        case SCATTER:
            h = tupc_team_scatter(d0, at(sb, rt, G), nb, flags, tm);
            break;
        case GATHER:
            h = tupc_team_gather(at(db, rt, G), s0, nb, flags, tm);
            break;
        case GATHER_ALL:
            h = tupc_team_gather_all(d0, s0, nb, flags, tm);
            break;
        case EXCHANGE:
            h = tupc_team_exchange(d0, s0, nb, flags, tm);
            break;
        case EXCHANGE_IN_PLACE:
            h = tupc_team_exchange(d0, UPC_IN_PLACE, nb, flags, tm);
            break;
        case PERMUTE:
            h = tupc_team_permute(d0, s0, p0, nb, flags, tm);
            break;
        default:
            h = tupc_team_permute(d0, UPC_IN_PLACE, p0, nb, flags, tm);
        }
        /* On every team each posted relocalization posts across processes
         * (OUT_ALLSYNC runs at posting; the gather's dst is a member's). */
        if (flags & UPC_ASYNC)
            CHECK((h != UPC_HANDLE_COMPLETE) == !(flags & UPC_OUT_ALLSYNC));
        upc_wait(h); /* a posted call (UPC_ASYNC in flags): its end */
        if (flags & UPC_OUT_NOSYNC)
            tupc_team_barrier(tm);
        const unsigned char *got = part(db, mine, 0);
        for (size_t x = 0; x < len; x++) {
            int want = x < G || x >= G + dlen ? -1 : expect(v, nb, n, me, root, shift, r, x - G);
            if (want < 0)
                want = FILL;
            if (got[x] != want) {
                fprintf(stderr,
                        "team %s nbytes %zu round %d flags %#x: rank %d of %d (thread %d) byte "
                        "%zu is %d, expected %d\n",
                        names[v], nb, r, (unsigned)flags, me, n, mine, x, got[x], want);
                CHECK(0);
            }
        }
    }
    upc_barrier();
}

/* ---- Reductions ---------------------------------------------------------- */

/* shared [B] long of n elements from element off of its allocation. */
struct arr {
    tupc_sptr_t base, p;
    size_t B;
};
static struct arr arr_on(tupc_sptr_t region, size_t n, size_t B, size_t off)
{
    size_t total = n + off + (B ? B * (size_t)THREADS : 0);
    CHECK((B ? (total / B / (size_t)THREADS + 1) * B : total) * sizeof(long) <= POOL);
    struct arr a = {region, tupc_ptr_add(region, (ptrdiff_t)off, B, sizeof(long)), B};
    return a;
}
static tupc_sptr_t arr_at(const struct arr *a, ptrdiff_t i)
{
    return tupc_ptr_add(a->p, i, a->B, sizeof(long));
}

/* On each team of a split (the caller's colour c, NC colours at most),
 * its own arrays: reduce to a member's element, reduce_all, and (B > 0)
 * a prefix reduction with `extra` flags; rank 0 checks everything. */
static void red(upc_team_t tm, int c, size_t n, size_t B, size_t off, int r, upc_op_t op,
                upc_flag_t flags, upc_flag_t extra)
{
    const int T = THREADS, me = MYTHREAD;
    struct arr a[NC], d[NC];
    tupc_sptr_t *one = pool.one, *all = pool.all;
    for (int k = 0; k < NC; k++) {
        a[k] = arr_on(pool.a[k], n, B, off);
        d[k] = arr_on(pool.pd[k], n, B, off);
    }
    /* Every thread writes its elements of every array (members or not). */
    for (int k = 0; k < NC; k++) {
        for (ptrdiff_t i = off ? -1 : 0; i <= (ptrdiff_t)n; i++) {
            tupc_sptr_t e = arr_at(&a[k], i), f = arr_at(&d[k], i);
            if ((int)upc_threadof(e) == me)
                tupc_put_long(e, i >= 0 && i < (ptrdiff_t)n ? val_l((size_t)i, r + k, op) : 0);
            if ((int)upc_threadof(f) == me)
                tupc_put_long(f, (extra & UPC_IN_PLACE) && i >= 0 && i < (ptrdiff_t)n
                                     ? val_l((size_t)i, r + k, op)
                                     : -3);
        }
        tupc_put_long(at(one[k], me, 0), -7);
        tupc_put_long(at(all[k], me, 0), -7);
    }
    upc_barrier();
    if (tm != TUPC_TEAM_NONE) {
        const int m = tupc_team_size(tm), rank = tupc_team_rank(tm);
        const int root = tupc_team_thread(tm, (r + 1) % m);
        long (*fn)(long, long) = op == UPC_FUNC ? add_l : op == UPC_NONCOMM_FUNC ? mat_mul : NULL;
        upc_coll_handle_t h[3] = {UPC_HANDLE_COMPLETE, UPC_HANDLE_COMPLETE, UPC_HANDLE_COMPLETE};
        h[0] = tupc_team_reduceL(at(one[c], root, 0), a[c].p, op, n, B, fn, flags, tm);
        h[1] = tupc_team_reduce_allL(at(all[c], 0, 0), a[c].p, op, n, B, fn, flags, tm);
        if (B)
            h[2] = tupc_team_prefix_reduceL(d[c].p, (extra & UPC_IN_PLACE) ? d[c].p : a[c].p, op, n,
                                            B, fn, flags | extra, tm);
        if (flags & UPC_ASYNC) {
            /* On every team every posted reduction posts but under
             * OUT_ALLSYNC (which runs at posting): by processes or blocks
             * where the team's processes hold src, else by index ranges. */
            const int posts = !(flags & UPC_OUT_ALLSYNC);
            CHECK((h[0] != UPC_HANDLE_COMPLETE) == posts);
            CHECK((h[1] != UPC_HANDLE_COMPLETE) == posts);
            CHECK((h[2] != UPC_HANDLE_COMPLETE) == (B && posts));
        }
        /* Posted: all in flight at once, completed last first; OUT_MYSYNC
         * then promises only this thread's data, which rank 0 reads. */
        for (int i = 2; i >= 0; i--)
            upc_wait(h[i]);
        if (flags & (UPC_OUT_NOSYNC | UPC_ASYNC))
            tupc_team_barrier(tm);
        if (rank == 0) {
            long acc = 0, prev = -3;
            for (size_t i = 0; i < n; i++) {
                long x = val_l(i, r + c, op);
                acc = i == 0 ? x : oper_l(op, acc, x);
                long want = (extra & UPC_EXCLUSIVE_PREFIX_REDUCE) ? prev : acc;
                prev = acc;
                long got = B ? tupc_get_long(arr_at(&d[c], (ptrdiff_t)i)) : want;
                if (got != want) {
                    fprintf(stderr,
                            "team prefix op %d n %zu B %zu off %zu flags %#x: [%zu] %ld, "
                            "expected %ld\n",
                            (int)op, n, B, off, (unsigned)(flags | extra), i, got, want);
                    CHECK(0);
                }
            }
            if (B) {
                if (off)
                    CHECK(tupc_get_long(arr_at(&d[c], -1)) == -3);
                CHECK(tupc_get_long(arr_at(&d[c], (ptrdiff_t)n)) == -3);
            }
            long got = tupc_get_long(at(one[c], root, 0));
            if (got != (n ? acc : -7)) {
                fprintf(stderr,
                        "team reduce op %d n %zu B %zu off %zu flags %#x: %ld, expected "
                        "%ld\n",
                        (int)op, n, B, off, (unsigned)flags, got, acc);
                CHECK(0);
            }
            for (int t = 0; t < T; t++) {
                long want = tupc_team_rank_of(tm, t) >= 0 && n ? acc : -7;
                long got = tupc_get_long(at(all[c], t, 0));
                if (got != want) {
                    fprintf(stderr,
                            "team reduce_all op %d n %zu B %zu off %zu flags %#x: "
                            "thread %d's %ld, expected %ld\n",
                            (int)op, n, B, off, (unsigned)flags, t, got, want);
                    CHECK(0);
                }
                if (t != root)
                    CHECK(tupc_get_long(at(one[c], t, 0)) == -7);
            }
        }
    }
    upc_barrier();
}

/* Prefix reductions whose dst and src lie apart (other threads, other
 * phases: Collectives 1.0's meaning, which tupc takes): element i of dst
 * is the scan of src up to i whatever threads hold the two, blocking and
 * posted, upc_all_prefix_reduceL and the team form on UPC_TEAM_ALL and on
 * a split team; every element and the guards around dst checked. */
static void prefix_apart(int r)
{
    static const size_t shapes[][4] = {/* n, B, src offset, dst offset */
                                       {40, 3, 0, 1},    {257, 5, 2, 7}, {600, 1, 1, 0},
                                       {100, 64, 64, 3}, {33, 4, 5, 1},  {50, 0, 3, 1}};
    static const upc_op_t ops[] = {UPC_ADD, UPC_NONCOMM_FUNC, UPC_MAX};
    upc_team_t half = split(UPC_TEAM_ALL, 0);
    for (int i = 0; i < 6 * 4; i++, r++) {
        const size_t n = shapes[i % 6][0], B = shapes[i % 6][1];
        const upc_op_t op = ops[i % 3];
        const int form = (i / 6) % 4; /* 1.3; team ALL; team ALL posted; split */
        const upc_team_t tm = form == 3 ? (MYTHREAD % 2 ? TUPC_TEAM_NONE : half) : UPC_TEAM_ALL;
        struct arr a = arr_on(pool.a[0], n, B, shapes[i % 6][2]),
                   d = arr_on(pool.pd[0], n, B, shapes[i % 6][3]);
        for (ptrdiff_t k = -1; k <= (ptrdiff_t)n; k++) {
            tupc_sptr_t e = arr_at(&a, k), f = arr_at(&d, k);
            if (k >= 0 && (int)upc_threadof(e) == MYTHREAD)
                tupc_put_long(e, k < (ptrdiff_t)n ? val_l((size_t)k, r, op) : 0);
            if ((k >= 0 || shapes[i % 6][3]) && (int)upc_threadof(f) == MYTHREAD)
                tupc_put_long(f, -3);
        }
        upc_barrier();
        long (*fn)(long, long) = op == UPC_NONCOMM_FUNC ? mat_mul : NULL;
        const upc_flag_t fl = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
        if (form == 0)
            upc_all_prefix_reduceL(d.p, a.p, op, n, B, fn, fl);
        else if (tm != TUPC_TEAM_NONE) {
            upc_coll_handle_t h = tupc_team_prefix_reduceL(d.p, a.p, op, n, B, fn,
                                                           fl | (form == 2 ? UPC_ASYNC : 0), tm);
            CHECK((h != UPC_HANDLE_COMPLETE) == (form == 2)); /* posted: by ranges or blocks */
            upc_wait(h);
        }
        upc_barrier();
        if (MYTHREAD == 0) {
            long acc = 0;
            for (size_t k = 0; k < n; k++) {
                const long x = val_l(k, r, op);
                acc = k == 0 ? x : oper_l(op, acc, x);
                const long got = tupc_get_long(arr_at(&d, (ptrdiff_t)k));
                if (got != acc) {
                    fprintf(stderr, "prefix apart form %d op %d n %zu B %zu: [%zu] %ld, not %ld\n",
                            form, (int)op, n, B, k, got, acc);
                    CHECK(0);
                }
            }
            if (shapes[i % 6][3])
                CHECK(tupc_get_long(arr_at(&d, -1)) == -3);
            CHECK(tupc_get_long(arr_at(&d, (ptrdiff_t)n)) == -3);
        }
        upc_barrier();
    }
    if (half != TUPC_TEAM_NONE)
        tupc_team_free(&half);
}

/* ---- Posted calls (UPC_ASYNC) ---------------------------------------------- */

/* Three broadcasts posted on UPC_TEAM_ALL (MPI_Ibcast, finished by the
 * progress thread) with blocking calls between the posts and the waits,
 * completed by upc_wait, upc_test and upc_waitall; then a posted
 * broadcast under OUT_ALLSYNC, posted team calls on a split team and a
 * posted reduction on UPC_TEAM_ALL (run at posting): every byte checked. */
static void posted(int r)
{
    const int T = THREADS, me = MYTHREAD;
    static const size_t nb[3] = {13, 3000, (size_t)3 << 19};
    static const upc_flag_t fl[3] = {UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
                                     UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
                                     UPC_IN_NOSYNC | UPC_OUT_MYSYNC};
    tupc_sptr_t src[3], dst[3];
    for (int i = 0; i < 3; i++) {
        src[i] = upc_all_alloc((size_t)T, nb[i]);
        dst[i] = upc_all_alloc((size_t)T, nb[i]);
        CHECK(!tupc_isnull(src[i]) && !tupc_isnull(dst[i]));
        memset(part(dst[i], me, 0), FILL, nb[i]);
    }
    upc_barrier();
    upc_coll_handle_t h[3];
    for (int i = 0; i < 3; i++) {
        const int root = (r + 2 * i + 1) % T;
        if (me == root) /* before the post: IN_MYSYNC and IN_ALLSYNC order it */
            for (size_t k = 0; k < nb[i]; k++)
                part(src[i], root, 0)[k] = S(i, k, r);
        if (fl[i] & UPC_IN_NOSYNC)
            upc_barrier();
        h[i] = tupc_team_broadcast(at(dst[i], 0, 0), at(src[i], root, 0), nb[i], fl[i] | UPC_ASYNC,
                                   UPC_TEAM_ALL);
        CHECK(h[i] != UPC_HANDLE_COMPLETE);
    }
    /* Blocking calls while the posts are in flight. */
    tupc_sptr_t b = upc_all_alloc((size_t)T, sizeof(long)), one = upc_all_alloc((size_t)T, 8);
    tupc_put_long(at(b, me, 0), me + 1);
    upc_all_broadcast(one, at(b, T - 1, 0), sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    CHECK(*(long *)part(one, me, 0) == T);
    upc_all_reduceL(at(one, 0, 0), b, UPC_ADD, (size_t)T, 1, NULL,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    if (me == 0)
        CHECK(*(long *)part(one, 0, 0) == (long)T * (T + 1) / 2);
    tupc_wait_handle(h[1]);
    while (upc_test(h[0]) != 1)
        ;
    upc_waitall(1, &h[2]);
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < nb[i]; k++)
            if (part(dst[i], me, 0)[k] != S(i, k, r)) {
                fprintf(stderr, "posted broadcast %d (%zu bytes): thread %d byte %zu is %d\n", i,
                        nb[i], me, k, part(dst[i], me, 0)[k]);
                CHECK(0);
            }
    upc_barrier();
    /* OUT_ALLSYNC: run at posting; its handle still completes. */
    memset(part(dst[0], me, 0), FILL, nb[0]);
    upc_barrier();
    upc_coll_handle_t a =
        tupc_team_broadcast(at(dst[0], 0, 0), at(src[0], (r + 1) % T, 0), nb[0],
                            UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, UPC_TEAM_ALL);
    upc_wait(a);
    for (size_t k = 0; k < nb[0]; k++)
        CHECK(part(dst[0], me, 0)[k] == S(0, k, r));
    /* A split team's posted broadcast and UPC_TEAM_ALL's posted reduction. */
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, me % 2, -me, &t);
    const int n = tupc_team_size(t), root = tupc_team_thread(t, n - 1);
    upc_barrier();
    if (me == root)
        for (size_t k = 0; k < nb[1]; k++)
            part(src[1], root, 0)[k] = S(7 + me % 2, k, r);
    upc_coll_handle_t c = tupc_team_broadcast(at(dst[1], 0, 0), at(src[1], root, 0), nb[1],
                                              UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, t);
    CHECK(c != UPC_HANDLE_COMPLETE); /* posted on the team's communicator */
    upc_wait(c);
    for (size_t k = 0; k < nb[1]; k++)
        CHECK(part(dst[1], me, 0)[k] == S(7 + me % 2, k, r));
    /* Past 1 MiB on the split team, from the next thread's src, which is no
     * member's (at 4 x 1 in a process without one: read through the
     * window); posted by every process. */
    const int sth = (root + 1) % T;    /* roots 0 and 1: threads 1 and 2 */
    for (size_t k = 0; k < nb[2]; k++) /* my src, for the team whose root is me - 1 */
        part(src[2], me, 0)[k] = S(9 + (me + T - 1) % 2, k, r);
    upc_barrier();
    tupc_team_broadcast(at(dst[2], 0, 0), at(src[2], sth, 0), nb[2], UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
                        t);
    for (size_t k = 0; k < nb[2]; k++)
        CHECK(part(dst[2], me, 0)[k] == S(9 + me % 2, k, r));
    /* A scatter from, then a gather to, the next thread's area (no member's;
     * at 4 x 1 in a process without a member): the gathered blocks are the
     * scattered ones. */
    const size_t sb = 400;
    upc_barrier();
    for (size_t k = 0; k < (size_t)T * sb; k++)
        part(src[2], me, 0)[k] = S(11 + (me + T - 1) % 2, k, r);
    upc_barrier();
    /* Posted: the scatter posts (the root's area fetched at posting). */
    upc_wait(tupc_team_scatter(at(dst[2], 0, 0), at(src[2], sth, 0), sb,
                               UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, t));
    for (size_t k = 0; k < sb; k++)
        CHECK(part(dst[2], me, 0)[k] == S(11 + me % 2, (size_t)tupc_team_rank(t) * sb + k, r));
    upc_barrier();
    memset(part(dst[1], me, 0), FILL, nb[1]);
    upc_barrier();
    /* Posted too: where dst lies in no member's process (4 x 1) the job
     * puts the blocks there through the window. */
    upc_coll_handle_t gh = tupc_team_gather(at(dst[1], sth, 0), at(dst[2], 0, 0), sb,
                                            UPC_IN_MYSYNC | UPC_OUT_MYSYNC | UPC_ASYNC, t);
    CHECK(gh != UPC_HANDLE_COMPLETE);
    upc_wait(gh);
    upc_barrier();
    const int c_of = (me + T - 1) % 2, nc = T / 2 + (c_of == 0 && T % 2); /* the team I hold for */
    if (me == 1 || me == 2)
        for (size_t k = 0; k < nb[1]; k++)
            CHECK(part(dst[1], me, 0)[k] ==
                  (k < (size_t)nc * sb ? S(11 + c_of, k, r) : (unsigned char)FILL));
    upc_coll_handle_t d =
        tupc_team_reduceL(at(one, 1, 0), b, UPC_MAX, (size_t)T, 1, NULL,
                          UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, UPC_TEAM_ALL);
    upc_wait(d);
    if (me == 1)
        CHECK(*(long *)part(one, 1, 0) == T);
    /* A split team's posted reduction (run at posting) of every thread's
     * element, members or not, to its root's element. */
    upc_barrier();
    upc_coll_handle_t e = tupc_team_reduceL(at(one, root, 0), b, UPC_ADD, (size_t)T, 1, NULL,
                                            UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_ASYNC, t);
    upc_wait(e);
    if (me == root)
        CHECK(*(long *)part(one, root, 0) == (long)T * (T + 1) / 2);
    tupc_team_free(&t);
    upc_barrier();
    upc_all_free(one);
    upc_all_free(b);
    for (int i = 2; i >= 0; i--) {
        upc_all_free(dst[i]);
        upc_all_free(src[i]);
    }
}

/* Reductions under IN_MYSYNC whose dst lies with a late thread: the
 * threads that do not lead their process (the odd ones, at two threads
 * per process) sleep, write their own dst, then call. The call may write
 * a thread's data only once that thread has entered (UPC 1.3 7.4 para 4),
 * so the result must win. On a split team of every thread ranked
 * backwards the late ones are the even threads (there the odd ones lead).
 * The one element of src lies with a thread that is not late, dst
 * (reduce) with one that is: blocking and posted, reduce and reduce_all,
 * on UPC_TEAM_ALL and on the split team. */
static void late_reductions(int r)
{
    const int T = THREADS, me = MYTHREAD;
    tupc_sptr_t src = upc_all_alloc((size_t)T, sizeof(long)),
                dst = upc_all_alloc((size_t)T, sizeof(long));
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst));
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, 0, -me, &t);
    for (int i = 0; i < 8; i++, r++) {
        const int split = i & 1, all = (i >> 1) & 1, async = (i >> 2) & 1;
        const upc_team_t tm = split ? t : UPC_TEAM_ALL;
        /* The late threads' parity; src's thread, and dst's (reduce). */
        const int lt = !split, sth = T > 1 ? 1 - lt : 0, d = T > 1 ? lt : 0;
        const long want = 1000L * r + sth + 1;
        *(long *)part(src, me, 0) = 1000L * r + me + 1;
        *(long *)part(dst, me, 0) = 0;
        upc_barrier();
        if (me % 2 == lt) {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
            *(long *)part(dst, me, 0) = -1;
        }
        const upc_flag_t f = UPC_IN_MYSYNC | UPC_OUT_MYSYNC | (async ? UPC_ASYNC : 0);
        upc_coll_handle_t h =
            all ? tupc_team_reduce_allL(at(dst, 0, 0), at(src, sth, 0), UPC_ADD, 1, 1, NULL, f, tm)
                : tupc_team_reduceL(at(dst, d, 0), at(src, sth, 0), UPC_ADD, 1, 1, NULL, f, tm);
        upc_wait(h);
        const long got = *(long *)part(dst, me, 0);
        if ((all || me == d) && got != want) {
            fprintf(stderr, "late %s%s on %s: thread %d's dst is %ld, not %ld\n",
                    async ? "posted " : "", all ? "reduce_all" : "reduce",
                    split ? "a split team" : "UPC_TEAM_ALL", me, got, want);
            CHECK(0);
        }
        upc_barrier();
    }
    tupc_team_free(&t);
    upc_all_free(dst);
    upc_all_free(src);
}

/* Posted relocalizations under IN_MYSYNC with late members: the threads
 * that do not lead their process's part of the team (the odd ones on
 * UPC_TEAM_ALL, the even ones on a split team of every thread ranked
 * backwards, at two threads per process) sleep, then write their own dst
 * area (their own data, before they enter: the call may not write it
 * before then), then post. A leader whose request writes its process's dst
 * blocks before their threads enter leaves FILL there. Broadcast, scatter,
 * gather_all and exchange on UPC_TEAM_ALL (each a non-blocking MPI call),
 * and on the split team (on its communicator). */
static void posted_late(int r)
{
    const int T = THREADS, me = MYTHREAD;
    const size_t nb = 5000, len = (size_t)T * nb;
    tupc_sptr_t src = upc_all_alloc((size_t)T, len), dst = upc_all_alloc((size_t)T, len);
    tupc_sptr_t perm = upc_all_alloc((size_t)T, sizeof(int));
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst) && !tupc_isnull(perm));
    upc_team_t t;
    tupc_team_split(UPC_TEAM_ALL, 0, -me, &t);
    static const enum verb vs[] = {BROADCAST, SCATTER, GATHER_ALL, EXCHANGE, PERMUTE,
                                   BROADCAST, SCATTER, GATHER_ALL, EXCHANGE, PERMUTE};
    for (int i = 0; i < 10; i++, r++) {
        const int split = i >= 5, v = vs[i];
        const upc_team_t tm = split ? t : UPC_TEAM_ALL;
        const int rank = tupc_team_rank(tm);
        const int root = 2 * ((r + i) % (T / 2)) + split; /* a leader's thread */
        const int root_rank = split ? T - 1 - root : root;
        for (size_t k = 0; k < len; k++)
            part(src, me, 0)[k] = S(rank, k, r);
        *(int *)part(perm, me, 0) = -1; /* not a thread */
        upc_barrier();
        const int late = me != root && me % 2 == !split;
        if (late) { /* its dst, and a permute's perm entry, written just before its entry */
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
            memset(part(dst, me, 0), FILL, len);
        }
        *(int *)part(perm, me, 0) = (rank + 1) % T; /* a permute's target */
        const upc_flag_t f = UPC_IN_MYSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
        const tupc_sptr_t d0 = at(dst, 0, 0), s0 = at(src, 0, 0), sr = at(src, root, 0);
        upc_coll_handle_t h = v == BROADCAST    ? tupc_team_broadcast(d0, sr, nb, f, tm)
                              : v == SCATTER    ? tupc_team_scatter(d0, sr, nb, f, tm)
                              : v == GATHER_ALL ? tupc_team_gather_all(d0, s0, nb, f, tm)
                              : v == PERMUTE ? tupc_team_permute(d0, s0, at(perm, 0, 0), nb, f, tm)
                                             : tupc_team_exchange(d0, s0, nb, f, tm);
        CHECK(h != UPC_HANDLE_COMPLETE);
        upc_wait(h);
        const size_t dlen = v == BROADCAST || v == SCATTER || v == PERMUTE ? nb : len;
        for (size_t k = 0; k < dlen; k++)
            if (part(dst, me, 0)[k] != expect(v, nb, T, rank, root_rank, 1, r, k)) {
                fprintf(stderr, "late posted %s on %s: thread %d byte %zu is %d\n", names[v],
                        split ? "a split team" : "UPC_TEAM_ALL", me, k, part(dst, me, 0)[k]);
                CHECK(0);
            }
        upc_barrier();
    }
    tupc_team_free(&t);
    upc_all_free(perm);
    upc_all_free(dst);
    upc_all_free(src);
}

/* ---- Sort ---------------------------------------------------------------- */

/* An element: a key with many equal ones, and its original index. */
struct kv {
    int key, at;
};
static int by_key(tupc_sptr_t x, tupc_sptr_t y)
{
    const struct kv *a = (const struct kv *)x.addr, *b = (const struct kv *)y.addr;
    return (a->key > b->key) - (a->key < b->key);
}

/* upc_all_sort (tm: UPC_TEAM_ALL) or tupc_team_sort of n elements shared
 * [B] over every thread from element off; rank 0 checks that the keys are
 * sorted, the equal ones in their first order (stable), and that every
 * element is there once, and the elements around untouched. */
static void sort_check(upc_team_t tm, size_t n, size_t B, size_t off, int r, upc_flag_t flags)
{
    const int me = MYTHREAD;
    const size_t es = sizeof(struct kv);
    tupc_sptr_t base = pool.a[0];
    tupc_sptr_t A = tupc_ptr_add(base, (ptrdiff_t)off, B, es);
    CHECK((n + off + B * (size_t)THREADS + 2) * es <= POOL);
    for (ptrdiff_t i = off ? -1 : 0; i <= (ptrdiff_t)n; i++) {
        tupc_sptr_t e = tupc_ptr_add(A, i, B, es);
        struct kv v = {i >= 0 && i < (ptrdiff_t)n ? (int)((i * 7919 + r) % 13) : -5, (int)i};
        if ((int)upc_threadof(e) == me)
            upc_memput(e, &v, es);
    }
    upc_barrier();
    if (tm != TUPC_TEAM_NONE) {
        if (tm == UPC_TEAM_ALL)
            upc_all_sort(A, es, n, B, by_key, flags);
        else
            tupc_team_sort(A, es, n, B, by_key, flags, tm);
        if (flags & UPC_OUT_NOSYNC)
            tupc_team_barrier(tm);
        if (tupc_team_rank(tm) == 0) {
            char *seen = calloc(n + 1, 1);
            CHECK(seen);
            struct kv prev = {-1, -1}, v;
            for (ptrdiff_t i = off ? -1 : 0; i <= (ptrdiff_t)n; i++) {
                upc_memget(&v, tupc_ptr_add(A, i, B, es), es);
                if (i < 0 || i == (ptrdiff_t)n) {
                    CHECK(v.key == -5 && v.at == (int)i);
                    continue;
                }
                if (v.at < 0 || v.at >= (int)n || seen[v.at] ||
                    v.key != (int)(((size_t)v.at * 7919 + (size_t)r) % 13) || v.key < prev.key ||
                    (v.key == prev.key && v.at < prev.at)) {
                    fprintf(stderr, "sort n %zu B %zu off %zu: [%td] is (%d, %d) after (%d, %d)\n",
                            n, B, off, i, v.key, v.at, prev.key, prev.at);
                    CHECK(0);
                }
                seen[v.at] = 1;
                prev = v;
            }
            free(seen);
        }
    }
    upc_barrier();
}

/* ---- The _x forms -------------------------------------------------------- */

/* One block an _x call moves: from (st, so) to (dt, doff), len bytes; k
 * its index in the call's dst array, from its index in src's and
 * nbytes' (and perm's). */
struct move {
    int st, so, dt, doff, len;
    size_t k, from;
};
#define XMAX 4096

/* What source byte `at` of thread t holds in round r. */
static unsigned char P(int t, int at, int r)
{
    return (unsigned char)(t * 31 + at * 7 + (at >> 8) + r * 13 + 3);
}

/* The moves of _x verb v on a team of n members on threads th[] in round
 * r (every thread computes the same): root-side blocks on any thread, a
 * broadcast's src on a thread after the root's. */
static int moves(int v, int n, const int *th, int r, struct move *mv)
{
    const int T = THREADS, root = r % n, shift = r % n + 1;
    int nm = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < (v == 3 || v == 4 || v == 6 ? n : 1); b++) {
            const int len = 1 + (a * 7 + b * 3 + r) % 50;
            const size_t A = (size_t)a, B = (size_t)b, N = (size_t)n;
            struct move m;
            switch (v) {
            case 0: /* broadcast */
                m = (struct move){(th[root] + 1) % T, 300, th[a], 64, 1 + r % 90, A, 0};
                break;
            case 1: /* scatter: src[a] anywhere to dst[a] on a */
                m = (struct move){(a * 3 + 1) % T, 500 + a * 11, th[a], 0, len, A, A};
                break;
            case 2: /* gather: src[a] on a to dst[a] anywhere */
                m = (struct move){th[a], 200 + a, (a * 5 + 2) % T, 4096 + a * 128, len, A, A};
                break;
            case 3: /* gather_all: src[a] to dst[b * n + a] on b */
                m = (struct move){th[a], 700, th[b], a * 128, 1 + (a * 7 + r) % 50, B * N + A, A};
                break;
            case 4: /* exchange: src[a * n + b] on a to dst[b * n + a] on b */
                m = (struct move){th[a], 900 + b * 3, th[b], a * 128, len, B * N + A, A * N + B};
                break;
            case 5: /* permute: src[a] to dst[perm[a]] */
                m = (struct move){
                    th[a], 1000, th[(a + shift) % n], 0, len, (size_t)((a + shift) % n), A};
                break;
            case 6: /* exchange in place: dst[a * n + b] (on a) to dst[b * n + a] (on b) */
                m = (struct move){th[a], b * 128, th[b], a * 128, len, B * N + A, A * N + B};
                break;
            default: /* permute in place: dst[a] to dst[perm[a]] */
                m = (struct move){th[a], 0, th[(a + shift) % n], 0, len, (size_t)((a + shift) % n),
                                  A};
            }
            mv[nm++] = m;
        }
    return nm;
}

/* Entry k of a shared [blk] array, written by thread 0. */
static void put_entry(tupc_sptr_t arr, size_t k, size_t blk, const void *v, size_t es)
{
    if (MYTHREAD == 0)
        upc_memput(tupc_ptr_add(arr, (ptrdiff_t)k, blk, es), v, es);
}

/* Each of the six _x forms on the team of n members on threads th[] (tm:
 * the caller's handle of it, TUPC_TEAM_NONE for a non-member), pulled and
 * pushed; every thread calls (the allocations and barriers are every
 * thread's) and checks the blocks that land in its partition, and the byte
 * after each. */
static void x_forms(upc_team_t tm, int n, const int *th, int r, upc_flag_t flags)
{
    const int me = MYTHREAD;
    /* Every thread's part of each array as large (whole courses of blocks):
     * the views shared [1] and shared [THREADS] of it then fit. */
    const size_t TT = (size_t)THREADS, N = (size_t)n, rows = ((N * N + TT - 1) / TT + 1) * TT;
    tupc_sptr_t dsts = upc_all_alloc(rows, TT * sizeof(tupc_sptr_t));
    tupc_sptr_t srcs = upc_all_alloc(rows, TT * sizeof(tupc_sptr_t));
    tupc_sptr_t sizes = upc_all_alloc(rows, TT * sizeof(size_t));
    tupc_sptr_t perm = upc_all_alloc(TT, sizeof(int));
    CHECK(!tupc_isnull(dsts) && !tupc_isnull(srcs) && !tupc_isnull(sizes) && !tupc_isnull(perm));
    struct move *mv = malloc(sizeof *mv * XMAX);
    CHECK(mv && N * N <= XMAX);
    for (int v = 0; v < 8; v++)
        for (int push = 0; push < 2; push++, r++) {
            const int nm = moves(v, n, th, r, mv), in_place = v >= 6;
            const size_t blk = v == 3 || v == 4 || v == 6 ? TT : 1,
                         sblk = v == 4 || v == 6 ? TT : 1;
            /* In place the blocks start in dst: their bytes are the pattern,
             * and what a block does not receive keeps it. */
            for (int k = 0; k < 16384; k++) {
                part(pool.s, me, 0)[k] = P(me, k, r);
                part(pool.d, me, 0)[k] = in_place ? P(me, k, r) : FILL;
            }
            for (int i = 0; i < nm; i++) {
                const struct move *m = &mv[i];
                tupc_sptr_t d = at(pool.d, m->dt, (size_t)m->doff),
                            sp = at(pool.s, m->st, (size_t)m->so);
                size_t len = (size_t)m->len;
                put_entry(dsts, m->k, blk, &d, sizeof d);
                put_entry(srcs, m->from, sblk, &sp, sizeof sp);
                put_entry(sizes, m->from, sblk, &len, sizeof len);
                if (v == 5 || v == 7) {
                    int to = (int)m->k;
                    put_entry(perm, m->from, 1, &to, sizeof to);
                }
            }
            upc_barrier();
            if (tm != TUPC_TEAM_NONE) {
                const upc_flag_t mode = flags | (push ? UPC_PUSH : UPC_PULL);
                switch (v) {
                case 0:
                    upc_all_broadcast_x(dsts, at(pool.s, mv[0].st, 300), (size_t)mv[0].len, mode,
                                        tm);
                    break;
                case 1:
                    upc_all_scatter_x(dsts, srcs, sizes, mode, tm);
                    break;
                case 2:
                    upc_all_gather_x(dsts, srcs, sizes, mode, tm);
                    break;
                case 3:
                    upc_all_gather_all_x(dsts, srcs, sizes, mode, tm);
                    break;
                case 4:
                    upc_all_exchange_x(dsts, srcs, sizes, mode, tm);
                    break;
                case 5:
                    upc_all_permute_x(dsts, srcs, perm, sizes, mode, tm);
                    break;
                case 6:
                    upc_all_exchange_x(dsts, UPC_IN_PLACE, sizes, mode, tm);
                    break;
                default:
                    upc_all_permute_x(dsts, UPC_IN_PLACE, perm, sizes, mode, tm);
                }
            }
            upc_barrier();
            for (int i = 0; i < nm; i++) {
                const struct move *m = &mv[i];
                if (m->dt != me)
                    continue;
                const unsigned char *d = part(pool.d, me, (size_t)m->doff);
                for (int k = 0; k <= m->len; k++) {
                    int want = k < m->len ? P(m->st, m->so + k, r)
                               : in_place ? P(m->dt, m->doff + k, r)
                                          : FILL;
                    if (d[k] != want) {
                        fprintf(stderr,
                                "_x verb %d %s round %d flags %#x: block %d (%d bytes from thread "
                                "%d) byte %d on thread %d is %d, expected %d\n",
                                v, push ? "push" : "pull", r, (unsigned)flags, i, m->len, m->st, k,
                                me, d[k], want);
                        CHECK(0);
                    }
                }
            }
            upc_barrier();
        }
    free(mv);
    upc_all_free(perm);
    upc_all_free(sizes);
    upc_all_free(srcs);
    upc_all_free(dsts);
}

/* A block past the sizes where a team's gather_all (32 KiB in all) and
 * exchange (8 KiB a process) move blocks where they lie: 9000 bytes, or
 * what the pool holds for every thread's. */
static size_t big_block(void)
{
    const size_t most = (POOL - 2 * G) / (size_t)THREADS;
    return most < 9000 ? most : 9000;
}

/* 40 small broadcasts, then 40 scatters, then 40 gathers back to back
 * under MY|MY on tm, no barrier between them: the leaders run up to
 * TUPC_HIER_SLOTS calls ahead of members that wait for a CPU (their
 * slots), each member checks its dst after each call, and the src writers
 * rewrite their src for the next call as soon as theirs returns. Every
 * call's bytes are its own. */
static void run_ahead(upc_team_t tm, int r)
{
    if (tm == TUPC_TEAM_NONE)
        return;
    const int n = tupc_team_size(tm), me = tupc_team_rank(tm), mine = MYTHREAD;
    const upc_flag_t my = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
    const size_t nb = 7;
    CHECK((size_t)n * nb <= POOL);
    for (int i = 0; i < 3 * 40; i++) {
        const int v = i / 40, root = i % n, rt = tupc_team_thread(tm, root);
        const int round = r + i;
        unsigned char *s = part(pool.s, mine, 0), *d = part(pool.d, mine, 0);
        if (v == 0 && me == root) /* broadcast: the root's nb bytes */
            for (size_t k = 0; k < nb; k++)
                s[k] = S(root, k, round);
        if (v == 1 && me == root) /* scatter: a block per rank */
            for (size_t k = 0; k < (size_t)n * nb; k++)
                s[k] = S((int)(k / nb), k % nb, round);
        if (v == 2) /* gather: each rank's block */
            for (size_t k = 0; k < nb; k++)
                s[k] = S(me, k, round);
        if (v == 0)
            tupc_team_broadcast(pool.d, at(pool.s, rt, 0), nb, my, tm);
        else if (v == 1)
            tupc_team_scatter(pool.d, at(pool.s, rt, 0), nb, my, tm);
        else
            tupc_team_gather(at(pool.d, rt, 0), pool.s, nb, my, tm);
        if (v != 2)
            for (size_t k = 0; k < nb; k++)
                CHECK(d[k] == S(v == 0 ? root : me, k, round));
        else if (me == root)
            for (size_t k = 0; k < (size_t)n * nb; k++)
                CHECK(d[k] == S((int)(k / nb), k % nb, round));
    }
    tupc_team_barrier(tm);
}

/* ---- The run ------------------------------------------------------------- */

static void on_team(upc_team_t tm, int c, int *r)
{
    static const size_t sizes[] = {1, 13, 3000};
    for (int v = 0; v < NVERBS; v++)
        for (int s = 0; s < 3; s++, (*r)++)
            reloc(tm, (enum verb)v, sizes[s], *r, modes[*r % NMODES]);
    static const upc_op_t ops[] = {UPC_ADD,    UPC_MULT, UPC_MAX,         UPC_XOR,
                                   UPC_LOGAND, UPC_FUNC, UPC_NONCOMM_FUNC};
    static const size_t shapes[][3] = {{1, 1, 0},     {40, 3, 2},  {40, 0, 5},
                                       {1000, 64, 7}, {257, 5, 0}, {600, 1, 1}};
    static const upc_flag_t extras[] = {0, UPC_EXCLUSIVE_PREFIX_REDUCE, UPC_IN_PLACE};
    /* Each operator on half the shapes, each shape under every operator
     * once in two splits. */
    for (int o = 0; o < 7; o++)
        for (int k = 0; k < 3; k++, (*r)++) {
            int s = (o + 2 * k + *r / 21) % 6;
            red(tm, c, shapes[s][0], shapes[s][1], shapes[s][2], *r, ops[o], modes[*r % NMODES],
                extras[*r % 3]);
        }
}

/* Reductions posted on UPC_TEAM_ALL (each process's fold a job, its
 * partial a message; by blocks for UPC_NONCOMM_FUNC and the prefix, each
 * process's block totals a message): every operator on every shape under
 * the modes that post (OUT_ALLSYNC runs at posting), reduce, reduce_all
 * and the prefix (inclusive, exclusive, in place) in flight at once. */
static void posted_reductions(int *r, int quick)
{
    static const upc_op_t ops[] = {UPC_ADD,    UPC_MULT, UPC_MAX,         UPC_XOR,
                                   UPC_LOGAND, UPC_FUNC, UPC_NONCOMM_FUNC};
    static const size_t shapes[][3] = {{1, 1, 0},   {40, 3, 2},  {40, 0, 5}, {1000, 64, 7},
                                       {257, 5, 0}, {600, 1, 1}, {0, 3, 0}};
    static const upc_flag_t posts[] = {
        UPC_IN_NOSYNC | UPC_OUT_NOSYNC, UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
        UPC_IN_ALLSYNC | UPC_OUT_NOSYNC, UPC_IN_NOSYNC | UPC_OUT_MYSYNC};
    static const upc_flag_t extras[] = {0, UPC_EXCLUSIVE_PREFIX_REDUCE, UPC_IN_PLACE};
    for (int o = 0; o < 7; o++)
        for (int s = 0; s < 7; s++)
            for (int m = 0; m < (quick ? 1 : 4); m++, (*r)++)
                red(UPC_TEAM_ALL, 0, shapes[s][0], shapes[s][1], shapes[s][2], *r, ops[o],
                    posts[(m + s + o) % 4] | UPC_ASYNC, extras[(m + s) % 3]);
    /* On splits: interleaved (its processes are all at 2 x 2 and 3 x 2,
     * half at 4 x 1, where only the elements it holds let it post), ranked
     * backwards (its processes combine in the other order), and halves
     * (one process each at 2 x 2). */
    static const int kinds[] = {0, 1, 3};
    for (int k = 0; k < 3; k++) {
        upc_team_t tm = split(UPC_TEAM_ALL, kinds[k]);
        const int c = colour_of(kinds[k], MYTHREAD, THREADS);
        for (int o = 0; o < 7; o++)
            for (int s = 0; s < 7; s++, (*r)++)
                if (!quick || (o + s + k) % 3 == 0)
                    red(tm, c, shapes[s][0], shapes[s][1], shapes[s][2], *r, ops[o],
                        posts[(s + o + k) % 4] | UPC_ASYNC, 0);
        tupc_team_free(&tm);
    }
}

/* Posted reductions completed in an order that differs between processes
 * (thread 0's last first): a process whose one runner waits in a
 * later post's job must still send an earlier post's partial, which
 * another process waits for (run on one CPU too, where no progress
 * thread runs the queued jobs). */
static void posted_out_of_order(int r)
{
    const int T = THREADS, me = MYTHREAD, K = 4;
    tupc_sptr_t src = upc_all_alloc((size_t)T, sizeof(long)),
                dst = upc_all_alloc((size_t)T, (size_t)K * sizeof(long));
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst));
    *(long *)part(src, me, 0) = (long)me + r;
    upc_barrier();
    upc_coll_handle_t h[4];
    for (int k = 0; k < K; k++)
        h[k] = tupc_team_reduce_allL(at(dst, 0, (size_t)k * sizeof(long)), at(src, 0, 0),
                                     k % 2 ? UPC_MAX : UPC_ADD, (size_t)T, 1, NULL,
                                     UPC_IN_ALLSYNC | UPC_OUT_NOSYNC | UPC_ASYNC, UPC_TEAM_ALL);
    /* Thread 0's process, whose data this thread can cast, last first. */
    const int backwards = upc_thread_info(0).guaranteedCastable != 0;
    for (int k = 0; k < K; k++)
        upc_wait(h[backwards ? K - 1 - k : k]);
    for (int k = 0; k < K; k++) {
        const long got = ((const long *)part(dst, me, 0))[k];
        CHECK(got == (k % 2 ? (long)T - 1 + r : (long)T * (T - 1) / 2 + (long)T * r));
    }
    upc_barrier();
    upc_all_free(dst);
    upc_all_free(src);
}

/* Posted reductions that one process completes before a barrier and the
 * others after it (legal: completion calls are not collective). The
 * processes that wait first wait for partials from the others, whose
 * threads sit in the barrier: someone there must run their jobs though no
 * thread of theirs is in a completion call (with no CPU free for a
 * progress thread, at 2 x 2 on 2 CPUs and on one CPU, it hung). On
 * UPC_TEAM_ALL (each process's fold a job) and on the interleaved split
 * (by index ranges, a job in steps). */
static void posted_past_barrier(int r)
{
    const int T = THREADS, me = MYTHREAD;
    tupc_sptr_t src = upc_all_alloc((size_t)T, sizeof(long)),
                dst = upc_all_alloc((size_t)T, 2 * sizeof(long));
    CHECK(!tupc_isnull(src) && !tupc_isnull(dst));
    *(long *)part(src, me, 0) = (long)me + r;
    upc_team_t t = split(UPC_TEAM_ALL, 0);
    const int root = tupc_team_thread(t, tupc_team_size(t) - 1);
    upc_barrier();
    const upc_flag_t f = UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
    upc_coll_handle_t h[2];
    h[0] = tupc_team_reduce_allL(at(dst, 0, 0), at(src, 0, 0), UPC_ADD, (size_t)T, 1, NULL, f,
                                 UPC_TEAM_ALL);
    h[1] = tupc_team_reduceL(at(dst, root, sizeof(long)), src, UPC_MAX, (size_t)T, 1, NULL, f, t);
    const int first = upc_thread_info(0).guaranteedCastable != 0; /* thread 0's process */
    if (first)
        upc_waitall(2, h);
    upc_barrier();
    if (!first)
        upc_waitall(2, h);
    CHECK(((const long *)part(dst, me, 0))[0] == (long)T * (T - 1) / 2 + (long)T * r);
    if (me == root) /* the largest element of the team's src: every thread's */
        CHECK(((const long *)part(dst, me, 0))[1] == (long)T - 1 + r);
    upc_barrier();
    tupc_team_free(&t);
    upc_all_free(dst);
    upc_all_free(src);
}

/* Posted reduce_all of doubles that round: every thread's element holds
 * the same bits, the same again when posted again (the order of the
 * combination is fixed), close to the serial sum. */
static void posted_doubles(int r)
{
    const int T = THREADS, me = MYTHREAD;
    const size_t n = 5000, B = 7;
    tupc_sptr_t a = upc_all_alloc((n + B - 1) / B, B * sizeof(double));
    tupc_sptr_t d = upc_all_alloc((size_t)T, 2 * sizeof(double));
    CHECK(!tupc_isnull(a) && !tupc_isnull(d));
    double want = 0;
    for (size_t i = 0; i < n; i++) {
        const double x = 1.0 / (double)(i + 1 + (size_t)r);
        want += x;
        tupc_sptr_t e = tupc_ptr_add(a, (ptrdiff_t)i, B, sizeof(double));
        if ((int)e.thread == me)
            *(double *)e.addr = x;
    }
    upc_barrier();
    const upc_flag_t f = UPC_IN_ALLSYNC | UPC_OUT_MYSYNC | UPC_ASYNC;
    upc_coll_handle_t h[2];
    for (int k = 0; k < 2; k++)
        h[k] = tupc_team_reduce_allD(at(d, 0, k * sizeof(double)), a, UPC_ADD, n, B, NULL, f,
                                     UPC_TEAM_ALL);
    upc_wait(h[1]);
    upc_wait(h[0]);
    const double *mine = (const double *)part(d, me, 0);
    CHECK(memcmp(&mine[0], &mine[1], sizeof(double)) == 0);
    CHECK(mine[0] > want * (1 - 1e-12) && mine[0] < want * (1 + 1e-12));
    upc_barrier();
    double first;
    upc_memget(&first, at(d, 0, 0), sizeof first);
    CHECK(memcmp(&first, mine, sizeof(double)) == 0);
    upc_barrier();
    upc_all_free(d);
    upc_all_free(a);
}

int tupc_main(int argc, char **argv)
{
    CHECK(THREADS == expected_threads(argc, argv));
    /* quick: the interleaved split, one round of each of the rest (over TCP, where each transfer
     * costs a network round trip, for every push's CI). */
    const int quick = argc > 2 && strcmp(argv[2], "quick") == 0;
    const int T = THREADS;
    pool_alloc();
    int r = 0;
    for (int k = 0; k < (quick ? 1 : 4); k++) {
        upc_team_t tm = split(UPC_TEAM_ALL, k);
        int c = colour_of(k, MYTHREAD, T);
        if (tm != TUPC_TEAM_NONE) {
            tupc_team_barrier(tm);
            tupc_team_barrier(tm);
        }
        on_team(tm, c < 0 ? 0 : c, &r);
        if (k == 0 && tm != TUPC_TEAM_NONE) { /* teams nest */
            upc_team_t sub = split(tm, 0);
            CHECK(sub != TUPC_TEAM_NONE);
            tupc_team_free(&sub);
            CHECK(sub == TUPC_TEAM_NONE);
        }
        if (k != 1 && tm != TUPC_TEAM_NONE)
            tupc_team_free(&tm); /* one ends with the run */
        upc_barrier();
    }
    /* Small team permutes whose processes hold several members (kind 3:
     * at 3 x 2 ranks 0 and 1 in one process, 2 in the next). */
    {
        upc_team_t h = split(UPC_TEAM_ALL, 3);
        for (int m = 0; m < 3; m++, r++)
            reloc(h, PERMUTE, 13, r, modes[m]);
        /* Processes that hold 2 members and 1 (at 3 x 2) must choose the
         * same path for the exchange and gather_all that move blocks where
         * they lie (one chose by its own count of members, and its MPI
         * calls did not match the other's). */
        for (int m = 0; m < 2; m++, r++) {
            reloc(h, EXCHANGE, 3000, r, modes[m]);
            reloc(h, GATHER_ALL, big_block(), r, modes[m]);
        }
        run_ahead(h, r);
        r += 120;
        if (h != TUPC_TEAM_NONE)
            tupc_team_free(&h);
        upc_barrier();
    }
    /* Teams of every thread, several members in each process: ranked as
     * the threads (past 32 KiB a gather_all, past 8 KiB an exchange moves
     * the blocks where they lie: under every mode) and backwards. */
    for (int k = 4; k < 6; k++) {
        upc_team_t w = split(UPC_TEAM_ALL, k);
        static const size_t wsizes[] = {13, 3000};
        for (int v = 0; v < NVERBS; v++)
            for (int s = 0; s < 2; s++, r++)
                reloc(w, (enum verb)v, wsizes[s], r, modes[r % NMODES]);
        for (int m = 0; m < NMODES; m++, r++) {
            reloc(w, GATHER_ALL, big_block(), r, modes[m]);
            reloc(w, EXCHANGE, big_block(), r, modes[m]);
            for (int v = BROADCAST; v <= GATHER; v++) /* through the slots */
                reloc(w, (enum verb)v, 13, r, modes[m]);
        }
        run_ahead(w, r);
        r += 120;
        tupc_team_free(&w);
        upc_barrier();
    }
    /* A nested team's collectives: from the interleaved split, by rank. */
    upc_team_t a = split(UPC_TEAM_ALL, 0), b = split(a, 1);
    reloc(b, BROADCAST, 100, r++, modes[0]);
    reloc(b, EXCHANGE, 7, r++, modes[1]);
    red(b, 2 * (MYTHREAD % 2) + tupc_team_rank(a) % 2, 257, 5, 0, r++, UPC_NONCOMM_FUNC, modes[2],
        UPC_EXCLUSIVE_PREFIX_REDUCE);
    tupc_team_free(&b);
    tupc_team_free(&a);
    for (int i = 0; i < (quick ? 1 : 4); i++)
        posted(r++);
    prefix_apart(r);
    r += 24;
    posted_late(r);
    r += 10;
    late_reductions(r);
    r += 8;
    posted_reductions(&r, quick);
    posted_out_of_order(r++);
    posted_past_barrier(r++);
    posted_doubles(r++);
    /* Every relocalization posted on UPC_TEAM_ALL, under each mode
     * (OUT_ALLSYNC runs at posting), every byte with the guards. */
    for (int v = 0; v < NVERBS; v++)
        for (int m = 0; m < (quick ? 2 : NMODES); m++, r++)
            reloc(UPC_TEAM_ALL, (enum verb)v, m % 2 ? 3000 : 13, r, modes[m] | UPC_ASYNC);
    /* A posted permute past 8 KiB a process (two threads a process: one
     * MPI_Ialltoallw of the blocks where they lie), under each mode. */
    for (int m = 0; m < NMODES; m++, r++)
        reloc(UPC_TEAM_ALL, PERMUTE, 5000, r, modes[m] | UPC_ASYNC);
    {
        /* Every relocalization posted on the interleaved split, on its
         * communicator. */
        upc_team_t pt = split(UPC_TEAM_ALL, 0);
        for (int v = 0; v < NVERBS; v++)
            for (int m = 0; m < (quick ? 2 : NMODES); m++, r++)
                reloc(pt, (enum verb)v, m % 2 ? 3000 : 13, r, modes[m] | UPC_ASYNC);
        tupc_team_free(&pt);
        /* Posted on teams of every thread and on the halves (several
         * members a process; 2 and 1 at 3 x 2), past the sizes where a
         * gather_all and an exchange move the blocks where they lie. */
        static const int kinds[] = {4, 5, 3};
        for (int kk = 0; kk < 3; kk++) {
            upc_team_t w = split(UPC_TEAM_ALL, kinds[kk]);
            for (int m = 0; m < (quick ? 2 : NMODES); m++, r++) {
                reloc(w, GATHER_ALL, big_block(), r, modes[m] | UPC_ASYNC);
                reloc(w, EXCHANGE, 3000, r, modes[m] | UPC_ASYNC);
            }
            tupc_team_free(&w);
        }
    }
    {
        int th[64], n = 0;
        for (int t = 0; t < T; t++)
            th[t] = t;
        for (int m = 0; m < (quick ? 1 : 3); m++, r += 12)
            x_forms(UPC_TEAM_ALL, T, th, r, modes[m]);
        /* The interleaved split ranked backwards, colour 0's team: the even
         * threads from the highest down; the others sit it out. */
        for (int t = T - 1; t >= 0; t--)
            if (t % 2 == 0)
                th[n++] = t;
        upc_team_t xt = split(UPC_TEAM_ALL, 1);
        for (int m = 3; m < (quick ? 4 : NMODES); m++, r += 12)
            x_forms(MYTHREAD % 2 ? TUPC_TEAM_NONE : xt, n, th, r, modes[m]);
        tupc_team_free(&xt);
    }
    static const size_t sorts[][3] = {{1, 1, 0}, {2, 0, 0}, {300, 1, 1}, {500, 5, 3}, {77, 0, 2}};
    for (int i = quick ? 3 : 0; i < 5; i++, r++) {
        sort_check(UPC_TEAM_ALL, sorts[i][0], sorts[i][1], sorts[i][2], r, modes[r % NMODES]);
        upc_team_t st = split(UPC_TEAM_ALL, 1); /* interleaved, ranked backwards */
        sort_check(MYTHREAD % 2 ? TUPC_TEAM_NONE : st, sorts[i][0], sorts[i][1], sorts[i][2], r,
                   modes[(r + 1) % NMODES]);
        tupc_team_free(&st);
    }
    /* Many splits and frees in a row: handles, communicators and parts go. */
    for (int i = 0; i < (quick ? 10 : 60); i++) {
        upc_team_t t = split(UPC_TEAM_ALL, i % 3);
        if (t != TUPC_TEAM_NONE)
            tupc_team_free(&t);
    }
    upc_barrier();
    if (MYTHREAD == 0)
        printf("mpi_team: %d THREADS: every team call gave the spec's answer\n", THREADS);
    return 0;
}
