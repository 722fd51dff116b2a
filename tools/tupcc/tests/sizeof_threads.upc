/* upc_localsizeof, upc_blocksizeof and upc_elemsizeof of a type name with
 * THREADS in it, also under dynamic THREADS (UPC 1.3 6.4.2). */
#include <upc.h>
#include <stdio.h>
int main(void)
{
    int bad = 0;
    bad += upc_localsizeof(shared int [10 * THREADS]) != 10 * sizeof(int);
    bad += upc_blocksizeof(shared [3] int [6 * THREADS]) != 3;
    bad += upc_localsizeof(shared [3] int [6 * THREADS]) != 6 * sizeof(int);
    bad += upc_elemsizeof(shared double [THREADS][2]) != sizeof(double);
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
