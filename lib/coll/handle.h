/* Handles of asynchronous collectives (Extended Collectives 0.3 5.4): what a
 * posting call returns and a completion call takes.
 *
 * A handle is a number, never an address: the posting thread's table of
 * outstanding requests holds the request at an index, under a serial
 * number that no other post of the process ever gets. A handle is
 * serial << TUPC_HANDLE_INDEX_BITS | (index + 1), and it names a request
 * only while that entry holds the same serial: a handle completed already,
 * one of another thread, of a freed team or of an ended run, or a value no
 * call returned, finds no entry and is refused, and nothing is read through
 * it. The tables are the owners' own (a handle is completed only by the
 * thread that posted it), so they take no lock. */
#ifndef TUPC_COLL_HANDLE_H
#define TUPC_COLL_HANDLE_H

#include <upc_collective_ext.h>

#include <stdint.h>

struct tupc_coll_request;

#define TUPC_HANDLE_INDEX_BITS 24

/* Enters r, posted by the calling thread, in its table: r's handle. */
upc_coll_handle_t tupc_handle_enter(struct tupc_coll_request *r);

/* The request of handle h if h is outstanding on the calling thread, else
 * NULL. */
struct tupc_coll_request *tupc_handle_find(upc_coll_handle_t h);

/* For the array completion calls, which must not see one handle twice: the
 * earlier position i of h in the array that the calling thread's current
 * call `mark` (from tupc_handle_new_mark) has noted, or -1 after noting h at
 * position `pos`. h must be outstanding. */
uint32_t tupc_handle_new_mark(void);
int tupc_handle_note(upc_coll_handle_t h, uint32_t mark, int pos);

/* Takes h, outstanding, out of the table: its request was completed. */
void tupc_handle_drop(upc_coll_handle_t h);

/* Thread t's oldest outstanding request, or NULL, and how many it has
 * (once the run's threads have been joined). */
const struct tupc_coll_request *tupc_handle_oldest(int t, int *count);

/* The tables of a run of `threads` threads: made before the threads start,
 * freed when the run ends. */
int tupc_handle_init(int threads);
void tupc_handle_fini(void);

#endif
