/* expect: changes address space of pointer */
#include <upc.h>
int main(void)
{
    int x = 0;
    shared int *p = &x; /* here */
    return p == 0;
}
