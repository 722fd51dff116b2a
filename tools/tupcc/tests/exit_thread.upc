/* also: exit_thread_c.c */
/* exit() ends the calling thread only (UPC 1.3 5.1.2.2.3: thread
 * termination is C's program termination): the others go on, and the
 * atexit handlers run when the program ends, after every thread. */
#include <upc.h>
#include <stdlib.h>

void exit_thread_arm(int threads);
void exit_thread_done(void);

static void leave(void)
{
    exit(0);
}

int main(void)
{
    if (MYTHREAD == 0)
        exit_thread_arm(THREADS > 1 ? THREADS - 1 : 1);
    upc_barrier;
    if (MYTHREAD == THREADS - 1 && THREADS > 1)
        leave();
    for (volatile int i = 0; i < 1000000; i++)
        ;
    exit_thread_done();
    return 0;
}
