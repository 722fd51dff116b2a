// std::sort, std::stable_sort and std::sort(std::execution::par) for bench_sort.c.
#include <algorithm>
#include <chrono>
#include <cstddef>
#if __has_include(<execution>) && defined(TB_HAVE_TBB)
#include <execution>
#define TB_PAR 1
#endif

template <class T> static double run(int kind, T *v, std::size_t n)
{
    auto t0 = std::chrono::steady_clock::now();
    if (kind == 0)
        std::sort(v, v + n);
    else if (kind == 1)
        std::stable_sort(v, v + n);
    else {
#ifdef TB_PAR
        std::sort(std::execution::par, v, v + n);
#else
        return -1; // no parallel algorithms backend (TBB) in this build
#endif
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

extern "C" double tb_cpp_sort(int kind, void *v, std::size_t n, int is_double)
{
    return is_double ? run(kind, static_cast<double *>(v), n) : run(kind, static_cast<int *>(v), n);
}
