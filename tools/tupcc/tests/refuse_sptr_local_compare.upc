/* expect: the operator == on a pointer-to-shared and a pointer-to-local (UPC 1.3 6.4.2 constraint */
#include <upc.h>
shared int a[THREADS];
int main(void)
{
    int *mine = (int *)&a[MYTHREAD];
    shared int *s = &a[MYTHREAD];
    return s == mine; /* here */
}
