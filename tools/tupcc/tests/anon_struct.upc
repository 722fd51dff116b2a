/* A struct defined in the declaration of a shared object, named or not. */
#include <upc.h>
#include <stdio.h>
shared struct foo { int a; double b; } data;
shared struct { int a; double b; } un[THREADS];
shared [2] union { int i; float f; } uu[2 * THREADS];
int main(void)
{
    int bad = 0;
    un[MYTHREAD].a = MYTHREAD;
    un[MYTHREAD].b = 0.5;
    uu[2 * MYTHREAD + 1].i = 7;
    if (MYTHREAD == 0)
        data.a = 42;
    upc_barrier;
    for (int t = 0; t < THREADS; t++)
        bad += un[t].a != t || un[t].b != 0.5 || uu[2 * t + 1].i != 7;
    struct foo f = data;
    bad += f.a != 42 || (int)upc_threadof(&un[THREADS - 1]) != THREADS - 1;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
