/* expect: tupc does not provide <upc_io.h> */
#include <upc.h>
#include <upc_io.h> /* here */

int main(void)
{
    return 0;
}
