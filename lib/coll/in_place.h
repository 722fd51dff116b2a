/* The two in-place moves that exchange and permute share in their 1.3, _x
 * and team forms (Extended Collectives 0.3 5.2, UPC_IN_PLACE). */
#ifndef TUPC_COLL_IN_PLACE_H
#define TUPC_COLL_IN_PLACE_H

#include "check/error.h"
#include "coll/syncmode.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Exchange: blocks (me, j) and (j, me) trade places, swapped by one member
 * of each pair: me if me + j is even and me < j, or odd and me > j, which
 * gives each member about half of its pairs. */
static inline int tupc_swaps_pair(int me, int j)
{
    return j != me && ((me + j) % 2 == 0) == (me < j);
}

/* Permute: the blocks move along the cycles of the permutation, so each
 * member saves its own len bytes at mine into a private buffer, says so
 * (release), waits until its target `to` has said so (acquire: that block
 * is saved, and `to` has entered the call), and writes the buffer to
 * target. Checks of mine and target come before. */
static inline void tupc_permute_move(const struct tupc_coll *c, const void *mine, void *target,
                                     size_t len, int to)
{
    void *const buf = len ? malloc(len) : NULL;
    if (len && !buf)
        tupc_fail(c->func, NULL, "out of memory for a block of %zu bytes", len);
    if (len)
        memcpy(buf, mine, len);
    /* A wait that fails (another member refused the call) leaves the
     * thread through pthread_exit, which frees the buffer. */
    pthread_cleanup_push(free, buf);
    tupc_coll_publish(c);
    if (to != tupc_coll_state(c)->me)
        tupc_coll_wait_published(c, to);
    if (len)
        memcpy(target, buf, len);
    pthread_cleanup_pop(1);
}

#endif
