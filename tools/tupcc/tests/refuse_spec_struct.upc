/* expect: a shared-qualified struct member */
/* UPC 1.3 6.5.1.1 EXAMPLE 3: a shared member is not allowed */
#include <upc.h>
struct foo {
    shared int x; /* here */
    shared int *y;
};
int main(void)
{
    return 0;
}
