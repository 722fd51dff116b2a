/* expect: an initializer with the address of a private object (one per thread) in a block-scope static */
#include <upc.h>
int counter;
int main(void)
{
    static int *p = &counter; /* here */
    return *p;
}
