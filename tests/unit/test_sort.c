/* upc_all_sort: stability with many equal keys (keys 0..4, payload the
 * original index), 12-byte elements, nelems {0,1,2,THREADS-1,17,1000,10007}
 * (not multiples of THREADS) x blk_size {0,1,3,7,nelems} x start offsets
 * (aligned, odd phase, another thread) x THREADS {1,2,3,5,8}; the flags
 * cycle over the 9 IN x OUT pairs. Under TUPC_TEST_QUICK nelems stops at
 * 1000 and THREADS at 5. */
#include "tt.h"

#include <upc_collective.h>

#include <stdlib.h>

struct el {
    int key, idx, pad;
};

static int quick(void)
{
    return getenv("TUPC_TEST_QUICK") != NULL;
}

static int by_key(tupc_sptr_t a, tupc_sptr_t b)
{
    const struct el *x = tupc_local(a), *y = tupc_local(b);
    return (x->key > y->key) - (x->key < y->key);
}

static int sweep(void *arg)
{
    (void)arg;
    const int T = THREADS, me = MYTHREAD;
    const size_t es = sizeof(struct el);
    size_t ns[] = {0, 1, 2, (size_t)(T > 1 ? T - 1 : 1), 17, 1000, 10007};
    int nn = quick() ? 6 : 7, count = 0;
    for (int in = 0; in < nn; in++) {
        size_t n = ns[in];
        size_t Bs[] = {0, 1, 3, 7, n};
        for (int ib = 0; ib < 5; ib++) {
            size_t B = Bs[ib];
            size_t offs[] = {0, B > 1 ? B - 1 : 1, B * (size_t)(T / 2) + (B > 2)};
            for (int io = 0; io < 3; io++, count++) {
                size_t off = offs[io];
                tupc_sptr_t base, A;
                if (B) {
                    base = upc_all_alloc((off + n) / B + 2, B * es);
                    A = tupc_ptr_add(base, (ptrdiff_t)off, B, es);
                } else {
                    size_t bytes = (off + n + 1) * es;
                    base = upc_all_alloc((size_t)T, bytes);
                    A = tupc_ptr_cast(
                        tupc_index(base, (off % (size_t)T) * bytes + off * es, bytes, char));
                }
                for (size_t i = (size_t)me; i < n; i += (size_t)T) {
                    uint64_t s = i + (uint64_t)count * 1000003;
                    struct el e = {(int)(tt_rand(&s) % 5), (int)i, 0};
                    tupc_ref(A, i, B, struct el) = e;
                }
                upc_barrier();
                upc_all_sort(A, es, n, B, by_key, tt_sync_flags[count % TT_NPAIRS]);
                upc_barrier();
                if (me == count % T) {
                    int bad = 0;
                    for (size_t i = 1; i < n && bad < 3; i++) {
                        struct el p = tupc_ref(A, i - 1, B, struct el),
                                  q = tupc_ref(A, i, B, struct el);
                        if (p.key > q.key || (p.key == q.key && p.idx >= q.idx)) {
                            bad++;
                            TCHECK(0, "n %zu B %zu off %zu: [%zu] (%d,%d) before (%d,%d)", n, B,
                                   off, i, p.key, p.idx, q.key, q.idx);
                        }
                    }
                    /* A permutation of the input: the indices sum right. */
                    size_t sum = 0;
                    for (size_t i = 0; i < n; i++)
                        sum += (size_t)tupc_ref(A, i, B, struct el).idx;
                    TCHECK(sum == (n ? n * (n - 1) / 2 : 0), "n %zu B %zu: not a permutation", n,
                           B);
                }
                upc_barrier();
                upc_all_free(base);
            }
        }
    }
    return 0;
}

static void test_sort_sweep(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 5, 8};
    for (int i = 0; i < (quick() ? 4 : 5); i++)
        TT_RUN(threads[i], sweep, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
