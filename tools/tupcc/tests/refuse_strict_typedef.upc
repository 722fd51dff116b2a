/* expect: strict without shared in the same qualifier list */
#include <upc.h>
typedef shared int sint;
strict sint flag; /* here */
int main(void)
{
    return 0;
}
