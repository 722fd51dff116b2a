/* expect: no member named 'no_such_member' */
#include <upc.h>
#include <stdio.h>
#include "cerror_header.h"
int main(void)
{
    struct { int x; } s = {0};
    return check_it() + s.no_such_member; /* here */
}
