/* expect: upc_elemsizeof of a type that is not shared */
#include <upc.h>
int main(void)
{
    double v[4];
    return upc_elemsizeof(v) != 8; /* here */
}
