/* strict and relaxed on shared typedef names (UPC 1.3 6.5.1.1): the
 * typedef's twins of each mode carry them; thread 0 publishes through a
 * strict object of a typedef'd type. */
#include <upc.h>
#include <stdio.h>
typedef shared int sint;
typedef shared [2] long sblk[4];
strict sint flag;
relaxed sint data[THREADS];
sint plain;
strict sblk arr[THREADS];
int main(void)
{
    data[MYTHREAD] = MYTHREAD;
    if (MYTHREAD == 0) {
        plain = 3;
        flag = 1;
    } else {
        while (!flag)
            ;
    }
    arr[MYTHREAD][1] = 5;
    upc_barrier;
    return plain != 3 || arr[0][1] != 5 || data[THREADS - 1] != THREADS - 1;
}
