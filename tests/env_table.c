/* Prints the README's table of environment variables from the library's own
 * table (lib/runtime/config.c), for tests/env.sh. */
#include "runtime/config.h"

int main(void)
{
    tupc_config_table(stdout);
    return 0;
}
