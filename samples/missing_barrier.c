/* A data race for ThreadSanitizer to find: every thread writes its element
 * of a shared array and then reads its neighbour's, but the barrier
 * between the writes and the reads is missing (see the comment below).
 * Built with -fsanitize=thread against a TSan build of tupc, the report
 * names this file's write and read as the racing accesses: tupc's own
 * synchronization is C11 atomics that TSan sees (README, "Running under
 * ThreadSanitizer"). Without the sanitizer it usually prints the right
 * sums by luck, which is why a race is worth a tool. */
#include <upc.h>

#include <stdio.h>

int tupc_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    tupc_sptr_t a = upc_all_alloc(THREADS, sizeof(int)); /* shared int a[THREADS] */
    tupc_ref(a, MYTHREAD, 1, int) = 10 * MYTHREAD;       /* the write */
    /* upc_barrier(); is missing here: the next line may read the neighbour's
     * element before the neighbour has written it. */
    int right = tupc_ref(a, (MYTHREAD + 1) % THREADS, 1, int); /* the read */
    printf("thread %d: right neighbour holds %d\n", MYTHREAD, right);
    upc_barrier();
    upc_all_free(a);
    return 0;
}
