/* expect: upc_localsizeof of a type that is not shared */
#include <upc.h>
int main(void)
{
    return upc_localsizeof(int) != 4; /* here */
}
