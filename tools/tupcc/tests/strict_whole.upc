/* A strict access is one access (UPC 1.3 5.1.2.3): a strict read of a
 * struct sees the whole of one strict write, never parts of two. Thread 0
 * writes a large struct over and over, all its words the round's number;
 * the others read it and find every word equal. */
#include <upc.h>
#include <stdio.h>
#define WORDS 64
#define ROUNDS 20000
struct big {
    long w[WORDS];
};
strict shared struct big cell;
strict shared int done;
int main(void)
{
    int bad = 0;
    if (MYTHREAD == 0) {
        struct big b;
        for (long k = 1; k <= ROUNDS; k++) {
            for (int i = 0; i < WORDS; i++)
                b.w[i] = k;
            cell = b;
        }
        done = 1;
    } else {
        long reads = 0;
        while (!done || reads < 100) {
            struct big b = cell;
            for (int i = 1; i < WORDS; i++)
                if (b.w[i] != b.w[0]) {
                    bad++;
                    break;
                }
            reads++;
        }
    }
    upc_barrier;
    if (bad)
        printf("thread %d: %d torn reads\n", MYTHREAD, bad);
    return bad != 0;
}
