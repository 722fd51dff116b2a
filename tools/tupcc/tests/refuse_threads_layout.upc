/* expect: THREADS in a layout qualifier: a block size is a constant expression, so this needs static THREADS (tupcc -n N) */
/* UPC 1.3 Required Library 7.4.2.4 EXAMPLE 1 is for static THREADS */
#include <upc.h>
#define NELEMS 10
shared [NELEMS*THREADS] int B[THREADS][NELEMS*THREADS]; /* here */
int main(void)
{
    return 0;
}
