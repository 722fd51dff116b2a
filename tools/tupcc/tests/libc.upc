/* C library headers in a UPC program: varargs, assert, errno, string
 * functions, argc and argv of main; the macros they define expand in user
 * code and must be translated as C. */
#include <upc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
#include <assert.h>
#include <errno.h>
static int sum(int n, ...)
{
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}
shared double v[THREADS];
int main(int argc, char **argv)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d", sum(3, 1, 2, 3));
    assert(strcmp(buf, "6") == 0);
    v[MYTHREAD] = (double)abs(-2) * (argc > 0);
    errno = 0;
    assert(isdigit((unsigned char)buf[0]));
    upc_barrier;
    if (v[(MYTHREAD + 1) % THREADS] != 2.0 || argv[0] == NULL)
        abort();
    return 0;
}
