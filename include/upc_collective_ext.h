/* upc_collective_ext.h: the Extended Collective Operations 0.3 (teams, the
 * _x relocalizations, UPC_IN_PLACE, UPC_PUSH and UPC_PULL, upc_all_reduce_allT
 * and the exclusive prefix reduction), and tupc's team functions. docs/extended.md lists where this
 * C form departs from the specification's text, and why. */
#ifndef UPC_COLLECTIVE_EXT_H
#define UPC_COLLECTIVE_EXT_H

#include <upc.h>
#include <upc_collective.h>
#include <upc_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What libtupc exports: it is built with hidden visibility (and a version
 * script, lib/libtupc.map), so its internals stay out of programs' sight. */
#pragma GCC visibility push(default)

#define __UPC_COLLECTIVE_EXT__ 1

/* ---- Constants (0.3 section 5.2) ---------------------------------------- */

/* Bits OR-ed into a mode beside the sync flags of upc_types.h. */
#define UPC_PUSH 0x40                     /* source threads write the data */
#define UPC_PULL 0x80                     /* destination threads read it */
#define UPC_IN_PLACE 0x100                /* also accepted as the src argument */
#define UPC_ASYNC 0x200                   /* a posting call: returns a handle */
#define UPC_EXCLUSIVE_PREFIX_REDUCE 0x400 /* upc_all_prefix_reduceT: dst[i] = src[0..i-1] */

/* ---- Teams (0.3 section 4 item 9) --------------------------------------- */

/* A team of threads, by handle. 0.3 names only UPC_TEAM_ALL; tupc_team_split
 * makes the others, as MPI_Comm_split does. */
typedef int upc_team_t;
#define UPC_TEAM_ALL 0
/* What tupc_team_split gives a thread that passes a negative colour. */
#define TUPC_TEAM_NONE (-1)

/* Collective over the members of `parent`: the members that pass the same
 * colour >= 0 form a new team, ranked by key and then by their rank in
 * parent, and each gets its handle in *newteam; a negative colour joins no
 * team (*newteam = TUPC_TEAM_NONE). Teams nest. */
void tupc_team_split(upc_team_t parent, int colour, int key, upc_team_t *newteam);

/* Collective over the members of *team: ends the team and sets *team to
 * TUPC_TEAM_NONE. Every call on the team must be complete in every member. */
void tupc_team_free(upc_team_t *team);

/* The number of members, the caller's rank (0..size-1), the thread of a
 * rank, and the rank of a thread (-1 if it is not a member). */
int tupc_team_size(upc_team_t team);
int tupc_team_rank(upc_team_t team);
int tupc_team_thread(upc_team_t team, int rank);
int tupc_team_rank_of(upc_team_t team, int thread);

/* ---- Handles (0.3 section 5.4) ------------------------------------------ */

/* The result of an _x call, and of a team form (tupc extension). Without UPC_ASYNC it is
 * UPC_HANDLE_COMPLETE and may be ignored: one C function stands for the spec's two synopses. */
typedef struct tupc_coll_request *upc_coll_handle_t;
#define UPC_HANDLE_COMPLETE ((upc_coll_handle_t)0)

/* A barrier of the members of team (collective over them). */
void tupc_team_barrier(upc_team_t team);

/* The 1.3 relocalizations on a team (tupc extensions): THREADS read as the
 * team's size and thread i as rank i; the block of rank r is the one in the
 * partition of its thread (see tupc_team_broadcast(3)). With UPC_ASYNC in
 * flags (on any team, UPC_TEAM_ALL too) the call posts and returns a handle
 * to complete; otherwise it returns UPC_HANDLE_COMPLETE. */
upc_coll_handle_t tupc_team_broadcast(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                      upc_flag_t flags, upc_team_t team);
upc_coll_handle_t tupc_team_scatter(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                    upc_flag_t flags, upc_team_t team);
upc_coll_handle_t tupc_team_gather(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                   upc_flag_t flags, upc_team_t team);
upc_coll_handle_t tupc_team_gather_all(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                       upc_flag_t flags, upc_team_t team);
upc_coll_handle_t tupc_team_exchange(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                     upc_flag_t flags, upc_team_t team);
upc_coll_handle_t tupc_team_permute(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
                                    size_t nbytes, upc_flag_t flags, upc_team_t team);

/* upc_all_reduceT and upc_all_prefix_reduceT on a team (tupc extensions):
 * the arrays as in 1.3, the work and the synchronization among the members
 * (see tupc_team_reduce(3)); UPC_ASYNC as for the relocalizations. */
#define TUPC_DECLARE_TEAM_REDUCE_(T, TYPE)                                                         \
    upc_coll_handle_t tupc_team_reduce##T(                                                         \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t flags, upc_team_t team);                              \
    upc_coll_handle_t tupc_team_prefix_reduce##T(                                                  \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t flags, upc_team_t team);
TUPC_DECLARE_TEAM_REDUCE_(C, signed char)
TUPC_DECLARE_TEAM_REDUCE_(UC, unsigned char)
TUPC_DECLARE_TEAM_REDUCE_(S, signed short)
TUPC_DECLARE_TEAM_REDUCE_(US, unsigned short)
TUPC_DECLARE_TEAM_REDUCE_(I, signed int)
TUPC_DECLARE_TEAM_REDUCE_(UI, unsigned int)
TUPC_DECLARE_TEAM_REDUCE_(L, signed long)
TUPC_DECLARE_TEAM_REDUCE_(UL, unsigned long)
TUPC_DECLARE_TEAM_REDUCE_(F, float)
TUPC_DECLARE_TEAM_REDUCE_(D, double)
TUPC_DECLARE_TEAM_REDUCE_(LD, long double)
#undef TUPC_DECLARE_TEAM_REDUCE_

/* ---- Extended computation (0.3 section 5.5) ----------------------------- */

/* In C++, C's _Bool is bool, and _Complex is a GNU extension that g++ and
 * clang++ take with __extension__ (same layout and calling convention). */
#ifdef __cplusplus
#define TUPC_BOOL_ bool
#define TUPC_EXTENSION_ __extension__
#else
#define TUPC_BOOL_ _Bool
#define TUPC_EXTENSION_
#endif

/* dst[i] = src[0] op ... op src[nelems-1] for every i < THREADS, all the
 * same bits, where dst is treated as `shared [1] TYPE [THREADS]` with
 * affinity to thread 0 (its phase ignored) and src as in upc_all_reduceT;
 * the 17 types of 0.3 5.5.1 (see upc_all_reduce_all(3)). The team form (a
 * tupc extension) writes the element of each member's thread. */
#define TUPC_DECLARE_REDUCE_ALL_(T, TYPE)                                                          \
    TUPC_EXTENSION_ void upc_all_reduce_all##T(tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op,      \
                                               size_t nelems, size_t blk_size,                     \
                                               TYPE (*func)(TYPE, TYPE), upc_flag_t mode);         \
    TUPC_EXTENSION_ upc_coll_handle_t tupc_team_reduce_all##T(                                     \
        tupc_sptr_t dst, tupc_sptr_t src, upc_op_t op, size_t nelems, size_t blk_size,             \
        TYPE (*func)(TYPE, TYPE), upc_flag_t mode, upc_team_t team);
TUPC_DECLARE_REDUCE_ALL_(C, signed char)
TUPC_DECLARE_REDUCE_ALL_(UC, unsigned char)
TUPC_DECLARE_REDUCE_ALL_(S, signed short)
TUPC_DECLARE_REDUCE_ALL_(US, unsigned short)
TUPC_DECLARE_REDUCE_ALL_(I, signed int)
TUPC_DECLARE_REDUCE_ALL_(UI, unsigned int)
TUPC_DECLARE_REDUCE_ALL_(L, signed long)
TUPC_DECLARE_REDUCE_ALL_(UL, unsigned long)
TUPC_DECLARE_REDUCE_ALL_(F, float)
TUPC_DECLARE_REDUCE_ALL_(D, double)
TUPC_DECLARE_REDUCE_ALL_(LD, long double)
TUPC_DECLARE_REDUCE_ALL_(LL, long long)
TUPC_DECLARE_REDUCE_ALL_(ULL, unsigned long long)
TUPC_DECLARE_REDUCE_ALL_(CX, _Complex float)
TUPC_DECLARE_REDUCE_ALL_(DX, _Complex double)
TUPC_DECLARE_REDUCE_ALL_(LDX, _Complex long double)
TUPC_DECLARE_REDUCE_ALL_(B, TUPC_BOOL_)
#undef TUPC_DECLARE_REDUCE_ALL_

/* upc_all_sort on a team (tupc extension): the array as in 1.3, the work
 * and the synchronization among the members (see tupc_team_sort(3)). */
void tupc_team_sort(tupc_sptr_t A, size_t elem_size, size_t nelems, size_t blk_size,
                    int (*func)(tupc_sptr_t, tupc_sptr_t), upc_flag_t flags, upc_team_t team);

/* ---- Completion (0.3 section 5.4) ---------------------------------------- */

/* Each completes only handles of the calling thread. upc_wait(handle) is
 * the macro below (upc_wait() and upc_wait(id) stay the barrier's); the
 * functions that take an array set each handle they complete to
 * UPC_HANDLE_COMPLETE, while upc_wait and upc_test, which get the handle
 * by value, release its operation (see docs/extended.md). */
void tupc_wait_handle(upc_coll_handle_t handle);
int upc_test(upc_coll_handle_t handle);
int upc_waitany(int count, upc_coll_handle_t *handles);
int upc_testany(int count, upc_coll_handle_t *handles);
void upc_waitall(int count, upc_coll_handle_t *handles);
int upc_testall(int count, upc_coll_handle_t *handles);
int upc_waitsome(int count, upc_coll_handle_t *handles);
int upc_testsome(int count, upc_coll_handle_t *handles);
int upc_get_status(upc_coll_handle_t handle);

/* ---- Extended relocalization (0.3 section 5.3) --------------------------- */

/* dst and src point to shared arrays of pointers-to-shared (tupc_sptr_t),
 * nbytes and perm to shared arrays of size_t and int; each is indexed by
 * rank in team. Block sizes: 1 for arrays of team-size entries, THREADS for
 * those of size * size entries (gather_all_x's dst, exchange_x's dst, src
 * and nbytes), as in the spec's examples. */
upc_coll_handle_t upc_all_broadcast_x(tupc_sptr_t dst, tupc_sptr_t src, size_t nbytes,
                                      upc_flag_t mode, upc_team_t team);
upc_coll_handle_t upc_all_scatter_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                    upc_flag_t mode, upc_team_t team);
upc_coll_handle_t upc_all_gather_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                   upc_flag_t mode, upc_team_t team);
upc_coll_handle_t upc_all_gather_all_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                       upc_flag_t mode, upc_team_t team);
upc_coll_handle_t upc_all_exchange_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t nbytes,
                                     upc_flag_t mode, upc_team_t team);
upc_coll_handle_t upc_all_permute_x(tupc_sptr_t dst, tupc_sptr_t src, tupc_sptr_t perm,
                                    tupc_sptr_t nbytes, upc_flag_t mode, upc_team_t team);

/* ---- UPC_IN_PLACE as a src argument (0.3 section 5.2 item 2) ------------ */

/* The pointer-to-shared that stands for UPC_IN_PLACE passed as src. */
#ifdef __cplusplus
#define TUPC_IN_PLACE_SPTR (tupc_sptr_t{nullptr, 0xffffffffu, 0xffffffffu})
#else
#define TUPC_IN_PLACE_SPTR ((tupc_sptr_t){0, 0xffffffffu, 0xffffffffu})
#endif
static inline int tupc_is_in_place(tupc_sptr_t p)
{
    return p.addr == 0 && p.thread == 0xffffffffu && p.phase == 0xffffffffu;
}

#ifdef __cplusplus
}
#endif

/* What the macros below need. */
#include <tupc_impl.h>

/* The functions that take UPC_IN_PLACE for src (the exchanges, permutes
 * and prefix reductions), as macros that turn it into
 * TUPC_IN_PLACE_SPTR ((f)(...) still names the function). Not inside the
 * library, which defines the functions. */
#ifndef TUPC_BUILDING_LIBTUPC
#define upc_all_exchange(dst, src, nbytes, flags)                                                  \
    upc_all_exchange(dst, tupc_impl_src(src), nbytes, flags)
#define upc_all_permute(dst, src, perm, nbytes, flags)                                             \
    upc_all_permute(dst, tupc_impl_src(src), perm, nbytes, flags)
#define upc_all_exchange_x(dst, src, nbytes, mode, team)                                           \
    upc_all_exchange_x(dst, tupc_impl_src(src), nbytes, mode, team)
#define upc_all_permute_x(dst, src, perm, nbytes, mode, team)                                      \
    upc_all_permute_x(dst, tupc_impl_src(src), perm, nbytes, mode, team)
#define tupc_team_exchange(dst, src, nbytes, flags, team)                                          \
    tupc_team_exchange(dst, tupc_impl_src(src), nbytes, flags, team)
#define tupc_team_permute(dst, src, perm, nbytes, flags, team)                                     \
    tupc_team_permute(dst, tupc_impl_src(src), perm, nbytes, flags, team)
#define tupc_team_prefix_reduceC(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceC(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceUC(dst, src, op, n, blk, f, fl, team)                               \
    tupc_team_prefix_reduceUC(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceS(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceS(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceUS(dst, src, op, n, blk, f, fl, team)                               \
    tupc_team_prefix_reduceUS(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceI(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceI(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceUI(dst, src, op, n, blk, f, fl, team)                               \
    tupc_team_prefix_reduceUI(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceL(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceL(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceUL(dst, src, op, n, blk, f, fl, team)                               \
    tupc_team_prefix_reduceUL(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceF(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceF(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceD(dst, src, op, n, blk, f, fl, team)                                \
    tupc_team_prefix_reduceD(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define tupc_team_prefix_reduceLD(dst, src, op, n, blk, f, fl, team)                               \
    tupc_team_prefix_reduceLD(dst, tupc_impl_src(src), op, n, blk, f, fl, team)
#define upc_all_prefix_reduceC(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceC(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceUC(dst, src, op, n, blk, f, fl)                                       \
    upc_all_prefix_reduceUC(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceS(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceS(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceUS(dst, src, op, n, blk, f, fl)                                       \
    upc_all_prefix_reduceUS(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceI(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceI(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceUI(dst, src, op, n, blk, f, fl)                                       \
    upc_all_prefix_reduceUI(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceL(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceL(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceUL(dst, src, op, n, blk, f, fl)                                       \
    upc_all_prefix_reduceUL(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceF(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceF(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceD(dst, src, op, n, blk, f, fl)                                        \
    upc_all_prefix_reduceD(dst, tupc_impl_src(src), op, n, blk, f, fl)
#define upc_all_prefix_reduceLD(dst, src, op, n, blk, f, fl)                                       \
    upc_all_prefix_reduceLD(dst, tupc_impl_src(src), op, n, blk, f, fl)
#endif

/* upc_wait(): the barrier's; upc_wait(x): a handle's completion, or the
 * barrier's with id x (tupc_impl.h). */
#undef upc_wait
#define upc_wait(...) TUPC_IMPL_CAT(tupc_impl_waitsel_, TUPC_IMPL_ISEMPTY(__VA_ARGS__))(__VA_ARGS__)

#pragma GCC visibility pop

#endif
