/* Barriers: upc_barrier, split-phase upc_notify/upc_wait with ids, and the
 * anonymous barrier the library itself uses. */
#ifndef TUPC_SYNC_BARRIER_H
#define TUPC_SYNC_BARRIER_H

#include <stdint.h>

int tupc_barrier_init(int threads);

/* Whether a barrier of n threads takes the flat form (barrier.c) rather than
 * a tree (for a team: its counter): TUPC_BARRIER's choice, else while they
 * have a CPU each and are at most FLAT_MAX. The barrier of all threads and
 * each team's (coll/team_barrier.c) choose by it. */
int tupc_barrier_flat_for(int n);
void tupc_barrier_fini(void);

/* Anonymous full barrier of a library call (a collective, upc_all_alloc):
 * only threads in the same function meet in it (not a user's upc_barrier),
 * and their collective calls so far must agree (check/calls.h). `func`
 * names the caller in error messages. */
void tupc_barrier_all(const char *func);

/* Full barrier that also hands `value` from thread 0 to every thread. */
void *tupc_barrier_bcast(const char *func, void *value);

/* Fails when the caller is between upc_notify and upc_wait, where no
 * collective may be called (UPC 1.3 7.4 para 5). Inline: every collective
 * call checks it. */
extern _Thread_local int tupc_notified_ __attribute__((tls_model("initial-exec")));
_Noreturn void tupc_check_not_split_fail(const char *func);
static inline void tupc_check_not_split(const char *func)
{
    if (__builtin_expect(tupc_notified_, 0))
        tupc_check_not_split_fail(func);
}

#endif
