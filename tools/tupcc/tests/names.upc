/* User names that tupcc's generated code also needs must not meet them:
 * shared objects called p, k and v, with initializers. */
#include <upc.h>

shared int p[THREADS];
shared int k[2] = {7, 8};
shared int v = 4;

int main(void)
{
    p[MYTHREAD] = MYTHREAD + v;
    upc_barrier;
    return p[0] != 4 || k[0] != 7 || k[1] != 8 || p[THREADS - 1] != THREADS + 3;
}
