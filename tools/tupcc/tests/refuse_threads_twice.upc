/* expect: UPC 1.3 6.5.2.1 allows one under dynamic THREADS */
#include <upc.h>
shared int grid[THREADS][THREADS]; /* here */
int main(void)
{
    return 0;
}
