/* The library's main, in libtupc_main: THREADS from `-n N` (taken out of
 * argv) or $UPC_THREADS, then every thread runs tupc_main(argc, argv). */
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
    int out = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            /* Ends our options: the rest, without the "--", is the program's. */
            while (++i < argc)
                argv[out++] = argv[i];
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
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    main_argc = out;
    main_argv = argv;
    tupc_set_main_mode();
    return tupc_run_opts(&o, run_main, NULL) & 0xff;
}
