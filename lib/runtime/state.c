/* The state of a run that every module reads: THREADS, MYTHREAD, the run's
 * parameters, which threads have returned, and the stop flag. The bottom
 * layer (docs/design.md, "Layers"): it calls nothing of the library. */
#include "runtime/runtime.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

int tupc_impl_threads;
_Thread_local int tupc_impl_mythread __attribute__((tls_model("initial-exec"))) = -1;
size_t tupc_impl_partition_size;
struct tupc_run_state tupc_run_;
int tupc_checks_ = TUPC_CHECK_DEFAULT;
char *tupc_heap_base_;
struct tupc_run_end tupc_end_;

size_t tupc_parse_size(const char *s)
{
    /* A digit first: strtoull would skip white space and negate a "-1"
     * into a huge size. */
    if (!s || !isdigit((unsigned char)s[0]))
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return 0;
    unsigned shift = 0;
    switch (*end) {
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    default:
        break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v == 0 || v > (SIZE_MAX >> shift))
        return 0;
    return (size_t)v << shift;
}

_Noreturn void tupc_thread_leave(void)
{
    atomic_fetch_add_explicit(&tupc_end_.left, 1, memory_order_release);
    pthread_exit(NULL);
}

void tupc_stop_run(int status)
{
    int expected = 0;
    /* The first stop decides the status; the flag is set after the status is
     * published so that whoever sees the flag (acquire) sees the status. */
    if (atomic_compare_exchange_strong_explicit(&tupc_end_.status, &expected, status ? status : 1,
                                                memory_order_relaxed, memory_order_relaxed)) {
        if (status == 0) /* upc_global_exit(0): keep 0 as the run's status */
            atomic_store_explicit(&tupc_end_.status, INT_MIN, memory_order_relaxed);
    }
    atomic_store_explicit(&tupc_end_.stopping, 1, memory_order_release);
}
