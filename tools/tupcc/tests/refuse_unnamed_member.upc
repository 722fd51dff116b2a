/* expect: no member named 'nope' in 'struct (unnamed at */
#include <upc.h>
struct {
    int a;
} s;

int main(void)
{
    s.nope = 1; /* here */
    return 0;
}
