/* A UPC program without #include <upc.h>: MYTHREAD, THREADS, shared,
 * upc_forall and the barriers are the language's own (UPC 1.3 6.3, 6.6). */
shared int slot[THREADS];

int main(void)
{
    int i, bad = 0;
    upc_forall (i = 0; i < THREADS; i++; &slot[i])
        slot[i] = i + 1;
    upc_barrier;
    upc_fence;
    for (i = 0; i < THREADS; i++)
        bad += slot[i] != i + 1;
    bad += UPC_MAX_BLOCK_SIZE < 1;
    return bad;
}
