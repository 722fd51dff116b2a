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
 * Sync: OUT_ALLSYNC is a barrier (every thread writes output); OUT_MYSYNC
 * needs no wait in the LOCAL case and waits for every thread with CHUNK. */
#include "coll/reduce_types.h"

#include "check/error.h"
#include "coll/syncmode.h"
#include "heap/heap.h"

#include <string.h>

/* Scans m elements of the piece at index lo (src and dst walk alike). */
static void scan_piece(const struct tupc_red_type *ty, const struct tupc_red_lay *L,
                       tupc_sptr_t dst, size_t lo, size_t m, upc_op_t op, tupc_red_fn f,
                       const void *seed)
{
    tupc_sptr_t s = tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es);
    tupc_sptr_t d = tupc_ptr_add(dst, (ptrdiff_t)lo, L->B, L->es);
    union tupc_red_val carry;
    for (size_t left = m; left;) {
        size_t r = tupc_red_run(L, s, left);
        ty->scan(op, f, d.addr, s.addr, r, seed);
        memcpy(&carry, d.addr + (r - 1) * L->es, L->es);
        seed = &carry;
        left -= r;
        if (left) {
            s = tupc_ptr_add(s, (ptrdiff_t)r, L->B, L->es);
            d = tupc_ptr_add(d, (ptrdiff_t)r, L->B, L->es);
        }
    }
}

static void reduce_piece(const struct tupc_red_type *ty, const struct tupc_red_lay *L, size_t lo,
                         size_t m, upc_op_t op, tupc_red_fn f, void *out)
{
    tupc_sptr_t p = tupc_ptr_add(L->src, (ptrdiff_t)lo, L->B, L->es);
    union tupc_red_val run;
    for (size_t left = m, first = 1; left; first = 0) {
        size_t r = tupc_red_run(L, p, left);
        ty->reduce(op, f, p.addr, r, first ? out : &run);
        if (!first)
            ty->combine(op, f, out, &run);
        left -= r;
        if (left)
            p = tupc_ptr_add(p, (ptrdiff_t)r, L->B, L->es);
    }
}

static void prefix_reduce_all(const struct tupc_red_type *ty, const char *func, tupc_sptr_t dst,
                              tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,
                              tupc_red_fn f, upc_flag_t flags)
{
    tupc_require_thread(func);
    enum tupc_sync in, out;
    tupc_red_check_op(func, ty, op, f);
    tupc_coll_flags(func, flags, &in, &out);
    tupc_red_check_array(func, "src", src, nelems, blk_size, ty->size);
    tupc_red_check_array(func, "dst", dst, nelems, blk_size, ty->size);
    if (nelems && (dst.thread != src.thread || (blk_size && dst.phase != src.phase)))
        tupc_fail(func, "UPC 1.3 7.4.3.1 para 10",
                  "dst has thread %u and phase %u, src thread %u and phase %u; expected "
                  "upc_threadof(dst) == upc_threadof(src) && upc_phaseof(dst) == upc_phaseof(src)",
                  dst.thread, dst.phase, src.thread, src.phase);

    const int T = THREADS, me = MYTHREAD;
    int scan_in = in == TUPC_ALLSYNC && T <= TUPC_RED_SCAN_MAX; /* as in reduce.c */
    const upc_flag_t out_bits = UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
    struct tupc_coll c;
    tupc_coll_enter(&c, func, scan_in ? (flags & out_bits) | UPC_IN_MYSYNC : flags);
    if (scan_in)
        for (int j = 0; j < T; j++)
            if (j != me)
                tupc_coll_wait_entered(j, c.seq);

    struct tupc_red_lay L;
    tupc_red_lay_init(&L, src, nelems, blk_size, ty->size, 1);
    if (L.chunk && in == TUPC_MYSYNC)
        for (int j = 0; j < T; j++)
            tupc_coll_need(&c, j);

    int key = tupc_red_key(&L, me);
    size_t lo, m = tupc_red_piece(&L, key, &lo);
    if (m) {
        /* Publish unless no later piece needs it. */
        int later = 0;
        for (int k = key + 1; k < T && !later; k++) {
            size_t lo2;
            later = tupc_red_piece(&L, k, &lo2) != 0;
        }
        if (later) {
            union tupc_red_val part;
            reduce_piece(ty, &L, lo, m, op, f, &part);
            memcpy(tupc_coll_scratch_claim(&c), &part, ty->size);
            tupc_coll_publish(&c);
        }
        union tupc_red_val seed, x;
        int any = 0;
        for (int k = 0; k < key; k++) {
            size_t lo2;
            if (tupc_red_piece(&L, k, &lo2) == 0)
                continue;
            int j = tupc_red_thread(&L, k);
            tupc_coll_wait_published(j, c.seq);
            memcpy(any ? (void *)&x : (void *)&seed, tupc_coll_scratch(&c, j), ty->size);
            if (any)
                ty->combine(op, f, &seed, &x);
            any = 1;
        }
        scan_piece(ty, &L, dst, lo, m, op, f, any ? &seed : NULL);
    }

    int none = 0;
    if (out == TUPC_MYSYNC && L.chunk)
        tupc_coll_leave(&c, NULL, 0, 1); /* every thread may write my dst */
    else if (out == TUPC_MYSYNC)
        tupc_coll_leave(&c, &none, 0, 0); /* only I touched my src and dst */
    else
        tupc_coll_leave(&c, NULL, 0, 1);
}

#define TUPC_DEFINE_PREFIX(T, TYPE, ARITH, KIND, LOWEST, HIGHEST)                                  \
    void upc_all_prefix_reduce##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems,    \
                                  size_t blk_size, TYPE (*func)(TYPE, TYPE), upc_flag_t flags)     \
    {                                                                                              \
        prefix_reduce_all(&tupc_red_##T, "upc_all_prefix_reduce" #T, dst, src, op, nelems,         \
                          blk_size, (tupc_red_fn)func, flags);                                     \
    }
TUPC_REDUCE_TYPES(TUPC_DEFINE_PREFIX)
