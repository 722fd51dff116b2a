/* expect: upc_forall with an affinity expression of type 'int *' (UPC 1.3 6.6.2 constraint */
#include <upc.h>
shared int a[4 * THREADS];
int mine[4];
int main(void)
{
    upc_forall (int i = 0; i < 4; i++; &mine[i]) /* here */
        a[i] = i;
    return 0;
}
