/* expect: unused variable 'unused' */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    int unused; /* here */
    return a[0];
}
