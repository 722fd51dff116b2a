/* expect: more than one block size or reference qualifier for one type, through a typedef (UPC 1.3 6.5 constraint) */
#include <upc.h>
typedef shared [2] int pair;
shared [3] pair a[6 * THREADS]; /* here */
int main(void)
{
    return 0;
}
