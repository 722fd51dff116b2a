/* The library's main, in libtupc_main: THREADS from `-n N` or $UPC_THREADS,
 * then every thread runs tupc_main(argc, argv). Like upcrun and mpirun, it
 * reads its own options only before the program's: it stops at the first
 * argument that is not one of them (which, and all after it, the program
 * gets as they are), or at `--` (which it drops). So `prog -n 3 -n 4` runs
 * 3 threads and the program sees its own `-n 4`. */
#include "runtime/runtime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int main_argc;
static char **main_argv;

static int run_main(void *arg)
{
    (void)arg;
    return tupc_main(main_argc, main_argv);
}

static int parse_threads(const char *prog, const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < 1 || v > TUPC_MAX_THREADS) {
        fprintf(stderr, "tupc: %s: -n \"%s\": expected a number of threads from 1 to %d\n", prog, s,
                TUPC_MAX_THREADS);
        exit(1);
    }
    return (int)v;
}

int main(int argc, char **argv)
{
    tupc_options o = {0};
    int out = 1, i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++; /* ends our options, and is ours */
            break;
        }
        if (strcmp(argv[i], "-n") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "tupc: %s: -n needs a number of threads\n", argv[0]);
                return 1;
            }
            o.threads = parse_threads(argv[0], argv[++i]);
        } else if (strncmp(argv[i], "-n", 2) == 0 && argv[i][2] >= '0' && argv[i][2] <= '9') {
            o.threads = parse_threads(argv[0], argv[i] + 2);
        } else {
            break; /* the program's first argument */
        }
    }
    while (i < argc)
        argv[out++] = argv[i++];
    argv[out] = NULL;
    main_argc = out;
    main_argv = argv;
    tupc_impl_set_main_mode();
    return tupc_run_opts(&o, run_main, NULL) & 0xff;
}
