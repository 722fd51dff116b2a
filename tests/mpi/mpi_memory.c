/* Pointers-to-shared and the transfers across processes: a blocked array
 * written by its owners and read by all, remote typed puts, strict
 * accesses (whole objects too), and upc_memget/memput/memcpy/memset of 8 bytes to 200 KiB
 * between every pair of threads, every byte checked. */
#include "check.h"

#include <string.h>

#define B 3   /* block size of the array: elements per block */
#define PER 7 /* elements per thread, not a multiple of B */

static int value(long i, int round)
{
    return (int)(i * 1009 + round * 7919 + 1);
}

static unsigned char byte(int from, size_t i, int round)
{
    return (unsigned char)(from * 29 + i * 13 + (i >> 9) + round * 101);
}

int tupc_main(int argc, char **argv)
{
    int T = THREADS, me = MYTHREAD;
    CHECK(T == expected_threads(argc, argv));
    long N = (long)PER * T;

    /* shared [B] int a[N]: the owner writes through tupc_ref, all read. */
    tupc_sptr_t a = upc_all_alloc((size_t)(N + B - 1) / B, B * sizeof(int));
    for (long i = 0; i < N; i++) {
        tupc_sptr_t p = tupc_index(a, i, B, int);
        CHECK(upc_threadof(p) == (size_t)((i / B) % T));
        CHECK(upc_phaseof(p) == (size_t)(i % B));
        if ((int)upc_threadof(p) == me)
            tupc_ref(a, i, B, int) = value(i, 0);
    }
    upc_barrier();
    for (long i = 0; i < N; i++)
        CHECK(tupc_get_int(tupc_index(a, i, B, int)) == value(i, 0));
    upc_barrier();

    /* Typed puts to others' elements: element i is written by thread
     * (owner + 1) % T, so that most writes cross a process. */
    for (long i = 0; i < N; i++) {
        tupc_sptr_t p = tupc_index(a, i, B, int);
        if (((int)upc_threadof(p) + 1) % T == me)
            tupc_put_int(p, value(i, 1));
    }
    upc_barrier();
    for (long i = 0; i < N; i++)
        CHECK(tupc_get_int(tupc_index(a, i, B, int)) == value(i, 1));
    upc_barrier();

    /* Strict: a flag after the data, set by the next thread; each waits
     * for its flag, then reads the data put before it. */
    tupc_sptr_t data = upc_all_alloc((size_t)T, sizeof(double));
    tupc_sptr_t flag = upc_all_alloc((size_t)T, sizeof(long));
    tupc_put_long(tupc_index(flag, me, 1, long), 0);
    upc_barrier();
    int next = (me + 1) % T;
    tupc_put_double(tupc_index(data, next, 1, double), 0.5 + me);
    tupc_put_strict_long(tupc_index(flag, next, 1, long), 1);
    while (tupc_get_strict_long(tupc_index(flag, me, 1, long)) != 1)
        ;
    CHECK(tupc_get_double(tupc_index(data, me, 1, double)) == 0.5 + (me + T - 1) % T);
    upc_barrier();

    /* Strict whole objects: thread 0 (another process) and the last thread
     * (the owner) write a 40-byte struct and a long double of the last
     * thread, round after round, while the others read them; each read
     * sees one write whole (the owner's strict lock). */
    struct wide {
        unsigned char b[40];
    };
    tupc_sptr_t obj = upc_all_alloc((size_t)T, sizeof(struct wide));
    tupc_sptr_t ld = upc_all_alloc((size_t)T, sizeof(long double));
    tupc_sptr_t done = upc_all_alloc((size_t)T, sizeof(int));
    tupc_sptr_t wobj = tupc_index(obj, T - 1, 1, struct wide);
    tupc_sptr_t wld = tupc_index(ld, T - 1, 1, long double);
    tupc_put_int(tupc_index(done, me, 1, int), 0);
    upc_barrier();
    if (me == 0 || me == T - 1) {
        int all = 0;
        for (int r = 1 + me; !all; r += 2) {
            struct wide w;
            memset(&w, r & 0xff, sizeof w);
            tupc_put_strict(wobj, &w, sizeof w);
            tupc_put_strict_ldouble(wld, (long double)r);
            all = 1;
            for (int t = 1; t < T - 1; t++)
                all &= tupc_get_strict_int(tupc_index(done, t, 1, int));
        }
    } else {
        for (int r = 0; r < 100; r++) {
            struct wide w;
            tupc_get_strict(&w, wobj, sizeof w);
            for (size_t k = 1; k < sizeof w.b; k++)
                CHECK(w.b[k] == w.b[0]);
            long double v = tupc_get_strict_ldouble(wld);
            CHECK(v >= 0 && v == (long double)(long long)v);
        }
        tupc_put_strict_int(tupc_index(done, me, 1, int), 1);
    }
    upc_barrier();
    upc_all_free(done);
    upc_all_free(ld);
    upc_all_free(obj);

    /* upc_mem*: each thread owns a region of S bytes; in round r thread t
     * fills region (t + r) % T with upc_memput, then reads it back from
     * another thread with upc_memget, copies it with upc_memcpy and sets
     * a stretch with upc_memset. */
    static const size_t sizes[] = {8, 1, 4096, 65536, 200000};
    size_t S = 200000 + 64;
    tupc_sptr_t region = upc_all_alloc((size_t)T, S);
    tupc_sptr_t copy = upc_all_alloc((size_t)T, S);
    unsigned char *src = malloc(S), *got = malloc(S);
    CHECK(src && got);
    for (int r = 0; r < T; r++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k], off = k * 3; /* unaligned starts */
            if (off + n > S)
                off = S - n;
            int to = (me + r) % T;
            for (size_t i = 0; i < n; i++)
                src[i] = byte(me, i, r + (int)k);
            upc_memput(tupc_ptr_add(tupc_index(region, to, 1, char[S]), (ptrdiff_t)off, 0, 1), src,
                       n);
            upc_barrier();
            /* Read region `to` from the thread after me: what me wrote. */
            int reader_of = (me + T - 1) % T; /* the thread whose region-write I check */
            int its = (reader_of + r) % T;
            memset(got, 0, n);
            upc_memget(got, tupc_ptr_add(tupc_index(region, its, 1, char[S]), (ptrdiff_t)off, 0, 1),
                       n);
            for (size_t i = 0; i < n; i++)
                CHECK(got[i] == byte(reader_of, i, r + (int)k));
            upc_barrier();
            /* upc_memcpy region its -> copy (its + 1) % T, both elsewhere mostly. */
            tupc_sptr_t from =
                tupc_ptr_add(tupc_index(region, its, 1, char[S]), (ptrdiff_t)off, 0, 1);
            tupc_sptr_t into =
                tupc_ptr_add(tupc_index(copy, (its + 1) % T, 1, char[S]), (ptrdiff_t)off, 0, 1);
            upc_memcpy(into, from, n);
            upc_barrier();
            memset(got, 0, n);
            upc_memget(got, into, n);
            for (size_t i = 0; i < n; i++)
                CHECK(got[i] == byte(reader_of, i, r + (int)k));
            upc_barrier();
            /* upc_memset of the copy, then every byte and the bytes around. */
            upc_memset(into, 0xA0 + me % 16, n);
            upc_barrier();
            upc_memget(got, into, n);
            for (size_t i = 0; i < n; i++)
                CHECK(got[i] == 0xA0 + me % 16);
            upc_barrier();
        }
    }
    free(src);
    free(got);
    upc_barrier();
    upc_all_free(region);
    upc_all_free(copy);
    upc_all_free(flag);
    upc_all_free(data);
    upc_all_free(a);
    return 0;
}
