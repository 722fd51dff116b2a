/* The shared heap across processes: one mapping at the same address in
 * every process, and the MPI-3 window through which the others reach this
 * process's partitions.
 *
 * A pointer-to-shared carries a raw address (upc.h), so the heap must start
 * at the same address everywhere: rank 0 maps it, the others map the same
 * range with MAP_FIXED_NOREPLACE, and where one cannot (something of its
 * own is there) all try again at another. Each process makes only its own
 * threads' partitions accessible; the rest stays PROT_NONE, so that a stray
 * local access to another process's data faults instead of reading zeros.
 *
 * Every transfer completes at its target before the call returns (a flush
 * of that target), so no relaxed put is ever outstanding: upc_fence and the
 * barriers need only MPI_Win_sync, the memory barrier between this
 * process's loads and stores and what arrived through the window. The
 * plain window (MPI_Win_create) is used on one node too: processes there
 * do not share memory directly; MPI's shared-memory transport carries
 * their bytes (docs/design.md says why and what it costs).
 *
 * A window over memory the program mapped (MPI_Win_create) is not memory
 * that another process can reach with its own atomics, so MPI carries a
 * compare-and-swap (and over TCP every transfer) as a message that the
 * target process must be inside MPI to serve. UPC threads compute for as
 * long as they like without calling the library, so each process has a
 * progress thread that calls into MPI every TUPC_MPI_PROGRESS microseconds
 * (20 unless set, 200 on a crowded node; 0: none) while the run lasts. */
#include "mpi/layer.h"

#include "runtime/runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older kernels take it as a hint */
#endif

size_t tupc_mpi_sym_end_;
size_t tupc_mpi_local_from_;

MPI_Win tupc_mpi_win_ = MPI_WIN_NULL;
static int unified; /* the window's memory model is MPI_WIN_UNIFIED */
/* The run's own words, one pair per process: [COUNT] rank 0's count of
 * upc_global_alloc's bytes, [STRICT] the process's strict lock (0 free,
 * else the holder's thread + 1). */
enum { COUNT, STRICT, WORDS };
static MPI_Win words_win = MPI_WIN_NULL;
static uint64_t *words; /* this process's pair */

static pthread_t progress_thread;
static int progress_running;
static _Atomic int progress_stop;
/* Relaxed: a period, read by the progress thread on each tick; the
 * barrier's start may lengthen it once the crowd is known. */
static _Atomic long progress_ns;
static int progress_asked; /* TUPC_MPI_PROGRESS was set */
/* Work of the layers above for a thread that polls (tupc_mpi_idle); the
 * lock keeps it from being cleared while it runs. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static int (*idle_work)(void);

_Atomic unsigned long tupc_mpi_polls_;

static void *progress_main(void *arg)
{
    (void)arg;
    /* Its sleeps as asked, not 50 us longer (the default timer slack):
     * each is the latency of a transfer that needs this process. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    unsigned long seen = 0;
    long ns = atomic_load_explicit(&progress_ns, memory_order_relaxed);
    /* Relaxed: a flag polled until set; the join orders the rest. */
    while (!atomic_load_explicit(&progress_stop, memory_order_relaxed)) {
        /* The tick: the period, or up to ten times it while the UPC threads
         * poll MPI themselves (tupc_mpi_polled). Each tick wakes a thread
         * that takes a CPU from them: at 2 x 2 on 2 CPUs ticks of 200 us
         * made 8-byte exchanges 2-4 times slower than no progress thread
         * at all (ticks of 20 us 10-20 times). MPI progresses every
         * transfer in whichever thread calls it, so their polls serve the
         * other processes as the tick does; once they stop (a
         * computation), the tick is back after one long sleep. Relaxed: a
         * hint; a stale count costs one tick too many or too few. */
        const long period = atomic_load_explicit(&progress_ns, memory_order_relaxed);
        const unsigned long polls = atomic_load_explicit(&tupc_mpi_polls_, memory_order_relaxed);
        if (polls != seen) {
            seen = polls;
            ns = ns * 2 < period * 10 ? ns * 2 : period * 10;
        } else {
            ns = period;
            tupc_mpi_progress();
        }
        pthread_mutex_lock(&idle_lock);
        if (idle_work)
            (void)idle_work();
        pthread_mutex_unlock(&idle_lock);
        nanosleep(&(struct timespec){.tv_sec = ns / 1000000000L, .tv_nsec = ns % 1000000000L},
                  NULL);
    }
    return NULL;
}

void tupc_mpi_regions(size_t part)
{
    /* Halves and quarters of a partition (a whole number of pages), so
     * each region starts 1 KiB-aligned at least. */
    tupc_mpi_sym_end_ = part / 2;
    tupc_mpi_local_from_ = part / 4 * 3;
}

int tupc_mpi_map_heap(size_t len, size_t mine, size_t mine_len, char **base, char *err,
                      size_t errlen)
{
    enum { TRIES = 8 };
    void *tried[TRIES]; /* rank 0's refused ranges, kept so it moves on */
    int ntried = 0, ok = 0;
    uintptr_t at = 0;
    for (int k = 0; k < TRIES && !ok; k++) {
        void *m = MAP_FAILED;
        if (tupc_mpi_rank_ == 0) {
            m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            at = m == MAP_FAILED ? 0 : (uintptr_t)m;
        }
        MPI_Bcast(&at, sizeof at, MPI_BYTE, 0, tupc_mpi_comm_);
        if (!at) {
            snprintf(err, errlen,
                     "cannot map a shared heap of %zu bytes; lower UPC_SHARED_HEAP_SIZE", len);
            break;
        }
        if (tupc_mpi_rank_ != 0) {
            m = mmap((void *)at, len, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
            if (m != MAP_FAILED && m != (void *)at) {
                munmap(m, len);
                m = MAP_FAILED;
            }
        }
        int here = m != MAP_FAILED, all;
        MPI_Allreduce(&here, &all, 1, MPI_INT, MPI_MIN, tupc_mpi_comm_);
        if (all) {
            ok = 1;
        } else if (tupc_mpi_rank_ == 0) {
            tried[ntried++] = m;
        } else if (here) {
            munmap(m, len);
        }
    }
    for (int k = 0; k < ntried; k++)
        munmap(tried[k], len);
    if (!ok) {
        if (at)
            snprintf(err, errlen,
                     "cannot map the shared heap (%zu bytes) at one address in every process "
                     "after %d tries; lower UPC_SHARED_HEAP_SIZE",
                     len, TRIES);
        return -1;
    }
    if (mprotect((char *)at + mine, mine_len, PROT_READ | PROT_WRITE) != 0) {
        munmap((void *)at, len);
        snprintf(err, errlen, "cannot make this process's %zu bytes of the heap writable",
                 mine_len);
        return -1;
    }
    *base = (char *)at;
    return 0;
}

int tupc_mpi_window_start(char *err, size_t len)
{
    size_t part = tupc_impl_partition_size, T = (size_t)tupc_local_threads_;
    char *mine = tupc_heap_base_ + (size_t)tupc_first_thread_ * part;
    /* Displacement unit 1: a target offset is a byte offset in the
     * owner's partitions. */
    if (MPI_Win_create(mine, (MPI_Aint)(part * T), 1, MPI_INFO_NULL, tupc_mpi_comm_,
                       &tupc_mpi_win_) != MPI_SUCCESS ||
        MPI_Win_allocate(WORDS * sizeof(uint64_t), sizeof(uint64_t), MPI_INFO_NULL, tupc_mpi_comm_,
                         &words, &words_win) != MPI_SUCCESS) {
        snprintf(err, len, "cannot create the MPI windows over the shared heap");
        return -1;
    }
    words[COUNT] = words[STRICT] = 0;
    int *model, flag;
    unified = MPI_Win_get_attr(tupc_mpi_win_, MPI_WIN_MODEL, &model, &flag) == MPI_SUCCESS &&
              flag && *model == MPI_WIN_UNIFIED;
    /* Passive target, once for the run: every access is then a get, put
     * or atomic with a flush, and no epoch opens or closes again. */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, tupc_mpi_win_);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, words_win);
    /* Nobody counts or locks before the zeros are in place. */
    MPI_Barrier(tupc_mpi_comm_);
    const char *env = getenv("TUPC_MPI_PROGRESS");
    long us = env && *env ? strtol(env, NULL, 10) : 20;
    progress_asked = env && *env;
    atomic_store_explicit(&progress_ns, (us > 999999 ? 999999 : us) * 1000, memory_order_relaxed);
    atomic_store_explicit(&progress_stop, 0, memory_order_relaxed);
    progress_running = us > 0 && pthread_create(&progress_thread, NULL, progress_main, NULL) == 0;
    return 0;
}

void tupc_mpi_window_stop(void)
{
    if (tupc_mpi_win_ == MPI_WIN_NULL)
        return;
    /* Collective: no process frees its window while another may still
     * reach it. */
    MPI_Barrier(tupc_mpi_comm_);
    if (progress_running) {
        atomic_store_explicit(&progress_stop, 1, memory_order_relaxed);
        pthread_join(progress_thread, NULL);
        progress_running = 0;
    }
    MPI_Win_unlock_all(tupc_mpi_win_);
    MPI_Win_unlock_all(words_win);
    MPI_Win_free(&tupc_mpi_win_);
    MPI_Win_free(&words_win);
}

/* Where thread t's byte at addr is: its process's rank and the offset in
 * that process's window. */
static int target(uint32_t t, const char *addr, MPI_Aint *disp)
{
    int rank = tupc_mpi_rank_of(t);
    const char *start =
        tupc_heap_base_ + (size_t)rank * (size_t)tupc_local_threads_ * tupc_impl_partition_size;
    *disp = (MPI_Aint)(addr - start);
    return rank;
}

/* MPI counts are ints: transfers go in pieces of at most 1 GiB. */
#define PIECE ((size_t)1 << 30)

void tupc_mpi_get(void *dst, uint32_t t, const char *addr, size_t n)
{
    MPI_Aint disp;
    int rank = target(t, addr, &disp);
    for (size_t done = 0; done < n; done += PIECE) {
        int k = (int)(n - done < PIECE ? n - done : PIECE);
        MPI_Get((char *)dst + done, k, MPI_BYTE, rank, disp + (MPI_Aint)done, k, MPI_BYTE,
                tupc_mpi_win_);
    }
    MPI_Win_flush(rank, tupc_mpi_win_);
}

void tupc_mpi_put(uint32_t t, char *addr, const void *src, size_t n)
{
    MPI_Aint disp;
    int rank = target(t, addr, &disp);
    for (size_t done = 0; done < n; done += PIECE) {
        int k = (int)(n - done < PIECE ? n - done : PIECE);
        MPI_Put((const char *)src + done, k, MPI_BYTE, rank, disp + (MPI_Aint)done, k, MPI_BYTE,
                tupc_mpi_win_);
    }
    MPI_Win_flush(rank, tupc_mpi_win_);
}

uint64_t tupc_mpi_cas(uint32_t t, char *addr, uint64_t expected, uint64_t desired)
{
    MPI_Aint disp;
    int rank = target(t, addr, &disp);
    uint64_t old;
    MPI_Compare_and_swap(&desired, &expected, &old, MPI_UINT64_T, rank, disp, tupc_mpi_win_);
    MPI_Win_flush(rank, tupc_mpi_win_);
    return old;
}

void tupc_mpi_sync(void)
{
    /* seq_cst: a fence orders every access of the thread (UPC 1.3
     * 5.1.2.3), those of its own process's memory included. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    /* Every transfer is complete already (each is flushed); what remains
     * is this process's view of what arrived in its window: in the
     * unified model (MPI 3.1 11.4) the window is the memory, and the
     * fence above is the memory barrier that MPI_Win_sync would be. */
    if (!unified)
        MPI_Win_sync(tupc_mpi_win_);
}

void tupc_mpi_fence(void)
{
    tupc_mpi_sync();
    tupc_mpi_progress();
}

void tupc_mpi_progress(void)
{
    /* A transfer to this process may need this process inside MPI to land
     * (UCX over TCP, an atomic without hardware support): a thread that
     * waits on its own memory (a strict flag) must let MPI progress. */
    /* The probe for another process's stop progresses MPI as any call. */
    tupc_mpi_stop_poll();
}

void tupc_mpi_progress_crowded(void)
{
    /* Where more threads than CPUs share the node, each tick takes a CPU
     * from a UPC thread: at 2 x 2 on 2 CPUs every 20 us made an 8-byte
     * broadcast 3-30 times slower than every 200 us, and 4 x 1 gets and
     * barriers 1.4 and 3-5 times (docs/design.md). The ticks there serve
     * transfers to a process that computes, whose threads wait for a CPU
     * anyway. */
    if (!progress_asked)
        atomic_store_explicit(&progress_ns, 200 * 1000L, memory_order_relaxed);
}

void tupc_mpi_set_idle_work(int (*work)(void))
{
    pthread_mutex_lock(&idle_lock);
    idle_work = work;
    pthread_mutex_unlock(&idle_lock);
}

static void idle_unlock(void *arg)
{
    (void)arg;
    pthread_mutex_unlock(&idle_lock);
}

void tupc_mpi_idle(void)
{
    tupc_mpi_progress();
    /* Not while the progress thread (or another idler) runs it. */
    if (pthread_mutex_trylock(&idle_lock) != 0)
        return;
    /* A UPC thread leaves the run with pthread_exit where the work fails
     * (tupc_fail): the lock must not go with it, or the progress thread and
     * the run's end would wait for it forever. */
    pthread_cleanup_push(idle_unlock, NULL);
    if (idle_work)
        (void)idle_work();
    pthread_cleanup_pop(1);
}

size_t tupc_mpi_global_offset(size_t len)
{
    uint64_t add = len, old;
    MPI_Fetch_and_op(&add, &old, MPI_UINT64_T, 0, COUNT, MPI_SUM, words_win);
    MPI_Win_flush(0, words_win);
    size_t room = tupc_mpi_local_from_ - tupc_mpi_sym_end_;
    /* A block that did not fit stays counted: the region is full anyway. */
    if (old > room || len > room - old)
        return SIZE_MAX;
    return tupc_mpi_sym_end_ + (size_t)old;
}

uint64_t tupc_mpi_strict_cas(int rank, uint64_t expected, uint64_t desired)
{
    uint64_t old;
    MPI_Compare_and_swap(&desired, &expected, &old, MPI_UINT64_T, rank, STRICT, words_win);
    MPI_Win_flush(rank, words_win);
    return old;
}
