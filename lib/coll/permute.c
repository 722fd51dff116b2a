/* upc_all_permute (UPC 1.3 7.4.2.6): the block of src on thread i to the
 * block of dst on thread perm[i].
 *
 * Checks: nbytes > 0; src, dst and perm in the heap with affinity to thread
 * 0, the blocks fitting the partition; perm[MYTHREAD] in 0..THREADS-1 (each
 * thread checks its own entry, the only one it may read before anyone
 * waits); no value twice: each thread claims its destination thread in a
 * per-run table with one atomic exchange, and the second claimer of a thread
 * sees the first one's claim for the same call. That is O(1) per thread, and
 * with every entry in range, "no value twice" is "a permutation".
 *
 * Touches (push): thread i reads its own perm entry and src block and writes
 * the dst block of thread perm[i]. Pulling would need the inverse of perm,
 * O(THREADS) reads; pushing is O(1). So thread i needs perm[i]; the data of
 * thread t is touched by t and by the thread i with perm[i] == t (its dst).
 * OUT_MYSYNC must wait for that i: the claim table names it, so t waits for
 * one thread, not all of them.
 *
 * Copy: one memcpy per thread. */
#include "coll/reloc.h"

#include "sync/barrier.h"
#include "sync/wait.h"

#include <stdatomic.h>
#include <stdlib.h>

#define FUNC "upc_all_permute"
#define SEC "UPC 1.3 7.4.2.6"

/* One per destination thread, on its own cache line (every call writes it
 * from another thread). */
struct perm_box {
    tupc_word seen;         /* newest permute call that claimed this thread */
    _Atomic uint64_t claim; /* (call << 32) | the thread whose block lands here */
} __attribute__((aligned(TUPC_CACHELINE)));

/* The table of the run. Thread-local variables start at zero in each new
 * thread, so every run starts with no table and call number 0; claims of
 * an earlier run can never look like claims of this one. */
static _Thread_local struct perm_box *boxes;
static _Thread_local uint32_t calls;
/* Thread 0's table of the previous run, freed when the next run makes its
 * own (runs do not overlap: pthread_join and pthread_create order them). */
static struct perm_box *last_boxes;

/* First permute call of the run: thread 0 makes the table and a barrier
 * hands it out. Every thread makes its first permute call in the same
 * collective call, so they all reach this barrier; it costs one barrier
 * once per run. */
static struct perm_box *make_boxes(void)
{
    struct perm_box *b = NULL;
    if (MYTHREAD == 0) {
        free(last_boxes);
        size_t len = sizeof *b * (size_t)THREADS;
        b = aligned_alloc(TUPC_CACHELINE, len);
        if (!b)
            tupc_fail(FUNC, NULL, "out of memory for %zu bytes of permutation table", len);
        memset(b, 0, len);
        last_boxes = b;
    }
    return tupc_barrier_bcast(FUNC, b);
}

/* Raises w to at least k and wakes its sleepers. seq_cst CAS: it is the
 * setter's store of wait.h's Dekker pair (ordered before the sleepers load)
 * and a release that publishes the claim made before it. */
static void raise_to(tupc_word *w, uint32_t k)
{
    uint32_t v = atomic_load_explicit(&w->value, memory_order_relaxed);
    while (!tupc_reached(v, k) && !atomic_compare_exchange_weak_explicit(
                                      &w->value, &v, k, memory_order_seq_cst, memory_order_relaxed))
        ;
    if (atomic_load_explicit(&w->sleepers, memory_order_seq_cst) != 0)
        tupc_word_wake_(w);
}

void upc_all_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm, size_t nbytes,
                     upc_flag_t flags)
{
    tupc_reloc_start(FUNC, flags);
    enum tupc_sync in, out;
    tupc_coll_flags(FUNC, flags, &in, &out);
    tupc_reloc_check_nbytes(FUNC, SEC " para 3", nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "src", src, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "dst", dst, nbytes);
    tupc_reloc_check_thread0(FUNC, SEC " para 6", "perm", perm, sizeof(int));
    int me = MYTHREAD, T = THREADS;
    /* perm is shared int * (block size 1): perm[me] is on this thread. */
    int to = *(const int *)tupc_reloc_on(perm, me);
    if (to < 0 || to >= T)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] is %d; expected perm to hold the THREADS distinct values 0..%d", me, to,
                  T - 1);
    if (!boxes)
        boxes = make_boxes();
    uint32_t k = ++calls;
    /* Relaxed: the exchange's atomicity alone makes the second claimer of a
     * thread see the first one; raise_to's release publishes the claim. */
    uint64_t old = atomic_exchange_explicit(&boxes[to].claim, (uint64_t)k << 32 | (uint32_t)me,
                                            memory_order_relaxed);
    /* A claim tagged with another call (threads may be calls apart under
     * NOSYNC) proves nothing, so a duplicate is only reported when both
     * claims are of this call: never a false alarm. */
    if ((uint32_t)(old >> 32) == k)
        tupc_fail(FUNC, SEC " para 4",
                  "perm[%d] and perm[%u] are both %d; expected perm to hold the THREADS distinct "
                  "values 0..%d",
                  me, (unsigned)(uint32_t)old, to, T - 1);
    if (out == TUPC_MYSYNC)
        raise_to(&boxes[to].seen, k);

    struct tupc_coll c;
    tupc_coll_enter(&c, FUNC, flags);
    tupc_coll_need(&c, to);
    memcpy(tupc_reloc_on(dst, to), tupc_reloc_on(src, me), nbytes);

    if (out != TUPC_MYSYNC) {
        tupc_coll_leave(&c, NULL, 0, 0);
        return;
    }
    /* The writer of our dst block claimed us before entering, so this wait
     * depends on nothing that waits for us. Acquire (tupc_wait_reach): the
     * claim stored before the raise is visible. */
    tupc_wait_reach(&boxes[me].seen, k);
    uint64_t cl = atomic_load_explicit(&boxes[me].claim, memory_order_relaxed);
    if ((uint32_t)(cl >> 32) == k) {
        int who = (int)(uint32_t)cl;
        tupc_coll_leave(&c, &who, 1, 0);
    } else {
        /* A claim of another call replaced this one (threads calls apart):
         * we do not know the writer, so wait for every thread. */
        tupc_coll_leave(&c, NULL, 0, 0);
    }
}
