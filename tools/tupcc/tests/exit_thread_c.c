/* The C unit of exit_thread.upc: a count of the threads that finished,
 * which an atexit handler checks when the process ends. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int finished;
static int expected;

static void check(void)
{
    if (atomic_load(&finished) != expected) {
        printf("the program ended with %d of %d threads done\n", atomic_load(&finished), expected);
        _Exit(1);
    }
}

void exit_thread_arm(int threads);
void exit_thread_done(void);

void exit_thread_arm(int threads)
{
    expected = threads;
    atexit(check);
}

void exit_thread_done(void)
{
    atomic_fetch_add(&finished, 1);
}
