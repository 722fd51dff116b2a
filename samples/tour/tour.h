/* The tour's pieces. samples/demo.c reads the options and runs the sections;
 * draw.c prints the pictures; reloc.c, compute.c and ext.c hold one section
 * per collective. Every function here is collective (every thread calls it)
 * unless its comment says "thread 0". */
#ifndef TOUR_H
#define TOUR_H

#include <upc.h>
#include <upc_collective.h>

#include <limits.h>
#include <stddef.h>

/* What a relocalization moves: element `block` of thread `thread`'s src,
 * drawn "thread.block". A negative thread is an empty element, drawn ".". */
struct label {
    int thread, block;
};

/* An element of the sort: its key, and where it stood before the sort. */
struct keyed {
    int key;
    struct label from;
};

#define INT_EMPTY INT_MIN /* an int element not written yet, drawn "." */

enum cell { CELL_LABEL, CELL_INT, CELL_KEYED };

/* A box of the pictures: n elements from element `off` of the part of an
 * area on thread `thread`: a block that the call reads or writes. */
struct box {
    int thread, off, n;
};

/* A shared array drawn as one column: shared [w] ELEM base[w * THREADS],
 * thread t's row its w elements. */
struct area {
    const char *title;
    enum cell kind;
    tupc_sptr_t base;
    int w;
    int only;                /* >= 0: only this thread's row belongs to the call */
    const struct box *boxes; /* NULL: every element is a box of its own */
    int nboxes;
    int cw;   /* CELL_INT: the width of a number */
    int tint; /* CELL_INT: colour a number as the thread that holds it */
};

/* One section of the tour: what thread 0 prints around the call. */
struct section {
    const char *name;  /* the function called, also the --only name */
    const char *cite;  /* the specification and section of the quote */
    const char *quote; /* its defining sentences, word for word */
    char call[256];    /* the call as the program makes it */
    upc_flag_t flags;
    const struct area *areas;
    int nareas;
    void (*note)(int thread, char *buf, size_t cap); /* text after a row, or NULL */
    void (*extra)(const struct section *s);          /* lines after the pictures, or NULL */
    const void *ctx;                                 /* for extra */
};

/* Whether to colour the labels (set by demo.c on every thread). */
extern int tour_colour;

struct area area_new(const char *title, enum cell kind, int w);
void area_fill_labels(const struct area *a); /* each thread labels its own row */
void area_free(struct area *a);
tupc_sptr_t area_at(const struct area *a, int thread, int i);
#define LABEL_AT(a, t, i) (*(struct label *)area_at((a), (t), (i)).addr)
#define INT_AT(a, t, i) (*(int *)area_at((a), (t), (i)).addr)

/* Around the call: each starts and ends with upc_barrier, so that thread 0
 * draws data that no thread is writing, and no call starts (or area is
 * freed) while it draws. */
void tour_before(const struct section *s);
void tour_after(const struct section *s);

/* Thread 0: text wrapped to the width of the tour, later lines indented. */
void tour_para(const char *prefix, const char *text);
/* The flags as the program writes them: "UPC_IN_ALLSYNC | UPC_OUT_MYSYNC". */
const char *flags_text(upc_flag_t flags, char *buf, size_t cap);

/* The sections (reloc.c, compute.c, ext.c). */
void tour_broadcast(void);
void tour_scatter(void);
void tour_gather(void);
void tour_gather_all(void);
void tour_exchange(void);
void tour_permute(void);
void tour_reduce(void);
void tour_prefix_reduce(void);
void tour_sort(void);
void tour_broadcast_x(void);
void tour_scatter_x(void);
void tour_gather_x(void);
void tour_gather_all_x(void);
void tour_exchange_x(void);
void tour_permute_x(void);
void tour_team(void);

#endif
