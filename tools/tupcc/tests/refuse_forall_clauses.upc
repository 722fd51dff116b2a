/* expect: upc_forall needs four clauses separated by ; */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    int i;
    upc_forall (i = 0; i < THREADS; i++) /* here */
        a[i] = i;
    return 0;
}
