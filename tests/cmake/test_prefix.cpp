// A GoogleTest test of UPC code, built by CMake against tupc::tupc: an
// inclusive prefix sum over THREADS blocks, checked against a serial one,
// and a broken rule that ends its run with TUPC_RUN_ERROR, not the test.
#include <upc.h>
#include <upc_collective.h>

#include <gtest/gtest.h>

#include <vector>

namespace
{

constexpr int kBlock = 4;
std::vector<long> last_seen; // each thread's last prefix

int prefix_entry(void *)
{
    tupc_sptr_t src = upc_all_alloc(THREADS, kBlock * sizeof(long));
    tupc_sptr_t dst = upc_all_alloc(THREADS, kBlock * sizeof(long));
    for (int i = 0; i < kBlock; i++)
        tupc_ref(src, MYTHREAD * kBlock + i, kBlock, long) = MYTHREAD * kBlock + i + 1;
    upc_all_prefix_reduceL(dst, src, UPC_ADD, static_cast<size_t>(THREADS) * kBlock, kBlock,
                           nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    last_seen[MYTHREAD] = tupc_ref(dst, MYTHREAD * kBlock + kBlock - 1, kBlock, long);
    upc_all_free(src);
    upc_all_free(dst);
    return 0;
}

int bad_flags_entry(void *)
{
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(long));
    upc_all_broadcast(a, a, sizeof(long), -1); // no sync mode
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

} // namespace

TEST(PrefixSum, MatchesSerialPrefix)
{
    for (int threads : {1, 3, 8}) {
        last_seen.assign(threads, -1);
        ASSERT_EQ(run(threads, prefix_entry), 0) << tupc_last_error();
        for (int t = 0; t < threads; t++) {
            long n = static_cast<long>(t + 1) * kBlock; // 1 + ... + n
            EXPECT_EQ(last_seen[t], n * (n + 1) / 2) << "thread " << t << " of " << threads;
        }
    }
}

TEST(BrokenRule, EndsTheRunNotTheTest)
{
    EXPECT_EQ(run(2, bad_flags_entry), TUPC_RUN_ERROR);
    EXPECT_NE(std::string(tupc_last_error()).find("upc_all_broadcast"), std::string::npos)
        << tupc_last_error();
}
