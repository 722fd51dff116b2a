/* The computational collectives: upc_all_reduceT and upc_all_prefix_reduceT
 * (UPC 1.3 7.4.3.1) and upc_all_sort (Collective Operations 1.0 4.3.4).
 * The pictures hold numbers here; the lines under them show how the result
 * follows from the operands. */
#include "tour.h"

#include <stdio.h>

#define OPS 2     /* operands per thread: shared [OPS] int src[OPS * THREADS] */
#define SORT_NB 3 /* elements per thread of the sorted array */
#define KEYS 4    /* its keys: 0 to KEYS - 1, so that many are equal */

/* Operand i: one digit from 1 to 9, so that concat below shows its order. */
static int operand(int i)
{
    return i % 9 + 1;
}

static int sum_of_operands(void)
{
    int sum = 0;
    for (int i = 0; i < OPS * THREADS; i++)
        sum += operand(i);
    return sum;
}

/* Each thread writes its own operands, as a UPC program would. */
static void fill_operands(const struct area *a)
{
    for (int k = 0; k < OPS; k++)
        INT_AT(a, MYTHREAD, k) = operand(MYTHREAD * OPS + k);
}

/* How many operands the concatenating reduction takes: the digits of a long
 * but one. */
static int max_cat(void)
{
    return snprintf(NULL, 0, "%ld", LONG_MAX) - 1;
}

/* The digits of a, then those of b: associative but not commutative, so
 * with UPC_NONCOMM_FUNC the result spells out the order of the fold. */
static long concat(long a, long b)
{
    long m = 10;
    while (m <= b)
        m *= 10;
    return a * m + b;
}

struct reduce_ctx {
    const struct area *src;
    long cat; /* the UPC_NONCOMM_FUNC result, or -1 when it would not fit */
};

/* The fold as 7.4.3.1 para 3 writes it, with the operands drawn above.
 * UPC_ADD is taken as associative and commutative (7.4.3 paras 3 and 4),
 * so the library may group the additions as it likes; the concatenation
 * under UPC_NONCOMM_FUNC shows the order that the operands keep. */
static void reduce_fold(const struct section *s)
{
    const struct reduce_ctx *c = s->ctx;
    char line[4096];
    int len = snprintf(line, sizeof line, "src[0] + src[1] + ... + src[%d] =", OPS * THREADS - 1);
    for (int t = 0; t < THREADS; t++)
        for (int k = 0; k < OPS && len < (int)sizeof line - 16; k++)
            len += snprintf(line + len, sizeof line - (size_t)len, "%s %d", t || k ? " +" : "",
                            INT_AT(c->src, t, k));
    snprintf(line + len, sizeof line - (size_t)len, " = %d", INT_AT(&s->areas[1], 0, 0));
    tour_para("fold, in index order: ", line);
    if (c->cat < 0) {
        printf("(the UPC_NONCOMM_FUNC fold is shown for up to %d operands)\n", max_cat());
        return;
    }
    snprintf(line, sizeof line,
             "upc_all_reduceL(dst, src, UPC_NONCOMM_FUNC, %d, %d, concat, ...) with concat(a, b) "
             "= the digits of a then those of b gives %ld: the operands in index order.",
             OPS * THREADS, OPS, c->cat);
    tour_para("order: ", line);
}

void tour_reduce(void)
{
    /* shared [OPS] int src[OPS * THREADS]; shared int *dst (on thread 0) */
    struct area areas[] = {area_new("src", CELL_INT, OPS), area_new("dst", CELL_INT, 1)};
    fill_operands(&areas[0]);
    areas[0].tint = 1;
    areas[1].only = 0;
    areas[0].cw = areas[1].cw = snprintf(NULL, 0, "%d", sum_of_operands());
    /* The same operands as longs, for the concatenating reduction. */
    tupc_sptr_t lsrc = upc_all_alloc((size_t)THREADS, OPS * sizeof(long));
    tupc_sptr_t ldst = upc_all_alloc(1, sizeof(long));
    for (int k = 0; k < OPS; k++)
        tupc_ref(lsrc, MYTHREAD * OPS + k, OPS, long) = operand(MYTHREAD * OPS + k);
    struct reduce_ctx c = {&areas[0], -1};
    struct section s = {
        .name = "upc_all_reduceI",
        .cite = "UPC 1.3 7.4.3.1 para 3",
        .quote = "On completion of the upc_all_reduce variants, the value of the TYPE shared "
                 "object referenced by dst is src[0] ⊕ src[1] ⊕ ... ⊕ src[nelems-1] where \"⊕\" "
                 "is the operator specified by the variable op.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
        .areas = areas,
        .nareas = 2,
        .extra = reduce_fold,
        .ctx = &c,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_reduceI(dst, src, UPC_ADD, %d, %d, NULL, %s)",
             OPS * THREADS, OPS, flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_reduceI(areas[1].base, areas[0].base, UPC_ADD, (size_t)(OPS * THREADS), OPS, NULL,
                    s.flags);
    if (OPS * THREADS <= max_cat()) {
        upc_all_reduceL(ldst, lsrc, UPC_NONCOMM_FUNC, (size_t)(OPS * THREADS), OPS, concat,
                        s.flags);
        /* OUT_MYSYNC: thread 0 holds dst, so it may read it right away. */
        if (MYTHREAD == 0)
            c.cat = tupc_ref(ldst, 0, 0, long);
    }
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
    upc_all_free(lsrc);
    upc_all_free(ldst);
}

/* Each thread's partial: the last element of its block of dst, which is
 * the partial of the thread before it combined with its own operands. */
static void prefix_partials(const struct section *s)
{
    const struct area *src = &s->areas[0], *dst = &s->areas[1];
    printf("each thread's partial, the last element of its block of dst:\n");
    for (int t = 0; t < THREADS; t++) {
        printf("  thread %d: dst[%d] =", t, t * OPS + OPS - 1);
        if (t > 0)
            printf(" %d (thread %d's) +", INT_AT(dst, t - 1, OPS - 1), t - 1);
        for (int k = 0; k < OPS; k++)
            printf("%s %d", k ? " +" : "", INT_AT(src, t, k));
        printf(" = %d\n", INT_AT(dst, t, OPS - 1));
    }
}

void tour_prefix_reduce(void)
{
    /* shared [OPS] int src[OPS * THREADS], dst[OPS * THREADS] */
    struct area areas[] = {area_new("src", CELL_INT, OPS), area_new("dst", CELL_INT, OPS)};
    fill_operands(&areas[0]);
    areas[0].tint = 1;
    areas[0].cw = areas[1].cw = snprintf(NULL, 0, "%d", sum_of_operands());
    struct section s = {
        .name = "upc_all_prefix_reduceI",
        .cite = "UPC 1.3 7.4.3.1 para 4",
        .quote = "On completion of the upc_all_prefix_reduce variants, the value of the TYPE "
                 "shared object referenced by dst[i] is src[0] ⊕ src[1] ⊕ ... ⊕ src[i] for 0 <= i "
                 "<= nelems-1 and where \"⊕\" is the operator specified by the variable op.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
        .areas = areas,
        .nareas = 2,
        .extra = prefix_partials,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_prefix_reduceI(dst, src, UPC_ADD, %d, %d, NULL, %s)",
             OPS * THREADS, OPS, flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_prefix_reduceI(areas[1].base, areas[0].base, UPC_ADD, (size_t)(OPS * THREADS), OPS,
                           NULL, s.flags);
    tour_after(&s);
    area_free(&areas[0]);
    area_free(&areas[1]);
}

/* The comparator sees keys only: elements with equal keys compare equal,
 * and the labels show whether the sort kept them in order. */
static int by_key(tupc_sptr_t a, tupc_sptr_t b)
{
    const struct keyed *x = tupc_local(a), *y = tupc_local(b);
    return (x->key > y->key) - (x->key < y->key);
}

/* For each key, where its elements came from, in their order after the sort. */
static void sort_ties(const struct section *s)
{
    const struct area *a = &s->areas[0];
    printf("equal keys, in their order after the sort (each list is in src order):\n");
    for (int key = 0; key < KEYS; key++) {
        printf("  key %d:", key);
        for (int t = 0; t < THREADS; t++)
            for (int i = 0; i < SORT_NB; i++) {
                const struct keyed *e = tupc_local(area_at(a, t, i));
                if (e->key == key)
                    printf(" %d.%d", e->from.thread, e->from.block);
            }
        printf("\n");
    }
}

void tour_sort(void)
{
    /* shared [SORT_NB] struct keyed A[SORT_NB * THREADS], sorted in place */
    struct area areas[] = {area_new("A (key:from)", CELL_KEYED, SORT_NB)};
    areas[0].cw = 1;
    for (int k = 0; k < SORT_NB; k++) {
        int i = MYTHREAD * SORT_NB + k;
        *(struct keyed *)area_at(&areas[0], MYTHREAD, k).addr =
            (struct keyed){(3 * i + 1) % KEYS, {MYTHREAD, k}};
    }
    struct section s = {
        .name = "upc_all_sort",
        .cite = "Collective Operations 1.0 4.3.4 paras 1 and 6",
        .quote = "The function upc_all_sort takes a shared array A of nelems elements of size "
                 "elem_size bytes each and sorts them in place in ascending order using the "
                 "function func to compare elements. [...] The function upc_all_sort performs a "
                 "stable sort, that is, elements which compare equal are not reordered.",
        .flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC,
        .areas = areas,
        .nareas = 1,
        .extra = sort_ties,
    };
    char f[96];
    snprintf(s.call, sizeof s.call, "upc_all_sort(A, sizeof(struct keyed), %d, %d, by_key, %s)",
             SORT_NB * THREADS, SORT_NB, flags_text(s.flags, f, sizeof f));
    tour_before(&s);
    upc_all_sort(areas[0].base, sizeof(struct keyed), (size_t)(SORT_NB * THREADS), SORT_NB, by_key,
                 s.flags);
    tour_after(&s);
    area_free(&areas[0]);
}
