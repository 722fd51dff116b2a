/* A whole program (tupc::tupc-main supplies main): thread 0 says how many
 * THREADS ran and which tupc they ran on. */
#include <upc.h>
#include <stdio.h>

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    upc_barrier();
    if (MYTHREAD == 0)
        printf("THREADS %d version %s\n", THREADS, TUPC_VERSION_STRING);
    return 0;
}
