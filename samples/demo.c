/* The tour of the UPC collectives (./dev.sh demo runs it on 4 THREADS).
 * For each collective: the specification's defining sentence, every
 * thread's blocks before and after one call, drawn as boxes, and what the
 * call's sync mode lets a thread touch right after it returns.
 * Run: demo -n 4 [--only NAME] [--step], the options in any order: its own
 * main reads them all, then starts the run with tupc_run_opts.
 *
 * The sections are in tour/: reloc.c (UPC 1.3 7.4.2), compute.c (7.4.3 and
 * the sort of Collective Operations 1.0), ext.c (Extended Collectives 0.3);
 * draw.c draws the pictures. */
#include "tour/tour.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name;
    void (*run)(void);
} sections[] = {
    {"upc_all_broadcast", tour_broadcast},
    {"upc_all_scatter", tour_scatter},
    {"upc_all_gather", tour_gather},
    {"upc_all_gather_all", tour_gather_all},
    {"upc_all_exchange", tour_exchange},
    {"upc_all_permute", tour_permute},
    {"upc_all_reduceI", tour_reduce},
    {"upc_all_prefix_reduceI", tour_prefix_reduce},
    {"upc_all_sort", tour_sort},
    {"upc_all_broadcast_x", tour_broadcast_x},
    {"upc_all_scatter_x", tour_scatter_x},
    {"upc_all_gather_x", tour_gather_x},
    {"upc_all_gather_all_x", tour_gather_all_x},
    {"upc_all_exchange_x", tour_exchange_x},
    {"upc_all_permute_x", tour_permute_x},
    {"tupc_team_broadcast", tour_team},
};
#define NSECTIONS (int)(sizeof sections / sizeof sections[0])

static void usage(FILE *f)
{
    fputs("usage: demo [-n N] [--only NAME] [--step]\n"
          "The tour of the UPC collectives on N UPC threads: for each one, the spec's\n"
          "defining sentence, every thread's blocks before and after a call, and what\n"
          "its sync mode lets a thread touch right after the call.\n"
          "\n"
          "  -n N          THREADS (default $UPC_THREADS, else one per CPU;\n"
          "                ./dev.sh demo runs 4)\n"
          "  --only NAME   show one collective only\n"
          "  --step        wait for Enter between collectives\n"
          "  -h, --help    print this text and exit\n"
          "\n"
          "Colour when standard output is a terminal and NO_COLOR is unset or empty.\n"
          "NAME is one of:\n",
          f);
    for (int i = 0; i < NSECTIONS; i++)
        fprintf(f, "%s%s", i % 3 ? " " : "  ", sections[i].name);
    fputs("\n", f);
}

/* Reads the options, in any order, into *threads (0: the library's
 * default), *only (a section, or -1 for all) and *step; returns -1 to run
 * the tour, else the exit status. */
static int parse(int argc, char **argv, int *threads, int *only, int *step)
{
    for (int i = 1; i < argc; i++) {
        const char *bad = NULL;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--step") == 0) {
            *step = 1;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            *threads = (int)n;
            if (*end || end == argv[i] || n < 1 || n > TUPC_MAX_THREADS)
                bad = "-n: expected a number of threads from 1 to 1024, not";
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            i++;
            *only = -1;
            for (int k = 0; k < NSECTIONS; k++)
                if (strcmp(argv[i], sections[k].name) == 0)
                    *only = k;
            if (*only < 0)
                bad = "no collective of that name in the tour:";
        } else {
            bad = strcmp(argv[i], "--only") == 0 || strcmp(argv[i], "-n") == 0
                      ? "a value must follow"
                      : "unknown option";
        }
        if (bad) {
            fprintf(stderr, "demo: %s %s\n", bad, argv[i]);
            usage(stderr);
            return 2;
        }
    }
    return -1;
}

/* Thread 0 waits for a line on stdin; the others wait at the barrier. */
static void wait_for_enter(void)
{
    if (MYTHREAD == 0) {
        printf("\n[Enter: next collective] ");
        fflush(stdout);
        for (int c = getchar(); c != '\n' && c != EOF;)
            c = getchar();
    }
    upc_barrier();
}

static int only = -1, step; /* -1: every section */

static int tour(void *arg)
{
    (void)arg;
    /* Colour only for a terminal that shows it, and not against the
     * user's NO_COLOR (https://no-color.org: set and not empty). */
    const char *no_colour = getenv("NO_COLOR"), *term = getenv("TERM");
    /* Only thread 0 prints, so only it decides (a store by every thread
     * would be a data race, which ThreadSanitizer reports). */
    if (MYTHREAD == 0)
        tour_colour = isatty(STDOUT_FILENO) && !(no_colour && no_colour[0]) &&
                      !(term && strcmp(term, "dumb") == 0);
    if (MYTHREAD == 0) {
        printf("The tour of the UPC collectives on %d THREADS. Each picture has a row per\n"
               "thread: t.k is element k of thread t's src (on a terminal, in thread t's\n"
               "colour), \".\" an empty element, and [ ] the blocks that the call reads or\n"
               "writes. The reductions' pictures hold the values themselves.\n",
               THREADS);
        fflush(stdout);
    }
    for (int i = 0, shown = 0; i < NSECTIONS; i++) {
        if (only >= 0 && i != only)
            continue;
        if (step && shown++)
            wait_for_enter();
        sections[i].run();
    }
    return 0;
}

int main(int argc, char **argv)
{
    tupc_options o = {0};
    int status = parse(argc, argv, &o.threads, &only, &step);
    if (status >= 0)
        return status;
    return tupc_run_opts(&o, tour, NULL) & 0xff;
}
