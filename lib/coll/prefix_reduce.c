/* upc_all_prefix_reduceT (UPC 1.3 7.4.3.1), with the kernels of reduce.c.
 *
 * Checks: op and func against the type, flags, src and dst (null, phase
 * below blk_size, extent), and para 10: src and dst have the same thread and
 * phase, so dst[i] lies in the partition of src[i].
 * Touches: pieces are index ranges in key order (reduce_types.h). When each
 * thread holds at most one block (LOCAL) a thread reads its own src, writes
 * its own dst and reads the scratch slots of the threads before it; with
 * more blocks (CHUNK) thread k reads and writes the k-th index range, in any
 * partition.
 * Work: each piece but the last reduces its src (the vectorised kernel) and
 * publishes the partial; then it combines the partials of the pieces before
 * it in key order into a seed and scans its piece from that seed. So src is
 * read twice except by the last piece, and no thread waits for more than
 * the partials before it.
 * Large arrays (TILED_MIN_BYTES and more, LOCAL layout) take the tiled path
 * below instead: src is read from memory once, every thread reads and
 * writes tiles in any partition (IN_MYSYNC waits for every thread,
 * OUT_MYSYNC is a barrier), and threads hand partials over once per round.
 * Sync: OUT_ALLSYNC is a barrier (every thread writes output); OUT_MYSYNC
 * needs no wait in the LOCAL case and waits for every thread with CHUNK.
 * In place (UPC_IN_PLACE as src or in flags, Extended Collectives 0.3 5.2
 * and footnote 5): src is dst. Every path but the direct one reads each
 * element of src only in the piece or tile of the thread that writes it,
 * before writing it, so those run in place as they are; the direct path
 * reads other threads' src and is not taken.
 * Exclusive (UPC_EXCLUSIVE_PREFIX_REDUCE in flags, 0.3 section 4 item 8 and
 * 5.5.1 item 3): every path as above, at the same cost, with kernels that
 * store the running value before they add the element in; dst[0], undefined
 * by the text, is not written. The exclusive dst[i] is the inclusive dst[i -
 * 1] bit for bit, except where a piece or tile starts: there it is the seed,
 * the partials before it combined, and the inclusive scan has the same sum
 * from its own running value (floating sums may differ in the last bits). */
#include "observe/trace.h"
#include "coll/reduce_types.h"

#include <upc_collective_ext.h>

#include "check/error.h"
#include "coll/scan_lines.h"
#include "coll/syncmode.h"
#include "heap/heap.h"
#include "sync/wait.h"
#if TUPC_HAVE_MPI
#include "mpi/team.h"
#endif

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Scans m elements of the piece at index lo (src and dst walk alike). */
static void scan_piece(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                       tupc_sptr_t dst, size_t lo, size_t m, upc_op_t op, tupc_red_fn f,
                       const void *seed, int excl)
{
    tupc_sptr_t s = tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es);
    tupc_sptr_t d = tupc_ptr_add(dst, (ptrdiff_t)lo, L->B, L->es);
    union tupc_red_val carry;
    for (size_t left = m; left;) {
        size_t r = tupc_red_run(L, s, left);
        ty->scan(op, f, d.addr, s.addr, r, seed, excl, &carry);
        seed = &carry;
        left -= r;
        if (left) {
            s = tupc_ptr_add(s, (ptrdiff_t)r, L->B, L->es);
            d = tupc_ptr_add(d, (ptrdiff_t)r, L->B, L->es);
        }
    }
}

/* ---- Tiled path: large arrays, one contiguous run per thread or B == 0 ----
 *
 * The pieces (key order = index order) are cut into tiles of TILE_BYTES;
 * tile g goes to thread g % THREADS in round g / THREADS. In a round each
 * thread reduces its tile (from memory, into its cache), publishes the
 * partial, combines the partials before its tile into a seed and scans the
 * tile from cache. src is read from memory once. Every thread combines the
 * partials in tile order with the same operations, so the carry into each
 * round is bit-identical in every thread and the result depends on the
 * input alone (the grouping is fixed by TILE_BYTES and the tile split). */
/* 1 MiB: with the fused loop below, 64 MiB of doubles at 2 threads took
 * 3.3-4.2 ms in tiles of 1 MiB, 3.4-4.9 ms at 512 KiB, 4.0-6.3 ms at 256 KiB,
 * 4.0-4.8 ms at 2 MiB and 4.0-5.5 ms at 4 MiB (runs interleaved; L2 here is
 * 1 MiB per core): a tile being scanned and the next one being read fit in
 * L2 and L3 together, and larger tiles keep the hardware prefetcher on one
 * stream longer. */
#define TILE_BYTES ((size_t)1 << 20)
#define TILED_MIN_BYTES ((size_t)2 << 20)
#define NT_MIN_BYTES ((size_t)16 << 20) /* dst this large will not stay in cache */
#define RING 4

/* The round counter and partials of one thread, in its scratch slot. cnt is
 * set to 1 before tupc_coll_publish (so it is valid for this call once
 * published >= seq is seen) and to r + 1 when the partial of round r is in
 * ring[r % RING]. A thread writes round r + RING only after every thread
 * has published round r + RING - 1, i.e. has finished round r + RING - 2,
 * the last round that reads round r (the carry): RING >= 3 is enough. */
struct round_slot {
    tupc_word cnt;
    union tupc_red_val ring[RING];
};
_Static_assert(sizeof(struct round_slot) <= TUPC_SCRATCH_BYTES, "round slot fits the scratch");

/* Tiles of the array, and where tile g lies (its length; 0 past the end). */
static size_t tile_at(const struct tupc_red_lay *L, tupc_sptr_t dst, size_t ts, size_t g, char **s,
                      char **d)
{
    for (int k = 0; k < L->T; k++) {
        size_t lo, m = tupc_red_piece(L, k, &lo), nt = (m + ts - 1) / ts;
        if (g >= nt) {
            g -= nt;
            continue;
        }
        size_t at = lo + g * ts;
        *s = tupc_ptr_add(L->src, (ptrdiff_t)at, L->B, L->es).addr;
        *d = tupc_ptr_add(dst, (ptrdiff_t)at, L->B, L->es).addr;
        return m - g * ts < ts ? m - g * ts : ts;
    }
    return 0;
}

static size_t tiles_total(const struct tupc_red_lay *L, size_t ts)
{
    size_t nt = 0;
    for (int k = 0; k < L->T; k++) {
        size_t lo, m = tupc_red_piece(L, k, &lo);
        nt += (m + ts - 1) / ts;
    }
    return nt;
}

/* Fast scans: UPC_ADD on 8-byte types, two lanes at a time. Each 64-byte
 * line of dst is scanned in registers (pairs, then across the four pairs:
 * independent of the carry, so lines overlap), then the carry from the line
 * before is added: the one serial dependency is one add per line instead of
 * one per element. dst is written line by line in order, so streaming stores
 * fill whole lines. The first elements up to a line boundary of dst and the
 * last partial line go through the serial kernel.
 *
 * Fused with the reduction of the next tile: while a thread scans tile r
 * (from its cache, writing dst), the same loop reads tile r + 1 from memory
 * and sums it, 8 elements at a time into 8 lanes. Memory then sees reads and
 * writes together all the time, as in a copy, instead of a read phase (the
 * reduction) and a write phase (the scan) in turn. */
enum fast { FAST_NONE, FAST_D, FAST_L };

#if defined(__SSE2__)
/* One line: 8 elements of s from i, scanned, plus carry c, stored at d + i.
 * Exclusive (EX 1): the line's values moved up by one, the carry first:
 * element k + 1 gets c + p_k, the very sum the inclusive form stores at k,
 * and element 0 gets c + (-0.0 or 0), which is c; so an exclusive scan is
 * bit for bit the inclusive one shifted. The moves are off the carry's path. */
#define SEL_1(ex, in) ex
#define SEL_0(ex, in) in
#define SCAN_LINE(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, STORE, EX)                                    \
    do {                                                                                           \
        V x0 = LOAD(s + i), x1 = LOAD(s + i + 2), x2 = LOAD(s + i + 4), x3 = LOAD(s + i + 6);      \
        x0 = ADD(x0, SHIFT_IN(x0)); /* [a, a + b] */                                               \
        x1 = ADD(x1, SHIFT_IN(x1));                                                                \
        x2 = ADD(x2, SHIFT_IN(x2));                                                                \
        x3 = ADD(x3, SHIFT_IN(x3));                                                                \
        x1 = ADD(x1, HI2(x0));                                                                     \
        x2 = ADD(x2, HI2(x1));                                                                     \
        x3 = ADD(x3, HI2(x2));                                                                     \
        STORE(d + i, ADD(c, SEL_##EX(SHIFT_IN(x0), x0)));                                          \
        STORE(d + i + 2, ADD(c, SEL_##EX(PAIR(x0, x1), x1)));                                      \
        STORE(d + i + 4, ADD(c, SEL_##EX(PAIR(x1, x2), x2)));                                      \
        STORE(d + i + 6, ADD(c, SEL_##EX(PAIR(x2, x3), x3)));                                      \
        c = ADD(c, HI2(x3)); /* the last value stored, with one add on the carry's path */         \
    } while (0)

/* One group of 8 elements of the next tile into the 4 lane accumulators. */
#define SUM_GROUP(LOAD, ADD, p)                                                                    \
    do {                                                                                           \
        a0 = ADD(a0, LOAD((p)));                                                                   \
        a1 = ADD(a1, LOAD((p) + 2));                                                               \
        a2 = ADD(a2, LOAD((p) + 4));                                                               \
        a3 = ADD(a3, LOAD((p) + 6));                                                               \
    } while (0)

/* d (64-byte aligned) gets the scan of nl lines of s from *carry, which gets
 * the last value; meanwhile the first ng groups of ns go into a0..a3. */
#define SCAN_FUSED(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, STORE, EX)                                   \
    do {                                                                                           \
        size_t k = nl < ng ? nl : ng, i = 0;                                                       \
        for (; i < k * 8; i += 8) {                                                                \
            SUM_GROUP(LOAD, ADD, ns + i);                                                          \
            SCAN_LINE(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, STORE, EX);                               \
        }                                                                                          \
        for (; i < nl * 8; i += 8)                                                                 \
            SCAN_LINE(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, STORE, EX);                               \
        for (i = k * 8; i < ng * 8; i += 8)                                                        \
            SUM_GROUP(LOAD, ADD, ns + i);                                                          \
    } while (0)

/* The four forms: streaming or not, inclusive or exclusive. */
#define SCAN_FUSED4(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, ST, NT)                                     \
    do {                                                                                           \
        if (nt && excl)                                                                            \
            SCAN_FUSED(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, NT, 1);                                  \
        else if (nt)                                                                               \
            SCAN_FUSED(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, NT, 0);                                  \
        else if (excl)                                                                             \
            SCAN_FUSED(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, ST, 1);                                  \
        else                                                                                       \
            SCAN_FUSED(V, LOAD, ADD, SHIFT_IN, HI2, PAIR, ST, 0);                                  \
    } while (0)

#define LD_D(p) _mm_loadu_pd(p)
#define SHIFT_D(x) _mm_unpacklo_pd(nz, x) /* [-0.0, a]: -0.0 + a == a, sign of zero kept */
#define HI2_D(x) _mm_unpackhi_pd(x, x)
#define PAIR_D(x, y) _mm_shuffle_pd(x, y, 1) /* [x hi, y lo] */
#define ST_D(p, v) _mm_store_pd(p, v)
#define NT_D(p, v) _mm_stream_pd(p, v)

/* As SCAN_FUSED for doubles; *sum gets the sum of the nn elements of ns
 * (none of them if ns is NULL). */
static void scan_lines_d(double *d, const double *s, size_t nl, double *carry, int nt, int excl,
                         const double *ns, size_t nn, double *sum)
{
    const __m128d nz = _mm_set1_pd(-0.0);
    __m128d c = _mm_set1_pd(*carry), a0 = nz, a1 = nz, a2 = nz, a3 = nz;
    size_t ng = ns ? nn / 8 : 0;
    SCAN_FUSED4(__m128d, LD_D, _mm_add_pd, SHIFT_D, HI2_D, PAIR_D, ST_D, NT_D);
    _mm_storel_pd(carry, c);
    if (ns)
        *sum = tupc_lanes_d(a0, a1, a2, a3, ns + ng * 8, nn - ng * 8);
}

#define LD_L(p) _mm_loadu_si128((const __m128i *)(p))
#define SHIFT_L(x) _mm_slli_si128(x, 8) /* [0, a] */
#define HI2_L(x) _mm_unpackhi_epi64(x, x)
#define PAIR_L(x, y) _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(x), _mm_castsi128_pd(y), 1))
#define ST_L(p, v) _mm_store_si128((__m128i *)(p), v)
#define NT_L(p, v) _mm_stream_si128((__m128i *)(p), v)

/* As scan_lines_d, for 64-bit integers (wrapping: signed long adds as unsigned). */
static void scan_lines_l(uint64_t *d, const uint64_t *s, size_t nl, uint64_t *carry, int nt,
                         int excl, const uint64_t *ns, size_t nn, uint64_t *sum)
{
    __m128i c = _mm_set1_epi64x((long long)*carry), a0 = _mm_setzero_si128(), a1 = a0, a2 = a0,
            a3 = a0;
    size_t ng = ns ? nn / 8 : 0;
    SCAN_FUSED4(__m128i, LD_L, _mm_add_epi64, SHIFT_L, HI2_L, PAIR_L, ST_L, NT_L);
    _mm_storel_epi64((__m128i *)carry, c);
    if (ns)
        *sum = tupc_lanes_l(a0, a1, a2, a3, ns + ng * 8, nn - ng * 8);
}

/* The SSE2 or the AVX2 form (scan_avx2.c), which give the same results. */
static void lines_d(double *d, const double *s, size_t nl, double *carry, int nt, int excl,
                    const double *ns, size_t nn, double *sum)
{
#if TUPC_HAVE_AVX2
    if (tupc_scan_avx2_) {
        tupc_scan_lines_d_avx2(d, s, nl, carry, nt, excl, ns, nn, sum);
        return;
    }
#endif
    scan_lines_d(d, s, nl, carry, nt, excl, ns, nn, sum);
}

static void lines_l(uint64_t *d, const uint64_t *s, size_t nl, uint64_t *carry, int nt, int excl,
                    const uint64_t *ns, size_t nn, uint64_t *sum)
{
#if TUPC_HAVE_AVX2
    if (tupc_scan_avx2_) {
        tupc_scan_lines_l_avx2(d, s, nl, carry, nt, excl, ns, nn, sum);
        return;
    }
#endif
    scan_lines_l(d, s, nl, carry, nt, excl, ns, nn, sum);
}
#endif

/* The partial of a tile: the lane sums of the fused kernels for fk, which
 * give the same value as when fused; the type's kernel otherwise. */
static void tile_reduce(const struct tupc_red_type *ty, enum fast fk, upc_op_t op, tupc_red_fn f,
                        const char *s, size_t m, union tupc_red_val *part)
{
#if defined(__SSE2__)
    if (fk == FAST_D) {
        double c = 0;
        lines_d(NULL, NULL, 0, &c, 0, 0, (const double *)s, m, (double *)part);
        return;
    }
    if (fk == FAST_L) {
        uint64_t c = 0;
        lines_l(NULL, NULL, 0, &c, 0, 0, (const uint64_t *)s, m, (uint64_t *)part);
        return;
    }
#else
    (void)fk;
#endif
    ty->reduce(op, f, s, m, part);
}

/* The scan pass of a tile from seed (NULL for the first tile of the array),
 * inclusive or exclusive; then the partial of the next tile (ns, nm
 * elements; nm == 0: none) into *npart, fused with the scan for the fast
 * kernels. */
static void tile_scan(const struct tupc_red_type *ty, enum fast fk, upc_op_t op, tupc_red_fn f,
                      const char *s, char *d, size_t m, const union tupc_red_val *seed, int nt,
                      int excl, const char *ns, size_t nm, union tupc_red_val *npart)
{
#if defined(__SSE2__)
    if (fk != FAST_NONE) {
        size_t h = seed ? 0 : 1; /* serial: up to a line boundary of dst */
        while (h < m && ((uintptr_t)(d + h * 8) & 63))
            h++;
        union tupc_red_val cur;
        if (h)
            ty->scan(op, f, d, s, h, seed, excl, &cur);
        else
            cur = *seed;
        size_t nl = (m - h) / 8;
        if (fk == FAST_D)
            lines_d((double *)(d + h * 8), (const double *)(s + h * 8), nl, (double *)&cur, nt,
                    excl, nm ? (const double *)ns : NULL, nm, (double *)npart);
        else
            lines_l((uint64_t *)(d + h * 8), (const uint64_t *)(s + h * 8), nl, (uint64_t *)&cur,
                    nt, excl, nm ? (const uint64_t *)ns : NULL, nm, (uint64_t *)npart);
        size_t done = h + nl * 8;
        if (done < m)
            ty->scan(op, f, d + done * 8, s + done * 8, m - done, &cur, excl, NULL);
        return;
    }
#else
    (void)fk;
    (void)nt;
#endif
    ty->scan(op, f, d, s, m, seed, excl, NULL);
    if (nm)
        ty->reduce(op, f, ns, nm, npart);
}

/* Waits for the partial of round r of thread j and returns it. Rounds of a
 * thread are read in order, round 0 first: published >= seq (acquire) says
 * j's slot is this call's, with cnt set; then cnt >= r + 1 (acquire) says
 * ring[r % RING] is written. */
static const union tupc_red_val *round_part(const struct tupc_coll *c, int j, size_t r)
{
    struct round_slot *sl = tupc_coll_scratch(c, j);
    if (r == 0)
        tupc_coll_wait_published(c, j);
    else
        tupc_wait_reach(&sl->cnt, (uint32_t)r + 1);
    return &sl->ring[r % RING];
}

/* acc = acc op x, or acc = x when there is no acc yet. */
static void fold(const struct tupc_red_type *ty, upc_op_t op, tupc_red_fn f,
                 union tupc_red_val *acc, int *have, const union tupc_red_val *x)
{
    if (*have)
        ty->combine(op, f, acc, x);
    else
        memcpy(acc, x, ty->size);
    *have = 1;
}

static void prefix_tiled(const struct tupc_red_type *ty, const struct tupc_coll *c,
                         const struct tupc_team *t, const struct tupc_red_lay *L, tupc_sptr_t dst,
                         upc_op_t op, tupc_red_fn f, int excl)
{
    /* Tiles go to the team's members by rank, wherever they lie. */
    const int T = tupc_team_n(t), me = tupc_coll_rank(c, t);
    enum fast fk = FAST_NONE;
#if defined(__SSE2__)
    if (op == UPC_ADD && ty == &tupc_red_D)
        fk = FAST_D;
    else if (op == UPC_ADD && (ty == &tupc_red_L || ty == &tupc_red_UL))
        fk = FAST_L;
#endif
    const size_t ts = TILE_BYTES / L->es, ntl = tiles_total(L, ts);
    const int nt = L->n * L->es >= NT_MIN_BYTES;
    struct round_slot *mine = NULL;
    union tupc_red_val run = {0}; /* through my tile of the last round */
    int have_run = 0;
    char *s = NULL, *d = NULL, *ns = NULL, *nd = NULL;
    size_t m = (size_t)me < ntl ? tile_at(L, dst, ts, (size_t)me, &s, &d) : 0;
    union tupc_red_val part; /* of the tile of this round */
    if (m)
        tile_reduce(ty, fk, op, f, s, m, &part);
    for (size_t r = 0; m; r++) {
        size_t g = r * (size_t)T + (size_t)me;
        size_t nm = g + (size_t)T < ntl ? tile_at(L, dst, ts, g + (size_t)T, &ns, &nd) : 0;
        union tupc_red_val seed, npart;
        if (g + 1 < ntl) { /* a later tile needs it */
            if (r == 0) {
                mine = tupc_coll_scratch_claim(c);
                memcpy(&mine->ring[0], &part, ty->size);
                /* Relaxed: tupc_coll_publish (release) orders it before readers look. */
                atomic_store_explicit(&mine->cnt.value, 1, memory_order_relaxed);
                tupc_coll_publish(c);
            } else {
                memcpy(&mine->ring[r % RING], &part, ty->size);
                tupc_word_set(&mine->cnt, (uint32_t)r + 1); /* release: ring[r % RING] */
            }
        }
        /* Carry into this round: through my last tile, then the tiles after it. */
        int have = have_run;
        seed = run;
        if (r > 0)
            for (int j = me + 1; j < T; j++)
                fold(ty, op, f, &seed, &have, round_part(c, j, r - 1));
        for (int j = 0; j < me; j++)
            fold(ty, op, f, &seed, &have, round_part(c, j, r));
        tile_scan(ty, fk, op, f, s, d, m, have ? &seed : NULL, nt, excl, ns, nm, &npart);
        run = seed;
        have_run = have;
        fold(ty, op, f, &run, &have_run, &part);
        s = ns;
        d = nd;
        m = nm;
        part = npart;
    }
#if defined(__SSE2__)
    if (nt)
        _mm_sfence(); /* the streaming stores before the release of tupc_coll_leave */
#endif
}

/* Small calls (TUPC_RED_DIRECT_MAX bytes at most) that need no OUT_MYSYNC:
 * each thread reads the elements before its last one in index order, from
 * whichever partition holds them, and scans its own; no partial changes
 * hands, so under NOSYNC nobody waits at all. (OUT_MYSYNC keeps the partials
 * path: there nobody reads another thread's src, so nobody waits on exit.) */
/* As thread `me` of the call (c; NULL in a posted call's job, whose IN
 * sync was met at posting). */
static void prefix_direct(const struct tupc_red_type *ty, const struct tupc_coll *c,
                          const struct tupc_team *t, tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,
                          size_t nelems, size_t B, tupc_red_fn f, int excl, int me)
{
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, B, ty->size, 0);
    size_t end = 0; /* just past my last element */
    tupc_sptr_t p = L.src;
    for (size_t i = 0; i < nelems;) {
        size_t r = tupc_red_run(&L, p, nelems - i);
        if ((int)p.thread == me)
            end = i + r;
        i += r;
        if (i < nelems)
            p = tupc_ptr_add(p, (ptrdiff_t)r, L.B, L.es);
    }
    union tupc_red_val acc, run;
    int have = 0;
    p = L.src;
    tupc_sptr_t d = dst;
    for (size_t i = 0; i < end;) {
        size_t r = tupc_red_run(&L, p, end - i);
        if ((int)p.thread == me) {
            ty->scan(op, f, d.addr, p.addr, r, have ? &acc : NULL, excl, &acc);
        } else {
            /* IN_MYSYNC: the owner (a member: tupc_red_covers) has entered */
            if (c)
                tupc_coll_need(c, tupc_team_rank_in(t, (int)p.thread));
            ty->reduce(op, f, p.addr, r, have ? &run : &acc);
            if (have)
                ty->combine(op, f, &acc, &run);
        }
        have = 1;
        i += r;
        if (i < end) {
            p = tupc_ptr_add(p, (ptrdiff_t)r, L.B, L.es);
            d = tupc_ptr_add(d, (ptrdiff_t)r, L.B, L.es);
        }
    }
}

/* The team forms' cut (reduce_types.h): member r takes the r-th of n
 * balanced index ranges wherever they lie, publishes its partial unless it
 * is the last, combines the partials before it in rank order and scans its
 * range from them; every member may touch every partition. Used where the
 * pieces do not fit the team (see prefix_reduce_on): the blocking and
 * posted calls of a team (reduce_team.c's run_prefix) cut alike. */
static void prefix_ranges(const struct tupc_red_type *ty, struct tupc_coll *c,
                          const struct tupc_team *t, const struct tupc_red_lay *L, tupc_sptr_t dst,
                          upc_op_t op, tupc_red_fn f, int excl, enum tupc_sync in)
{
    const int n = tupc_team_n(t), me = tupc_coll_rank(c, t);
    if (in == TUPC_MYSYNC)
        for (int j = 0; j < n; j++)
            tupc_coll_need(c, j);
    size_t lo, m;
    tupc_red_range_of(L->n, n, me, &lo, &m);
    struct tupc_red_part *mine = tupc_coll_scratch_claim(c);
    mine->have = m != 0;
    if (m && me + 1 < n)
        tupc_red_walk(ty, L, dst, lo, m, op, f, 0, NULL, &mine->v);
    /* Release: the partial, for the readers' acquire waits. */
    tupc_coll_publish(c);
    if (m) {
        union tupc_red_val seed;
        int any = tupc_red_combine_ranks(ty, c, op, f, me, &seed);
        tupc_red_walk(ty, L, dst, lo, m, op, f, excl ? 2 : 1, any ? &seed : NULL, NULL);
    }
    tupc_coll_leave_everyone(c);
}

#if TUPC_HAVE_MPI
static __attribute__((noinline)) void
prefix_mpi(const struct tupc_red_type *ty, const char *func, tupc_sptr_t dst, tupc_sptr_t src,
           upc_op_t op, size_t nelems, size_t blk_size, tupc_red_fn f, upc_flag_t flags,
           enum tupc_sync in, enum tupc_sync out, int in_place, int excl, int apart)
{
    tupc_check_not_split(func);
    const struct tupc_mpi_call c = {
        func,
        (unsigned)flags,
        tupc_sig(tupc_red_sig(dst, src, op, nelems, blk_size, f), (uint64_t)(unsigned)flags),
        (int)in,
        (int)out,
        apart ? &tupc_team_all_ : NULL};
    if (apart)
        tupc_mpi_team_reduce(&c, ty, 1, dst, src, op, nelems, blk_size, (void (*)(void))f, in_place,
                             excl);
    else
        tupc_mpi_prefix_reduce(&c, ty, dst, src, op, nelems, blk_size, f, in_place, excl);
}
#endif

/* The pieces path: this thread scans its piece of L, seeded by the
 * published partials of the pieces before it, and publishes its own where
 * a later piece needs it. */
static void prefix_pieces(const struct tupc_red_type *ty, struct tupc_coll *c,
                          const struct tupc_team *t, const struct tupc_red_lay *L, tupc_sptr_t dst,
                          upc_op_t op, tupc_red_fn f, int excl)
{
    int key = tupc_red_key(L, tupc_impl_mythread);
    size_t lo, m = tupc_red_piece(L, key, &lo);
    if (m) {
        /* Publish unless no later piece needs it. */
        int later = 0;
        for (int k = key + 1; k < L->T && !later; k++) {
            size_t lo2;
            later = tupc_red_piece(L, k, &lo2) != 0;
        }
        if (later) {
            union tupc_red_val part;
            tupc_red_range(ty, L, lo, m, op, f, &part);
            memcpy(tupc_coll_scratch_claim(c), &part, ty->size);
            tupc_coll_publish(c);
        }
        union tupc_red_val seed, x;
        int any = 0;
        for (int k = 0; k < key; k++) {
            size_t lo2;
            if (tupc_red_piece(L, k, &lo2) == 0)
                continue;
            int j = tupc_team_rank_in(t, tupc_red_thread(L, k));
            tupc_coll_wait_published(c, j);
            memcpy(any ? (void *)&x : (void *)&seed, tupc_coll_scratch(c, j), ty->size);
            if (any)
                ty->combine(op, f, &seed, &x);
            any = 1;
        }
        scan_piece(ty, L, dst, lo, m, op, f, any ? &seed : NULL, excl);
    }
}

/* The call on team t, on any team; returns 1. */
static int prefix_reduce_on(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                            tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                            size_t blk_size, tupc_red_fn f, upc_flag_t flags)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    const int excl = (flags & UPC_EXCLUSIVE_PREFIX_REDUCE) != 0;
    if (in_place)
        src = dst; /* a decoy src is not read; dst is checked first */
    /* apart: Collectives 1.0's dst and src of other threads or phases (see
     * tupc_red_prefix_apart), which take the team forms' cut, reading and
     * writing each array in its own layout. */
    int apart;
    (void)tupc_red_check_call(ty, func, TUPC_RED_DST_ARRAY, dst, src, op, nelems, blk_size, f,
                              flags & ~(UPC_IN_PLACE | UPC_EXCLUSIVE_PREFIX_REDUCE), in_place, &in,
                              &out, &apart);
#if TUPC_HAVE_MPI
    /* Across processes: the 1.3 function (a team's blocking call on
     * UPC_TEAM_ALL came here through it), mpi/hier_prefix.c, by blocks
     * that dst and src share; where they lie apart, the team forms' cut
     * (mpi/team_coll.c), which reads and writes each in its own layout. */
    if (__builtin_expect(tupc_procs_ > 1, 0) && t == &tupc_team_all_) {
        prefix_mpi(ty, func, dst, src, op, nelems, blk_size, f, flags, in, out, in_place, excl,
                   apart);
        return 1;
    }
#endif

    const int T = tupc_team_n(t);
    const int direct = nelems * ty->size <= TUPC_RED_DIRECT_MAX && out != TUPC_MYSYNC && !in_place;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, !direct);
    const int tiled = !direct && !L.chunk && nelems * ty->size >= TILED_MIN_BYTES;
    /* Single-valued arguments decide: every member takes the same path.
     * The tiled path's results depend on the team's size; a team's posted
     * call does what its blocking one does (tupc_red_prefix_serial), so a
     * team takes the ranges instead, as it does where its members do not
     * hold every piece. */
    struct tupc_coll c;
    if (apart || (t != &tupc_team_all_ && (tiled || !tupc_red_covers(t, &L)))) {
        tupc_red_enter(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f, TUPC_RED_ALL,
                       NULL);
        prefix_ranges(ty, &c, t, &L, dst, op, f, excl, in);
        return 1;
    }
    tupc_red_enter(&c, t, func, flags, in, out, dst, src, op, nelems, blk_size, f, TUPC_RED_ALL,
                   NULL);
    if (direct) {
        prefix_direct(ty, &c, t, dst, src, op, nelems, blk_size, f, excl, tupc_impl_mythread);
        tupc_coll_leave_symmetric(&c); /* ALLSYNC: a barrier; NOSYNC: nothing */
        return 1;
    }
    if (tiled) {
        /* Tiles go to every member: any member reads and writes any partition. */
        if (in == TUPC_MYSYNC)
            for (int j = 0; j < T; j++)
                tupc_coll_need(&c, j);
        prefix_tiled(ty, &c, t, &L, dst, op, f, excl);
        tupc_coll_leave_symmetric(&c);
        return 1;
    }
    if (L.chunk && in == TUPC_MYSYNC)
        for (int j = 0; j < T; j++)
            tupc_coll_need(&c, j);

    prefix_pieces(ty, &c, t, &L, dst, op, f, excl);
    if (out == TUPC_MYSYNC && L.chunk)
        tupc_coll_leave_symmetric(&c); /* every thread may write my dst */
    else if (out == TUPC_MYSYNC)
        tupc_coll_leave_alone(&c); /* only I touched my src and dst */
    else
        tupc_coll_leave_symmetric(&c);
    return 1;
}

int tupc_red_prefix_serial(const struct tupc_red_type *ty, const struct tupc_team *t,
                           tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                           size_t blk_size, tupc_red_fn f, int in_place, int excl,
                           enum tupc_sync out)
{
    const int direct = nelems * ty->size <= TUPC_RED_DIRECT_MAX && out != TUPC_MYSYNC && !in_place;
    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, !direct);
    if ((!direct && !L.chunk && nelems * ty->size >= TILED_MIN_BYTES) || !tupc_red_covers(t, &L) ||
        (nelems && (dst.thread != src.thread || (blk_size && dst.phase != src.phase))))
        return 0;
    if (direct) { /* each thread's part, as it does it */
        for (int th = 0; th < L.T; th++)
            prefix_direct(ty, NULL, t, dst, src, op, nelems, blk_size, f, excl, th);
        return 1;
    }
    /* The pieces in key order: each piece's partial before any piece is
     * scanned (in place, a piece is its own source), then each piece from
     * the partials before it, folded left to right as its thread does. */
    union tupc_red_val *part = malloc(sizeof *part * (size_t)L.T);
    if (!part)
        tupc_fail("tupc_team_prefix_reduce", "", "out of memory for an asynchronous reduction");
    for (int k = 0; k < L.T; k++) {
        size_t lo, m = tupc_red_piece(&L, k, &lo);
        if (m)
            tupc_red_range(ty, &L, lo, m, op, f, &part[k]);
    }
    for (int k = 0; k < L.T; k++) {
        size_t lo, m = tupc_red_piece(&L, k, &lo);
        if (!m)
            continue;
        union tupc_red_val seed;
        int any = 0;
        for (int j = 0; j < k; j++) {
            size_t lo2;
            if (tupc_red_piece(&L, j, &lo2) == 0)
                continue;
            if (any)
                ty->combine(op, f, &seed, &part[j]);
            else
                memcpy(&seed, &part[j], ty->size);
            any = 1;
        }
        scan_piece(ty, &L, dst, lo, m, op, f, any ? &seed : NULL, excl);
    }
    free(part);
    return 1;
}

void tupc_red_prefix_apart_note(const char *func, tupc_sptr_t dst, tupc_sptr_t src)
{
    static _Atomic int said; /* once per process: relaxed, nothing else hangs on it */
    if (atomic_exchange_explicit(&said, 1, memory_order_relaxed))
        return;
    fprintf(stderr,
            "tupc: %s (thread %d): warning: dst has thread %u and phase %u, src thread %u and "
            "phase %u: Collectives 1.0 allows it and tupc follows it, UPC 1.3 7.4.3.1 para 10 "
            "does not (not portable)\n",
            func, tupc_impl_mythread, dst.thread, dst.phase, src.thread, src.phase);
}

static void prefix_reduce_all(const struct tupc_red_type *ty, const char *func, tupc_sptr_t dst,
                              tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                              tupc_red_fn f, upc_flag_t flags)
{
    TUPC_TRACE_VOID(prefix_reduce_all(ty, func, dst, src, op, nelems, blk_size, f, flags), func,
                    (uint64_t)nelems * ty->size, flags, 0);
    (void)prefix_reduce_on(ty, func, &tupc_team_all_, dst, src, op, nelems, blk_size, f, flags);
}

int tupc_red_prefix_on(const struct tupc_red_type *ty, const char *func, struct tupc_team *t,
                       tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,
                       size_t blk_size, tupc_red_fn f, upc_flag_t flags)
{
    return prefix_reduce_on(ty, func, t, dst, src, op, nelems, blk_size, f, flags);
}

#define TUPC_DEFINE_PREFIX(T, TYPE, ARITH, KIND)                                                   \
    void upc_all_prefix_reduce##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,    \
                                  size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags)     \
    {                                                                                              \
        prefix_reduce_all(&tupc_red_##T, "upc_all_prefix_reduce" #T, dst, src, op, nelems,         \
                          blk_size, (tupc_red_fn)func, flags);                                     \
    }
TUPC_REDUCE_TYPES_13(TUPC_DEFINE_PREFIX)
