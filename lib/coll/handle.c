#include "coll/handle.h"

#include "check/error.h"
#include "coll/async.h"
#include "runtime/runtime.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define INDEX_MASK (((uintptr_t)1 << TUPC_HANDLE_INDEX_BITS) - 1)

_Static_assert(sizeof(uintptr_t) == 8, "a handle holds a 40-bit serial and a 24-bit index");

struct entry {
    uint64_t serial; /* 0 for a free entry */
    struct tupc_coll_request *r;
    uint32_t mark; /* the array completion call that last noted it */
    int pos;       /* and where */
    uint32_t next_free;
};

/* A thread's table: entries in use and a list of free ones (by index + 1,
 * 0 ending it). Touched by its thread only, and after the run's join. */
struct table {
    struct entry *e;
    uint32_t cap, free_head, marks;
} __attribute__((aligned(TUPC_CACHELINE)));

/* Each thread's table of handles, and the serial numbers they carry. */
static struct handle_tables {
    struct table *tables;
    int ntables;
    /* Serials of the process: never reused, across runs too, so that a
     * handle kept from an earlier run or post finds no entry. Relaxed: only
     * uniqueness is needed. 2^40 posts would wrap it. */
    _Atomic uint64_t serials;
} handles_ = {.serials = 1};

int tupc_handle_init(int threads)
{
    /* A line each (aligned: calloc does not align to 64). */
    handles_.tables = aligned_alloc(TUPC_CACHELINE, sizeof *handles_.tables * (size_t)threads);
    if (handles_.tables)
        memset(handles_.tables, 0, sizeof *handles_.tables * (size_t)threads);
    handles_.ntables = handles_.tables ? threads : 0;
    return handles_.tables ? 0 : -1;
}

void tupc_handle_fini(void)
{
    for (int t = 0; t < handles_.ntables; t++)
        free(handles_.tables[t].e);
    free(handles_.tables);
    handles_.tables = NULL;
    handles_.ntables = 0;
}

static struct table *mine(void)
{
    return &handles_.tables[tupc_impl_mythread];
}

upc_coll_handle_t tupc_handle_enter(struct tupc_coll_request *r)
{
    if (!handles_.tables)
        tupc_fail(r->func, "", "out of memory for the table of outstanding operations");
    struct table *tb = mine();
    if (!tb->free_head) {
        uint32_t cap = tb->cap ? 2 * tb->cap : 64;
        struct entry *e = cap < INDEX_MASK ? realloc(tb->e, sizeof *e * cap) : NULL;
        if (!e)
            tupc_fail(r->func, "", "no room for another outstanding asynchronous operation (%u)",
                      tb->cap);
        for (uint32_t i = tb->cap; i < cap; i++)
            e[i] = (struct entry){0, NULL, 0, 0, i + 1 < cap ? i + 2 : 0};
        tb->e = e;
        tb->free_head = tb->cap + 1;
        tb->cap = cap;
    }
    uint32_t i = tb->free_head - 1;
    struct entry *e = &tb->e[i];
    tb->free_head = e->next_free;
    uint64_t serial = atomic_fetch_add_explicit(&handles_.serials, 1, memory_order_relaxed);
    *e = (struct entry){serial, r, 0, 0, 0};
    return (upc_coll_handle_t)(uintptr_t)(serial << TUPC_HANDLE_INDEX_BITS | (i + 1));
}

/* The live entry of h in the caller's table, or NULL. */
static struct entry *entry_of(upc_coll_handle_t h)
{
    if (!handles_.tables || tupc_impl_mythread < 0 || tupc_impl_mythread >= handles_.ntables)
        return NULL;
    struct table *tb = mine();
    uintptr_t v = (uintptr_t)h, i = v & INDEX_MASK;
    uint64_t serial = v >> TUPC_HANDLE_INDEX_BITS;
    if (i == 0 || i > tb->cap || serial == 0 || tb->e[i - 1].serial != serial)
        return NULL;
    return &tb->e[i - 1];
}

struct tupc_coll_request *tupc_handle_find(upc_coll_handle_t h)
{
    struct entry *e = entry_of(h);
    return e ? e->r : NULL;
}

uint32_t tupc_handle_new_mark(void)
{
    struct table *tb = mine();
    if (++tb->marks == 0) /* 0 is a fresh entry's */
        ++tb->marks;
    return tb->marks;
}

int tupc_handle_note(upc_coll_handle_t h, uint32_t mark, int pos)
{
    struct entry *e = entry_of(h);
    if (e->mark == mark)
        return e->pos;
    e->mark = mark;
    e->pos = pos;
    return -1;
}

void tupc_handle_drop(upc_coll_handle_t h)
{
    struct table *tb = mine();
    struct entry *e = entry_of(h);
    e->serial = 0;
    e->r = NULL;
    e->next_free = tb->free_head;
    tb->free_head = (uint32_t)(e - tb->e) + 1;
}

const struct tupc_coll_request *tupc_handle_oldest(int t, int *count)
{
    const struct table *tb = &handles_.tables[t];
    const struct entry *oldest = NULL;
    *count = 0;
    for (uint32_t i = 0; i < tb->cap; i++) {
        const struct entry *e = &tb->e[i];
        if (!e->serial)
            continue;
        ++*count;
        if (!oldest || e->serial < oldest->serial)
            oldest = e;
    }
    return oldest ? oldest->r : NULL;
}
