/* expect: the [*] layout on an object that is not an array */
#include <upc.h>
shared [*] int s; /* here */
int main(void)
{
    return 0;
}
