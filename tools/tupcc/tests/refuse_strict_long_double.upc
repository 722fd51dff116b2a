/* expect: a strict access to a shared object of type 'long double' */
#include <upc.h>
strict shared long double total;
int main(void)
{
    total = 1.0L; /* here */
    return 0;
}
