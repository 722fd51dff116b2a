/* The VM this project is measured on has slow phases, in which core-to-core
 * latency jumps from about 0.05 us to 0.2-1 us for seconds to minutes. Every
 * benchmark probes it before and after its measurements with a two-thread
 * cache-line ping-pong and prints the phase next to its figures. */
#ifndef TB_PROBE_H
#define TB_PROBE_H

/* Median round trip of a cache line between two threads, in ns, over `rounds`
 * round trips (pinned to CPUs 0 and 1 where the process may use two CPUs). */
double tb_pingpong_ns(int rounds);

/* Median time of one hand-off between two threads pinned to the same CPU,
 * each yielding (sched_yield) until its turn, in ns, over `rounds`
 * hand-offs: what a crowded node pays each time a waiting thread must let
 * another run (docs/benchmarks.md, the 2 x 2 figures across processes). */
double tb_switch_ns(int rounds);

/* "fast" below 150 ns a round trip, else "slow". */
const char *tb_phase(double rtt_ns);

/* Prints one line: "# probe <label>: round trip N ns (phase)". Returns the rtt. */
double tb_probe_print(const char *label);

#endif
