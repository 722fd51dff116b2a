/* The tiled path of upc_all_prefix_reduceT (arrays of 2 MiB and more, blk_size
 * 0 or at most one block per thread) against a serial oracle: sizes over
 * several tiles with odd remainders, start phases and threads that leave
 * dst off a line boundary, every IN x OUT sync pair, UPC_ADD on D and L
 * (the in-register kernels) and UL with streaming stores (16 MiB and more),
 * I (the serial kernel) and UPC_NONCOMM_FUNC (affine-map composition:
 * associative, not commutative: index order). Floating data is small
 * integers (exact in any grouping); a second call must give the same last
 * value bit for bit. THREADS {1, 2, 3, 4}; the 16 MiB case is left out under
 * TUPC_TEST_QUICK. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

static uint64_t h(size_t i)
{
    uint64_t s = i * 0x9e3779b97f4a7c15ull + 17;
    return tt_rand(&s);
}

static unsigned long compose(unsigned long f, unsigned long g)
{
    uint32_t fa = (uint32_t)(f >> 32), fb = (uint32_t)f, ga = (uint32_t)(g >> 32), gb = (uint32_t)g;
    return (unsigned long)(ga * fa) << 32 | (uint32_t)(ga * fb + gb);
}

enum kind { K_D, K_L, K_UL, K_I, K_NC };

struct cse {
    enum kind k;
    size_t n, B, off; /* B: 0 or one block per thread; off: start offset */
    int flags;
};

static size_t esize(enum kind k)
{
    return k == K_I ? 4 : 8;
}

static void put(enum kind k, tupc_sptr_t a, size_t i, size_t B)
{
    uint64_t x = h(i);
    switch (k) {
    case K_D:
        tupc_ref(a, i, B, double) = (double)((int)(x % 17) - 8);
        break;
    case K_L:
        tupc_ref(a, i, B, long) = (long)x;
        break;
    case K_UL:
        tupc_ref(a, i, B, unsigned long) = x;
        break;
    case K_I:
        tupc_ref(a, i, B, int) = (int)x;
        break;
    case K_NC:
        tupc_ref(a, i, B, unsigned long) = x | (1ull << 32);
        break;
    }
}

static void call(const struct cse *c, tupc_sptr_t d, tupc_sptr_t s, upc_flag_t fl)
{
    switch (c->k) {
    case K_D:
        upc_all_prefix_reduceD(d, s, UPC_ADD, c->n, c->B, NULL, fl);
        break;
    case K_L:
        upc_all_prefix_reduceL(d, s, UPC_ADD, c->n, c->B, NULL, fl);
        break;
    case K_UL:
        upc_all_prefix_reduceUL(d, s, UPC_ADD, c->n, c->B, NULL, fl);
        break;
    case K_I:
        upc_all_prefix_reduceI(d, s, UPC_ADD, c->n, c->B, NULL, fl);
        break;
    case K_NC:
        upc_all_prefix_reduceUL(d, s, UPC_NONCOMM_FUNC, c->n, c->B, compose, fl);
        break;
    }
}

/* Checks dst against the left-to-right oracle; returns the failures. */
static int check(const struct cse *c, tupc_sptr_t d, tupc_sptr_t s)
{
    size_t B = c->B;
    int bad = 0;
    double ad = 0;
    uint64_t au = 0;
    uint32_t ai = 0;
    for (size_t i = 0; i < c->n && bad < 3; i++) {
        int ok = 1;
        switch (c->k) {
        case K_D:
            ad += tupc_ref(s, i, B, double);
            ok = tupc_ref(d, i, B, double) == ad;
            break;
        case K_L:
        case K_UL:
            au += tupc_ref(s, i, B, uint64_t);
            ok = tupc_ref(d, i, B, uint64_t) == au;
            break;
        case K_I:
            ai += (uint32_t)tupc_ref(s, i, B, int);
            ok = (uint32_t)tupc_ref(d, i, B, int) == ai;
            break;
        case K_NC:
            au = i ? compose(au, tupc_ref(s, i, B, unsigned long))
                   : tupc_ref(s, 0, B, unsigned long);
            ok = tupc_ref(d, i, B, unsigned long) == au;
            break;
        }
        if (!ok) {
            bad++;
            TCHECK(0, "kind %d n %zu B %zu off %zu flags %d: dst[%zu] wrong", c->k, c->n, B, c->off,
                   c->flags, i);
        }
    }
    return bad;
}

static int body(void *arg)
{
    const struct cse *c = arg;
    const int T = THREADS, me = MYTHREAD;
    size_t es = esize(c->k), n = c->n, B = c->B;
    tupc_sptr_t sb, db, s, d;
    if (B) {
        size_t nb = (c->off + n + B - 1) / B + 1;
        sb = upc_all_alloc(nb, B * es);
        db = upc_all_alloc(nb, B * es);
        s = tupc_ptr_add(sb, (ptrdiff_t)c->off, B, es);
        d = tupc_ptr_add(db, (ptrdiff_t)c->off, B, es);
    } else {
        size_t bytes = (c->off + n) * es;
        sb = upc_all_alloc((size_t)T, bytes);
        db = upc_all_alloc((size_t)T, bytes);
        int t = T - 1; /* the last thread's partition */
        s = tupc_ptr_cast(tupc_index(sb, (size_t)t * bytes + c->off * es, bytes, char));
        d = tupc_ptr_cast(tupc_index(db, (size_t)t * bytes + c->off * es, bytes, char));
    }
    for (size_t i = (size_t)me; i < n; i += (size_t)T)
        put(c->k, s, i, B);
    upc_barrier();
    upc_flag_t fl = tt_sync_flags[c->flags];
    call(c, d, s, fl);
    upc_barrier();
    if (me == 0)
        check(c, d, s);
    upc_barrier();
    /* Twice, NOSYNC into a barrier: the last value must not change. */
    unsigned char last0[8], last1[8];
    memcpy(last0, tupc_ptr_add(d, (ptrdiff_t)n - 1, B, es).addr, es);
    upc_barrier();
    call(c, d, s, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    upc_barrier();
    memcpy(last1, tupc_ptr_add(d, (ptrdiff_t)n - 1, B, es).addr, es);
    TCHECK(!memcmp(last0, last1, es), "kind %d n %zu: second call differs", c->k, n);
    upc_barrier();
    upc_all_free(db);
    upc_all_free(sb);
    return 0;
}

static void test_tiled(void **state)
{
    (void)state;
    /* Tiles are 1 MiB: 2 to 5 tiles, and 12 MiB (6 rounds at 2 threads,
     * more than the RING of partials) for the fused in-register kernels. */
    const size_t ns[] = {262144 + 5, 300007, 655361, 1572871};
    setenv("UPC_SHARED_HEAP_SIZE", "128M", 1);
    int count = 0;
    for (int T = 1; T <= 4; T++) {
        for (int k = K_D; k <= K_NC; k++) {
            for (int in = 0; in < 4; in++) {
                if (in == 3 && (k > K_L || (quick() && (T == 1 || T == 4))))
                    continue;
                size_t n = ns[in] * (k == K_I ? 2 : 1);
                for (int lay = 0; lay < 2; lay++) {
                    size_t B = lay ? (n + (size_t)T - 1) / (size_t)T + 3 : 0;
                    struct cse c = {(enum kind)k, n, B, (size_t)(count % 3) * 3 + (count & 1),
                                    count % TT_NPAIRS};
                    if (B && c.off >= B)
                        c.off = 1;
                    TT_RUN(T, body, &c);
                    count++;
                }
            }
        }
    }
}

/* Streaming stores: 16 MiB of dst and more. */
static void test_streaming(void **state)
{
    (void)state;
    if (quick())
        return;
    const enum kind ks[] = {K_D, K_UL};
    for (int i = 0; i < 2; i++) {
        size_t n = ((size_t)16 << 20) / 8 + 12345;
        struct cse c = {ks[i], n, (n + 1) / 2, 5, 4 + i};
        setenv("UPC_SHARED_HEAP_SIZE", "128M", 1);
        TT_RUN(2, body, &c);
        struct cse c0 = {ks[i], n, 0, 3, 8};
        TT_RUN(3, body, &c0);
    }
}

/* The AVX2 and SSE2 kernels (TUPC_SIMD) must give the same doubles bit for
 * bit: data with full mantissas, where any other grouping rounds apart. */
struct ident {
    size_t n, off;
    int nt;      /* dst large enough for streaming stores */
    double *out; /* dst of the call, copied out by thread 0 */
};

static int ident_body(void *arg)
{
    struct ident *id = arg;
    const int T = THREADS;
    size_t n = id->n, B = (n + id->off + (size_t)T - 1) / (size_t)T;
    tupc_sptr_t sb = upc_all_alloc((size_t)T, B * 8), db = upc_all_alloc((size_t)T, B * 8);
    tupc_sptr_t s = tupc_ptr_add(sb, (ptrdiff_t)id->off, B, 8);
    tupc_sptr_t d = tupc_ptr_add(db, (ptrdiff_t)id->off, B, 8);
    for (size_t i = (size_t)MYTHREAD; i < n; i += (size_t)T)
        tupc_ref(s, i, B, double) = (double)(int64_t)h(i) / 3e18 + 1e-3 * (double)(i % 7);
    upc_all_prefix_reduceD(d, s, UPC_ADD, n, B, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    if (MYTHREAD == 0)
        for (size_t i = 0; i < n; i++)
            id->out[i] = tupc_ref(d, i, B, double);
    upc_barrier();
    upc_all_free(db);
    upc_all_free(sb);
    return 0;
}

static void test_kernels_agree(void **state)
{
    (void)state;
    setenv("UPC_SHARED_HEAP_SIZE", "128M", 1);
    const size_t sizes[][2] = {{655361, 3}, {((size_t)16 << 20) / 8 + 4099, 1}};
    for (int k = 0; k < 2; k++) {
        if (k == 1 && quick())
            continue;
        size_t n = sizes[k][0];
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        assert_non_null(a);
        assert_non_null(b);
        for (int T = 2; T <= 3; T++) {
            struct ident x = {n, sizes[k][1], k, a}, y = {n, sizes[k][1], k, b};
            setenv("TUPC_SIMD", "sse2", 1);
            TT_RUN(T, ident_body, &x);
            setenv("TUPC_SIMD", "auto", 1);
            TT_RUN(T, ident_body, &y);
            for (size_t i = 0; i < n; i++)
                if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
                    fail_msg("T %d n %zu: dst[%zu] is %a with TUPC_SIMD=sse2, %a with auto", T, n,
                             i, a[i], b[i]);
        }
        free(a);
        free(b);
    }
    unsetenv("TUPC_SIMD");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_kernels_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
