/* expect: [*] in a typedef (a UPC 1.3 6.5.1.1 constraint violation) */
#include <upc.h>
typedef shared [*] int spread; /* here */
spread a[10 * THREADS];
int main(void)
{
    return upc_blocksizeof(a) != 10;
}
