#include "probe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct pp {
    _Alignas(64) _Atomic unsigned ball;
    int rounds;
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
    pin(1);
    for (int i = 0; i < p->rounds; i++) {
        /* Acquire/release: each hit of the ball orders the round trip. */
        while (atomic_load_explicit(&p->ball, memory_order_acquire) != 2u * i + 1)
            ;
        atomic_store_explicit(&p->ball, 2u * i + 2, memory_order_release);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tb_pingpong_ns(int rounds)
{
    enum { BATCH = 100 };
    int batches = rounds / BATCH > 0 ? rounds / BATCH : 1;
    struct pp p = {.rounds = batches * BATCH};
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
                ;
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

struct sw {
    _Alignas(64) _Atomic unsigned turn;
    int rounds;
};

static void *switch_partner(void *arg)
{
    struct sw *w = arg;
    pin(0);
    for (int i = 0; i < w->rounds; i++) {
        /* Relaxed is enough: the turn carries no other data. */
        while (atomic_load_explicit(&w->turn, memory_order_relaxed) != 2u * i + 1)
            sched_yield();
        atomic_store_explicit(&w->turn, 2u * i + 2, memory_order_relaxed);
    }
    return NULL;
}

double tb_switch_ns(int rounds)
{
    enum { BATCH = 100 };
    int batches = rounds / BATCH > 0 ? rounds / BATCH : 1;
    struct sw w = {.rounds = batches * BATCH};
    atomic_init(&w.turn, 0);
    cpu_set_t saved;
    sched_getaffinity(0, sizeof saved, &saved);
    pin(0);
    pthread_t t;
    pthread_create(&t, NULL, switch_partner, &w);
    double *per = malloc(sizeof *per * (size_t)batches);
    for (int b = 0; b < batches; b++) {
        double t0 = now_ns();
        for (int i = b * BATCH; i < (b + 1) * BATCH; i++) {
            atomic_store_explicit(&w.turn, 2u * i + 1, memory_order_relaxed);
            while (atomic_load_explicit(&w.turn, memory_order_relaxed) != 2u * i + 2)
                sched_yield();
        }
        per[b] = (now_ns() - t0) / (2.0 * BATCH); /* two hand-offs a round */
    }
    pthread_join(t, NULL);
    sched_setaffinity(0, sizeof saved, &saved);
    qsort(per, (size_t)batches, sizeof *per, cmp_double);
    double med = per[batches / 2];
    free(per);
    return med;
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
