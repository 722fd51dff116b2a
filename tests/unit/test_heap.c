/* The allocators: upc_all_alloc, upc_global_alloc, upc_alloc, upc_free,
 * upc_all_free (UPC 1.3 7.2.2), exhaustion, bad input, and a randomized
 * alloc/free test against a model of the live blocks. */
#include "tt.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP (1u << 20) /* small partitions: exhaustion comes quickly */

/* tt_run with a chosen partition size. */
static int run_heap(int threads, size_t heap, int (*fn)(void *), void *arg)
{
    tupc_options o = {.threads = threads, .heap_size = heap, .return_on_error = 1};
    int before = tt_failures();
    int st = tupc_run_opts(&o, fn, arg);
    if (st != 0)
        fprintf(stderr, "run of %d threads ended with status %d: %s\n", threads, st,
                tupc_last_error());
    return tt_failures() != before ? 1000 : st;
}
#define RUN_HEAP(threads, fn, arg) assert_int_equal(run_heap((threads), HEAP, (fn), (arg)), 0)

static char *partition_start(int t)
{
    /* From a pointer of any thread: partitions are consecutive slices. */
    tupc_sptr_t p = upc_alloc(1);
    char *base = p.addr - (size_t)MYTHREAD * tupc_impl_partition_size - upc_addrfield(p);
    upc_free(p);
    return base + (size_t)t * tupc_impl_partition_size;
}

static const int counts[] = {1, 2, 3, 4, 8, 16, 32};
#define NCOUNTS (sizeof counts / sizeof *counts)

/* ---- upc_all_alloc and upc_global_alloc ------------------------------- */

static tupc_sptr_t shared_ptrs[64];

static int collective_body(void *arg)
{
    (void)arg;
    const size_t nbytes = 40, nblocks = 3 * (size_t)THREADS + 1;
    tupc_sptr_t a = upc_all_alloc(nblocks, nbytes);
    TCHECK(!tupc_isnull(a), "upc_all_alloc: %s", tupc_alloc_error());
    TCHECK(a.thread == 0 && a.phase == 0, "upc_all_alloc: thread %u phase %u", a.thread, a.phase);
    TCHECK((uintptr_t)a.addr % 64 == 0, "upc_all_alloc: not 64-byte aligned");
    shared_ptrs[MYTHREAD] = a;
    upc_barrier();
    for (int t = 0; t < THREADS; t++)
        TCHECK(shared_ptrs[t].addr == a.addr, "thread %d got another pointer", t);
    /* Block i on thread i % THREADS, at the same offset in every partition. */
    for (size_t i = 0; i < nblocks; i++) {
        tupc_sptr_t b = tupc_index(a, i * nbytes, nbytes, char);
        TCHECK(b.thread == i % (size_t)THREADS && b.phase == 0, "block %zu on thread %u", i,
               b.thread);
        TCHECK(upc_addrfield(b) == upc_addrfield(a) + (i / (size_t)THREADS) * nbytes,
               "block %zu at offset %zu", i, upc_addrfield(b));
        TCHECK(b.addr == partition_start((int)b.thread) + upc_addrfield(b), "block %zu address", i);
        if (b.thread == (uint32_t)MYTHREAD)
            memset(b.addr, (int)i, nbytes);
    }
    upc_barrier();
    for (size_t i = 0; i < nblocks; i++) {
        unsigned char *b = (unsigned char *)tupc_index(a, i * nbytes, nbytes, char).addr;
        for (size_t k = 0; k < nbytes; k++)
            TCHECK(b[k] == (unsigned char)i, "block %zu byte %zu is %u", i, k, b[k]);
    }
    upc_barrier();

    /* upc_global_alloc: one thread calls; same shape. */
    if (MYTHREAD == THREADS - 1) {
        tupc_sptr_t g = upc_global_alloc(nblocks, nbytes);
        TCHECK(!tupc_isnull(g) && g.thread == 0 && g.phase == 0, "upc_global_alloc: %s",
               tupc_alloc_error());
        for (size_t i = 0; i < nblocks; i++) {
            tupc_sptr_t b = tupc_index(g, i * nbytes, nbytes, char);
            TCHECK(upc_addrfield(b) == upc_addrfield(g) + (i / (size_t)THREADS) * nbytes,
                   "global block %zu at offset %zu", i, upc_addrfield(b));
            memset(b.addr, 0x5a, nbytes); /* every block is writable */
        }
        /* Not overlapping the collective array, in any partition. */
        size_t ga = upc_addrfield(g), aa = upc_addrfield(a);
        size_t rows = (nblocks + (size_t)THREADS - 1) / (size_t)THREADS;
        TCHECK(ga >= aa + rows * nbytes || aa >= ga + rows * nbytes, "global overlaps all");
        upc_free(g); /* any thread may free it */
    }
    upc_all_free(a);

    /* A second upc_all_alloc after freeing gets memory again, and zero-size
     * requests give the null pointer-to-shared. */
    tupc_sptr_t z = upc_all_alloc(0, 100);
    TCHECK(tupc_isnull(z) && tupc_alloc_error()[0] == '\0', "upc_all_alloc(0, 100)");
    z = upc_all_alloc(100, 0);
    TCHECK(tupc_isnull(z), "upc_all_alloc(100, 0)");
    z = upc_global_alloc(0, 0);
    TCHECK(tupc_isnull(z), "upc_global_alloc(0, 0)");
    z = upc_alloc(0);
    TCHECK(tupc_isnull(z) && tupc_alloc_error()[0] == '\0', "upc_alloc(0)");
    upc_free(TUPC_NULL); /* no action */
    upc_all_free(TUPC_NULL);
    return 0;
}

static void test_collective_alloc(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        RUN_HEAP(counts[c], collective_body, NULL);
}

/* ---- upc_alloc ---------------------------------------------------------- */

static int local_body(void *arg)
{
    (void)arg;
    char *mine = partition_start(MYTHREAD);
    tupc_sptr_t p[20];
    for (int k = 0; k < 20; k++) {
        p[k] = upc_alloc((size_t)k * 37 + 1);
        TCHECK(!tupc_isnull(p[k]), "upc_alloc: %s", tupc_alloc_error());
        TCHECK(p[k].thread == (uint32_t)MYTHREAD && p[k].phase == 0, "upc_alloc: thread %u",
               p[k].thread);
        TCHECK(p[k].addr >= mine && p[k].addr + k * 37 + 1 <= mine + tupc_impl_partition_size,
               "upc_alloc outside the caller's partition");
        TCHECK((uintptr_t)p[k].addr % 64 == 0, "upc_alloc: not 64-byte aligned");
        memset(p[k].addr, k, (size_t)k * 37 + 1);
    }
    for (int k = 0; k < 20; k++) {
        for (size_t b = 0; b < (size_t)k * 37 + 1; b++)
            if (((unsigned char *)p[k].addr)[b] != (unsigned char)k) {
                TCHECK(0, "block %d byte %zu overwritten", k, b);
                break;
            }
        upc_free(p[k]);
    }
    /* A block freed by another thread than the one that allocated it. */
    shared_ptrs[MYTHREAD] = upc_alloc(100);
    upc_barrier();
    upc_free(shared_ptrs[(MYTHREAD + 1) % THREADS]);
    upc_barrier();
    /* Everything freed: the whole partition in one piece. */
    tupc_sptr_t all = upc_alloc(tupc_impl_partition_size);
    TCHECK(!tupc_isnull(all) && upc_addrfield(all) == 0, "whole partition: %s", tupc_alloc_error());
    upc_free(all);
    return 0;
}

static void test_local_alloc(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        RUN_HEAP(counts[c], local_body, NULL);
}

/* ---- Exhaustion --------------------------------------------------------- */

static int exhaust_body(void *arg)
{
    (void)arg;
    size_t S = tupc_impl_partition_size;
    char want[64];
    /* upc_alloc: one byte too many. */
    tupc_sptr_t p = upc_alloc(S + 1);
    TCHECK(tupc_isnull(p), "upc_alloc(S + 1) succeeded");
    snprintf(want, sizeof want, "%zu bytes", S + 1);
    TCHECK(strstr(tupc_alloc_error(), want) != NULL, "upc_alloc error \"%s\" lacks \"%s\"",
           tupc_alloc_error(), want);
    snprintf(want, sizeof want, "%zu free", S);
    TCHECK(strstr(tupc_alloc_error(), want) != NULL, "upc_alloc error \"%s\" lacks \"%s\"",
           tupc_alloc_error(), want);
    /* A success clears the error. */
    p = upc_alloc(1000);
    TCHECK(!tupc_isnull(p) && tupc_alloc_error()[0] == '\0', "upc_alloc(1000) after failure");
    /* Now the symmetric arena has S - 1024 bytes left in every partition. */
    tupc_sptr_t a = upc_all_alloc((size_t)THREADS, S - 1000);
    TCHECK(tupc_isnull(a), "upc_all_alloc of too much succeeded");
    snprintf(want, sizeof want, "%zu bytes", S - 1000);
    TCHECK(strstr(tupc_alloc_error(), want) != NULL, "upc_all_alloc error \"%s\" lacks \"%s\"",
           tupc_alloc_error(), want);
    snprintf(want, sizeof want, "%zu free", S - 1024);
    TCHECK(strstr(tupc_alloc_error(), want) != NULL, "upc_all_alloc error \"%s\" lacks \"%s\"",
           tupc_alloc_error(), want);
    /* Exactly what is left fits. */
    a = upc_all_alloc((size_t)THREADS, S - 1024);
    TCHECK(!tupc_isnull(a), "upc_all_alloc of the rest: %s", tupc_alloc_error());
    tupc_sptr_t q = upc_alloc(1);
    TCHECK(tupc_isnull(q), "upc_alloc in a full partition succeeded");
    TCHECK(strstr(tupc_alloc_error(), "0 free") != NULL, "full partition: \"%s\"",
           tupc_alloc_error());
    if (MYTHREAD == 0) {
        tupc_sptr_t g = upc_global_alloc(1, 64);
        TCHECK(tupc_isnull(g) && strstr(tupc_alloc_error(), "upc_global_alloc"),
               "upc_global_alloc in a full heap: \"%s\"", tupc_alloc_error());
    }
    upc_all_free(a);
    upc_free(p);
    upc_barrier();
    /* Huge sizes that round past SIZE_MAX are refused as exhaustion. */
    TCHECK(tupc_isnull(upc_alloc(SIZE_MAX)), "upc_alloc(SIZE_MAX)");
    TCHECK(tupc_alloc_error()[0] != '\0', "upc_alloc(SIZE_MAX) gave no reason");
    return 0;
}

static void test_exhaustion(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        RUN_HEAP(counts[c], exhaust_body, NULL);
}

/* ---- Refused input ------------------------------------------------------ */

static int overflow_all(void *arg)
{
    (void)arg;
    upc_all_alloc(SIZE_MAX / 2, 3);
    return 0;
}

static int overflow_global(void *arg)
{
    (void)arg;
    if (MYTHREAD == 1)
        upc_global_alloc(3, SIZE_MAX / 2);
    upc_barrier();
    return 0;
}

static int not_single_valued(void *arg)
{
    (void)arg;
    upc_all_alloc(4, MYTHREAD == THREADS - 1 ? 64 : 128);
    return 0;
}

static int double_free(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_alloc(100);
    upc_free(p);
    upc_free(p);
    return 0;
}

static int double_all_free(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_all_alloc(4, 100);
    upc_all_free(p);
    upc_all_free(p);
    return 0;
}

static int free_interior(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_alloc(256);
    upc_free(tupc_index(p, 64, 0, char));
    return 0;
}

static int free_global_interior(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_all_alloc(4, 64);
    if (MYTHREAD == 0)
        upc_free(tupc_index(p, 1, 64, char[64])); /* block 1: thread 1 */
    upc_barrier();
    return 0;
}

static int free_stack(void *arg)
{
    (void)arg;
    char local[16];
    upc_free((tupc_sptr_t){local, 0, 0});
    return 0;
}

static int free_wrong_thread(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_alloc(64);
    p.thread = (p.thread + 1) % 2;
    upc_free(p);
    return 0;
}

static void test_refused(void **state)
{
    (void)state;
    tt_expect_error(3, overflow_all, NULL, "tupc: upc_all_alloc (thread ", "overflows size_t",
                    "(UPC 1.3 7.2.2)", NULL);
    tt_expect_error(2, overflow_global, NULL, "tupc: upc_global_alloc (thread 1 of 2)",
                    "overflows size_t", NULL);
    tt_expect_error(4, not_single_valued, NULL, "tupc: upc_all_alloc (thread 3 of 4)",
                    "64 here but 4, 128 on thread 0", "single-valued", NULL);
    tt_expect_error(2, double_free, NULL, "tupc: upc_free", "not the start of a live allocation",
                    NULL);
    tt_expect_error(3, double_all_free, NULL, "tupc: upc_all_free (thread 0 of 3)",
                    "not the start of a live allocation", NULL);
    tt_expect_error(1, free_interior, NULL, "tupc: upc_free", "not the start", NULL);
    tt_expect_error(2, free_global_interior, NULL, "tupc: upc_free", "not the start", NULL);
    tt_expect_error(1, free_stack, NULL, "tupc: upc_free", "does not point into the shared heap",
                    NULL);
    tt_expect_error(2, free_wrong_thread, NULL, "tupc: upc_free", "partition", NULL);
}

/* ---- Randomized alloc/free against a model ------------------------------ */

struct block {
    tupc_sptr_t p;
    size_t len;    /* bytes asked, in the caller's partition (per partition for sym) */
    uint8_t fill;  /* pattern seed */
    int symmetric; /* from upc_all_alloc */
};

#define MAXB 64

static int exhausted[64]; /* failed allocations per thread */

/* Patterns on every 16th byte and the last: blocks are 64-byte aligned, so
 * two overlapping blocks share marked bytes (and sanitizer builds stay fast). */
#define STRIDE 16

static void fill(char *at, size_t len, uint8_t seed)
{
    for (size_t k = 0; k < len; k += STRIDE)
        at[k] = (char)(uint8_t)(seed + k * 7);
    at[len - 1] = (char)(uint8_t)(seed + (len - 1) * 7);
}

static int verify(const char *at, size_t len, uint8_t seed)
{
    for (size_t k = 0; k < len; k += STRIDE)
        if ((uint8_t)at[k] != (uint8_t)(seed + k * 7))
            return 0;
    return (uint8_t)at[len - 1] == (uint8_t)(seed + (len - 1) * 7);
}

/* Byte range of block b in thread t's partition, as offsets. */
static int range_in(const struct block *b, int t, size_t *lo, size_t *hi)
{
    if (!b->symmetric && b->p.thread != (uint32_t)t)
        return 0;
    *lo = upc_addrfield(b->p);
    *hi = *lo + b->len;
    return 1;
}

static int check_disjoint(const struct block *sym, int nsym, const struct block *loc, int nloc,
                          int step)
{
    /* Every live block of my partition, symmetric and local alike. */
    struct block all[2 * MAXB];
    int n = 0;
    for (int k = 0; k < nsym; k++)
        all[n++] = sym[k];
    for (int k = 0; k < nloc; k++)
        all[n++] = loc[k];
    size_t S = tupc_impl_partition_size;
    int bad = 0;
    for (int a = 0; a < n; a++) {
        size_t alo, ahi;
        if (!range_in(&all[a], MYTHREAD, &alo, &ahi))
            continue;
        if (alo % 64 != 0 || ahi > S)
            bad++;
        TCHECK(alo % 64 == 0 && ahi <= S, "block [%zu, %zu) misplaced", alo, ahi);
        for (int b = a + 1; b < n; b++) {
            size_t blo, bhi;
            if (range_in(&all[b], MYTHREAD, &blo, &bhi) && !(ahi <= blo || bhi <= alo)) {
                bad++;
                TCHECK(0, "step %d: [%zu, %zu) overlaps [%zu, %zu)", step, alo, ahi, blo, bhi);
            }
        }
    }
    return bad;
}

static int random_body(void *arg)
{
    uint64_t seed = *(uint64_t *)arg;
    uint64_t common = seed;                              /* same on every thread */
    uint64_t own = seed * 1000003u + (uint64_t)MYTHREAD; /* this thread's choices */
    /* Symmetric blocks: the same list, in the same order, on every thread. */
    struct block sym[MAXB], loc[MAXB];
    int nsym = 0, nloc = 0, failures = 0;
    char *mine = partition_start(MYTHREAD);
    size_t S = tupc_impl_partition_size;
    for (int step = 0; step < 300; step++) {
        if (step % 8 == 0) {
            /* Collective step: all threads decide alike. */
            uint64_t r = tt_rand(&common);
            if (r % 3 == 0 && nsym > 0) {
                int k = (int)((r >> 32) % (uint64_t)nsym);
                size_t lo = upc_addrfield(sym[k].p);
                TCHECK(verify(mine + lo, sym[k].len, sym[k].fill),
                       "step %d: symmetric block at %zu changed", step, lo);
                upc_all_free(sym[k].p);
                sym[k] = sym[--nsym];
            } else if (nsym < MAXB) {
                size_t per = (size_t)(r % (S / 6)) + 1;
                tupc_sptr_t p = upc_all_alloc((size_t)THREADS, per);
                if (tupc_isnull(p)) {
                    failures++;
                    TCHECK(strstr(tupc_alloc_error(), "asked") != NULL, "no reason: \"%s\"",
                           tupc_alloc_error());
                } else {
                    sym[nsym] = (struct block){p, per, (uint8_t)(r >> 8), 1};
                    fill(mine + upc_addrfield(p), per, sym[nsym].fill);
                    nsym++;
                }
            }
        } else {
            uint64_t r = tt_rand(&own);
            if (nloc > 0 && r % 2 == 0) {
                int k = (int)((r >> 16) % (uint64_t)nloc);
                TCHECK(verify(loc[k].p.addr, loc[k].len, loc[k].fill),
                       "step %d: local block changed", step);
                upc_free(loc[k].p);
                loc[k] = loc[--nloc];
            } else if (nloc < MAXB) {
                size_t len = (size_t)((r >> 8) % (S / 8)) + 1;
                tupc_sptr_t p = upc_alloc(len);
                if (tupc_isnull(p)) {
                    failures++;
                    TCHECK(strstr(tupc_alloc_error(), "asked") != NULL, "no reason: \"%s\"",
                           tupc_alloc_error());
                } else {
                    TCHECK(p.thread == (uint32_t)MYTHREAD, "upc_alloc on thread %u", p.thread);
                    loc[nloc] = (struct block){p, len, (uint8_t)(r >> 40), 0};
                    fill(p.addr, len, loc[nloc].fill);
                    nloc++;
                }
            }
        }
        if (check_disjoint(sym, nsym, loc, nloc, step))
            break;
    }
    /* Free everything, checking contents; then the partition is whole again. */
    for (int k = 0; k < nloc; k++) {
        TCHECK(verify(loc[k].p.addr, loc[k].len, loc[k].fill), "final: local changed");
        upc_free(loc[k].p);
    }
    for (int k = 0; k < nsym; k++) {
        TCHECK(verify(mine + upc_addrfield(sym[k].p), sym[k].len, sym[k].fill),
               "final: symmetric changed");
        upc_all_free(sym[k].p);
    }
    /* The test must have reached exhaustion somewhere to mean much. */
    exhausted[MYTHREAD] = failures;
    upc_barrier();
    tupc_sptr_t all = upc_all_alloc((size_t)THREADS, S);
    TCHECK(!tupc_isnull(all), "whole heap after freeing everything: %s", tupc_alloc_error());
    upc_all_free(all);
    /* upc_all_free has no barrier on the way out (thread 0 frees after
     * the one on the way in): wait for the free before using the space. */
    upc_barrier();
    tupc_sptr_t one = upc_alloc(S);
    TCHECK(!tupc_isnull(one), "whole partition after freeing everything: %s", tupc_alloc_error());
    upc_free(one);
    return 0;
}

static void test_random(void **state)
{
    (void)state;
    int total = 0;
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (size_t c = 0; c < NCOUNTS; c++) {
            RUN_HEAP(counts[c], random_body, &seed);
            for (int t = 0; t < counts[c]; t++)
                total += exhausted[t];
        }
    assert_true(total > 0); /* the model saw full partitions too */
}

/* ---- Concurrent upc_alloc ----------------------------------------------- */

static int concurrent_body(void *arg)
{
    (void)arg;
    char *mine = partition_start(MYTHREAD);
    tupc_sptr_t *got = malloc(2048 * sizeof *got);
    upc_barrier();
    /* All threads at once, until the partition is full. */
    int n = 0;
    for (; n < 2048; n++) {
        got[n] = upc_alloc(600 + (size_t)(n % 5) * 64);
        if (tupc_isnull(got[n]))
            break;
        TCHECK(got[n].thread == (uint32_t)MYTHREAD && got[n].addr >= mine &&
                   got[n].addr < mine + tupc_impl_partition_size,
               "block %d outside my partition", n);
        memset(got[n].addr, MYTHREAD, 300);
    }
    TCHECK(n > 100 && n < 2048, "%d blocks of about 700 bytes in 1 MiB", n);
    /* Sorted by address (local blocks grow down), disjoint. */
    for (int k = 1; k < n; k++)
        TCHECK(got[k].addr + 600 + (size_t)(k % 5) * 64 <= got[k - 1].addr ||
                   got[k - 1].addr + 600 + (size_t)((k - 1) % 5) * 64 <= got[k].addr,
               "blocks %d and %d overlap", k - 1, k);
    upc_barrier();
    for (int k = 0; k < n; k++) {
        for (int b = 0; b < 300; b++)
            if (got[k].addr[b] != (char)MYTHREAD) {
                TCHECK(0, "block %d byte %d written by another thread", k, b);
                break;
            }
        upc_free(got[k]);
    }
    free(got);
    return 0;
}

static void test_concurrent(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        RUN_HEAP(counts[c], concurrent_body, NULL);
}

/* upc_global_alloc and upc_alloc from every thread at once: the symmetric
 * arena grows under every partition's lock while upc_alloc runs. */
#define NG 12

static tupc_sptr_t global_of[64][NG];

static int concurrent_global_body(void *arg)
{
    (void)arg;
    int me = MYTHREAD, T = THREADS;
    tupc_sptr_t loc[NG];
    upc_barrier();
    for (int k = 0; k < NG; k++) {
        global_of[me][k] = upc_global_alloc((size_t)T, 192);
        loc[k] = upc_alloc(192);
        TCHECK(!tupc_isnull(global_of[me][k]) && !tupc_isnull(loc[k]), "alloc %d: %s", k,
               tupc_alloc_error());
        /* Mark my global block in every partition, and my local one. */
        for (int t = 0; t < T; t++)
            memset(tupc_index(global_of[me][k], (size_t)t * 192, 192, char).addr, me + 1, 192);
        memset(loc[k].addr, 100 + me, 192);
    }
    upc_barrier();
    for (int k = 0; k < NG; k++) {
        for (int t = 0; t < T; t++) {
            const char *b = tupc_index(global_of[me][k], (size_t)t * 192, 192, char).addr;
            for (int i = 0; i < 192; i += 8)
                if (b[i] != (char)(me + 1)) {
                    TCHECK(0, "global block %d of thread %d overwritten on thread %d", k, me, t);
                    break;
                }
        }
        for (int i = 0; i < 192; i += 8)
            if (loc[k].addr[i] != (char)(100 + me)) {
                TCHECK(0, "local block %d overwritten", k);
                break;
            }
    }
    upc_barrier();
    /* Free in another order, from another thread. */
    for (int k = NG - 1; k >= 0; k--) {
        upc_free(global_of[(me + 1) % T][k]);
        upc_free(loc[k]);
    }
    upc_barrier();
    tupc_sptr_t all = upc_all_alloc((size_t)T, tupc_impl_partition_size);
    TCHECK(!tupc_isnull(all), "whole heap after the frees: %s", tupc_alloc_error());
    upc_all_free(all);
    return 0;
}

static void test_concurrent_global(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCOUNTS; c++)
        RUN_HEAP(counts[c], concurrent_global_body, NULL);
}

/* Every thread grows both arenas of a small heap at once until both refuse:
 * upc_global_alloc (the symmetric arena, every partition) and upc_alloc
 * (its own partition). No two blocks may overlap in any partition, and no
 * thread may hold more than one heap lock at a time (at 64 THREADS and more,
 * ThreadSanitizer's deadlock detector stops a thread that holds THREADS + 1
 * mutexes: this test runs in the TSan job). */
enum { RACE_MAX = 64, RACE_BLOCK = 4096 };
#define RACE_HEAP ((size_t)64 * RACE_BLOCK)
static tupc_sptr_t race_global[RACE_MAX][RACE_HEAP / RACE_BLOCK];
static tupc_sptr_t race_local[RACE_MAX][RACE_HEAP / RACE_BLOCK];
static int race_ng[RACE_MAX], race_nl[RACE_MAX];
static char *race_base; /* partition 0 */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int race_body(void *arg)
{
    (void)arg;
    const int me = MYTHREAD, T = THREADS;
    /* Full after 4 refusals in a row: a refusal may come from a clash with
     * a growth of the other kind, which both take back (heap.c). */
    int ng = 0, nl = 0, g_fails = 0, l_fails = 0;
    if (me == 0)
        race_base = partition_start(0); /* while upc_alloc still has room */
    upc_barrier();
    while (g_fails < 4 || l_fails < 4) {
        if (g_fails < 4) {
            tupc_sptr_t g = upc_global_alloc((size_t)T, RACE_BLOCK);
            if (tupc_isnull(g))
                g_fails++;
            else
                race_global[me][ng++] = g, g_fails = 0;
        }
        if (l_fails < 4) {
            tupc_sptr_t l = upc_alloc(RACE_BLOCK);
            if (tupc_isnull(l))
                l_fails++;
            else
                race_local[me][nl++] = l, l_fails = 0;
        }
    }
    race_ng[me] = ng;
    race_nl[me] = nl;
    upc_barrier();
    if (me == 0) {
        /* Start offsets of every block in each partition, sorted: each must
         * end before the next starts. */
        size_t n_all = 0;
        for (int t = 0; t < T; t++)
            n_all += (size_t)race_ng[t];
        size_t *starts = malloc(sizeof *starts * (n_all + RACE_HEAP / RACE_BLOCK));
        size_t total_blocks = 0;
        for (int p = 0; p < T; p++) {
            size_t n = 0;
            for (int t = 0; t < T; t++)
                for (int k = 0; k < race_ng[t]; k++)
                    starts[n++] = (size_t)(race_global[t][k].addr - race_base);
            for (int k = 0; k < race_nl[p]; k++)
                starts[n++] = (size_t)(race_local[p][k].addr - race_base -
                                       (size_t)p * tupc_impl_partition_size);
            qsort(starts, n, sizeof *starts, cmp_size);
            for (size_t i = 1; i < n; i++)
                TCHECK(starts[i] >= starts[i - 1] + RACE_BLOCK,
                       "partition %d: blocks at %zu and %zu overlap", p, starts[i - 1], starts[i]);
            TCHECK(n * RACE_BLOCK <= RACE_HEAP, "partition %d: %zu blocks in %zu bytes", p, n,
                   RACE_HEAP);
            total_blocks += n;
        }
        /* The heap is nearly full when both refuse: at most a block and its
         * rounding free per partition, plus what clashes gave back. */
        TCHECK(total_blocks >= (size_t)T * (RACE_HEAP / RACE_BLOCK - 2),
               "%zu blocks in %d partitions of %zu", total_blocks, T, RACE_HEAP / RACE_BLOCK);
        free(starts);
    }
    upc_barrier();
    for (int k = 0; k < nl; k++)
        upc_free(race_local[me][k]);
    for (int k = 0; k < ng; k++)
        upc_free(race_global[me][k]);
    return 0;
}

static void test_race_to_full(void **state)
{
    (void)state;
    static const int race_counts[] = {2, 4, 8, 64};
    for (size_t c = 0; c < sizeof race_counts / sizeof *race_counts; c++)
        assert_int_equal(run_heap(race_counts[c], RACE_HEAP, race_body, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collective_alloc),
        cmocka_unit_test(test_local_alloc),
        cmocka_unit_test(test_exhaustion),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_concurrent),
        cmocka_unit_test(test_concurrent_global),
        cmocka_unit_test(test_race_to_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
