/* Strict accesses to objects no C11 atomic fits (UPC 1.3 allows strict
 * on any shared object): structs, pointers-to-shared and long double are
 * read and written between two fences. A message passed through a strict
 * struct: the relaxed data written before it is seen after it. */
#include <upc.h>
#include <stdio.h>
struct msg { int seq; int from; double w; };
strict shared struct msg box[THREADS];
relaxed shared int data[THREADS];
strict shared long double ld[THREADS];
shared int target[THREADS];
strict shared int *shared sp[THREADS];
int main(void)
{
    int bad = 0;
    int right = (MYTHREAD + 1) % THREADS;
    data[right] = 100 + MYTHREAD;
    struct msg m = {1, MYTHREAD, 0.5};
    box[right] = m;
    ld[MYTHREAD] = 1.5L * MYTHREAD;
    sp[MYTHREAD] = &target[MYTHREAD];
    int left = (MYTHREAD + THREADS - 1) % THREADS;
    struct msg got;
    do
        got = box[MYTHREAD];
    while (got.seq != 1);
    bad += got.from != left || got.w != 0.5 || data[MYTHREAD] != 100 + left;
    bad += box[MYTHREAD].from != left;
    upc_barrier;
    bad += ld[left] != 1.5L * left;
    strict shared int *q = sp[left];
    bad += q != &target[left];
    *sp[MYTHREAD] = MYTHREAD;
    upc_barrier;
    bad += target[left] != left;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
