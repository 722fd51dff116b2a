/* expect: shared given twice in one qualifier list */
#include <upc.h>
shared [2] shared [3] int a[6 * THREADS]; /* here */
int main(void)
{
    return 0;
}
