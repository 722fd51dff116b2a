/* expect: a shared type in an expression or declaration tupcc does not translate */
#include <upc.h>
#include <stdarg.h>
static int first(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    shared int *p = va_arg(ap, shared int *); /* here */
    va_end(ap);
    return *p;
}
shared int a[THREADS];
int main(void)
{
    return first(1, &a[0]);
}
