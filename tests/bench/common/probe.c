#include "probe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Two threads that pass a ball: the partner on CPU `cpu`, each waiting
 * for its turn by spinning or, with `yield`, by giving its CPU away. */
struct pp {
    _Alignas(64) _Atomic unsigned ball;
    int rounds, cpu, yield;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int k)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2)
        return;
    int seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set) && seen++ == k) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            pthread_setaffinity_np(pthread_self(), sizeof one, &one);
            return;
        }
}

static void *responder(void *arg)
{
    struct pp *p = arg;
    pin(p->cpu);
    for (int i = 0; i < p->rounds; i++) {
        /* Acquire/release: each hit of the ball orders the round trip. */
        while (atomic_load_explicit(&p->ball, memory_order_acquire) != 2u * i + 1)
            if (p->yield)
                sched_yield();
        atomic_store_explicit(&p->ball, 2u * i + 2, memory_order_release);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median over batches of a round trip of the ball, in ns, the caller
 * on CPU 0 and the partner on `cpu`. */
static double round_trip_ns(int rounds, int cpu, int yield)
{
    enum { BATCH = 100 };
    int batches = rounds / BATCH > 0 ? rounds / BATCH : 1;
    struct pp p = {.rounds = batches * BATCH, .cpu = cpu, .yield = yield};
    atomic_init(&p.ball, 0);
    cpu_set_t saved;
    sched_getaffinity(0, sizeof saved, &saved);
    pthread_t t;
    pthread_create(&t, NULL, responder, &p);
    pin(0);
    double *per = malloc(sizeof *per * (size_t)batches);
    for (int b = 0; b < batches; b++) {
        double t0 = now_ns();
        for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
            atomic_store_explicit(&p.ball, 2u * i + 1, memory_order_release);
            while (atomic_load_explicit(&p.ball, memory_order_acquire) != 2u * i + 2)
                if (yield)
                    sched_yield();
        }
        per[b] = (now_ns() - t0) / BATCH;
    }
    pthread_join(t, NULL);
    sched_setaffinity(0, sizeof saved, &saved);
    qsort(per, (size_t)batches, sizeof *per, cmp_double);
    double med = per[batches / 2];
    free(per);
    return med;
}

double tb_pingpong_ns(int rounds)
{
    return round_trip_ns(rounds, 1, 0);
}

double tb_switch_ns(int rounds)
{
    return round_trip_ns(rounds, 0, 1) / 2; /* two hand-offs a round trip */
}

const char *tb_phase(double rtt_ns)
{
    return rtt_ns < 150.0 ? "fast" : "slow";
}

double tb_probe_print(const char *label)
{
    double rtt = tb_pingpong_ns(20000);
    printf("# probe %s: cache-line round trip %.0f ns (%s phase)\n", label, rtt, tb_phase(rtt));
    fflush(stdout);
    return rtt;
}
