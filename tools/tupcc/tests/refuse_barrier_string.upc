/* expect: upc_barrier with an expression of type */
#include <upc.h>
int main(void)
{
    upc_barrier "x"; /* here */
    return 0;
}
