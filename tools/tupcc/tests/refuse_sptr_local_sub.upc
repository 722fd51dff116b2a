/* expect: one a pointer-to-shared, one a pointer-to-local (UPC 1.3 6.4.2 constraint */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    int x = 1;
    int *l = &x;
    shared int *s = &a[MYTHREAD];
    return (int)(s - l); /* here */
}
