#!/usr/bin/env bash
# tupcc's own speed: a generated UPC file of about 1,000, 3,000 and 10,000
# lines (functions of upc_forall loops over shared arrays, neighbour reads,
# pointer-to-shared arithmetic and comparisons), translated by tupcc -E,
# against the -O2 compile of the C it generates; CPU seconds (user + system,
# children included: clang's runs count for tupcc) and peak memory, the
# median of RUNS runs each, tupcc and cc in turns. $PYTHON runs tupcc (default: its #! line's; a
# pyenv shim costs 0.3 s a start, so name the real interpreter).
#   PYTHON=... tests/bench/tupcc_speed.sh [-b BUILD] [-r RUNS] [-l "1000 3000 10000"]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build
RUNS=3
LINES="1000 3000 10000"
while [ $# -gt 0 ]; do
    case $1 in
    -b) BUILD=$2; shift 2 ;;
    -r) RUNS=$2; shift 2 ;;
    -l) LINES=$2; shift 2 ;;
    *) echo "usage: $0 [-b BUILD] [-r RUNS] [-l \"1000 3000 10000\"]" >&2; exit 2 ;;
    esac
done
tupcc=$BUILD/tools/tupcc/tupcc
py=${PYTHON:-$(head -n 1 "$tupcc" | sed 's/^#! *//; s/^\/usr\/bin\/env *//')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() {
    python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = ['#include <upc.h>', '#include <stdio.h>', '#define N (64 * THREADS)',
       'shared [4] double a[N], b[N];', 'shared int c[N];']
k = 0
while len(out) + k < n - 8:
    out += [f'static double f{k}(int m)', '{', '    double s = 0;',
            '    upc_forall (int i = 0; i < N; i++; &a[i]) {',
            f'        a[i] = b[i] * {k % 7 + 1} + (i > 0 ? b[i - 1] : 0);',
            '        s += a[i] + c[i % N];', '    }',
            '    for (int j = 0; j < m; j++) {', '        shared [4] double *p = &a[j];',
            '        s += *p + b[(j + 1) % N];', '        if (p < &a[N - 1])', '            s += upc_threadof(p);',
            '    }', '    return s;', '}', '']
    k += 1
out += ['int main(void)', '{', '    double s = 0;'] + [f'    s += f{j}(MYTHREAD);' for j in range(k)]
out += ['    upc_barrier;', '    if (MYTHREAD == 0)', '        printf("%g\\n", s);', '    return 0;', '}']
print('\n'.join(out))
PY
}
# "cpu_seconds peak_MB" of one run of a command
once() {
    /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" >/dev/null
    awk '{ printf "%.2f %d\n", $1 + $2, $3 / 1024 }' "$tmp/t"
}
# the median by CPU time of the lines of a file
median() { sort -g "$1" | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo ?)," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, CC=${CC:-cc}, median of $RUNS, $py"
fmt='%7s %12s %10s %12s %10s %8s\n'
# shellcheck disable=SC2059
printf "$fmt" lines "tupcc cpu s" "tupcc MB" "cc -O2 cpu s" "cc MB" "ratio"
for n in $LINES; do
    gen "$n" >"$tmp/g$n.upc"
    # tupcc and cc in turns, so that a slow phase of the machine falls on both
    : >"$tmp/tupcc" && : >"$tmp/cc"
    for _ in $(seq "$RUNS"); do
        once "$py" "$tupcc" -E "$tmp/g$n.upc" -o "$tmp/g$n.c" >>"$tmp/tupcc"
        # shellcheck disable=SC2046
        once "${CC:-cc}" -O2 -std=gnu11 $(sed -n "s/.*'cflags': \[\(.*\)\],/\1/p" "$tupcc" |
            tr -d "',") -c "$tmp/g$n.c" -o "$tmp/g$n.o" >>"$tmp/cc"
    done
    read -r tc tm < <(median "$tmp/tupcc")
    read -r cc cm < <(median "$tmp/cc")
    # shellcheck disable=SC2059
    printf "$fmt" "$(wc -l <"$tmp/g$n.upc")" "$tc" "$tm" "$cc" "$cm" \
        "$(awk -v a="$tc" -v b="$cc" 'BEGIN { printf "%.2f", a / b }')"
done
