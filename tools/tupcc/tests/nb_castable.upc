/* <upc_nb.h> and <upc_castable.h> from UPC: the feature macros are
 * predefined; each thread fetches its right neighbour's block without
 * blocking, computes meanwhile, syncs, and checks every element; puts with
 * an implicit handle into its left neighbour's block; casts a neighbour's
 * element to a local pointer. */
#include <upc.h>
#if !defined(__UPC_NB__) || !defined(__UPC_CASTABLE__)
#error the optional libraries' feature macros are not predefined
#endif
#include <upc_castable.h>
#include <upc_nb.h>
#include <stdio.h>

#define B 100
shared [B] int a[B * THREADS];
shared [B] int b[B * THREADS];
shared int c[THREADS];

int main(void)
{
    int fails = 0;
    int right = (MYTHREAD + 1) % THREADS, left = (MYTHREAD + THREADS - 1) % THREADS;
    upc_forall (int i = 0; i < B * THREADS; i++; &a[i])
        a[i] = 7 * i + 1;
    upc_barrier;
    int got[B];
    upc_handle_t h = upc_memget_nb(got, &a[right * B], sizeof got);
    long work = 0;
    for (int k = 0; k < 1000; k++)
        work += k;
    if (!upc_sync_attempt(h))
        upc_sync(h);
    for (int i = 0; i < B; i++)
        if (got[i] != 7 * (right * B + i) + 1) {
            printf("thread %d: got[%d] = %d\n", MYTHREAD, i, got[i]);
            fails++;
        }
    int mine[B];
    for (int i = 0; i < B; i++)
        mine[i] = 1000 * MYTHREAD + i;
    upc_memput_nbi(&b[left * B], mine, sizeof mine);
    upc_synci();
    upc_thread_info_t info = upc_thread_info(right);
    if (info.guaranteedCastable != UPC_CASTABLE_ALL) {
        printf("thread %d: thread %d is not castable\n", MYTHREAD, right);
        fails++;
    }
    int *p = (int *)upc_cast(&c[right]);
    *p = 5 * MYTHREAD + work % 2;
    upc_barrier;
    for (int i = 0; i < B; i++)
        if (b[MYTHREAD * B + i] != 1000 * right + i) {
            printf("thread %d: b[%d] = %d\n", MYTHREAD, MYTHREAD * B + i, b[MYTHREAD * B + i]);
            fails++;
        }
    if (c[MYTHREAD] != 5 * left + work % 2) {
        printf("thread %d: c = %d\n", MYTHREAD, c[MYTHREAD]);
        fails++;
    }
    return fails != 0;
}
