/* Reaching the } of main returns 0 (C11 5.1.2.2.3), whatever the last
 * call left behind. */
#include <upc.h>
#include <stdio.h>
static int seven(void)
{
    return 7;
}
int main(void)
{
    (void)seven();
}
