/* Shared structs (UPC 1.3 6.5.1.1): members through . and ->, arrays inside a
 * shared struct, whole-struct copies, pointers-to-shared inside private
 * and shared structs. */
#include <upc.h>
#include <stdio.h>

struct point {
    int x, y;
    double w[3];
};

struct list {
    shared struct point *at;
    int n;
};

typedef shared [2] struct point spoint;

spoint pts[2 * THREADS];
shared struct list lists[THREADS];

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

int main(void)
{
    int i;
    upc_forall (i = 0; i < 2 * THREADS; i++; &pts[i]) {
        pts[i].x = i;
        pts[i].y = -i;
        for (int k = 0; k < 3; k++)
            pts[i].w[k] = i + k / 10.0;
    }
    struct list mine = {0, 0};
    mine.at = (shared struct point *)&pts[2 * MYTHREAD];
    mine.n = 2;
    lists[MYTHREAD] = mine;
    upc_barrier;
    for (i = 0; i < 2 * THREADS; i++) {
        spoint *p = &pts[i];
        EXPECT(p->x == i && (*p).y == -i && p->w[2] == i + 0.2);
        struct point copy = pts[i];
        EXPECT(copy.x == i && copy.w[1] == i + 0.1);
        EXPECT(upc_threadof(&pts[i].y) == upc_threadof(&pts[i]));
    }
    for (i = 0; i < THREADS; i++) {
        EXPECT(lists[i].n == 2);
        EXPECT(lists[i].at->x == 2 * i && lists[i].at[0].y == -2 * i);
    }
    upc_barrier;
    pts[MYTHREAD].x += 100;
    upc_barrier;
    EXPECT(pts[0].x == 100 && pts[THREADS - 1].x == THREADS - 1 + 100);
    return fails != 0;
}
