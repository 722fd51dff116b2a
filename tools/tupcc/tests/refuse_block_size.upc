/* expect: a block size above 1000000 (tupcc's largest) or below 0 */
#include <upc.h>
shared [2000001] int big[4 * THREADS];
int main(void)
{
    big[1] = 1; /* here */
    return 0;
}
