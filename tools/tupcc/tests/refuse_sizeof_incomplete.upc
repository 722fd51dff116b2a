/* expect: invalid application of 'sizeof' to an incomplete type 'shared struct later' */
#include <upc.h>
struct later;
extern shared struct later thing;
int main(void)
{
    return (int)upc_localsizeof(thing); /* here */
}
