/* <upc_nb.h> and <upc_castable.h>: every non-blocking transfer moves its
 * bytes by the matching sync, between threads (never a thread's own block
 * only), and every byte of every destination is checked after a barrier;
 * made-up handles and out-of-range threads are refused in one line that
 * names the function. */
#include "tt.h"

#include <upc_castable.h>
#include <upc_nb.h>

#include <stdint.h>
#include <string.h>

static const int counts[] = {1, 2, 3, 5};
#define NCOUNTS (int)(sizeof counts / sizeof counts[0])

/* Bytes per thread: more than a page, not a multiple of 8. */
#define BLK 5000

static unsigned char pattern(int what, int thread, size_t i)
{
    uint64_t s = ((uint64_t)what << 40) ^ ((uint64_t)thread << 20) ^ i;
    return (unsigned char)tt_rand(&s);
}

static void fill(tupc_sptr_t a, int what)
{
    unsigned char *mine = tupc_local(tupc_ptr_add(a, MYTHREAD, 1, BLK));
    for (size_t i = 0; i < BLK; i++)
        mine[i] = pattern(what, MYTHREAD, i);
}

static tupc_sptr_t block_of(tupc_sptr_t a, int t)
{
    return tupc_ptr_add(a, t, 1, BLK);
}

/* Each thread: puts into thread t+1's block of P, gets thread t+2's block
 * of G, copies thread t+1's block of C into thread t+3's block of D and
 * sets thread t+1's block of S; explicit handles (synced one by one,
 * some by polling) when explicit, else implicit ones and upc_synci. */
static int transfers(void *arg)
{
    int explicit = *(int *)arg;
    int T = THREADS, me = MYTHREAD;
    tupc_sptr_t P = upc_all_alloc(T, BLK), G = upc_all_alloc(T, BLK);
    tupc_sptr_t C = upc_all_alloc(T, BLK), D = upc_all_alloc(T, BLK);
    tupc_sptr_t S = upc_all_alloc(T, BLK);
    fill(G, 2);
    fill(C, 3);
    unsigned char src[BLK], got[BLK];
    for (size_t i = 0; i < BLK; i++)
        src[i] = pattern(1, me, i);
    upc_barrier();
    if (explicit) {
        upc_handle_t h[4];
        h[0] = upc_memput_nb(block_of(P, (me + 1) % T), src, BLK);
        h[1] = upc_memget_nb(got, block_of(G, (me + 2) % T), BLK);
        h[2] = upc_memcpy_nb(block_of(D, (me + 3) % T), block_of(C, (me + 1) % T), BLK);
        h[3] = upc_memset_nb(block_of(S, (me + 1) % T), 0x40 + me, BLK);
        for (int k = 0; k < 4; k += 2) {
            while (!upc_sync_attempt(h[k]))
                ;
            upc_sync(h[k + 1]);
        }
    } else {
        upc_memput_nbi(block_of(P, (me + 1) % T), src, BLK);
        upc_memget_nbi(got, block_of(G, (me + 2) % T), BLK);
        upc_memcpy_nbi(block_of(D, (me + 3) % T), block_of(C, (me + 1) % T), BLK);
        upc_memset_nbi(block_of(S, (me + 1) % T), 0x40 + me, BLK);
        if (!upc_synci_attempt())
            upc_synci();
    }
    for (size_t i = 0; i < BLK; i++)
        TCHECK(got[i] == pattern(2, (me + 2) % T, i), "get: byte %zu of thread %d's block", i,
               (me + 2) % T);
    upc_barrier();
    /* My blocks, each written by another thread. */
    const unsigned char *p = tupc_local(block_of(P, me)), *d = tupc_local(block_of(D, me));
    const unsigned char *s = tupc_local(block_of(S, me));
    int put_by = (me + T - 1) % T, copier = ((me - 3) % T + T) % T;
    for (size_t i = 0; i < BLK; i++) {
        TCHECK(p[i] == pattern(1, put_by, i), "put: byte %zu of thread %d's block", i, me);
        TCHECK(d[i] == pattern(3, (copier + 1) % T, i), "copy: byte %zu of thread %d's block", i,
               me);
        TCHECK(s[i] == 0x40 + put_by, "set: byte %zu of thread %d's block", i, me);
    }
    upc_barrier();
    upc_all_free(P);
    upc_all_free(G);
    upc_all_free(C);
    upc_all_free(D);
    upc_all_free(S);
    return 0;
}

static void test_transfers(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++)
        for (int explicit = 0; explicit < 2; explicit ++)
            TT_RUN(counts[c], transfers, &explicit);
}

static int sync_made_up(void *arg)
{
    upc_sync((upc_handle_t)(uintptr_t)arg);
    return 0;
}

static int attempt_made_up(void *arg)
{
    (void)upc_sync_attempt((upc_handle_t)(uintptr_t)arg);
    return 0;
}

static int put_past_end(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 64);
    char buf[65] = {0};
    (void)upc_memput_nb(tupc_ptr_add(A, THREADS - 1, 1, 64), buf, sizeof buf);
    return 0;
}

static int get_into_null(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, 64);
    upc_memget_nbi(NULL, A, 8);
    return 0;
}

static void test_refusals(void **state)
{
    (void)state;
    tt_expect_error(2, sync_made_up, (void *)(uintptr_t)0x1234, "upc_sync", "handle is 0x1234",
                    "no upc_mem*_nb call returned", NULL);
    tt_expect_error(2, attempt_made_up, (void *)(uintptr_t)7, "upc_sync_attempt", "handle is 0x7",
                    NULL);
    tt_expect_error(3, put_past_end, NULL, "upc_memput_nb", "dst", NULL);
    tt_expect_error(2, get_into_null, NULL, "upc_memget_nbi", "dst is NULL", NULL);
}

/* Every thread's objects cast from every thread, and the ordinary pointer
 * reaches the same bytes as the pointer-to-shared. */
static int castable(void *arg)
{
    (void)arg;
    tupc_sptr_t A = upc_all_alloc(THREADS, sizeof(long));
    upc_barrier();
    int t = (MYTHREAD + 1) % THREADS;
    upc_thread_info_t info = upc_thread_info((size_t)t);
    TCHECK(info.guaranteedCastable == UPC_CASTABLE_ALL && info.probablyCastable == UPC_CASTABLE_ALL,
           "upc_thread_info(%d): %#x %#x, expected UPC_CASTABLE_ALL", t, info.guaranteedCastable,
           info.probablyCastable);
    long *p = upc_cast(tupc_ptr_add(A, t, 1, sizeof(long)));
    TCHECK(p != NULL, "upc_cast of thread %d's element gave NULL", t);
    *p = 1000 + MYTHREAD;
    upc_barrier();
    long want = 1000 + (MYTHREAD + THREADS - 1) % THREADS;
    TCHECK(tupc_ref(A, MYTHREAD, 1, long) == want, "element %d is %ld, expected %ld", MYTHREAD,
           tupc_ref(A, MYTHREAD, 1, long), want);
    upc_barrier();
    upc_all_free(A);
    return 0;
}

static int info_of_no_thread(void *arg)
{
    (void)arg;
    (void)upc_thread_info((size_t)THREADS);
    return 0;
}

static void test_castable(void **state)
{
    (void)state;
    for (int c = 0; c < NCOUNTS; c++)
        TT_RUN(counts[c], castable, NULL);
    tt_expect_error(3, info_of_no_thread, NULL, "upc_thread_info", "threadId is 3",
                    "0 to THREADS - 1 = 2", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transfers),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_castable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
