/* Pointer-to-shared arithmetic against a brute-force model of UPC's layout.
 *
 * The model: element k of `shared [B] T a[N]` (B > 0) lives on thread
 * (k / B) % THREADS at element offset ((k / B) / THREADS) * B + k % B of that
 * thread's part of the array, with phase k % B; for `shared [] T` (B == 0)
 * every element is on the array's thread, contiguous, with phase 0. Every
 * query of upc.h is checked against it on real arrays from upc_all_alloc. */
#include "tt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct model {
    tupc_sptr_t base; /* &a[0]: thread 0, phase 0 */
    size_t B, esize, N;
};

/* &a[k] by enumeration, for 0 <= k <= N (one past the end included). */
static tupc_sptr_t model_ptr(const struct model *m, size_t k)
{
    tupc_sptr_t p = m->base;
    if (m->B == 0) {
        p.addr += k * m->esize;
        return p;
    }
    size_t T = (size_t)THREADS, blk = k / m->B;
    size_t t = blk % T, local = (blk / T) * m->B + k % m->B;
    p.addr = m->base.addr + t * tupc_impl_partition_size + local * m->esize;
    p.thread = (uint32_t)t;
    p.phase = (uint32_t)(k % m->B);
    return p;
}

static int same_ptr(tupc_sptr_t a, tupc_sptr_t b)
{
    return a.addr == b.addr && a.thread == b.thread && a.phase == b.phase;
}

static const size_t block_sizes[] = {0, 1, 2, 3, 7, 64};
static const size_t elem_sizes[] = {1, 2, 4, 8, 24};

/* Elements of the test arrays: a few block rows, and a partial last block. */
static size_t array_len(size_t B)
{
    if (B == 0)
        return 97;
    size_t n = 2 * B * (size_t)THREADS + B / 2 + 1;
    return n > 3000 ? 3000 : n;
}

static int check_one_layout(size_t B, size_t esize, uint64_t *rng)
{
    struct model m = {.B = B, .esize = esize, .N = array_len(B)};
    size_t nblocks = B ? (m.N + B - 1) / B : 1;
    size_t nbytes = B ? B * esize : m.N * esize;
    m.base = upc_all_alloc(nblocks, nbytes);
    TCHECK(!tupc_isnull(m.base), "upc_all_alloc(%zu, %zu) failed: %s", nblocks, nbytes,
           tupc_alloc_error());
    if (tupc_isnull(m.base))
        return -1;
    TCHECK(m.base.thread == 0 && m.base.phase == 0, "upc_all_alloc gave thread %u phase %u",
           m.base.thread, m.base.phase);

    /* Arithmetic and queries: thread 0 checks, the others wait. */
    if (MYTHREAD == 0) {
        for (size_t k = 0; k <= m.N; k++) {
            tupc_sptr_t want = model_ptr(&m, k);
            tupc_sptr_t got = tupc_ptr_add(m.base, (ptrdiff_t)k, B, esize);
            TCHECK(same_ptr(got, want),
                   "B=%zu esize=%zu k=%zu: got (t%u p%u +%td) want (t%u p%u +%td)", B, esize, k,
                   got.thread, got.phase, got.addr - m.base.addr, want.thread, want.phase,
                   want.addr - m.base.addr);
            TCHECK(upc_threadof(got) == want.thread, "upc_threadof");
            TCHECK(upc_phaseof(got) == want.phase, "upc_phaseof");
            TCHECK(upc_addrfield(got) == upc_addrfield(m.base) + (size_t)(want.addr - m.base.addr) -
                                             want.thread * tupc_impl_partition_size,
                   "B=%zu esize=%zu k=%zu: upc_addrfield %zu", B, esize, k, upc_addrfield(got));
            tupc_sptr_t r = upc_resetphase(got);
            TCHECK(r.addr == got.addr && r.thread == got.thread && upc_phaseof(r) == 0,
                   "upc_resetphase");
            TCHECK(same_ptr(tupc_index(m.base, k, B, char[1]), tupc_ptr_add(m.base, k, B, 1)),
                   "tupc_index with sizeof 1");
        }
        /* Random pairs: start index s (any phase), offsets of either sign. */
        for (int n = 0; n < 400; n++) {
            size_t s = (size_t)(tt_rand(rng) % (m.N + 1));
            size_t d = (size_t)(tt_rand(rng) % (m.N + 1));
            ptrdiff_t i = (ptrdiff_t)d - (ptrdiff_t)s;
            tupc_sptr_t ps = model_ptr(&m, s), pd = model_ptr(&m, d);
            tupc_sptr_t got = tupc_ptr_add(ps, i, B, esize);
            TCHECK(same_ptr(got, pd), "B=%zu esize=%zu: &a[%zu] + %td is not &a[%zu]", B, esize, s,
                   i, d);
            TCHECK(tupc_ptr_diff(pd, ps, B, esize) == i, "B=%zu esize=%zu: &a[%zu] - &a[%zu] = %td",
                   B, esize, d, s, tupc_ptr_diff(pd, ps, B, esize));
            TCHECK(tupc_ptr_diff(ps, pd, B, esize) == -i, "diff, reversed");
            int c = tupc_ptr_cmp(pd, ps, B, esize);
            TCHECK(c == (i > 0) - (i < 0), "B=%zu: cmp(&a[%zu], &a[%zu]) = %d", B, d, s, c);
            TCHECK(tupc_ptr_eq(pd, ps) == (i == 0), "B=%zu: eq(&a[%zu], &a[%zu])", B, d, s);
            /* Two steps land where one does. */
            ptrdiff_t h = i / 2;
            TCHECK(same_ptr(tupc_ptr_add(tupc_ptr_add(ps, h, B, esize), i - h, B, esize), pd),
                   "B=%zu: (p + %td) + %td", B, h, i - h);
        }
        /* A pointer with its phase reset still designates the same byte. */
        if (B > 1) {
            tupc_sptr_t p = model_ptr(&m, 1);
            TCHECK(tupc_ptr_eq(upc_resetphase(p), p), "eq ignores the phase");
        }
        /* upc_affinitysize against counting elements per thread. */
        for (int t = 0; t < THREADS; t++) {
            size_t count = 0;
            for (size_t k = 0; k < m.N; k++)
                count += model_ptr(&m, k).thread == (uint32_t)t;
            size_t got = upc_affinitysize(m.N * esize, B * esize, (size_t)t);
            TCHECK(got == count * esize, "B=%zu esize=%zu N=%zu: affinitysize(thread %d) %zu, %zu",
                   B, esize, m.N, t, got, count * esize);
        }
    }

    /* tupc_ref and upc_forall with pointer affinity: each thread writes the
     * elements it has affinity to, through its own local address. */
    upc_forall(size_t k = 0, k < m.N, k++, tupc_index(m.base, k, B, char))
    {
        tupc_sptr_t p = tupc_ptr_add(m.base, (ptrdiff_t)k, B, esize);
        TCHECK(p.thread == (uint32_t)MYTHREAD, "forall ran element %zu of thread %u", k, p.thread);
        memset(p.addr, 0, esize);
        memcpy(p.addr, &k, esize < sizeof k ? esize : sizeof k);
    }
    upc_barrier();
    /* Every thread reads every element, through tupc_ref where the type fits. */
    for (size_t k = 0; k < m.N; k++) {
        tupc_sptr_t p = model_ptr(&m, k);
        size_t v = 0;
        if (esize == 8)
            v = (size_t)tupc_ref(m.base, k, B, uint64_t);
        else if (esize == 4)
            v = tupc_ref(m.base, k, B, uint32_t);
        else if (esize == 2)
            v = tupc_ref(m.base, k, B, uint16_t);
        else
            memcpy(&v, p.addr, esize < sizeof v ? esize : sizeof v);
        size_t want = esize < sizeof k ? k & (((size_t)1 << (8 * esize)) - 1) : k;
        TCHECK(v == want, "B=%zu esize=%zu: a[%zu] reads %zu", B, esize, k, v);
    }
    upc_all_free(m.base);
    return 0;
}

static int layouts_body(void *arg)
{
    (void)arg;
    uint64_t rng = 12345 + (uint64_t)THREADS;
    for (size_t b = 0; b < sizeof block_sizes / sizeof *block_sizes; b++)
        for (size_t e = 0; e < sizeof elem_sizes / sizeof *elem_sizes; e++)
            if (check_one_layout(block_sizes[b], elem_sizes[e], &rng) != 0)
                return 1;
    return 0;
}

static void test_layouts(void **state)
{
    (void)state;
    const int counts[] = {1, 2, 3, 4, 5, 8, 16};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        TT_RUN(counts[c], layouts_body, NULL);
}

/* A pointer starting mid-array (non-zero phase, thread != 0) steps forwards
 * and backwards through the whole array one element at a time. */
static int walk_body(void *arg)
{
    (void)arg;
    const size_t B = 3, esize = 24;
    struct model m = {.B = B, .esize = esize, .N = 5 * B * (size_t)THREADS + 2};
    m.base = upc_all_alloc((m.N + B - 1) / B, B * esize);
    if (MYTHREAD == 0 && !tupc_isnull(m.base)) {
        size_t s = m.N / 2 + 1;
        tupc_sptr_t p = model_ptr(&m, s);
        for (size_t k = s; k > 0; k--) {
            p = tupc_ptr_add(p, -1, B, esize);
            TCHECK(same_ptr(p, model_ptr(&m, k - 1)), "walking down to %zu", k - 1);
        }
        for (size_t k = 0; k < m.N; k++) {
            p = tupc_ptr_add(p, 1, B, esize);
            TCHECK(same_ptr(p, model_ptr(&m, k + 1)), "walking up to %zu", k + 1);
        }
    }
    upc_all_free(m.base);
    return 0;
}

static void test_walk(void **state)
{
    (void)state;
    for (int k = 0; k < tt_nthread_counts; k++)
        TT_RUN(tt_thread_counts[k], walk_body, NULL);
}

/* upc_forall with integer affinity: iteration i runs on thread i mod
 * THREADS, negative i included; every iteration runs exactly once. */
static _Atomic int forall_hits[256];

static int forall_int_body(void *arg)
{
    (void)arg;
    upc_forall(int i = -100, i < 100, i++, i)
    {
        int t = ((i % THREADS) + THREADS) % THREADS;
        TCHECK(t == MYTHREAD, "iteration %d ran on thread %d", i, MYTHREAD);
        atomic_fetch_add_explicit(&forall_hits[i + 100], 1, memory_order_relaxed);
    }
    /* A long long affinity expression, and a pointer one on a upc_alloc block
     * (all on the caller). */
    upc_forall(long long i = 0, i < 10, i++, i * 1000000007LL)
    {
        TCHECK((i * 1000000007LL) % THREADS == MYTHREAD, "long long affinity %lld", i);
    }
    /* Unsigned affinities above LLONG_MAX: value mod THREADS, as unsigned. */
    for (unsigned long long v = ~0ull - 40; v != 0; v++) {
        int n = 0;
        upc_forall(int i = 0, i < 1, i++, v) n++;
        TCHECK(n == (v % (unsigned long long)THREADS == (unsigned long long)MYTHREAD),
               "affinity %llu ran on thread %d", v, MYTHREAD);
        size_t z = (size_t)v;
        n = 0;
        upc_forall(int i = 0, i < 1, i++, z) n++;
        TCHECK(n == (z % (size_t)THREADS == (size_t)MYTHREAD), "affinity %zu ran on thread %d", z,
               MYTHREAD);
    }
    /* A const pointer-to-shared works as the affinity too. */
    const tupc_sptr_t cp = upc_alloc(8);
    int m = 0;
    upc_forall(int i = 0, i < 3, i++, cp) m++;
    TCHECK(m == 3, "const pointer affinity ran %d times", m);
    upc_free(cp);
    tupc_sptr_t mine = upc_alloc(64);
    int n = 0;
    upc_forall(int i = 0, i < 8, i++, tupc_index(mine, i, 0, int)) n++;
    TCHECK(n == 8, "forall over an indefinite block of mine ran %d times", n);
    upc_free(mine);
    return 0;
}

static void test_forall_int(void **state)
{
    (void)state;
    const int counts[] = {1, 2, 3, 4, 8, 16, 32};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        for (int i = 0; i < 200; i++)
            atomic_store(&forall_hits[i], 0);
        TT_RUN(counts[c], forall_int_body, NULL);
        for (int i = 0; i < 200; i++)
            assert_int_equal(atomic_load(&forall_hits[i]), 1);
    }
}

/* upc_affinitysize on its own: edge cases of the spec. */
static int affinitysize_body(void *arg)
{
    (void)arg;
    if (MYTHREAD != 0)
        return 0;
    size_t T = (size_t)THREADS;
    TCHECK(upc_affinitysize(0, 8, 0) == 0, "empty object");
    TCHECK(upc_affinitysize(100, 0, 0) == 100, "indefinite: all on thread 0");
    if (T > 1)
        TCHECK(upc_affinitysize(100, 0, 1) == 0, "indefinite: none on thread 1");
    /* One partial block only. */
    TCHECK(upc_affinitysize(5, 8, 0) == 5, "partial block on thread 0");
    /* Exactly one block per thread. */
    for (size_t t = 0; t < T; t++)
        TCHECK(upc_affinitysize(8 * T, 8, t) == 8, "one block each");
    /* Sum over threads is the total. */
    for (size_t total = 0; total < 200; total += 7) {
        size_t sum = 0;
        for (size_t t = 0; t < T; t++)
            sum += upc_affinitysize(total, 12, t);
        TCHECK(sum == total, "sum of affinity sizes of %zu is %zu", total, sum);
    }
    return 0;
}

static void test_affinitysize(void **state)
{
    (void)state;
    for (int k = 0; k < tt_nthread_counts; k++)
        TT_RUN(tt_thread_counts[k], affinitysize_body, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_walk),
        cmocka_unit_test(test_forall_int),
        cmocka_unit_test(test_affinitysize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
