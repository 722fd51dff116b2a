/* tupcrun: runs a tupc program on N THREADS, as upcrun and mpirun run
 * theirs. Its options come before the program and never reach the
 * program's argv: it sets the environment the library reads at the start of
 * a run (README, "Environment variables") and executes the program. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tupc_version.h>

static void usage(FILE *f)
{
    fputs("usage: tupcrun [-n N] [--heap SIZE] [--placement compact|scatter|none]\n"
          "               [--trace FILE] [--checks LEVEL] [--verbose] [--] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM, a tupc program (one that links tupc-main), on N THREADS.\n"
          "Options stop at PROGRAM; everything after it is PROGRAM's own.\n"
          "\n"
          "  -n N, -nN, -np N   THREADS, 1 to 1024 (sets UPC_THREADS; default: the\n"
          "                     environment's UPC_THREADS, else one per CPU)\n"
          "  --heap SIZE        bytes per thread's heap partition, with K, M or G\n"
          "                     (sets UPC_SHARED_HEAP_SIZE; default 64M)\n"
          "  --placement P      thread pinning: compact (default), scatter or none\n"
          "                     (sets TUPC_PLACEMENT)\n"
          "  --trace FILE       write a timeline of every thread's calls and waits to FILE,\n"
          "                     Chrome trace-event JSON for Perfetto or chrome://tracing\n"
          "                     (sets TUPC_TRACE; default none)\n"
          "  --checks LEVEL     what the collectives verify: off, default or full\n"
          "                     (sets TUPC_CHECKS; default: default)\n"
          "  --verbose          print the placement at the start of the run (TUPC_VERBOSE;\n"
          "                     default off)\n"
          "  -h, --help         this text\n"
          "  --version          tupc's version\n"
          "A long option's value may follow it (--heap 64M) or an '=' (--heap=64M).\n"
          "\n"
          "The environment variables the library reads, which tupcrun passes on:\n"
          "  UPC_THREADS, UPC_SHARED_HEAP_SIZE, TUPC_PLACEMENT, TUPC_TRACE, TUPC_STATS,\n"
          "  TUPC_HANG_TIMEOUT, TUPC_CHECKS, TUPC_VERBOSE, TUPC_BARRIER, TUPC_HUGEPAGES,\n"
          "  TUPC_STREAM_MIN, TUPC_SPIN, TUPC_YIELD, TUPC_NAP, TUPC_FENCE, TUPC_SIMD\n"
          "  (see the README and tupc(7)).\n",
          f);
}

static int fail(const char *fmt, const char *arg)
{
    fprintf(stderr, "tupcrun: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}

static int count_ok(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return !errno && end != s && *end == '\0' && v >= 1 && v <= 1024;
}

enum { OPT_HEAP = 256, OPT_PLACEMENT, OPT_TRACE, OPT_CHECKS, OPT_VERBOSE, OPT_VERSION };

int main(int argc, char **argv)
{
    /* getopt_long_only, so that upcrun's and mpirun's -np is a long
     * option while -n4 and -h stay short ones; the leading '+' stops at
     * the program, whose options are its own. */
    static const struct option longs[] = {
        {"np", required_argument, NULL, 'n'},
        {"heap", required_argument, NULL, OPT_HEAP},
        {"placement", required_argument, NULL, OPT_PLACEMENT},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"checks", required_argument, NULL, OPT_CHECKS},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"version", no_argument, NULL, OPT_VERSION},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0; /* our messages name the option and what it expects */
    int c;
    while ((c = getopt_long_only(argc, argv, "+:n:h", longs, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("tupcrun (tupc) %s\n", TUPC_VERSION_STRING);
            return 0;
        case 'n':
            if (!count_ok(v))
                return fail("-n \"%s\": expected a number of threads from 1 to 1024", v);
            setenv("UPC_THREADS", v, 1);
            break;
        case OPT_HEAP:
            setenv("UPC_SHARED_HEAP_SIZE", v, 1); /* the run checks it */
            break;
        case OPT_PLACEMENT:
            if (strcmp(v, "compact") && strcmp(v, "scatter") && strcmp(v, "none"))
                return fail("--placement \"%s\": expected compact, scatter or none", v);
            setenv("TUPC_PLACEMENT", v, 1);
            break;
        case OPT_TRACE:
            if (!*v)
                return fail("%s", "--trace needs a file name");
            setenv("TUPC_TRACE", v, 1); /* the run opens it, or says why not */
            break;
        case OPT_CHECKS:
            if (strcmp(v, "off") && strcmp(v, "default") && strcmp(v, "full"))
                return fail("--checks \"%s\": expected off, default or full", v);
            setenv("TUPC_CHECKS", v, 1);
            break;
        case OPT_VERBOSE:
            setenv("TUPC_VERBOSE", "1", 1);
            break;
        case ':':
            return fail("%s needs a value", argv[optind - 1]);
        default:
            return fail("unknown option %s", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return fail("%s", "no program to run");
    execvp(argv[optind], argv + optind);
    fprintf(stderr, "tupcrun: cannot run %s: %s\n", argv[optind], strerror(errno));
    return 127;
}
