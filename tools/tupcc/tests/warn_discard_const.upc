/* expect: passing 'const shared int *' to parameter of type 'shared int *' discards qualifiers (C 6.5.16.1) */
#include <upc.h>
shared const int table[THREADS];
static int first(shared int *p)
{
    return *p;
}
int main(void)
{
    return first(&table[0]) != 0; /* here */
}
