#include "heap/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void tupc_arena_init(struct tupc_arena *a)
{
    memset(a, 0, sizeof *a);
}

void tupc_arena_fini(struct tupc_arena *a)
{
    free(a->free_r);
    free(a->used_r);
    memset(a, 0, sizeof *a);
}

size_t tupc_arena_round(size_t len)
{
    if (len > SIZE_MAX - (TUPC_ARENA_ALIGN - 1))
        return 0;
    return (len + TUPC_ARENA_ALIGN - 1) & ~(size_t)(TUPC_ARENA_ALIGN - 1);
}

static int grow(struct tupc_range **v, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    struct tupc_range *nv = realloc(*v, ncap * sizeof *nv);
    if (!nv)
        return -1;
    *v = nv;
    *cap = ncap;
    return 0;
}

/* First index whose off is >= off. */
static size_t lower_bound(const struct tupc_range *v, size_t n, size_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int insert_at(struct tupc_range **v, size_t *n, size_t *cap, size_t i, struct tupc_range r)
{
    if (grow(v, cap, *n + 1) != 0)
        return -1;
    memmove(&(*v)[i + 1], &(*v)[i], (*n - i) * sizeof **v);
    (*v)[i] = r;
    (*n)++;
    return 0;
}

static void remove_at(struct tupc_range *v, size_t *n, size_t i)
{
    memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof *v);
    (*n)--;
}

static int note_used(struct tupc_arena *a, size_t off, size_t len, size_t asked)
{
    size_t i = lower_bound(a->used_r, a->nused, off);
    return insert_at(&a->used_r, &a->nused, &a->capused, i,
                     (struct tupc_range){off, len, asked, 0, 0});
}

int tupc_arena_alloc(struct tupc_arena *a, size_t len, size_t asked, size_t limit, size_t *off)
{
    /* Reserve room for the bookkeeping first, so nothing fails half-way. */
    if (grow(&a->used_r, &a->capused, a->nused + 1) != 0)
        return -1;
    for (size_t i = 0; i < a->nfree; i++) {
        struct tupc_range *r = &a->free_r[i];
        if (r->len < len)
            continue;
        *off = r->off;
        if (r->len == len)
            remove_at(a->free_r, &a->nfree, i);
        else {
            r->off += len;
            r->len -= len;
        }
        return note_used(a, *off, len, asked);
    }
    if (a->top > limit || limit - a->top < len)
        return -1;
    *off = a->top;
    a->top += len;
    return note_used(a, *off, len, asked);
}

void tupc_arena_set_blocks(struct tupc_arena *a, size_t off, size_t nblocks, size_t block)
{
    size_t i = lower_bound(a->used_r, a->nused, off);
    if (i < a->nused && a->used_r[i].off == off) {
        a->used_r[i].nblocks = nblocks;
        a->used_r[i].block = block;
    }
}

size_t tupc_arena_free(struct tupc_arena *a, size_t off)
{
    size_t i = lower_bound(a->used_r, a->nused, off);
    if (i == a->nused || a->used_r[i].off != off)
        return 0;
    size_t len = a->used_r[i].len;
    if (grow(&a->free_r, &a->capfree, a->nfree + 1) != 0)
        return 0;
    remove_at(a->used_r, &a->nused, i);

    size_t j = lower_bound(a->free_r, a->nfree, off);
    struct tupc_range r = {off, len, 0, 0, 0};
    /* Coalesce with the neighbours. */
    if (j > 0 && a->free_r[j - 1].off + a->free_r[j - 1].len == off) {
        r.off = a->free_r[j - 1].off;
        r.len += a->free_r[j - 1].len;
        remove_at(a->free_r, &a->nfree, j - 1);
        j--;
    }
    if (j < a->nfree && r.off + r.len == a->free_r[j].off) {
        r.len += a->free_r[j].len;
        remove_at(a->free_r, &a->nfree, j);
    }
    if (r.off + r.len == a->top)
        a->top = r.off; /* the top range goes back to the extent */
    else
        insert_at(&a->free_r, &a->nfree, &a->capfree, j, r);
    return len;
}

int tupc_arena_find(const struct tupc_arena *a, size_t off, struct tupc_range *r)
{
    size_t i = lower_bound(a->used_r, a->nused, off + 1); /* first range past off */
    if (i == 0 || off - a->used_r[i - 1].off >= a->used_r[i - 1].len)
        return 0;
    *r = a->used_r[i - 1];
    return 1;
}

size_t tupc_arena_largest(const struct tupc_arena *a, size_t limit)
{
    size_t best = a->top < limit ? limit - a->top : 0;
    for (size_t i = 0; i < a->nfree; i++)
        if (a->free_r[i].len > best)
            best = a->free_r[i].len;
    return best;
}
