/* Less common forms: pointers to rows of a 2-D shared array, byte pointers
 * into a thread's block, arrays of pointers-to-shared with null entries,
 * function pointers taking pointers-to-shared, shared enums and _Bool,
 * sizeof of pointer-to-shared types, the upc_* pointer functions, the
 * address of a whole shared array. */
#include <upc.h>
#include <stdio.h>
#include <stdbool.h>

enum colour { RED, GREEN, BLUE };

shared [4] int M[3 * THREADS][4];
shared [4] int V[4 * THREADS];
strict shared enum colour paint;
shared bool flags[THREADS];
shared long double big[THREADS];

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static int first(shared [4] int *p)
{
    return *p;
}

int main(void)
{
    int i, j;
    upc_forall (i = 0; i < 3 * THREADS; i++; &M[i][0])
        for (j = 0; j < 4; j++)
            M[i][j] = 10 * i + j;
    upc_forall (i = 0; i < 4 * THREADS; i++; &V[i])
        V[i] = i;
    flags[MYTHREAD] = MYTHREAD % 2 == 0;
    big[MYTHREAD] = 0.5L * MYTHREAD;
    if (MYTHREAD == 0)
        paint = BLUE;
    upc_barrier;

    /* rows: a pointer to shared [4] int[4] steps a row at a time */
    EXPECT(&M[3] - &M[1] == 2 && *&M[2][3] == 23 && M[2] + 1 == &M[2][1]);
    shared [4] int (*row)[4] = &M[1];
    row++;
    EXPECT((*row)[2] == 22 && row[0][1] == 21);

    /* a byte pointer inside a thread's block */
    shared [] char *bytes = (shared [] char *)&V[4 * MYTHREAD];
    int probe;
    char *lp = (char *)&probe;
    for (i = 0; i < (int)sizeof(int); i++)
        lp[i] = bytes[i];
    EXPECT(probe == 4 * MYTHREAD && upc_threadof(bytes + 3) == (size_t)MYTHREAD);

    /* arrays of pointers-to-shared, function pointers */
    shared [4] int *ps[3] = {&V[0], 0, &V[3]};
    int (*fp)(shared [4] int *) = first;
    EXPECT(ps[1] == NULL && fp(ps[2]) == 3 && fp(&V[0]) == 0);
    EXPECT(sizeof(shared int *) == sizeof(ps[0]) && sizeof ps == 3 * sizeof(shared void *));

    /* upc_* pointer functions */
    shared [4] int *v5 = &V[5];
    EXPECT(upc_phaseof(v5) == 1 && upc_phaseof(upc_resetphase(v5)) == 0);
    EXPECT(upc_addrfield(&V[1]) - upc_addrfield(&V[0]) == sizeof(int));
    EXPECT(upc_affinitysize(4 * THREADS * sizeof(int), 4 * sizeof(int), 0) == 4 * sizeof(int));
    EXPECT(upc_blocksizeof(shared [5] int) == 5 && upc_elemsizeof(M) == sizeof(int));

    /* the whole array's address */
    EXPECT(upc_threadof(&M) == 0 && upc_phaseof(&M) == 0 && (shared void *)&M == (shared void *)&M[0][0]);

    EXPECT(paint == BLUE);
    for (i = 0; i < THREADS; i++)
        EXPECT(flags[i] == (i % 2 == 0) && big[i] == 0.5L * i);
    return fails != 0;
}
