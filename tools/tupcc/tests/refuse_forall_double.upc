/* expect: upc_forall with an affinity expression of type 'double' (UPC 1.3 6.6.2 constraint */
#include <upc.h>
shared int a[4 * THREADS];
int main(void)
{
    double where = 0.5;
    upc_forall (int i = 0; i < 4 * THREADS; i++; where) /* here */
        a[i] = i;
    return 0;
}
