/* Initializers of static shared objects: scalars, arrays (whose initializers
 * UPC 1.3 6.5.2.1 leaves to the implementation: tupcc stores them in the
 * declared layout before main), strings, structs, pointers-to-shared. */
#include <upc.h>
#include <stdio.h>
shared int primes[] = {2, 3, 5, 7, 11};
shared [2] double grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
shared [] char name[] = "tupcc";
shared int a[THREADS];
shared int *shared ptrs[2] = {&a[0], 0};
struct kv { int k; double v; };
shared struct kv table[2] = {{1, 0.5}, {2, 1.5}};
int main(void)
{
    int bad = 0;
    bad += primes[4] != 11 || primes[0] != 2 || upc_threadof(&primes[4]) != (size_t)(4 % THREADS);
    bad += grid[1][2] != 6 || grid[0][1] != 2 || upc_threadof(&grid[1][0]) != (size_t)(3 / 2 % THREADS);
    bad += name[2] != 'p' || name[5] != 0;
    bad += ptrs[0] != &a[0] || ptrs[1] != NULL;
    bad += table[1].k != 2 || table[0].v != 0.5;
    if (bad)
        printf("thread %d: %d bad\n", MYTHREAD, bad);
    return bad;
}
