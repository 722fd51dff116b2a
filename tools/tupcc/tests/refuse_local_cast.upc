/* expect: a conversion of a pointer-to-local or an integer to a pointer-to-shared */
/* UPC 1.3 6.4.3 EXAMPLE 1: q = (shared int *)p; is not allowed */
#include <upc.h>
int main(void)
{
    int i = 0, *p = &i;
    shared int *q;
    q = (shared int *)p; /* here */
    return q == 0;
}
