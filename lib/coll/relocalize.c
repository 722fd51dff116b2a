/* The relocalizations of UPC 1.3 7.4.2 but permute (permute.c), each
 * written once and run by its 1.3 function and its team form (coll/reloc.h:
 * check, enter, copy or record, leave). For each, what it checks, what each
 * thread touches, and how it copies. */
#include "observe/trace.h"
#include "coll/in_place.h"
#include "coll/reloc.h"

#include <upc_collective_ext.h>

/* ---- upc_all_broadcast (UPC 1.3 7.4.2.1): src's nbytes to block i of dst on
 * every thread i.
 *
 * Checks: nbytes > 0; dst in the heap with affinity to thread 0, its block
 * fitting the partition; src in the heap, nbytes of it in one partition (src
 * may be on any thread at any address: shared [] char[nbytes]).
 *
 * Touches (pull): thread i reads src (on thread r = src's thread) and writes
 * its own dst block. So each thread needs r; r's data (src) is touched by
 * every thread, and no other thread's data is touched by anyone but itself.
 *
 * Copy: one memcpy per thread, into local memory; every thread copies, so
 * the root does no more work than the others.
 *
 * Small payloads under OUT_MYSYNC travel in the root's eager line: see
 * tupc_reloc_broadcast_run (coll/reloc.h).
 *
 * tupc_team_broadcast (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h), posted with UPC_ASYNC. */
#if TUPC_HAVE_MPI
/* A relocalization posted across processes (mpi/hier_post.c on UPC_TEAM_ALL,
 * mpi/team_coll.c on another team: broadcast, scatter, gather, gather_all,
 * exchange): the leader's request finishes the MPI call and
 * the process's copies; every request is done once the post's mark is
 * set. */
static __attribute__((noinline)) upc_coll_handle_t post_across(const struct tupc_mpi_call *c,
                                                               enum tupc_mpi_team_verb verb,
                                                               tupc_sptr_t dst, tupc_sptr_t src,
                                                               size_t nbytes)
{
    struct tupc_team *t = c->team ? c->team : &tupc_team_all_;
    struct tupc_coll_request *r =
        tupc_async_begin(t, tupc_team_rank_in(t, tupc_impl_mythread), c->func, TUPC_NOSYNC);
    void *job;
    uint32_t p;
    if (c->team) { /* mpi/team_coll.c */
        p = tupc_mpi_team_reloc_post(c, verb, dst, src, nbytes, &job, &r->also);
    } else {
        p = tupc_mpi_reloc_post(c, (int)verb, dst, src, nbytes, &job);
        r->also = tupc_mpi_post_word(p);
    }
    return tupc_async_post_also(r, tupc_mpi_post_job, job, r->also, p);
}

/* Whether call k (flags) posts across processes: UPC_ASYNC but not
 * OUT_ALLSYNC (run at posting, its handle complete), on any team. */
#define TUPC_RELOC_POSTS(fm, k, flags, verb, dst)                                                  \
    (tupc_reloc_mpi(fm) && ((flags)&UPC_ASYNC) && (k).mpi.out != TUPC_ALLSYNC)
#endif

static inline __attribute__((always_inline)) upc_coll_handle_t
broadcast(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
          upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    tupc_reloc_begin_ds(&k, fm, flags, team, nbytes, dst, TUPC_AREA_ALL, src, 0, 0, 2, &total);
#if TUPC_HAVE_MPI
    if (TUPC_RELOC_POSTS(fm, k, flags, TUPC_MPI_BCAST, dst))
        return post_across(&k.mpi, TUPC_MPI_BCAST, dst, src, nbytes);
#endif
    TUPC_RELOC_MPI(fm, TUPC_RELOC_MPI_VERB(k, TUPC_MPI_BCAST, dst, src, nbytes, 0,
                                           tupc_mpi_broadcast(&k.mpi, dst, src, nbytes)));
    const struct tupc_team *t = tupc_reloc_team(&k, fm);
    char *mine = tupc_reloc_mine(dst);
    if (tupc_reloc_blocking(&k, fm)) { /* the eager line for small payloads */
        tupc_reloc_broadcast_run(&k.c, t, k.me, mine, src, nbytes);
        return UPC_HANDLE_COMPLETE;
    }
    return tupc_reloc_rooted(&k, (int)src.thread, mine, src.addr, nbytes,
                             tupc_reloc_streams(nbytes, (size_t)t->n + 1));
}

TUPC_RELOC_FORMS(broadcast, "UPC 1.3 7.4.2.1", "para 6", nbytes)

/* ---- upc_all_scatter (UPC 1.3 7.4.2.2): block i of src (nbytes * THREADS bytes
 * in one partition) to block i of dst, on thread i.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; dst in the heap with
 * affinity to thread 0, its block fitting the partition; src in the heap,
 * nbytes * THREADS of it in one partition (any thread, any address).
 *
 * Touches (pull): thread i reads block i of src (on thread r = src's thread)
 * and writes its own dst block. Each thread needs r; r's data is touched by
 * every thread, any other thread's data only by itself.
 *
 * Copy: one memcpy per thread into local memory; the root copies one block,
 * like everyone else.
 *
 * tupc_team_scatter (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h), posted with UPC_ASYNC. */
static inline __attribute__((always_inline)) upc_coll_handle_t
scatter(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
        upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    tupc_reloc_begin_ds(&k, fm, flags, team, nbytes, dst, TUPC_AREA_ALL, src, TUPC_AREA_BLOCKS, 0,
                        2, &total);
#if TUPC_HAVE_MPI
    if (TUPC_RELOC_POSTS(fm, k, flags, TUPC_MPI_SCATTER, dst))
        return post_across(&k.mpi, TUPC_MPI_SCATTER, dst, src, nbytes);
#endif
    TUPC_RELOC_MPI(fm, TUPC_RELOC_MPI_VERB(k, TUPC_MPI_SCATTER, dst, src, nbytes, 0,
                                           tupc_mpi_scatter(&k.mpi, dst, src, nbytes)));
    return tupc_reloc_rooted(&k, (int)src.thread, tupc_reloc_mine(dst),
                             src.addr + (size_t)k.me * nbytes, nbytes,
                             tupc_reloc_streams(total, 2));
}

TUPC_RELOC_FORMS(scatter, "UPC 1.3 7.4.2.2", "para 6", nbytes)

/* ---- upc_all_gather (UPC 1.3 7.4.2.3): the block of src on thread i to block i
 * of dst (nbytes * THREADS bytes in one partition).
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src in the heap with
 * affinity to thread 0, its block fitting the partition; dst in the heap,
 * nbytes * THREADS of it in one partition (any thread, any address).
 *
 * Touches (push): thread i reads its own src block and writes block i of dst
 * (on thread r = dst's thread). Pulling would leave all the copying to r;
 * pushing spreads it over every thread, and the reads stay local. So each
 * thread needs r; r's data (dst) is touched by every thread, any other
 * thread's data (its src block) only by itself.
 *
 * Copy: one memcpy per thread. Neighbouring blocks may share a cache line
 * when nbytes is not a multiple of it: the bytes written are disjoint, so
 * this costs a little false sharing, never a wrong byte.
 *
 * tupc_team_gather (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h), posted with UPC_ASYNC. */
static inline __attribute__((always_inline)) upc_coll_handle_t
gather(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
       upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    tupc_reloc_begin_ds(&k, fm, flags, team, nbytes, dst, TUPC_AREA_BLOCKS, src, TUPC_AREA_ALL, 1,
                        2, &total);
#if TUPC_HAVE_MPI
    if (TUPC_RELOC_POSTS(fm, k, flags, TUPC_MPI_GATHER, dst))
        return post_across(&k.mpi, TUPC_MPI_GATHER, dst, src, nbytes);
#endif
    TUPC_RELOC_MPI(fm, TUPC_RELOC_MPI_VERB(k, TUPC_MPI_GATHER, dst, src, nbytes, 0,
                                           tupc_mpi_gather(&k.mpi, dst, src, nbytes)));
    return tupc_reloc_rooted(&k, (int)dst.thread, dst.addr + (size_t)k.me * nbytes,
                             tupc_reloc_mine(src), nbytes, tupc_reloc_streams(total, 2));
}

TUPC_RELOC_FORMS(gather, "UPC 1.3 7.4.2.3", "para 6", nbytes)

/* ---- upc_all_gather_all (UPC 1.3 7.4.2.4): the block of src on thread i to
 * block i of dst on every thread.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src and dst in the heap
 * with affinity to thread 0; src's block (nbytes) and dst's area
 * (nbytes * THREADS, type shared [nbytes * THREADS]) fit the partition.
 *
 * Touches (pull): thread i reads the src block of every thread and writes
 * only its own dst area. Each thread needs every thread, and every thread's
 * src is read by every thread: the touch sets are all threads everywhere, so
 * OUT_MYSYNC is a barrier (which scales by a tree), not a scan.
 *
 * Copy: THREADS memcpys per thread into local memory, starting at block
 * i + 1 so that the threads do not all read thread 0 first.
 *
 * tupc_team_gather_all (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h), posted with UPC_ASYNC. */
static inline __attribute__((always_inline)) upc_coll_handle_t
gather_all(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
           upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    tupc_reloc_begin_ds(&k, fm, flags, team, nbytes, dst, TUPC_AREA_BLOCKS | TUPC_AREA_ALL, src,
                        TUPC_AREA_ALL, 1, 2, &total);
#if TUPC_HAVE_MPI
    if (TUPC_RELOC_POSTS(fm, k, flags, TUPC_MPI_GATHER_ALL, dst))
        return post_across(&k.mpi, TUPC_MPI_GATHER_ALL, dst, src, nbytes);
#endif
    TUPC_RELOC_MPI(fm, TUPC_RELOC_MPI_VERB(k, TUPC_MPI_GATHER_ALL, dst, src, nbytes, 0,
                                           tupc_mpi_gather_all(&k.mpi, dst, src, nbytes)));
    /* n dst areas and the src blocks */
    return tupc_reloc_fill_mine(&k, dst, src, 0, nbytes,
                                tupc_reloc_streams(total, (size_t)tupc_team_n(k.t) + 1));
}

TUPC_RELOC_FORMS(gather_all, "UPC 1.3 7.4.2.4", "para 6", nbytes *(size_t)THREADS)

/* ---- upc_all_exchange (UPC 1.3 7.4.2.5): block i of src on thread j to block j
 * of dst on thread i, for every pair i, j.
 *
 * Checks: nbytes > 0; nbytes * THREADS fits size_t; src and dst in the heap
 * with affinity to thread 0, each thread's area of nbytes * THREADS bytes
 * (type shared [nbytes * THREADS]) fitting the partition.
 *
 * Touches (pull): thread i reads block i of every thread's src and writes
 * only its own dst area. Each thread needs every thread, and every thread's
 * src is read by every thread: OUT_MYSYNC is a barrier, as for gather_all.
 *
 * Copy: THREADS memcpys per thread into local memory, starting at thread
 * i + 1 so that the threads do not all read thread 0 first.
 *
 * In place (UPC_IN_PLACE as src or in flags, Extended Collectives 0.3
 * 5.2): dst is also the source, and block j of thread i trades places with
 * block i of thread j. One thread of each pair (tupc_swaps_pair) swaps
 * them through a small buffer on its stack (tupc_swap): no second copy of
 * the data.
 *
 * tupc_team_exchange (a tupc extension): the same on a team, ranks for
 * threads (coll/reloc.h), posted with UPC_ASYNC (in place, the blocks move
 * at posting, as the _x forms do, but across processes, where the posting
 * reads them whole and the job writes them). */
static inline __attribute__((always_inline)) upc_coll_handle_t
exchange(const struct tupc_reloc_form *fm, tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
         upc_flag_t flags, upc_team_t team)
{
    struct tupc_reloc_call k;
    size_t total;
    int in_place = tupc_is_in_place(src) || (flags & UPC_IN_PLACE);
    if (in_place)
        src = dst; /* a decoy src is not read; dst, the source too, is checked as dst */
    const int both = TUPC_AREA_BLOCKS | TUPC_AREA_ALL;
    tupc_reloc_begin_ds(&k, fm, flags & ~UPC_IN_PLACE, team, nbytes, dst, both, src, both, 0,
                        in_place ? 1 : 2, &total);
#if TUPC_HAVE_MPI
    /* In place: read whole at posting (hier_post.c, team_coll.c). */
    if (TUPC_RELOC_POSTS(fm, k, flags, TUPC_MPI_EXCHANGE, dst))
        return post_across(&k.mpi, TUPC_MPI_EXCHANGE, dst, src, nbytes);
#endif
    TUPC_RELOC_MPI(fm, TUPC_RELOC_MPI_VERB(k, TUPC_MPI_EXCHANGE, dst, src, nbytes, in_place,
                                           tupc_mpi_exchange(&k.mpi, dst, src, nbytes, in_place)));
    const int me = k.me, n = tupc_team_n(k.t);
    if (in_place) {
        /* One member of each pair swaps the two blocks through its stack. */
        for (int j = 0; j < n; j++) {
            if (!tupc_swaps_pair(me, j))
                continue;
            tupc_coll_need(&k.c, j);
            tupc_swap(tupc_reloc_block(k.t, dst, me) + (size_t)j * nbytes,
                      tupc_reloc_block(k.t, dst, j) + (size_t)me * nbytes, nbytes);
        }
        return tupc_reloc_end(&k, TUPC_LEAVE_SYMMETRIC);
    }
    /* n src and n dst areas */
    return tupc_reloc_fill_mine(&k, dst, src, (size_t)me * nbytes, nbytes,
                                tupc_reloc_streams(total, 2 * (size_t)n));
}

TUPC_RELOC_FORMS(exchange, "UPC 1.3 7.4.2.5", "para 5", nbytes *(size_t)THREADS)
