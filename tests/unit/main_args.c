/* The library's main: `-n N` before the program's arguments sets THREADS;
 * parsing stops at the program's first argument (kept, with all after it)
 * or at `--` (dropped). The arguments the program must see, after argv[0],
 * are given space-separated in MAIN_ARGS_EXPECT; THREADS must be 3. */
#include <upc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tupc_main(int argc, char **argv)
{
    const char *env = getenv("MAIN_ARGS_EXPECT");
    char want[256];
    snprintf(want, sizeof want, "%s", env ? env : "");
    int ok = THREADS == 3 && argv[argc] == NULL, k = 1;
    char *save = NULL; /* strtok_r: every thread runs this at once */
    for (char *w = strtok_r(want, " ", &save); ok && w; w = strtok_r(NULL, " ", &save), k++)
        ok = k < argc && strcmp(argv[k], w) == 0;
    ok = ok && k == argc;
    if (!ok) {
        fprintf(stderr, "thread %d: THREADS %d, argc %d, expected [%s]:", MYTHREAD, THREADS, argc,
                env ? env : "");
        for (int i = 0; i < argc; i++)
            fprintf(stderr, " [%s]", argv[i]);
        fprintf(stderr, "\n");
    }
    upc_barrier();
    return ok ? 0 : 1;
}
