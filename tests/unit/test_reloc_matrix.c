/* The six relocalization collectives over a matrix: every sync mode (the 9
 * IN x OUT pairs, 0, and each lone IN or OUT flag) x THREADS {1,2,3,5,8,16}
 * x nbytes {1,3,8,56,57,4096} x three placements of the areas (thread 0 or the
 * last thread, aligned or odd offsets), plus nbytes = 1 MiB + 17 for
 * every sync mode (one placement each, cycling): the large size moves
 * THREADS^2 MiB per call for gather_all and exchange. Under TUPC_TEST_QUICK (the
 * ThreadSanitizer CI run) the large size is 64 KiB + 17 instead.
 *
 * Each call gets fresh random data; every byte of every destination block
 * is checked, and 64 guard bytes on both sides of every destination area
 * must keep their sentinel. Sources of up to 4096 bytes are checked
 * unchanged. The test synchronizes only where the flags say the program
 * must: after filling for IN_NOSYNC, after the call for OUT_NOSYNC; with
 * MYSYNC each thread rewrites its data right before the next call and
 * reads its own destination right after return, so the library's waits are
 * what keeps the data right. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

#define GUARD 64
#define SENTINEL 0xA5
#define GAMMA 0x9e3779b97f4a7c15ull

static const char *const fn_name[TT_NFN] = {"broadcast",  "scatter",  "gather",
                                            "gather_all", "exchange", "permute"};

#define NFLAGS TT_NSYNC

static size_t big_size(void)
{
    return getenv("TUPC_TEST_QUICK") ? 65536 + 17 : (1u << 20) + 17;
}

/* Byte `pos` onward of the random stream `s`: splitmix64 is s + n * GAMMA
 * hashed, so any position is reachable without generating what is before. */
static void gen(unsigned char *out, size_t len, uint64_t s, size_t pos)
{
    uint64_t word = 0;
    for (size_t i = 0; i < len; i++) {
        size_t p = pos + i;
        if (i == 0 || p % 8 == 0) {
            uint64_t st = s + (p / 8) * GAMMA;
            word = tt_rand(&st);
        }
        out[i] = (unsigned char)(word >> (8 * (p % 8)));
    }
}

static uint64_t stream_of(uint64_t seed, int thread)
{
    uint64_t st = seed ^ ((uint64_t)thread * 0x632be59bd9b4e019ull);
    return tt_rand(&st);
}

/* A random permutation, the same on every thread (same seed). */
static void make_perm(int *perm, int T, uint64_t seed)
{
    for (int i = 0; i < T; i++)
        perm[i] = i;
    uint64_t st = seed;
    for (int i = T - 1; i > 0; i--) {
        int j = (int)(tt_rand(&st) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

static void flags_of(upc_flag_t f, int *in_no, int *out_no)
{
    *in_no = (f & UPC_IN_NOSYNC) != 0;
    *out_no = (f & UPC_OUT_NOSYNC) != 0;
}

struct ctx {
    tupc_sptr_t srcr, dstr; /* regions: shared [R] char[R * THREADS] */
    tupc_sptr_t perm;       /* shared int[THREADS] */
    size_t R;
    unsigned char *want; /* private: expected bytes of one block */
    int fn;
    int only_fn; /* -1: all */
};

/* &region[t * R + off]: the byte at offset off in thread t's part. */
static tupc_sptr_t at(const struct ctx *c, tupc_sptr_t region, int t, size_t off)
{
    return tupc_ptr_add(region, (ptrdiff_t)((size_t)t * c->R + off), c->R, 1);
}

static void check_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                        const char *what, int fn, upc_flag_t fl, size_t nb, int pl, size_t blk)
{
    if (memcmp(got, want, n) == 0)
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    TCHECK(
        0,
        "%s %s flags 0x%x nbytes %zu placement %d: block %zu byte %zu is 0x%02x, expected 0x%02x",
        fn_name[fn], what, (unsigned)fl, nb, pl, blk, i, got[i], want[i]);
}

static void check_guards(const unsigned char *area, size_t len, int fn, upc_flag_t fl, size_t nb,
                         int pl)
{
    for (size_t i = 1; i <= GUARD; i++) {
        if (area[-(ptrdiff_t)i] != SENTINEL || area[len + i - 1] != SENTINEL) {
            TCHECK(0,
                   "%s flags 0x%x nbytes %zu placement %d: guard byte %s the destination area "
                   "was written",
                   fn_name[fn], (unsigned)fl, nb, pl,
                   area[-(ptrdiff_t)i] != SENTINEL ? "before" : "after");
            return;
        }
    }
}

/* One call, filled, made and checked. `iter` makes the seed. */
static void one(struct ctx *c, int fn, upc_flag_t fl, size_t nb, int pl, uint64_t iter)
{
    int me = MYTHREAD, T = THREADS, last = T - 1;
    uint64_t seed = 0x1234567ull + iter * 0x9e3779b97f4a7c15ull;
    int rooted = fn == TT_BROADCAST || fn == TT_SCATTER || fn == TT_GATHER;
    /* Placement: 0 root 0 aligned; 1 root last aligned; 2 root T/2, odd offsets. */
    int root = !rooted ? 0 : pl == 0 ? 0 : pl == 1 ? last : T / 2;
    size_t soff = GUARD + (pl == 2 ? 5 : 0), doff = GUARD + (pl == 2 ? 3 : pl == 1 ? 64 : 0);
    size_t area =
        (fn == TT_BROADCAST || fn == TT_SCATTER || fn == TT_PERMUTE) ? nb : nb * (size_t)T;
    size_t srclen = (fn == TT_SCATTER || fn == TT_EXCHANGE) ? nb * (size_t)T : nb;
    int src_root_only = fn == TT_BROADCAST || fn == TT_SCATTER;
    int dst_root_only = fn == TT_GATHER;
    int in_no, out_no;
    flags_of(fl, &in_no, &out_no);
    int perm[TUPC_MAX_THREADS];
    if (fn == TT_PERMUTE)
        make_perm(perm, T, seed);

    /* Fill our own data only: src, dst area with guards, our perm entry. */
    tupc_sptr_t src = at(c, c->srcr, src_root_only ? root : 0, soff);
    tupc_sptr_t dst = at(c, c->dstr, dst_root_only ? root : 0, doff);
    uint64_t mystream = stream_of(seed, me);
    if (!src_root_only || me == root)
        gen((unsigned char *)at(c, c->srcr, me, soff).addr, srclen, mystream, 0);
    unsigned char *mydst = (unsigned char *)at(c, c->dstr, me, doff).addr;
    if (!dst_root_only || me == root)
        memset(mydst - GUARD, SENTINEL, area + 2 * GUARD);
    if (fn == TT_PERMUTE)
        tupc_ref(c->perm, me, 1, int) = perm[me];
    if (in_no)
        upc_barrier();

    tt_reloc_call(fn, dst, src, c->perm, nb, fl);
    if (out_no)
        upc_barrier();

    /* Our destination: every byte, and the guards. */
    if (!dst_root_only || me == root) {
        int nblk = area / nb;
        for (int b = 0; b < nblk; b++) {
            switch (fn) {
            case TT_BROADCAST:
                gen(c->want, nb, stream_of(seed, root), 0);
                break;
            case TT_SCATTER:
                gen(c->want, nb, stream_of(seed, root), (size_t)me * nb);
                break;
            case TT_GATHER:
            case TT_GATHER_ALL:
                gen(c->want, nb, stream_of(seed, b), 0);
                break;
            case TT_EXCHANGE:
                gen(c->want, nb, stream_of(seed, b), (size_t)me * nb);
                break;
            case TT_PERMUTE: {
                int from = 0;
                while (perm[from] != me)
                    from++;
                gen(c->want, nb, stream_of(seed, from), 0);
                break;
            }
            }
            check_bytes(mydst + (size_t)b * nb, c->want, nb, "dst", fn, fl, nb, pl, (size_t)b);
        }
        check_guards(mydst, area, fn, fl, nb, pl);
    }
    /* Our source, unchanged (small sizes: it costs a second generation). */
    if (nb <= 4096 && (!src_root_only || me == root)) {
        unsigned char *mysrc = (unsigned char *)at(c, c->srcr, me, soff).addr;
        for (size_t off = 0; off < srclen; off += nb) {
            gen(c->want, nb, mystream, off);
            check_bytes(mysrc + off, c->want, nb, "src", fn, fl, nb, pl, off / nb);
        }
    }
}

static int matrix_body(void *arg)
{
    struct ctx c = *(struct ctx *)arg;
    int T = THREADS;
    size_t big = big_size();
    size_t maxarea = big * (size_t)T;
    c.R = maxarea + 2 * GUARD + 128;
    c.srcr = upc_all_alloc((size_t)T, c.R);
    c.dstr = upc_all_alloc((size_t)T, c.R);
    c.perm = upc_all_alloc((size_t)T, sizeof(int));
    TCHECK(!tupc_isnull(c.srcr) && !tupc_isnull(c.dstr) && !tupc_isnull(c.perm),
           "allocation failed: %s", tupc_alloc_error());
    c.want = malloc(big);
    /* 56 and 57: the last size that broadcast sends inline in an eager line, and the first it does
     * not. */
    const size_t sizes[] = {1, 3, 8, 56, 57, 4096};
    uint64_t iter = 0;
    /* The function varies fastest, so that with only_fn == -1 calls of
     * different collectives follow each other back to back. */
    for (int f = 0; f < NFLAGS; f++)
        for (int s = 0; s < 6; s++)
            for (int pl = 0; pl < 3; pl++)
                for (int fn = 0; fn < TT_NFN; fn++)
                    if (c.only_fn < 0 || fn == c.only_fn)
                        one(&c, fn, tt_sync_flags[f], sizes[s], pl, iter++);
    /* The large size: every sync mode, placements cycling. */
    for (int f = 0; f < NFLAGS; f++)
        for (int fn = 0; fn < TT_NFN; fn++)
            if (c.only_fn < 0 || fn == c.only_fn)
                one(&c, fn, tt_sync_flags[f], big, f % 3, iter++);
    upc_barrier();
    free(c.want);
    upc_all_free(c.srcr);
    upc_all_free(c.dstr);
    upc_all_free(c.perm);
    return 0;
}

static void run_fn(int fn)
{
    struct ctx c = {.only_fn = fn};
    for (int k = 0; k < tt_nthread_counts; k++)
        TT_RUN(tt_thread_counts[k], matrix_body, &c);
}

static void test_broadcast(void **state)
{
    (void)state;
    run_fn(TT_BROADCAST);
}
static void test_scatter(void **state)
{
    (void)state;
    run_fn(TT_SCATTER);
}
static void test_gather(void **state)
{
    (void)state;
    run_fn(TT_GATHER);
}
static void test_gather_all(void **state)
{
    (void)state;
    run_fn(TT_GATHER_ALL);
}
static void test_exchange(void **state)
{
    (void)state;
    run_fn(TT_EXCHANGE);
}
static void test_permute(void **state)
{
    (void)state;
    run_fn(TT_PERMUTE);
}

/* All six interleaved in one run, so back-to-back calls of different
 * collectives (and their different touch sets) follow each other. */
static void test_interleaved(void **state)
{
    (void)state;
    struct ctx c = {.only_fn = -1};
    TT_RUN(5, matrix_body, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast),   cmocka_unit_test(test_scatter),
        cmocka_unit_test(test_gather),      cmocka_unit_test(test_gather_all),
        cmocka_unit_test(test_exchange),    cmocka_unit_test(test_permute),
        cmocka_unit_test(test_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
