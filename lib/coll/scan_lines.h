/* The fused scan-and-sum kernels of the tiled prefix path for UPC_ADD on
 * 8-byte types (prefix_reduce.c): SSE2 forms there, AVX2 forms in
 * scan_avx2.c, chosen once per run. */
#ifndef TUPC_COLL_SCAN_LINES_H
#define TUPC_COLL_SCAN_LINES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__SSE2__)
#define TUPC_HAVE_AVX2 1
#else
#define TUPC_HAVE_AVX2 0
#endif

/* Sets tupc_scan_avx2_: whether the AVX2 kernels run (the CPU has AVX2
 * and TUPC_SIMD, runtime/config.h, is not sse2). Before the UPC threads
 * start, which then only read it. */
void tupc_scan_init(void);
extern int tupc_scan_avx2_;

#if defined(__SSE2__)
/* The sum of the lanes of the next tile, in a fixed order, then of the n
 * elements past the last group: both forms end here. */
static inline double tupc_lanes_d(__m128d a0, __m128d a1, __m128d a2, __m128d a3,
                                  const double *rest, size_t n)
{
    __m128d t = _mm_add_pd(_mm_add_pd(a0, a1), _mm_add_pd(a2, a3));
    double r = _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t)));
    for (size_t i = 0; i < n; i++)
        r += rest[i];
    return r;
}

static inline uint64_t tupc_lanes_l(__m128i a0, __m128i a1, __m128i a2, __m128i a3,
                                    const uint64_t *rest, size_t n)
{
    __m128i t = _mm_add_epi64(_mm_add_epi64(a0, a1), _mm_add_epi64(a2, a3));
    uint64_t r = (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(t, _mm_unpackhi_epi64(t, t)));
    for (size_t i = 0; i < n; i++)
        r += rest[i];
    return r;
}
#endif

#if TUPC_HAVE_AVX2
void tupc_scan_lines_d_avx2(double *d, const double *s, size_t nl, double *carry, int nt, int excl,
                            const double *ns, size_t nn, double *sum);
void tupc_scan_lines_l_avx2(uint64_t *d, const uint64_t *s, size_t nl, uint64_t *carry, int nt,
                            int excl, const uint64_t *ns, size_t nn, uint64_t *sum);
#endif

#endif
