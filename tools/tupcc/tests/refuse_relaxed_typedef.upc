/* expect: both strict and relaxed, one through the typedef flag_t (UPC 1.3 6.5 constraint) */
#include <upc.h>
typedef strict shared int flag_t;
relaxed flag_t flag; /* here */
int main(void)
{
    return 0;
}
