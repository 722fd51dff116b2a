/* The pictures of the tour, drawn as the figures of the Extended Collectives
 * 0.3 draw them: a row per thread, its blocks as labelled boxes. Only
 * thread 0 prints; it reads every thread's rows through the shared heap,
 * between the barriers of tour_before and tour_after. */
#include "tour.h"

#include <upc_collective_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tour_colour;

#define TEXT_WIDTH 80 /* where tour_para wraps */
#define MAX_AREAS 4   /* columns of a picture */

/* ---- Areas ------------------------------------------------------------------ */

static size_t cell_size(enum cell kind)
{
    return kind == CELL_INT     ? sizeof(int)
           : kind == CELL_KEYED ? sizeof(struct keyed)
                                : sizeof(struct label);
}

tupc_sptr_t area_at(const struct area *a, int thread, int i)
{
    return tupc_ptr_add(a->base, (ptrdiff_t)thread * a->w + i, (size_t)a->w, cell_size(a->kind));
}

struct area area_new(const char *title, enum cell kind, int w)
{
    struct area a = {.title = title, .kind = kind, .w = w, .only = -1};
    a.base = upc_all_alloc((size_t)THREADS, (size_t)w * cell_size(kind));
    /* Each thread empties its own row: the data with affinity to it. */
    for (int i = 0; i < w; i++) {
        void *p = area_at(&a, MYTHREAD, i).addr;
        if (kind == CELL_INT)
            *(int *)p = INT_EMPTY;
        else if (kind == CELL_KEYED)
            *(struct keyed *)p = (struct keyed){-1, {-1, -1}};
        else
            *(struct label *)p = (struct label){-1, -1};
    }
    return a;
}

void area_fill_labels(const struct area *a)
{
    for (int i = 0; i < a->w; i++)
        LABEL_AT(a, MYTHREAD, i) = (struct label){MYTHREAD, i};
}

void area_free(struct area *a)
{
    upc_all_free(a->base);
}

/* ---- Lines ------------------------------------------------------------------ */

/* A line being built: its bytes, and its width on the screen (the colour
 * codes take none). Wide enough for a row of exchange on 1024 THREADS. */
struct line {
    char s[1 << 16];
    size_t len;
    int width;
};

static void put(struct line *l, const char *text)
{
    size_t n = strlen(text);
    if (l->len + n < sizeof l->s) {
        memcpy(l->s + l->len, text, n + 1);
        l->len += n;
        l->width += (int)n;
    }
}

static void pad(struct line *l, int width)
{
    while (l->width < width)
        put(l, " ");
}

/* Six colours, then their bright forms: thread t always gets the same one. */
static void put_coloured(struct line *l, const char *text, int thread)
{
    if (!tour_colour || thread < 0) {
        put(l, text);
        return;
    }
    char on[16];
    snprintf(on, sizeof on, "\033[%dm", (thread / 6) % 2 ? 91 + thread % 6 : 31 + thread % 6);
    int w = l->width;
    put(l, on);
    put(l, text);
    put(l, "\033[0m");
    l->width = w + (int)strlen(text);
}

/* Prints the line without its trailing blanks. */
static void emit(struct line *l)
{
    while (l->len > 0 && l->s[l->len - 1] == ' ')
        l->len--;
    printf("%.*s\n", (int)l->len, l->s);
    l->len = 0;
    l->width = 0;
}

static int ndigits(long v)
{
    int n = v < 0 ? 2 : 1;
    for (v = v < 0 ? -v : v; v >= 10; v /= 10)
        n++;
    return n;
}

/* ---- Cells ------------------------------------------------------------------ */

/* The text of one element, and the thread whose colour it takes (-1: none). */
static int cell_text(const struct area *a, int t, int i, char *buf, size_t cap)
{
    const void *p = area_at(a, t, i).addr;
    if (a->kind == CELL_INT) {
        int v = *(const int *)p;
        if (v == INT_EMPTY)
            return snprintf(buf, cap, "."), -1;
        snprintf(buf, cap, "%d", v);
        return a->tint ? t : -1;
    }
    struct label l = *(const struct label *)p;
    if (a->kind == CELL_KEYED) {
        const struct keyed *k = p;
        if (k->key < 0)
            return snprintf(buf, cap, "."), -1;
        l = k->from;
        snprintf(buf, cap, "%d:%d.%d", k->key, l.thread, l.block);
        return l.thread;
    }
    if (l.thread < 0)
        return snprintf(buf, cap, "."), -1;
    snprintf(buf, cap, "%d.%d", l.thread, l.block);
    return l.thread;
}

/* Marks in edge[i] where the boxes of thread t's row start (bit 1) and end
 * (bit 2). */
static void box_edges(const struct area *a, int t, unsigned char *edge)
{
    memset(edge, a->boxes ? 0 : 3, (size_t)a->w);
    for (int b = 0; a->boxes && b < a->nboxes; b++)
        if (a->boxes[b].thread == t) {
            edge[a->boxes[b].off] |= 1;
            edge[a->boxes[b].off + a->boxes[b].n - 1] |= 2;
        }
}

/* The width of a label: the widest thread, a dot, the widest block. */
static int label_width(const struct section *s)
{
    int w = 1;
    for (int k = 0; k < s->nareas; k++)
        if (s->areas[k].kind != CELL_INT && s->areas[k].w > w)
            w = s->areas[k].w;
    return ndigits(THREADS - 1) + 1 + ndigits(w - 1);
}

static int cell_width(const struct area *a, int lw)
{
    return a->kind == CELL_INT ? a->cw : a->kind == CELL_KEYED ? a->cw + 1 + lw : lw;
}

/* A column: every element in a slot of the same width, "[" and "]" around
 * the boxes, so that the rows line up. */
static int column_width(const struct area *a, int lw)
{
    int w = a->w * (cell_width(a, lw) + 3) - 1;
    int t = (int)strlen(a->title);
    return w > t ? w : t;
}

static void put_cell(struct line *l, const struct area *a, int t, int i, int cw)
{
    char text[64], padded[80];
    int thread = cell_text(a, t, i, text, sizeof text);
    int n = (int)strlen(text);
    /* Numbers to the right; the "." of an empty label in the middle. */
    int left = a->kind != CELL_INT && strcmp(text, ".") == 0 ? (cw - 1) / 2 : cw - n;
    snprintf(padded, sizeof padded, "%*s", left > 0 ? left : 0, "");
    put(l, padded);
    put_coloured(l, text, thread);
    snprintf(padded, sizeof padded, "%*s", cw - n - left > 0 ? cw - n - left : 0, "");
    put(l, padded);
}

static void put_row(struct line *l, const struct area *a, int t, int lw)
{
    int start = l->width, cw = cell_width(a, lw);
    unsigned char *edge = malloc((size_t)a->w);
    if (edge && (a->only < 0 || a->only == t)) {
        box_edges(a, t, edge);
        for (int i = 0; i < a->w; i++) {
            put(l, i ? " " : "");
            put(l, edge[i] & 1 ? "[" : " ");
            put_cell(l, a, t, i, cw);
            put(l, edge[i] & 2 ? "]" : " ");
        }
    }
    free(edge);
    pad(l, start + column_width(a, lw));
}

/* ---- Pictures --------------------------------------------------------------- */

/* One picture: a title line, then "  thread t | column | column |". */
static void draw(const struct section *s, const char *when)
{
    static struct line l; /* thread 0's alone */
    int lw = label_width(s), prefix = 11 + ndigits(THREADS - 1);
    put(&l, when);
    pad(&l, prefix);
    for (int k = 0; k < s->nareas && k < MAX_AREAS; k++) {
        put(&l, " ");
        put(&l, s->areas[k].title);
        pad(&l, l.width - (int)strlen(s->areas[k].title) + column_width(&s->areas[k], lw) + 2);
    }
    emit(&l);
    for (int t = 0; t < THREADS; t++) {
        char head[64], note[160];
        snprintf(head, sizeof head, "  thread %d", t);
        put(&l, head);
        pad(&l, prefix - 2);
        put(&l, " |");
        for (int k = 0; k < s->nareas && k < MAX_AREAS; k++) {
            put(&l, " ");
            put_row(&l, &s->areas[k], t, lw);
            put(&l, " |");
        }
        if (s->note) {
            s->note(t, note, sizeof note);
            put(&l, " ");
            put(&l, note);
        }
        emit(&l);
    }
}

void tour_para(const char *prefix, const char *text)
{
    int col = printf("%s", prefix), first = 1;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        int n = (int)strcspn(p, " ");
        if (n == 0)
            break;
        if (!first && col + 1 + n > TEXT_WIDTH) {
            printf("\n  ");
            col = 2;
        } else if (!first) {
            col += printf(" ");
        }
        col += printf("%.*s", n, p);
        p += n;
        first = 0;
    }
    putchar('\n');
}

const char *flags_text(upc_flag_t f, char *buf, size_t cap)
{
    static const struct {
        upc_flag_t flag;
        const char *name;
    } names[] = {{UPC_IN_NOSYNC, "UPC_IN_NOSYNC"},
                 {UPC_IN_MYSYNC, "UPC_IN_MYSYNC"},
                 {UPC_IN_ALLSYNC, "UPC_IN_ALLSYNC"},
                 {UPC_OUT_NOSYNC, "UPC_OUT_NOSYNC"},
                 {UPC_OUT_MYSYNC, "UPC_OUT_MYSYNC"},
                 {UPC_OUT_ALLSYNC, "UPC_OUT_ALLSYNC"},
                 {UPC_PUSH, "UPC_PUSH"},
                 {UPC_PULL, "UPC_PULL"}};
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (f & names[i].flag && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " | " : "", names[i].name);
    return buf;
}

/* What the sync mode promises (Collective Operations 1.0 section 3 item 5
 * and its footnotes; Extended Collectives 0.3 section 4 item 4), said as
 * what the program may do: the IN half says when the call may start to
 * touch the data, the OUT half what a thread may touch right after its call
 * returns. */
static void sync_line(upc_flag_t f)
{
    const char *in =
        f & UPC_IN_NOSYNC   ? "the call may read and write as soon as one thread enters, so "
                              "every thread readies its data before a barrier ahead of it"
        : f & UPC_IN_MYSYNC ? "the call touches a thread's blocks only once that thread "
                              "has entered"
                            : "the call reads and writes only once every thread has entered";
    const char *out =
        f & UPC_OUT_NOSYNC
            ? "the call may go on until the last thread returns: no thread may touch src "
              "or dst before the next barrier"
        : f & UPC_OUT_MYSYNC ? "right after its call a thread may read and write the blocks "
                               "with affinity to it, the others only after a barrier"
                             : "right after its call a thread may read and write any block";
    char names[160], text[1024];
    snprintf(text, sizeof text, "%s: %s; %s.",
             flags_text(f & (UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC | UPC_OUT_NOSYNC |
                             UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC),
                        names, sizeof names),
             in, out);
    tour_para("sync: ", text);
}

void tour_before(const struct section *s)
{
    upc_barrier(); /* every thread has set up its rows */
    if (MYTHREAD == 0) {
        char quote[1024];
        printf("\n== %s ==\n", s->name);
        snprintf(quote, sizeof quote, "%s: \"%s\"", s->cite, s->quote);
        tour_para("", quote);
        tour_para("call: ", s->call);
        draw(s, "before");
        fflush(stdout);
    }
    upc_barrier(); /* drawn before the call changes anything */
}

void tour_after(const struct section *s)
{
    upc_barrier(); /* every thread's call has returned: needed after OUT_NOSYNC */
    if (MYTHREAD == 0) {
        draw(s, "after");
        if (s->extra)
            s->extra(s);
        sync_line(s->flags);
        fflush(stdout);
    }
    upc_barrier(); /* thread 0 has read every row before the areas are freed */
}
