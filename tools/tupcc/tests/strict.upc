/* strict and relaxed (UPC 1.3 6.5.1.1, 6.7.1): strict qualifiers, the pragmas
 * at file and block scope and <upc_relaxed.h>. A strict write publishes the
 * relaxed writes before it: thread 0 fills data, raises the strict flag, and
 * every other thread waits for the flag and then reads data. */
#include <upc_relaxed.h>
#include <upc.h>
#include <stdio.h>

#define N (4 * THREADS)

shared int data[N];
strict shared int flag;
strict shared [] long count;
relaxed shared int loose[THREADS];
shared int plain;

static int fails;
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "thread %d: line %d: %s\n", MYTHREAD, __LINE__, #cond);                \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static void wait_for_plain(int v)
{
#pragma upc strict
    while (plain != v) /* strict here: the pragma of this block */
        ;
}

int main(void)
{
    int i;
    if (MYTHREAD == 0) {
        for (i = 0; i < N; i++)
            data[i] = i + 1;
        flag = 1;
    } else {
        while (!flag)
            ;
        for (i = 0; i < N; i++)
            EXPECT(data[i] == i + 1);
    }
    count += 1; /* a strict read-modify-write from every thread */
    upc_barrier;
    EXPECT(count == THREADS);
    loose[MYTHREAD] = MYTHREAD;
    upc_barrier;
    if (MYTHREAD == THREADS - 1) {
        data[0] = 99;
        {
#pragma upc strict
            plain = 2;
        }
    }
    if (MYTHREAD == 0) {
        wait_for_plain(2);
        EXPECT(data[0] == 99);
    }
    upc_barrier;
    for (i = 0; i < THREADS; i++)
        EXPECT(loose[i] == i);
    return fails != 0;
}
