/* upc_memcpy, upc_memget, upc_memput, upc_memset across threads (UPC 1.3
 * 7.2.5), with guard bytes around every destination, and refused ranges. */
#include "tt.h"

#include <string.h>

#define BLK 256 /* bytes of each thread's block */
#define OFF 16  /* copies start here: OFF bytes of guard before */
#define LEN 200 /* and BLK - OFF - LEN after */
#define GUARD 0xA5

/* Byte k of the source block of thread t. */
static unsigned char pat(int t, size_t k)
{
    return (unsigned char)(t * 31 + k * 7 + 1);
}

static tupc_sptr_t block_of(tupc_sptr_t a, int t)
{
    return tupc_index(a, (size_t)t * BLK, BLK, char);
}

static int guards_ok(const unsigned char *b, size_t lo, size_t hi, size_t len)
{
    for (size_t k = 0; k < len; k++)
        if ((k < lo || k >= hi) && b[k] != GUARD)
            return 0;
    return 1;
}

static int copy_body(void *arg)
{
    (void)arg;
    int me = MYTHREAD, T = THREADS;
    tupc_sptr_t src = upc_all_alloc((size_t)T, BLK);
    tupc_sptr_t dst = upc_all_alloc((size_t)T, BLK);
    TCHECK(!tupc_isnull(src) && !tupc_isnull(dst), "upc_all_alloc: %s", tupc_alloc_error());
    unsigned char *mysrc = (unsigned char *)block_of(src, me).addr;
    for (size_t k = 0; k < BLK; k++)
        mysrc[k] = pat(me, k);
    memset(block_of(dst, me).addr, GUARD, BLK);
    upc_barrier();

    /* upc_memcpy: pull from the next thread into my block. */
    int from = (me + 1) % T;
    upc_memcpy(tupc_index(block_of(dst, me), OFF, 0, char),
               tupc_index(block_of(src, from), OFF, 0, char), LEN);
    unsigned char *mydst = (unsigned char *)block_of(dst, me).addr;
    for (size_t k = OFF; k < OFF + LEN; k++)
        TCHECK(mydst[k] == pat(from, k), "upc_memcpy byte %zu", k);
    TCHECK(guards_ok(mydst, OFF, OFF + LEN, BLK), "upc_memcpy wrote a guard byte");
    upc_barrier();

    /* upc_memput: push my pattern into the previous thread's block. */
    int to = (me + T - 1) % T;
    memset(mydst, GUARD, BLK);
    upc_barrier();
    upc_memput(tupc_index(block_of(dst, to), OFF, 0, char), mysrc + OFF, LEN);
    upc_barrier();
    for (size_t k = OFF; k < OFF + LEN; k++)
        TCHECK(mydst[k] == pat((me + 1) % T, k), "upc_memput byte %zu", k);
    TCHECK(guards_ok(mydst, OFF, OFF + LEN, BLK), "upc_memput wrote a guard byte");

    /* upc_memget into private memory with guards. */
    unsigned char priv[BLK];
    memset(priv, GUARD, sizeof priv);
    upc_memget(priv + OFF, tupc_index(block_of(src, to), OFF, 0, char), LEN);
    for (size_t k = OFF; k < OFF + LEN; k++)
        TCHECK(priv[k] == pat(to, k), "upc_memget byte %zu", k);
    TCHECK(guards_ok(priv, OFF, OFF + LEN, BLK), "upc_memget wrote a guard byte");
    upc_barrier();

    /* upc_memset on another thread's block. */
    memset(mydst, GUARD, BLK);
    upc_barrier();
    upc_memset(tupc_index(block_of(dst, to), OFF, 0, char), me & 0xff, LEN);
    upc_barrier();
    for (size_t k = OFF; k < OFF + LEN; k++)
        TCHECK(mydst[k] == (unsigned char)((me + 1) % T), "upc_memset byte %zu", k);
    TCHECK(guards_ok(mydst, OFF, OFF + LEN, BLK), "upc_memset wrote a guard byte");

    /* Zero lengths touch nothing, and the whole block copies at once. */
    upc_memcpy(block_of(dst, me), block_of(src, me), 0);
    upc_memget(priv, block_of(src, me), 0);
    upc_memput(block_of(dst, me), priv, 0);
    upc_memset(block_of(dst, me), 0, 0);
    upc_memcpy(block_of(dst, me), block_of(src, from), BLK);
    TCHECK(memcmp(mydst, block_of(src, from).addr, BLK) == 0, "whole-block upc_memcpy");
    upc_fence();
    upc_barrier();
    upc_all_free(src);
    upc_all_free(dst);
    return 0;
}

static void test_copies(void **state)
{
    (void)state;
    const int counts[] = {1, 2, 3, 4, 8, 16, 32};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        TT_RUN(counts[c], copy_body, NULL);
}

/* A range that starts in the last block of a partition and runs past it. */
static tupc_sptr_t end_of_partition(void)
{
    /* upc_alloc grows down from the partition's end: the first block ends it. */
    return upc_alloc(64);
}

static int memset_past_end(void *arg)
{
    (void)arg;
    upc_memset(end_of_partition(), 0, 65);
    return 0;
}

static int memcpy_past_end(void *arg)
{
    (void)arg;
    tupc_sptr_t p = end_of_partition();
    tupc_sptr_t q = upc_all_alloc((size_t)THREADS, 1024);
    upc_memcpy(q, p, 100);
    return 0;
}

static int memget_past_end(void *arg)
{
    (void)arg;
    char buf[200];
    upc_memget(buf, end_of_partition(), sizeof buf);
    return 0;
}

static int memput_past_end(void *arg)
{
    (void)arg;
    char buf[200] = {0};
    if (MYTHREAD == THREADS - 1)
        upc_memput(end_of_partition(), buf, sizeof buf);
    return 0;
}

static int memcpy_overlap(void *arg)
{
    (void)arg;
    tupc_sptr_t p = upc_alloc(256);
    upc_memcpy(p, tupc_index(p, 8, 0, char), 64);
    return 0;
}

static int memget_null(void *arg)
{
    (void)arg;
    upc_memget(NULL, upc_alloc(64), 8);
    return 0;
}

static int memset_null(void *arg)
{
    (void)arg;
    upc_memset(TUPC_NULL, 0, 8);
    return 0;
}

/* Strict accesses to an object wider than one atomic access: every strict
 * read sees one strict write whole (UPC 1.3 5.1.2.3 orders strict accesses
 * as a whole), never the bytes of two. Thread 0 writes one byte value over
 * the whole object, round after round, while the others read it. */
#define WIDE 40
#define ROUNDS 5000

struct wide {
    unsigned char b[WIDE];
};

static int readers_done(tupc_sptr_t done)
{
    for (int t = 1; t < THREADS; t++)
        if (!tupc_get_strict_int(tupc_index(done, t, 1, int)))
            return 0;
    return 1;
}

static int strict_wide_body(void *arg)
{
    (void)arg;
    tupc_sptr_t obj = upc_all_alloc(1, sizeof(struct wide));
    tupc_sptr_t ld = upc_all_alloc(1, sizeof(long double));
    tupc_sptr_t done = upc_all_alloc((size_t)THREADS, sizeof(int));
    TCHECK(!tupc_isnull(obj) && !tupc_isnull(ld) && !tupc_isnull(done), "upc_all_alloc: %s",
           tupc_alloc_error());
    tupc_put_int(tupc_index(done, MYTHREAD, 1, int), 0);
    upc_barrier();
    if (MYTHREAD == 0) {
        /* Writes until every reader has read ROUNDS times. */
        for (int r = 1; r % 64 || !readers_done(done); r++) {
            struct wide w;
            memset(&w, r & 0xff, sizeof w);
            tupc_put_strict(obj, &w, sizeof w);
            tupc_put_strict_ldouble(ld, (long double)r);
        }
    } else {
        int torn = 0;
        for (int r = 0; r < ROUNDS; r++) {
            struct wide w;
            tupc_get_strict(&w, obj, sizeof w);
            for (size_t k = 1; k < WIDE; k++)
                torn += w.b[k] != w.b[0];
            long double v = tupc_get_strict_ldouble(ld);
            torn += v != (long double)(long long)v || v < 0;
            /* A member of the object, strict on its own (one atomic load),
             * against the strict copies of the whole: one write's bytes. */
            unsigned long m = tupc_get_strict_ulong(tupc_ptr_add(obj, 8, 0, 1));
            for (size_t k = 1; k < sizeof m; k++)
                torn += (unsigned char)(m >> (8 * k)) != (unsigned char)m;
        }
        tupc_put_strict_int(tupc_index(done, MYTHREAD, 1, int), 1);
        TCHECK(torn == 0, "thread %d: %d strict reads saw parts of two writes", MYTHREAD, torn);
    }
    upc_barrier();
    return 0;
}

static void test_strict_wide(void **state)
{
    (void)state;
    TT_RUN(2, strict_wide_body, NULL);
    TT_RUN(4, strict_wide_body, NULL);
}

static void test_refused(void **state)
{
    (void)state;
    tt_expect_error(2, memset_past_end, NULL, "tupc: upc_memset (thread", "dst + 65 bytes",
                    "runs past the end", NULL);
    tt_expect_error(2, memcpy_past_end, NULL, "tupc: upc_memcpy", "src + 100 bytes",
                    "runs past the end", NULL);
    tt_expect_error(1, memget_past_end, NULL, "tupc: upc_memget (thread 0 of 1)",
                    "src + 200 bytes runs past the end", NULL);
    tt_expect_error(3, memput_past_end, NULL, "tupc: upc_memput (thread 2 of 3)",
                    "dst + 200 bytes runs past the end", NULL);
    tt_expect_error(1, memcpy_overlap, NULL, "tupc: upc_memcpy", "overlap", NULL);
    tt_expect_error(1, memget_null, NULL, "tupc: upc_memget", "dst is NULL", NULL);
    tt_expect_error(1, memset_null, NULL, "tupc: upc_memset", "null pointer-to-shared", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_strict_wide),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
