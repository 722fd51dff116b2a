// A GoogleTest unit test of small UPC routines, as a user of tupc writes
// one: each test case starts its own run with tupc_run_opts, the threads
// record what they computed, and the test's thread checks it against a
// serial oracle after the run.
#include <upc.h>
#include <upc_collective.h>
#include <upc_collective_ext.h>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace
{

constexpr int kPerThread = 5;

// The routine under test: the sum of every element of a blocked shared
// array of longs, with upc_all_reduceL.
long shared_sum(tupc_sptr_t a, size_t nelems)
{
    tupc_sptr_t sum = upc_all_alloc(1, sizeof(long));
    upc_all_reduceL(sum, a, UPC_ADD, nelems, kPerThread, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    long s = tupc_ref(sum, 0, 1, long);
    upc_all_free(sum);
    return s;
}

std::vector<long> sums_seen;

int sum_entry(void *)
{
    tupc_sptr_t a = upc_all_alloc(THREADS, kPerThread * sizeof(long));
    for (int i = 0; i < kPerThread; i++)
        tupc_ref(a, MYTHREAD * kPerThread + i, kPerThread, long) = 3L * MYTHREAD * kPerThread + i;
    sums_seen[MYTHREAD] = shared_sum(a, static_cast<size_t>(THREADS) * kPerThread);
    upc_all_free(a);
    return 0;
}

int run(int threads, int (*entry)(void *))
{
    tupc_options o{};
    o.threads = threads;
    o.return_on_error = 1;
    o.quiet = 1;
    return tupc_run_opts(&o, entry, nullptr);
}

TEST(SharedSum, MatchesSerialSumOnEveryThread)
{
    for (int threads : {1, 2, 3, 8, 32}) {
        sums_seen.assign(threads, -1);
        ASSERT_EQ(run(threads, sum_entry), 0) << tupc_last_error();
        long oracle = 0;
        for (long i = 0; i < static_cast<long>(threads) * kPerThread; i++)
            oracle += 3 * (i / kPerThread) * kPerThread + i % kPerThread;
        for (int t = 0; t < threads; t++)
            EXPECT_EQ(sums_seen[t], oracle) << "thread " << t << " of " << threads;
    }
}

// upc_all_exchange in place (UPC_IN_PLACE as src, an int that the C++
// overloads turn into TUPC_IN_PLACE_SPTR): block j of thread i goes to
// block i of thread j.
std::vector<int> exchanged;

int exchange_entry(void *)
{
    tupc_sptr_t a = upc_all_alloc(THREADS, THREADS * sizeof(int));
    for (int j = 0; j < THREADS; j++)
        tupc_ref(a, MYTHREAD * THREADS + j, THREADS, int) = 100 * MYTHREAD + j;
    upc_all_exchange(a, UPC_IN_PLACE, sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    for (int j = 0; j < THREADS; j++)
        exchanged[MYTHREAD * THREADS + j] = tupc_ref(a, MYTHREAD * THREADS + j, THREADS, int);
    upc_all_free(a);
    return 0;
}

TEST(Exchange, InPlaceTransposes)
{
    for (int threads : {2, 4, 7}) {
        exchanged.assign(threads * threads, -1);
        ASSERT_EQ(run(threads, exchange_entry), 0) << tupc_last_error();
        for (int i = 0; i < threads; i++)
            for (int j = 0; j < threads; j++)
                EXPECT_EQ(exchanged[i * threads + j], 100 * j + i) << i << "," << j;
    }
}

// upc_forall with an integer and with a pointer-to-shared affinity, and
// the barrier statements with and without an id.
std::vector<int> owner;

int forall_entry(void *)
{
    const int n = 3 * THREADS + 1;
    tupc_sptr_t a = upc_all_alloc(THREADS, 4 * sizeof(int)); // shared [4] int
    upc_forall(int i = 0, i < n, i++, i) owner[i] = MYTHREAD;
    upc_barrier();
    upc_forall(int i = 0, i < 4 * THREADS, i++, tupc_index(a, i, 4, int)) tupc_ref(a, i, 4, int) =
        MYTHREAD;
    upc_barrier(7);
    upc_notify();
    upc_wait();
    for (int i = 0; i < 4 * THREADS; i++)
        if (tupc_ref(a, i, 4, int) != i / 4)
            owner[n + i] = -1;
    upc_barrier();
    upc_all_free(a);
    return 0;
}

TEST(Forall, RunsEachIterationOnItsThread)
{
    const int threads = 5, n = 3 * threads + 1;
    owner.assign(n + 4 * threads, 0);
    ASSERT_EQ(run(threads, forall_entry), 0) << tupc_last_error();
    for (int i = 0; i < n; i++)
        EXPECT_EQ(owner[i], i % threads) << "iteration " << i;
    for (int i = 0; i < 4 * threads; i++)
        EXPECT_EQ(owner[n + i], 0) << "element " << i << " written by another thread";
}

// A rule broken in a test case ends that run with an error the test can
// check, and the next case runs normally.
int bad_flags_entry(void *)
{
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(int));
    upc_all_broadcast(a, a, sizeof(int), UPC_IN_ALLSYNC | UPC_IN_NOSYNC);
    return 0;
}

TEST(Misuse, IsReportedNotFatal)
{
    EXPECT_EQ(run(3, bad_flags_entry), TUPC_RUN_ERROR);
    EXPECT_NE(std::strstr(tupc_last_error(), "upc_all_broadcast"), nullptr) << tupc_last_error();
    EXPECT_NE(std::strstr(tupc_last_error(), "flags"), nullptr) << tupc_last_error();
    sums_seen.assign(2, -1);
    EXPECT_EQ(run(2, sum_entry), 0) << tupc_last_error();
}

} // namespace
