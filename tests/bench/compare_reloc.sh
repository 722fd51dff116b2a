#!/usr/bin/env bash
# tupc's relocalization collectives beside Open MPI and MPICH at the same P:
# runs bench_reloc (NO|NO, MY|MY, ALL|ALL) and tests/bench/run_mpi.sh, then
# prints per function and size the latencies and MPI / tupc ratios (> 1: tupc
# is faster). permute has no MPI counterpart and is left out.
#   tests/bench/compare_reloc.sh [-n P] [-b BUILD] [-o DIR] [--min B] [--max B] [--quick]
# BUILD holds a built bench_reloc (default build); CSVs go to DIR (default build-mpi).
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
BUILD=build
DIR=build-mpi
sizes=()
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    --min | --max) sizes+=("$1" "$2"); shift 2 ;;
    --quick) sizes+=(--quick); shift ;;
    *) echo "usage: $0 [-n P] [-b BUILD] [-o DIR] [--min B] [--max B] [--quick]" >&2; exit 2 ;;
    esac
done
mkdir -p "$DIR"
"$BUILD/tests/bench/bench_reloc" -n "$P" --funcs broadcast,scatter,gather,gather_all,exchange \
    --modes no,my,all "${sizes[@]}" --csv "$DIR/tupc.csv" >"$DIR/tupc.txt"
grep '^# probe' "$DIR/tupc.txt" || true
tests/bench/run_mpi.sh -n "$P" -o "$DIR" --ops bcast,scatter,gather,allgather,alltoall \
    "${sizes[@]}" >"$DIR/mpi.txt"
awk -F, -v P="$P" '
    FNR == 1 { next }
    FILENAME ~ /tupc.csv$/ {
        if ($2 == "barrier" || $2 == "memcpy" || $2 == "memcpy*T") next
        t[$2 "," $4 "," $3] = $5; seen[$2 "," $4] = 1; next
    }
    { m[$1 "," $3 "," $4] = $5 }
    END {
        split("broadcast scatter gather gather_all exchange", f, " ")
        split("bcast scatter gather allgather alltoall", o, " ")
        printf "# THREADS = ranks = %d; latency in us (OSU: max over threads of the mean)\n", P
        printf "%-10s %9s %9s %9s %9s %9s %9s %8s %8s\n", "function", "bytes", "NO|NO", "MY|MY",
               "ALL|ALL", "openmpi", "mpich", "ompi/ALL", "mpich/ALL"
        for (i = 1; i <= 5; i++)
            for (b = 1; b <= 1073741824; b *= 2) {
                k = f[i] "," b
                if (!(k in seen)) continue
                a = t[k ",ALL|ALL"]; om = m["openmpi," o[i] "," b]; mp = m["mpich," o[i] "," b]
                printf "%-10s %9d %9s %9s %9s %9s %9s %8s %8s\n", f[i], b, t[k ",NO|NO"],
                       t[k ",MY|MY"], a, om == "" ? "-" : om, mp == "" ? "-" : mp,
                       (om == "" || a == 0) ? "-" : sprintf("%.2f", om / a),
                       (mp == "" || a == 0) ? "-" : sprintf("%.2f", mp / a)
            }
    }' "$DIR/tupc.csv" "$DIR"/mpi_*.csv
