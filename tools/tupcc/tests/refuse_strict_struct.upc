/* expect: a strict access to a shared object of type 'struct pt' */
#include <upc.h>
struct pt { int x, y; };
strict shared struct pt s;
int main(void)
{
    struct pt l = s; /* here */
    return l.x;
}
