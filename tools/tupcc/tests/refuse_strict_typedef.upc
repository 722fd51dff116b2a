/* expect: strict without shared in the same qualifier list (on a name that is no file-scope shared typedef): a UPC 1.3 6.5.1.1 constraint violation */
#include <upc.h>
int main(void)
{
    typedef shared int lsint;
    static strict lsint flag; /* here */
    return flag;
}
