/* <upc_atomic.h> from UPC: every thread adds to shared counters through
 * atomic domains, strict and relaxed, and the totals show no lost update;
 * a pointer-to-shared is swapped; __UPC_ATOMIC__ is predefined. */
#include <upc.h>
#include <upc_atomic.h>
#include <stdio.h>

#ifndef __UPC_ATOMIC__
#error "__UPC_ATOMIC__ is not predefined"
#endif

#define ROUNDS 1000

shared long total;
shared double sum;
shared int best;
shared int slots[THREADS];
shared int *shared which;

int main(void)
{
    int bad = 0;
    upc_atomicdomain_t *dl = upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD | UPC_INC | UPC_GET | UPC_SET, 0);
    upc_atomicdomain_t *dd = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_GET, 0);
    upc_atomicdomain_t *di = upc_all_atomicdomain_alloc(UPC_INT, UPC_MAX | UPC_GET, 0);
    upc_atomicdomain_t *dp = upc_all_atomicdomain_alloc(UPC_PTS, UPC_SET | UPC_CSWAP | UPC_GET, 0);
    if (MYTHREAD == 0) {
        long zero = 0;
        shared int *first = &slots[0];
        upc_atomic_strict(dl, NULL, UPC_SET, &total, &zero, NULL);
        sum = 0;
        best = -1;
        upc_atomic_strict(dp, NULL, UPC_SET, &which, &first, NULL);
    }
    upc_barrier;
    long two = 2;
    double quarter = 0.25;
    for (int r = 0; r < ROUNDS; r++) {
        if (r % 2)
            upc_atomic_strict(dl, NULL, UPC_ADD, &total, &two, NULL);
        else
            upc_atomic_relaxed(dl, NULL, UPC_ADD, &total, &two, NULL);
        upc_atomic_relaxed(dl, NULL, UPC_INC, &total, NULL, NULL);
        upc_atomic_relaxed(dd, NULL, UPC_ADD, &sum, &quarter, NULL);
        int v = MYTHREAD * ROUNDS + r;
        upc_atomic_relaxed(di, NULL, UPC_MAX, &best, &v, NULL);
    }
    /* one thread moves `which` from slots[0] to its own slot: only one wins */
    shared int *expect = &slots[0], *mine = &slots[MYTHREAD], *was;
    upc_atomic_strict(dp, &was, UPC_CSWAP, &which, &expect, &mine);
    upc_barrier;
    long t;
    double s;
    int b;
    shared int *w;
    upc_atomic_strict(dl, &t, UPC_GET, &total, NULL, NULL);
    upc_atomic_strict(dd, &s, UPC_GET, &sum, NULL, NULL);
    upc_atomic_strict(di, &b, UPC_GET, &best, NULL, NULL);
    upc_atomic_strict(dp, &w, UPC_GET, &which, NULL, NULL);
    if (t != 3L * ROUNDS * THREADS) {
        printf("thread %d: total %ld; expected %ld\n", MYTHREAD, t, 3L * ROUNDS * THREADS);
        bad++;
    }
    if (s != 0.25 * ROUNDS * THREADS) {
        printf("thread %d: sum %g; expected %g\n", MYTHREAD, s, 0.25 * ROUNDS * THREADS);
        bad++;
    }
    if (b != THREADS * ROUNDS - 1) {
        printf("thread %d: max %d; expected %d\n", MYTHREAD, b, THREADS * ROUNDS - 1);
        bad++;
    }
    if (THREADS > 1 && w == &slots[0]) {
        printf("thread %d: no compare-and-swap moved the pointer\n", MYTHREAD);
        bad++;
    }
    if (!upc_atomic_isfast(UPC_LONG, UPC_ADD, &total) || upc_atomic_isfast(UPC_PTS, UPC_SET, &which)) {
        printf("thread %d: upc_atomic_isfast is wrong\n", MYTHREAD);
        bad++;
    }
    upc_barrier;
    upc_all_atomicdomain_free(dl);
    upc_all_atomicdomain_free(dd);
    upc_all_atomicdomain_free(di);
    upc_all_atomicdomain_free(dp);
    return bad;
}
