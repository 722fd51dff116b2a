/* An arena hands out 64-byte aligned ranges of offsets growing up from 0.
 * Free ranges are kept sorted and coalesced; freeing the range at the top
 * lowers the top, so a fully freed arena returns to an extent of 0. */
#ifndef TUPC_HEAP_ARENA_H
#define TUPC_HEAP_ARENA_H

#include <stddef.h>

#define TUPC_ARENA_ALIGN 64

struct tupc_range {
    size_t off, len;
    size_t asked; /* of a range handed out: the bytes asked for, at most len */
    /* Of a symmetric range: the blocks dealt round-robin from thread 0 and
     * their size (upc_all_alloc's nblocks and nbytes), so that a thread
     * left out of the last round is known to have fewer bytes than asked
     * (heap.c); block 0 when every partition has `asked` bytes. */
    size_t nblocks, block;
};

struct tupc_arena {
    size_t top; /* extent: every range handed out lies below it */
    struct tupc_range *free_r, *used_r;
    size_t nfree, nused, capfree, capused;
};

void tupc_arena_init(struct tupc_arena *a);
void tupc_arena_fini(struct tupc_arena *a);

/* Size rounded up to the alignment, or 0 on overflow. */
size_t tupc_arena_round(size_t len);

/* Allocates len bytes (already rounded up from `asked`) with the top at
 * most `limit`. Returns 0 and the offset in *off, or -1 when no room. */
int tupc_arena_alloc(struct tupc_arena *a, size_t len, size_t asked, size_t limit, size_t *off);

/* Records that the range handed out at off holds nblocks blocks of
 * `block` bytes dealt round-robin (struct tupc_range). */
void tupc_arena_set_blocks(struct tupc_arena *a, size_t off, size_t nblocks, size_t block);

/* Frees the range that starts at off; returns its length, or 0 if no range
 * starts there. */
size_t tupc_arena_free(struct tupc_arena *a, size_t off);

/* The range handed out that holds offset off: returns 1 and sets *r, or 0. */
int tupc_arena_find(const struct tupc_arena *a, size_t off, struct tupc_range *r);

/* Bytes that could still be allocated in one piece below `limit`. */
size_t tupc_arena_largest(const struct tupc_arena *a, size_t limit);

#endif
