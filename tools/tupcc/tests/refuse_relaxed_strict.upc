/* expect: both strict and relaxed in one qualifier list */
#include <upc.h>
strict relaxed shared int x; /* here */
int main(void)
{
    return 0;
}
