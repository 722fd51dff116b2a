#!/usr/bin/env bash
# The cost of each check level (TUPC_CHECKS) on the 8-byte figures: one
# program, bench_small, from a base build and from this build run in turns
# with TUPC_CHECKS=off, default and full, 15 turns per figure; medians of
# the times and of the pairwise ratios. THREADS = 2.
#   tests/bench/ab_checks.sh BASE_BUILD [BUILD]
# BASE_BUILD: a release build of another commit (see ab.sh for how to make
# one); BUILD: this tree's release build (default build-release).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BASE_BUILD [BUILD]" >&2; exit 2; }
B=$1/tests/bench/bench_small
H=${2:-build-release}/tests/bench/bench_small
P=${2:-build-release}/tests/bench/bench_probe
"$P" --label before
for fig in "broadcast 0x09" "broadcast 0x12" "broadcast 0x24" "reduce 0x09" "reduce 0x24"; do
    echo "ab_checks.sh: $fig, 15 turns" >&2
    for i in $(seq 1 15); do
        echo "$("$B" $fig) $(TUPC_CHECKS=off "$H" $fig) $(TUPC_CHECKS=default "$H" $fig)" \
            "$(TUPC_CHECKS=full "$H" $fig)"
    done | awk -v fig="$fig" '
        function med(a, n,   i, j, t, c) {
            for (i = 1; i <= n; i++) c[i] = a[i]
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
            return c[int((n + 1) / 2)]
        }
        { b[NR] = $1; o[NR] = $2; d[NR] = $3; f[NR] = $4; rd[NR] = $3 / $1; ro[NR] = $3 / $2; rf[NR] = $4 / $3 }
        END { printf "%-15s base %6.1f  off %6.1f  default %6.1f  full %6.1f ns | default/base %.3f  default/off %.3f  full/default %.3f\n",
                     fig, med(b, NR), med(o, NR), med(d, NR), med(f, NR), med(rd, NR), med(ro, NR), med(rf, NR) }'
done
"$P" --label after
