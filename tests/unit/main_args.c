/* The library's main: `-n N` sets THREADS and is taken out of argv; `--`
 * ends its options and is dropped. Run as: main_args -n 3 a -- -n b */
#include <upc.h>

#include <stdio.h>
#include <string.h>

int tupc_main(int argc, char **argv)
{
    const char *want[] = {"a", "-n", "b"};
    int ok = THREADS == 3 && argc == 4 && argv[argc] == NULL;
    for (int i = 0; ok && i < 3; i++)
        ok = strcmp(argv[i + 1], want[i]) == 0;
    if (!ok && MYTHREAD == 0) {
        fprintf(stderr, "THREADS %d, argc %d:", THREADS, argc);
        for (int i = 0; i < argc; i++)
            fprintf(stderr, " [%s]", argv[i]);
        fprintf(stderr, "\n");
    }
    upc_barrier();
    return ok ? 0 : 1;
}
