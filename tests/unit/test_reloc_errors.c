/* Bad input to the relocalization collectives is refused, before any thread
 * waits, with a message that names the argument and what was expected. */
#include "tt.h"

#include <upc_collective.h>

#include <stdint.h>
#include <string.h>

#define FLAGS (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)

/* What each case breaks. */
enum what {
    NBYTES0,
    DST_THREAD1,
    SRC_THREAD1,
    PERM_THREAD1,
    FLAGS_TWO_IN,
    FLAGS_TWO_OUT,
    FLAGS_UNKNOWN,
    SPLIT,
    DST_NULL,
    SRC_NOT_HEAP,
    OVERFLOW,
    PAST_END,
    PERM_RANGE,
    PERM_NEGATIVE,
    PERM_DUP,
};

struct bad {
    int fn;
    enum what what;
};

static int body(void *arg)
{
    const struct bad *b = arg;
    int T = THREADS;
    /* Good areas of 64 bytes per thread (THREADS blocks of 16), all on
     * thread 0's offset; a pointer to the same offset on thread 1. */
    tupc_sptr_t a = upc_all_alloc((size_t)T, 64 * (size_t)T);
    tupc_sptr_t d = upc_all_alloc((size_t)T, 64 * (size_t)T);
    tupc_sptr_t perm = upc_all_alloc((size_t)T, sizeof(int));
    tupc_ref(perm, MYTHREAD, 1, int) = MYTHREAD;
    upc_barrier();
    tupc_sptr_t src = a, dst = d, p = perm;
    size_t nb = 16;
    upc_flag_t fl = FLAGS;
    tupc_sptr_t on1 = tupc_ptr_add(d, 64 * T, 64 * (size_t)T, 1); /* &d[area on thread 1] */
    static char not_heap[64];
    switch (b->what) {
    case NBYTES0:
        nb = 0;
        break;
    case DST_THREAD1:
        dst = on1;
        break;
    case SRC_THREAD1:
        src = tupc_ptr_add(a, 64 * T, 64 * (size_t)T, 1);
        break;
    case PERM_THREAD1:
        p = tupc_index(perm, 1, 1, int);
        break;
    case FLAGS_TWO_IN:
        fl = UPC_IN_NOSYNC | UPC_IN_MYSYNC;
        break;
    case FLAGS_TWO_OUT:
        fl = UPC_IN_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
        break;
    case FLAGS_UNKNOWN:
        fl = UPC_IN_NOSYNC | 0x400;
        break;
    case SPLIT:
        upc_notify();
        break;
    case DST_NULL:
        dst = TUPC_NULL;
        break;
    case SRC_NOT_HEAP:
        src = (tupc_sptr_t){not_heap, 0, 0};
        break;
    case OVERFLOW:
        nb = SIZE_MAX / 2;
        break;
    case PAST_END:
        /* Fits as one block, not as the THREADS blocks of one thread's area. */
        nb = tupc_impl_partition_size / 2;
        break;
    case PERM_RANGE:
        if (MYTHREAD == 1)
            tupc_ref(perm, 1, 1, int) = T;
        break;
    case PERM_NEGATIVE:
        if (MYTHREAD == 2)
            tupc_ref(perm, 2, 1, int) = -1;
        break;
    case PERM_DUP:
        if (MYTHREAD == 2)
            tupc_ref(perm, 2, 1, int) = 0;
        break;
    }
    tt_reloc_call(b->fn, dst, src, p, nb, fl);
    TCHECK(0, "bad input was accepted");
    return 0;
}

#define EXPECT(fn_, what_, ...)                                                                    \
    do {                                                                                           \
        struct bad b_ = {(fn_), (what_)};                                                          \
        tt_expect_error(4, body, &b_, __VA_ARGS__, NULL);                                          \
    } while (0)

static const char *const names[] = {"upc_all_broadcast",  "upc_all_scatter",  "upc_all_gather",
                                    "upc_all_gather_all", "upc_all_exchange", "upc_all_permute"};
static const char *const sections[] = {"UPC 1.3 7.4.2.1", "UPC 1.3 7.4.2.2", "UPC 1.3 7.4.2.3",
                                       "UPC 1.3 7.4.2.4", "UPC 1.3 7.4.2.5", "UPC 1.3 7.4.2.6"};

static void test_nbytes_zero(void **state)
{
    (void)state;
    for (int fn = 0; fn < 6; fn++)
        EXPECT(fn, NBYTES0, names[fn], "nbytes is 0; expected nbytes > 0", sections[fn], "para 3");
}

static void test_affinity(void **state)
{
    (void)state;
    const char *exp = "expected the target of";
    EXPECT(TT_BROADCAST, DST_THREAD1, "upc_all_broadcast", "dst has affinity to thread 1", exp,
           "7.4.2.1 para 6");
    EXPECT(TT_SCATTER, DST_THREAD1, "upc_all_scatter", "dst has affinity to thread 1", exp,
           "7.4.2.2 para 6");
    EXPECT(TT_GATHER, SRC_THREAD1, "upc_all_gather", "src has affinity to thread 1", exp,
           "7.4.2.3 para 6");
    EXPECT(TT_GATHER_ALL, SRC_THREAD1, "upc_all_gather_all", "src has affinity to thread 1", exp,
           "7.4.2.4 para 6");
    EXPECT(TT_GATHER_ALL, DST_THREAD1, "upc_all_gather_all", "dst has affinity to thread 1", exp);
    EXPECT(TT_EXCHANGE, SRC_THREAD1, "upc_all_exchange", "src has affinity to thread 1", exp,
           "7.4.2.5 para 5");
    EXPECT(TT_EXCHANGE, DST_THREAD1, "upc_all_exchange", "dst has affinity to thread 1", exp);
    EXPECT(TT_PERMUTE, SRC_THREAD1, "upc_all_permute", "src has affinity to thread 1", exp,
           "7.4.2.6 para 6");
    EXPECT(TT_PERMUTE, DST_THREAD1, "upc_all_permute", "dst has affinity to thread 1", exp);
    EXPECT(TT_PERMUTE, PERM_THREAD1, "upc_all_permute", "perm has affinity to thread 1", exp);
}

/* The pointers that may be anywhere are accepted on another thread. */
static int anywhere_ok(void *arg)
{
    (void)arg;
    int T = THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)T, 64 * (size_t)T);
    tupc_sptr_t d = upc_all_alloc((size_t)T, 64 * (size_t)T);
    tupc_sptr_t last = tupc_ptr_add(a, (ptrdiff_t)(64 * T * (T - 1) + 7), 64 * (size_t)T, 1);
    upc_all_broadcast(d, last, 16, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_scatter(d, last, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    upc_all_gather(last, d, 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    return 0;
}

static void test_anywhere_accepted(void **state)
{
    (void)state;
    TT_RUN(4, anywhere_ok, NULL);
}

static void test_flags(void **state)
{
    (void)state;
    for (int fn = 0; fn < 6; fn++) {
        EXPECT(fn, FLAGS_TWO_IN, names[fn], "more than one UPC_IN_*SYNC mode");
        EXPECT(fn, FLAGS_TWO_OUT, names[fn], "more than one UPC_OUT_*SYNC mode");
        EXPECT(fn, FLAGS_UNKNOWN, names[fn], "flags is 0x401", "no sync mode");
    }
}

static void test_between_notify_and_wait(void **state)
{
    (void)state;
    for (int fn = 0; fn < 6; fn++)
        EXPECT(fn, SPLIT, names[fn], "between upc_notify and upc_wait", "7.4 para 5");
}

static void test_pointers(void **state)
{
    (void)state;
    for (int fn = 0; fn < 6; fn++) {
        EXPECT(fn, DST_NULL, names[fn], "dst is a null pointer-to-shared");
        EXPECT(fn, SRC_NOT_HEAP, names[fn], "src (address", "does not point into the shared heap");
    }
}

static void test_sizes(void **state)
{
    (void)state;
    /* broadcast and permute never form nbytes * THREADS; their one block
     * does not fit the partition. */
    EXPECT(TT_BROADCAST, OVERFLOW, "upc_all_broadcast", "runs past the end");
    EXPECT(TT_PERMUTE, OVERFLOW, "upc_all_permute", "runs past the end");
    for (int fn = TT_SCATTER; fn <= TT_EXCHANGE; fn++)
        EXPECT(fn, OVERFLOW, names[fn], "nbytes * THREADS", "overflows size_t");
    /* Half a partition: one block fits, THREADS of them in one partition do not. */
    /* Past the partition, or, where the check of the allocation comes first, past it. */
    EXPECT(TT_SCATTER, PAST_END, "upc_all_scatter", "past the end");
    EXPECT(TT_GATHER, PAST_END, "upc_all_gather", "past the end");
    EXPECT(TT_GATHER_ALL, PAST_END, "upc_all_gather_all", "past the end");
    EXPECT(TT_EXCHANGE, PAST_END, "upc_all_exchange", "past the end");
}

static void test_perm(void **state)
{
    (void)state;
    EXPECT(TT_PERMUTE, PERM_RANGE, "upc_all_permute", "perm[1] is 4",
           "expected perm to hold the THREADS distinct values 0..3", "7.4.2.6 para 4");
    EXPECT(TT_PERMUTE, PERM_NEGATIVE, "upc_all_permute", "perm[2] is -1");
    EXPECT(TT_PERMUTE, PERM_DUP, "upc_all_permute", "are both 0",
           "expected perm to hold the THREADS distinct values 0..3", "7.4.2.6 para 4");
}

/* A duplicate is found however the threads interleave, also in later calls. */
static int dup_later(void *arg)
{
    int bad_call = *(int *)arg;
    int T = THREADS;
    tupc_sptr_t a = upc_all_alloc((size_t)T, 16);
    tupc_sptr_t d = upc_all_alloc((size_t)T, 16);
    tupc_sptr_t perm = upc_all_alloc((size_t)T, sizeof(int));
    for (int k = 0; k < 50; k++) {
        int v = (MYTHREAD + k) % T;
        if (k == bad_call && MYTHREAD == T - 1)
            v = (MYTHREAD - 1 + k) % T; /* the same as thread T - 2 */
        tupc_ref(perm, MYTHREAD, 1, int) = v;
        upc_all_permute(d, a, perm, 16, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
    }
    /* Where a duplicate was planted, the run must have stopped: this barrier
     * waits for the thread that reported it, so no thread returns 0. */
    upc_barrier();
    return 0;
}

static void test_perm_dup_in_later_call(void **state)
{
    (void)state;
    int none = -1;
    TT_RUN(3, dup_later, &none);
    for (int call = 0; call < 50; call += 7) {
        tt_expect_error(3, dup_later, &call, "upc_all_permute", "are both", NULL);
        tt_expect_error(8, dup_later, &call, "upc_all_permute", "are both", NULL);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nbytes_zero),
        cmocka_unit_test(test_affinity),
        cmocka_unit_test(test_anywhere_accepted),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_between_notify_and_wait),
        cmocka_unit_test(test_pointers),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_perm),
        cmocka_unit_test(test_perm_dup_in_later_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
