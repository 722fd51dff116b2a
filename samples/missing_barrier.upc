/* missing_barrier.c in UPC, a data race for ThreadSanitizer to find: every
 * thread writes its element of a shared array and then reads its
 * neighbour's, but the barrier between the writes and the reads is missing.
 * Built by tupcc with -fsanitize=thread against a TSan build of tupc, the
 * report names this file's write and read (README, "Running under
 * ThreadSanitizer"). Without the sanitizer it usually prints the right
 * values by luck, which is why a race is worth a tool. */
#include <upc.h>
#include <stdio.h>

shared int a[THREADS];

int main(void)
{
    a[MYTHREAD] = 10 * MYTHREAD; /* the write */
    /* upc_barrier; is missing here: the next line may read the neighbour's
     * element before the neighbour has written it. */
    int right = a[(MYTHREAD + 1) % THREADS]; /* the read */
    printf("thread %d: right neighbour holds %d\n", MYTHREAD, right);
    upc_barrier;
    return 0;
}
