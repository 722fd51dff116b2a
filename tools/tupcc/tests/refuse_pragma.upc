/* expect: #pragma upc upc_code: not supported */
#include <upc.h>
#pragma upc upc_code /* here */
int main(void)
{
    return 0;
}
