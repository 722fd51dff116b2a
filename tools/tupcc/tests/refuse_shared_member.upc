/* expect: a shared-qualified struct member */
#include <upc.h>
struct s {
    shared int *ok;
    shared int bad; /* here */
};
int main(void)
{
    return 0;
}
