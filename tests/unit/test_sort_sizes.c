/* upc_all_sort with 4-, 8- and 16-byte elements (the fixed-size element
 * moves) and chunk sizes whose local merge passes are odd or even (the
 * chunk is copied into the half of the area where its passes end): keys
 * 0..3 only, so runs of equal keys cross every chunk and merge-path split;
 * the payload is the original index and must stay in order among equal
 * keys (stable). nelems {31, 33, 65, 100, 1000, 4097, 50001} x blk_size
 * {0, ceil(nelems/THREADS)} x THREADS {1, 2, 3, 4}. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>
#include <string.h>

static size_t es_of(int kind)
{
    return kind == 0 ? 4 : kind == 1 ? 8 : 16;
}

/* key of element with payload i: 0..3 */
static unsigned key_of(size_t i)
{
    uint64_t s = i + 99;
    return (unsigned)(tt_rand(&s) % 4);
}

/* Element layouts: 4 bytes key << 28 | index; 8: {int key, int idx};
 * 16: {long key, long idx}. */
static void get(int kind, const void *p, unsigned *key, size_t *idx)
{
    if (kind == 0) {
        uint32_t v;
        memcpy(&v, p, 4);
        *key = v >> 28;
        *idx = v & 0x0fffffff;
    } else if (kind == 1) {
        int v[2];
        memcpy(v, p, 8);
        *key = (unsigned)v[0];
        *idx = (size_t)v[1];
    } else {
        long v[2];
        memcpy(v, p, 16);
        *key = (unsigned)v[0];
        *idx = (size_t)v[1];
    }
}

static void set(int kind, void *p, size_t i)
{
    unsigned k = key_of(i);
    if (kind == 0) {
        uint32_t v = (uint32_t)k << 28 | (uint32_t)i;
        memcpy(p, &v, 4);
    } else if (kind == 1) {
        int v[2] = {(int)k, (int)i};
        memcpy(p, v, 8);
    } else {
        long v[2] = {(long)k, (long)i};
        memcpy(p, v, 16);
    }
}

static int kind_now;

static int cmp(tupc_sptr_t a, tupc_sptr_t b)
{
    unsigned ka, kb;
    size_t ia, ib;
    get(kind_now, tupc_local(a), &ka, &ia);
    get(kind_now, tupc_local(b), &kb, &ib);
    return (ka > kb) - (ka < kb);
}

struct cse {
    int kind;
    size_t n, B;
};

static int body(void *arg)
{
    const struct cse *c = arg;
    size_t es = es_of(c->kind), n = c->n, B = c->B;
    const int T = THREADS;
    tupc_sptr_t a = B ? upc_all_alloc((n + B - 1) / B + 1, B * es) : upc_all_alloc(1, n * es);
    if (B)
        for (size_t i = (size_t)MYTHREAD; i < n; i += (size_t)T)
            set(c->kind, tupc_ptr_add(a, (ptrdiff_t)i, B, es).addr, i);
    else if (MYTHREAD == 0)
        for (size_t i = 0; i < n; i++)
            set(c->kind, (char *)a.addr + i * es, i);
    upc_barrier();
    upc_all_sort(a, es, n, B, cmp, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
    if (MYTHREAD == 0) {
        unsigned pk = 0;
        size_t pi = 0;
        int bad = 0;
        for (size_t i = 0; i < n && bad < 3; i++) {
            unsigned k;
            size_t idx;
            get(c->kind, tupc_ptr_add(a, (ptrdiff_t)i, B, es).addr, &k, &idx);
            int ok = key_of(idx) == k && (i == 0 || pk < k || (pk == k && pi < idx));
            if (!ok) {
                bad++;
                TCHECK(0, "es %zu n %zu B %zu T %d: element %zu key %u idx %zu after %u %zu", es, n,
                       B, T, i, k, idx, pk, pi);
            }
            pk = k;
            pi = idx;
        }
    }
    upc_barrier();
    upc_all_free(a);
    return 0;
}

static void test_sizes(void **state)
{
    (void)state;
    const size_t ns[] = {31, 33, 65, 100, 1000, 4097, 50001};
    for (int kind = 0; kind < 3; kind++) {
        kind_now = kind;
        for (int T = 1; T <= 4; T++)
            for (int in = 0; in < 7; in++)
                for (int lay = 0; lay < 2; lay++) {
                    struct cse c = {kind, ns[in], lay ? (ns[in] + (size_t)T - 1) / (size_t)T : 0};
                    TT_RUN(T, body, &c);
                }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sizes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
