/* expect: an initializer of a shared array with THREADS in a dimension under dynamic THREADS */
#include <upc.h>
shared int a[THREADS] = {1}; /* here */
int main(void)
{
    return a[0] != 1;
}
