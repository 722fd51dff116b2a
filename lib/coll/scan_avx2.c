/* AVX2 forms of the fused scan-and-sum kernels of the tiled prefix path
 * (prefix_reduce.c, which has the SSE2 forms and says what they do).
 *
 * Same operations on every element in the same order as the SSE2 forms, so
 * the results are bit for bit the same (test_prefix_tiled compares them):
 * a line of 8 elements is two vectors of 4 instead of four of 2; the pair
 * scan works within each 128-bit half as before, and the three steps that
 * add the last value of one pair to the next pair run as before, one after
 * the other, with a broadcast and a blend against -0.0 (which leaves the
 * other half as it is, signed zeros included). One line then takes about 21
 * instructions instead of 28, and the sum of the next tile 4 instead of 8.
 * The exclusive forms store the same sums one element further on, the
 * carry first, as the SSE2 ones do. */
#include "coll/scan_lines.h"

#include "runtime/config.h"

int tupc_scan_avx2_;

void tupc_scan_init(void)
{
#if TUPC_HAVE_AVX2
    __builtin_cpu_init();
    tupc_scan_avx2_ = !tupc_config_.simd_sse2 && __builtin_cpu_supports("avx2");
#else
    tupc_scan_avx2_ = 0;
#endif
}

#if TUPC_HAVE_AVX2
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* One line at s + i: the pair scan, the three steps across pairs, then the
 * carry c added on the way out and moved on by the line's last value. EX 1:
 * the values stored are [-0.0, p0, p1, p2] and [p3, p4, p5, p6] plus c. */
#define SEL_1(ex, in) ex
#define SEL_0(ex, in) in
#define EX0_D(v0) _mm256_blend_pd(_mm256_permute4x64_pd(v0, 0x90), nz, 0x1)
#define EX1_D(v0, v1)                                                                              \
    _mm256_blend_pd(_mm256_permute4x64_pd(v1, 0x90), _mm256_permute4x64_pd(v0, 0xff), 0x1)
#define LINE_D(STORE, EX)                                                                          \
    do {                                                                                           \
        __m256d v0 = _mm256_loadu_pd(s + i), v1 = _mm256_loadu_pd(s + i + 4);                      \
        v0 = _mm256_add_pd(v0, _mm256_unpacklo_pd(nz, v0)); /* [a, a + b] per half */              \
        v1 = _mm256_add_pd(v1, _mm256_unpacklo_pd(nz, v1));                                        \
        v0 = _mm256_add_pd(v0, _mm256_blend_pd(_mm256_permute4x64_pd(v0, 0x55), nz, 0x3));         \
        v1 = _mm256_add_pd(v1, _mm256_blend_pd(_mm256_permute4x64_pd(v0, 0xff), nz, 0xc));         \
        v1 = _mm256_add_pd(v1, _mm256_blend_pd(_mm256_permute4x64_pd(v1, 0x55), nz, 0x3));         \
        STORE(d + i, _mm256_add_pd(c, SEL_##EX(EX0_D(v0), v0)));                                   \
        STORE(d + i + 4, _mm256_add_pd(c, SEL_##EX(EX1_D(v0, v1), v1)));                           \
        c = _mm256_add_pd(c, _mm256_permute4x64_pd(v1, 0xff));                                     \
    } while (0)

#define SUM_D(p)                                                                                   \
    do {                                                                                           \
        a01 = _mm256_add_pd(a01, _mm256_loadu_pd(p));                                              \
        a23 = _mm256_add_pd(a23, _mm256_loadu_pd((p) + 4));                                        \
    } while (0)

#define FUSED(LINE, SUM, STORE, EX)                                                                \
    do {                                                                                           \
        size_t k = nl < ng ? nl : ng, i = 0;                                                       \
        for (; i < k * 8; i += 8) {                                                                \
            SUM(ns + i);                                                                           \
            LINE(STORE, EX);                                                                       \
        }                                                                                          \
        for (; i < nl * 8; i += 8)                                                                 \
            LINE(STORE, EX);                                                                       \
        for (i = k * 8; i < ng * 8; i += 8)                                                        \
            SUM(ns + i);                                                                           \
    } while (0)

/* The four forms: streaming or not, inclusive or exclusive. */
#define FUSED4(LINE, SUM, ST, NT)                                                                  \
    do {                                                                                           \
        if (nt && excl)                                                                            \
            FUSED(LINE, SUM, NT, 1);                                                               \
        else if (nt)                                                                               \
            FUSED(LINE, SUM, NT, 0);                                                               \
        else if (excl)                                                                             \
            FUSED(LINE, SUM, ST, 1);                                                               \
        else                                                                                       \
            FUSED(LINE, SUM, ST, 0);                                                               \
    } while (0)

#define ST_D(p, v) _mm256_store_pd(p, v)
#define NT_D(p, v) _mm256_stream_pd(p, v)

AVX2 void tupc_scan_lines_d_avx2(double *d, const double *s, size_t nl, double *carry, int nt,
                                 int excl, const double *ns, size_t nn, double *sum)
{
    const __m256d nz = _mm256_set1_pd(-0.0);
    __m256d c = _mm256_set1_pd(*carry), a01 = nz, a23 = nz;
    size_t ng = ns ? nn / 8 : 0;
    FUSED4(LINE_D, SUM_D, ST_D, NT_D);
    *carry = _mm256_cvtsd_f64(c);
    if (ns)
        *sum = tupc_lanes_d(_mm256_castpd256_pd128(a01), _mm256_extractf128_pd(a01, 1),
                            _mm256_castpd256_pd128(a23), _mm256_extractf128_pd(a23, 1), ns + ng * 8,
                            nn - ng * 8);
}

#define EX0_L(v0) _mm256_blend_epi32(_mm256_permute4x64_epi64(v0, 0x90), zero, 0x03)
#define EX1_L(v0, v1)                                                                              \
    _mm256_blend_epi32(_mm256_permute4x64_epi64(v1, 0x90), _mm256_permute4x64_epi64(v0, 0xff), 0x03)
#define LINE_L(STORE, EX)                                                                          \
    do {                                                                                           \
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(s + i)),                                 \
                v1 = _mm256_loadu_si256((const __m256i *)(s + i + 4));                             \
        v0 = _mm256_add_epi64(v0, _mm256_slli_si256(v0, 8)); /* [a, a + b] per half */             \
        v1 = _mm256_add_epi64(v1, _mm256_slli_si256(v1, 8));                                       \
        v0 = _mm256_add_epi64(v0,                                                                  \
                              _mm256_blend_epi32(_mm256_permute4x64_epi64(v0, 0x55), zero, 0x0f)); \
        v1 = _mm256_add_epi64(v1,                                                                  \
                              _mm256_blend_epi32(_mm256_permute4x64_epi64(v0, 0xff), zero, 0xf0)); \
        v1 = _mm256_add_epi64(v1,                                                                  \
                              _mm256_blend_epi32(_mm256_permute4x64_epi64(v1, 0x55), zero, 0x0f)); \
        STORE((__m256i *)(d + i), _mm256_add_epi64(c, SEL_##EX(EX0_L(v0), v0)));                   \
        STORE((__m256i *)(d + i + 4), _mm256_add_epi64(c, SEL_##EX(EX1_L(v0, v1), v1)));           \
        c = _mm256_add_epi64(c, _mm256_permute4x64_epi64(v1, 0xff));                               \
    } while (0)

#define SUM_L(p)                                                                                   \
    do {                                                                                           \
        a01 = _mm256_add_epi64(a01, _mm256_loadu_si256((const __m256i *)(p)));                     \
        a23 = _mm256_add_epi64(a23, _mm256_loadu_si256((const __m256i *)((p) + 4)));               \
    } while (0)

#define ST_L(p, v) _mm256_store_si256(p, v)
#define NT_L(p, v) _mm256_stream_si256(p, v)

AVX2 void tupc_scan_lines_l_avx2(uint64_t *d, const uint64_t *s, size_t nl, uint64_t *carry, int nt,
                                 int excl, const uint64_t *ns, size_t nn, uint64_t *sum)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i c = _mm256_set1_epi64x((long long)*carry), a01 = zero, a23 = zero;
    size_t ng = ns ? nn / 8 : 0;
    FUSED4(LINE_L, SUM_L, ST_L, NT_L);
    *carry = (uint64_t)_mm256_extract_epi64(c, 0);
    if (ns)
        *sum = tupc_lanes_l(_mm256_castsi256_si128(a01), _mm256_extracti128_si256(a01, 1),
                            _mm256_castsi256_si128(a23), _mm256_extracti128_si256(a23, 1),
                            ns + ng * 8, nn - ng * 8);
}
#endif
