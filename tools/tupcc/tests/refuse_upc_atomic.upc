/* expect: tupc does not provide <upc_atomic.h> */
#include <upc.h>
#include <upc_atomic.h> /* here */

int main(void)
{
    return 0;
}
