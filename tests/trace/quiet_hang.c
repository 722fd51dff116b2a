/* A hang that the process must end even under quiet: thread 0 loops in
 * user code while thread 1 waits in a barrier, in a run with quiet and
 * return_on_error. The run cannot return, so the process exits, and it
 * must say why (check_exit.py). */
#include <upc.h>

#include <stdatomic.h>

static _Atomic int never; /* stays 0: the user code's endless loop */

static int hang(void *arg)
{
    (void)arg;
    upc_barrier();
    if (MYTHREAD == 0)
        while (!atomic_load(&never))
            ;
    upc_barrier();
    return 0;
}

int main(void)
{
    tupc_options o = {.threads = 2, .return_on_error = 1, .quiet = 1, .hang_timeout = 1};
    return tupc_run_opts(&o, hang, NULL) == 0 ? 0 : 2;
}
