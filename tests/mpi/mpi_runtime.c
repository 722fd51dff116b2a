/* THREADS, MYTHREAD and the heap across processes: every thread's number
 * once, the same pointers from the collective allocations everywhere, and
 * each thread's upc_alloc and upc_global_alloc blocks read by every other
 * thread byte for byte. */
#include "check.h"

#include <string.h>

/* A byte of thread t's block at index i, unlike any other thread's. */
static unsigned char pattern(int t, size_t i)
{
    return (unsigned char)(t * 37 + i * 11 + (i >> 8));
}

#define BLOCK 5000 /* bytes of each thread's upc_alloc block: not a round size */

int tupc_main(int argc, char **argv)
{
    int T = THREADS;
    CHECK(T == expected_threads(argc, argv));
    CHECK(MYTHREAD >= 0 && MYTHREAD < T);

    /* Every thread's number, once: each writes its own slot, all read all. */
    tupc_sptr_t ids = upc_all_alloc((size_t)T, sizeof(int));
    CHECK(!tupc_isnull(ids));
    tupc_put_int(tupc_index(ids, MYTHREAD, 1, int), MYTHREAD + 1000);
    upc_barrier();
    for (int t = 0; t < T; t++) {
        tupc_sptr_t p = tupc_index(ids, t, 1, int);
        CHECK(upc_threadof(p) == (size_t)t);
        CHECK(tupc_get_int(p) == t + 1000);
    }

    /* upc_all_alloc gives the same pointer on every thread: each writes
     * its address into thread 0's array, thread 0 compares. */
    tupc_sptr_t where = upc_all_alloc(1, (size_t)T * sizeof(uintptr_t));
    tupc_sptr_t again = upc_all_alloc(3, 64);
    uintptr_t a = (uintptr_t)again.addr;
    tupc_put(tupc_ptr_add(where, MYTHREAD, 0, sizeof a), &a, sizeof a);
    upc_barrier();
    for (int t = 0; t < T; t++) {
        uintptr_t b;
        tupc_get(&b, tupc_ptr_add(where, t, 0, sizeof b), sizeof b);
        CHECK(b == a);
    }

    /* upc_alloc: each thread fills its block, publishes it; every thread
     * checks every byte of every block. */
    tupc_sptr_t blocks = upc_all_alloc((size_t)T, sizeof(tupc_sptr_t));
    tupc_sptr_t mine = upc_alloc(BLOCK);
    CHECK(!tupc_isnull(mine) && upc_threadof(mine) == (size_t)MYTHREAD);
    for (size_t i = 0; i < BLOCK; i++)
        ((unsigned char *)tupc_local(mine))[i] = pattern(MYTHREAD, i);
    tupc_put(tupc_index(blocks, MYTHREAD, 1, tupc_sptr_t), &mine, sizeof mine);
    upc_barrier();
    static _Thread_local unsigned char got[BLOCK];
    for (int t = 0; t < T; t++) {
        tupc_sptr_t b;
        tupc_get(&b, tupc_index(blocks, t, 1, tupc_sptr_t), sizeof b);
        CHECK(upc_threadof(b) == (size_t)t);
        memset(got, 0, sizeof got);
        upc_memget(got, b, BLOCK);
        for (size_t i = 0; i < BLOCK; i++)
            CHECK(got[i] == pattern(t, i));
    }
    upc_barrier();
    upc_free(mine);

    /* upc_global_alloc by the last thread, handed to all through thread
     * 0's slot: block k (one per thread) on thread k; each thread writes
     * its block, every thread reads every one. */
    tupc_sptr_t slot = upc_all_alloc(1, sizeof(tupc_sptr_t));
    if (MYTHREAD == T - 1) {
        tupc_sptr_t g = upc_global_alloc((size_t)T, 256);
        CHECK(!tupc_isnull(g));
        tupc_put_strict(slot, &g, sizeof g);
    }
    upc_barrier();
    tupc_sptr_t g;
    tupc_get(&g, slot, sizeof g);
    CHECK(!tupc_isnull(g));
    unsigned char buf[256];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = pattern(MYTHREAD + 7, i);
    upc_memput(tupc_index(g, MYTHREAD, 1, buf), buf, sizeof buf);
    upc_barrier();
    for (int t = 0; t < T; t++) {
        tupc_sptr_t p = tupc_index(g, t, 1, buf);
        CHECK(upc_threadof(p) == (size_t)t);
        upc_memget(buf, p, sizeof buf);
        for (size_t i = 0; i < sizeof buf; i++)
            CHECK(buf[i] == pattern(t + 7, i));
    }
    upc_barrier();
    if (MYTHREAD == 0)
        upc_free(g);
    upc_all_free(again);
    upc_all_free(blocks);

    /* upc_cast: this process's data only. */
    for (int t = 0; t < T; t++) {
        tupc_sptr_t p = tupc_index(ids, t, 1, int);
        void *c = upc_cast(p);
        if (c)
            CHECK(*(int *)c == t + 1000);
    }
    CHECK(upc_cast(tupc_index(ids, MYTHREAD, 1, int)) != NULL);
    upc_barrier();
    /* The run's status: thread 0's 0, everyone's 0. */
    return 0;
}
