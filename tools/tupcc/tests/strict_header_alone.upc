/* <upc_strict.h> without <upc.h> declares the library (every UPC
 * toolchain's does); UPC_MAX_BLOCK_SIZE works in #if (UPC 1.3 6.3); and
 * <sys/time.h>'s types in a UPC file. */
#include <upc_strict.h>
#include <stdio.h>
#include <sys/time.h>
#if UPC_MAX_BLOCK_SIZE < 1000
#error UPC_MAX_BLOCK_SIZE
#endif
shared int hits;
int main(void)
{
    static upc_lock_t *lock;
    struct timeval tv;
    int bad = gettimeofday(&tv, NULL) != 0;
    lock = upc_all_lock_alloc();
    upc_lock(lock);
    hits++;
    upc_unlock(lock);
    upc_barrier;
    bad += hits != THREADS;
    if (bad)
        printf("thread %d: %d failures\n", MYTHREAD, bad);
    return bad;
}
