/* tupcrun: runs a tupc program on N THREADS, as upcrun and mpirun run
 * theirs. Its options come before the program and never reach the
 * program's argv: it sets the environment the library reads at the start of
 * a run (README, "Environment variables") and executes the program. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: tupcrun [-n N] [--heap SIZE] [--placement compact|scatter|none]\n"
          "               [--trace FILE] [--checks LEVEL] [--verbose] [--] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM, a tupc program (one that links tupc-main), on N THREADS.\n"
          "Options stop at PROGRAM; everything after it is PROGRAM's own.\n"
          "\n"
          "  -n N, -nN          THREADS, 1 to 1024 (sets UPC_THREADS; default: the\n"
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

int main(int argc, char **argv)
{
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "-n") == 0 || (strncmp(a, "-n", 2) == 0 && a[2])) {
            const char *n = a[2] ? a + 2 : v;
            if (!n)
                return fail("%s needs a number of threads", a);
            if (!count_ok(n))
                return fail("-n \"%s\": expected a number of threads from 1 to 1024", n);
            setenv("UPC_THREADS", n, 1);
            i += a[2] ? 0 : 1;
        } else if (strcmp(a, "--heap") == 0) {
            if (!v)
                return fail("%s needs a size such as 64M", a);
            setenv("UPC_SHARED_HEAP_SIZE", v, 1); /* the run checks it */
            i++;
        } else if (strcmp(a, "--placement") == 0) {
            if (!v || (strcmp(v, "compact") && strcmp(v, "scatter") && strcmp(v, "none")))
                return fail("--placement \"%s\": expected compact, scatter or none", v ? v : "");
            setenv("TUPC_PLACEMENT", v, 1);
            i++;
        } else if (strcmp(a, "--trace") == 0) {
            if (!v || !*v)
                return fail("%s needs a file name", a);
            setenv("TUPC_TRACE", v, 1); /* the run opens it, or says why not */
            i++;
        } else if (strcmp(a, "--checks") == 0) {
            if (!v || (strcmp(v, "off") && strcmp(v, "default") && strcmp(v, "full")))
                return fail("--checks \"%s\": expected off, default or full", v ? v : "");
            setenv("TUPC_CHECKS", v, 1);
            i++;
        } else if (strcmp(a, "--verbose") == 0) {
            setenv("TUPC_VERBOSE", "1", 1);
        } else if (a[0] == '-') {
            return fail("unknown option %s", a);
        } else {
            break;
        }
    }
    if (i >= argc)
        return fail("%s", "no program to run");
    execvp(argv[i], argv + i);
    fprintf(stderr, "tupcrun: cannot run %s: %s\n", argv[i], strerror(errno));
    return 127;
}
