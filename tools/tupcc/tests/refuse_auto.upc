/* expect: a shared object with automatic storage duration */
#include <upc.h>
int main(void)
{
    shared int x; /* here */
    return 0;
}
