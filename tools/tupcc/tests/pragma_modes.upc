/* The accesses' modes under the pragmas, where tupcc first writes casts
 * into the text (each strict-to-relaxed conversion below gets one, which
 * moves everything after it): pragma_modes.sh reads the generated C. The
 * strict accesses store 1xx, the relaxed ones 2xx. */
#include <upc.h>
shared int x[THREADS];
strict shared int *sp;
void casts(void)
{
    relaxed shared int *q1 = sp, *q2 = sp, *q3 = sp, *q4 = sp, *q5 = sp, *q6 = sp;
    (void)q1, (void)q2, (void)q3, (void)q4, (void)q5, (void)q6;
}
void relaxed_before(void)
{
    x[MYTHREAD] = 201;
}
void strict_block(void)
{
#pragma upc strict
    x[MYTHREAD] = 101;
    x[MYTHREAD] = 102;
}
void relaxed_after(void)
{
    x[MYTHREAD] = 202;
}
#pragma upc strict
void strict_file(void)
{
    x[MYTHREAD] = 103;
    {
#pragma upc relaxed
        x[MYTHREAD] = 203;
    }
    x[MYTHREAD] = 104;
}
int main(void)
{
    casts();
    relaxed_before();
    strict_block();
    relaxed_after();
    strict_file();
    return 0;
}
