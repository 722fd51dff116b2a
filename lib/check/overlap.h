/* TUPC_CHECKS=full's overlap check: the areas a collective reads and
 * writes must not overlap where the spec leaves that undefined (UPC 1.3
 * 7.4.2 "If copying takes place between objects that overlap", 7.4.3.1
 * para 12, 7.4.3.2 para 12; 7.2.5 for upc_memcpy). Exact per thread:
 * a blocked array covers one contiguous run of each partition. */
#ifndef TUPC_CHECK_OVERLAP_H
#define TUPC_CHECK_OVERLAP_H

#include <upc.h>

#include <stddef.h>

/* A blocked array of nelems elements of esize bytes at p, block size
 * blk_size (0: indefinite, all on p's thread); or, with `all`, a block of
 * nelems * esize bytes at p's offset in every partition. */
struct tupc_extent {
    const char *arg;
    tupc_sptr_t p;
    size_t nelems, blk_size, esize;
    int all;
};

/* Fails, naming func, both arguments and the first thread where they
 * meet, when a and b share a byte; `sec` is the spec's paragraph. */
void tupc_check_overlap(const char *func, const char *sec, const struct tupc_extent *a,
                        const struct tupc_extent *b);

#endif
