/* Dimensions of millions of elements are numbers, not THREADS: tupcc
 * finds THREADS in a dimension by the value it gives THREADS in the front
 * end, which no such dimension may meet (16777259 was translated as
 * THREADS, and 8388629 and up were refused). */
#include <upc.h>
#include <stdio.h>
shared [] char big[16777259];
shared [] char mid[8388629];
typedef shared int two_t[33554518];
shared int per[4 * THREADS];
int main(void)
{
    int bad = 0;
    bad += sizeof big != 16777259 || upc_localsizeof(big) != 16777259;
    bad += sizeof(two_t) != 33554518 * sizeof(int);
    bad += upc_localsizeof(two_t) != (33554518 + THREADS - 1) / THREADS * sizeof(int);
    bad += upc_localsizeof(per) != 4 * sizeof(int);
    if (MYTHREAD == 0) {
        big[16777258] = 1;
        mid[8388628] = 2;
    }
    upc_barrier;
    bad += big[16777258] != 1 || mid[8388628] != 2;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
