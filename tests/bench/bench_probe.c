/* The cache-line probe alone: one line, "# probe LABEL: cache-line round
 * trip N ns (fast phase)", as every benchmark prints before and after its
 * measurements. The scripts run it before and after the MPI peers, which
 * have no probe of their own, so that every figure says which phase of the
 * VM it was taken in (tests/bench/perf_page.sh, run_mpi.sh --probe).
 *
 * With --switch it also prints the cost of handing one CPU from a waiting
 * thread to another ("# probe LABEL: thread switch on one CPU N ns"), the
 * unit of the figures of a node with more threads than CPUs.
 *
 * Usage: bench_probe [--label LABEL] [--switch] */
#include "args.h"
#include "probe.h"

#include <stdio.h>

enum { O_LABEL, O_SWITCH };
static const struct tb_opt opts[] = {
    [O_LABEL] = {"--label", "LABEL", "the word after \"# probe\" (default now)"},
    [O_SWITCH] = {"--switch", NULL, "also time a hand-off of one CPU between two yielding threads"},
    {NULL, NULL, NULL}};
static const struct tb_cmd cmd = {
    NULL, "The cache-line ping-pong probe: which phase (fast or slow) the machine is in now.",
    opts};

int main(int argc, char **argv)
{
    const char *label = "now", *v;
    int i = 1, k, sw = 0;
    while ((k = tb_next_opt(argc, argv, &i, &cmd, &v)) != TB_END) {
        if (k == O_LABEL)
            label = v;
        else if (k == O_SWITCH)
            sw = 1;
        else
            tb_usage_error(argv[0], &cmd, "unexpected argument ", v);
    }
    tb_probe_print(label);
    if (sw)
        printf("# probe %s: thread switch on one CPU %.0f ns (sched_yield hand-off)\n", label,
               tb_switch_ns(20000));
    return 0;
}
