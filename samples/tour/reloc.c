/* The six relocalizations of UPC 1.3 (7.4.2). Each block is one struct
 * label, so a picture shows where every block went; the quotes are the
 * defining sentences of the UPC Required Library Specifications 1.3, word
 * for word. The sections use different sync modes, and the last line of
 * each says what its mode promises. */
#include "tour.h"

#include <stdio.h>

#define NB sizeof(struct label) /* nbytes: one label per block */

/* The root of broadcast, scatter and gather: thread 1, as in the spec's
 * examples (&A[1], SRC_THREAD 1), or thread 0 alone. */
static int root(void)
{
    return 1 % THREADS;
}

void tour_broadcast(void)
{
    const int r = root();
    /* shared struct label src[THREADS], dst[THREADS]: the call reads src[r] only */
    struct area areas[] = {area_new("src", CELL_LABEL, 1), area_new("dst", CELL_LABEL, 1)};
    area_fill_labels(&areas[0]);
    areas[0].only = r;
    struct section s = {
        .name = "upc_all_broadcast",
        .cite = "UPC 1.3 7.4.2.1 para 2",
        .quote = "The upc_all_broadcast function copies a block of memory with affinity to a "
                 "single thread to a block of shared memory on each thread. The number of bytes "
                 "in each block is nbytes.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
        .areas = areas,
        .nareas = 2,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_broadcast(dst, &src[%d], sizeof(struct label), %s)", r,
             flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_broadcast(areas[1].base, area_at(&areas[0], r, 0), NB, s.flags);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
}

/* Scatter's extra line: what each thread read from its own dst block right
 * after its call returned, before any barrier: UPC_OUT_MYSYNC makes that
 * safe, and the values are those of the picture. */
static void scatter_seen(const struct section *s)
{
    const struct area *seen = s->ctx;
    printf("each thread's own dst block, read right after its call returned (no barrier):");
    for (int t = 0; t < THREADS; t++)
        printf(" %d.%d", LABEL_AT(seen, t, 0).thread, LABEL_AT(seen, t, 0).block);
    printf("\n");
}

void tour_scatter(void)
{
    const int r = root();
    /* src: THREADS labels per thread, of which the call reads the root's row,
     * as a shared [] struct label[THREADS]; dst: one label per thread */
    struct area areas[] = {area_new("src", CELL_LABEL, THREADS), area_new("dst", CELL_LABEL, 1)};
    struct area seen = area_new("seen", CELL_LABEL, 1);
    area_fill_labels(&areas[0]);
    areas[0].only = r;
    struct section s = {
        .name = "upc_all_scatter",
        .cite = "UPC 1.3 7.4.2.2 para 2",
        .quote = "The upc_all_scatter function copies the ith block of an area of shared memory "
                 "with affinity to a single thread to a block of shared memory with affinity to "
                 "the ith thread. The number of bytes in each block is nbytes.",
        .flags = UPC_IN_MYSYNC | UPC_OUT_MYSYNC,
        .areas = areas,
        .nareas = 2,
        .extra = scatter_seen,
        .ctx = &seen,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_scatter(dst, &src[%d][0], sizeof(struct label), %s)",
             r, flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_scatter(areas[1].base, area_at(&areas[0], r, 0), NB, s.flags);
    LABEL_AT(&seen, MYTHREAD, 0) = LABEL_AT(&areas[1], MYTHREAD, 0);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
    area_free(&seen);
}

void tour_gather(void)
{
    const int r = root();
    /* src: one label per thread; dst: THREADS labels per thread, of which the
     * call writes the root's row, as a shared [] struct label[THREADS] */
    struct area areas[] = {area_new("src", CELL_LABEL, 1), area_new("dst", CELL_LABEL, THREADS)};
    area_fill_labels(&areas[0]);
    areas[1].only = r;
    struct section s = {
        .name = "upc_all_gather",
        .cite = "UPC 1.3 7.4.2.3 para 2",
        .quote = "The upc_all_gather function copies a block of shared memory that has affinity "
                 "to the ith thread to the ith block of a shared memory area that has affinity to "
                 "a single thread. The number of bytes in each block is nbytes.",
        .flags = UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
        .areas = areas,
        .nareas = 2,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_gather(&dst[%d][0], src, sizeof(struct label), %s)", r,
             flags_text(s.flags, f, sizeof f));
    /* NOSYNC both ways: the barriers in tour_before and tour_after are the
     * ones this mode needs, as in the spec's example (upc_barrier; call;
     * upc_barrier). */
    tour_before(&s);
    upc_all_gather(area_at(&areas[1], r, 0), areas[0].base, NB, s.flags);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
}

void tour_gather_all(void)
{
    /* src one block per thread; dst THREADS blocks per thread */
    struct area areas[] = {area_new("src", CELL_LABEL, 1), area_new("dst", CELL_LABEL, THREADS)};
    area_fill_labels(&areas[0]);
    struct section s = {
        .name = "upc_all_gather_all",
        .cite = "UPC 1.3 7.4.2.4 para 2",
        .quote = "The upc_all_gather_all function copies a block of memory from one shared memory "
                 "area with affinity to the ith thread to the ith block of a shared memory area on "
                 "each thread. The number of bytes in each block is nbytes.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
        .areas = areas,
        .nareas = 2,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_gather_all(dst, src, sizeof(struct label), %s)",
             flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_gather_all(areas[1].base, areas[0].base, NB, s.flags);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
}

void tour_exchange(void)
{
    /* src and dst: THREADS blocks per thread */
    struct area areas[] = {area_new("src", CELL_LABEL, THREADS),
                           area_new("dst", CELL_LABEL, THREADS)};
    area_fill_labels(&areas[0]);
    struct section s = {
        .name = "upc_all_exchange",
        .cite = "UPC 1.3 7.4.2.5 para 2",
        .quote = "The upc_all_exchange function copies the ith block of memory from a shared "
                 "memory area that has affinity to thread j to the jth block of a shared memory "
                 "area that has affinity to thread i. The number of bytes in each block is "
                 "nbytes.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
        .areas = areas,
        .nareas = 2,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_exchange(dst, src, sizeof(struct label), %s)",
             flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_exchange(areas[1].base, areas[0].base, NB, s.flags);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
}

void tour_permute(void)
{
    /* src, perm (shared int perm[THREADS]) and dst: one element per thread */
    struct area areas[] = {area_new("src", CELL_LABEL, 1), area_new("perm", CELL_INT, 1),
                           area_new("dst", CELL_LABEL, 1)};
    area_fill_labels(&areas[0]);
    INT_AT(&areas[1], MYTHREAD, 0) = (MYTHREAD + 1) % THREADS; /* a rotation */
    areas[1].cw = snprintf(NULL, 0, "%d", THREADS - 1);
    struct section s = {
        .name = "upc_all_permute",
        .cite = "UPC 1.3 7.4.2.6 para 2",
        .quote = "The upc_all_permute function copies a block of memory from a shared memory "
                 "area that has affinity to the ith thread to a block of a shared memory that has "
                 "affinity to thread perm[i]. The number of bytes in each block is nbytes.",
        .flags = UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
        .areas = areas,
        .nareas = 3,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_permute(dst, src, perm, sizeof(struct label), %s)",
             flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_permute(areas[2].base, areas[0].base, areas[1].base, NB, s.flags);
    tour_after(&s);
    for (int k = 0; k < 3; k++)
        area_free(&areas[k]);
}
