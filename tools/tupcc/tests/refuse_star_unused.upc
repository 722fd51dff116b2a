/* expect: a [*] layout in a pointer type */
#include <upc.h>
shared [*] int *p; /* here */
int main(void)
{
    return 0;
}
