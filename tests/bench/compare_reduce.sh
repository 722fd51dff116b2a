#!/usr/bin/env bash
# tupc's reductions beside Open MPI and MPICH at the same P: runs bench_reduce
# (reduce and prefix_reduce, long and double, UPC_ADD) and tests/bench/run_mpi.sh
# (MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan), then prints per size the
# latencies and the MPI / tupc ratios (> 1: tupc is faster).
#   tests/bench/compare_reduce.sh [-n P] [-b BUILD] [-o DIR] [--max B] [--quick]
# BUILD holds a built bench_reduce (default build); CSVs go to DIR (default build-mpi).
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
BUILD=build
DIR=build-mpi
topt=()
mopt=()
max=64M
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --quick) topt+=(--quick); mopt+=(--quick); shift ;;
    *) echo "usage: $0 [-n P] [-b BUILD] [-o DIR] [--max B] [--quick]" >&2; exit 2 ;;
    esac
done
mkdir -p "$DIR"
"$BUILD/tests/bench/bench_reduce" -n "$P" --max "$(numfmt --from=iec "$max")" "${topt[@]}" --csv "$DIR/tupc_reduce.csv" \
    >"$DIR/tupc_reduce.txt"
grep '^# ' "$DIR/tupc_reduce.txt" || true
tests/bench/run_mpi.sh -n "$P" -o "$DIR" --ops reduce,allreduce,scan,exscan --min 8 \
    --max "$max" "${mopt[@]}" >"$DIR/mpi_reduce.txt"
awk -F, -v P="$P" '
    FNR == 1 { next }
    FILENAME ~ /tupc_reduce.csv$/ {
        if ($2 == "readbw") { bw = $7; next }
        t[$2 "," $3 "," $4] = $5 / 1000; seen[$4] = 1; next
    }
    { m[$1 "," $3 "," $4] = $5 }
    function r(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.2f", a / b) }
    END {
        printf "# THREADS = ranks = %d; latency in us; ratios are MPI / tupc (> 1: tupc faster)\n", P
        printf "# all-threads memory read bandwidth %.2f GB/s\n", bw
        split("L D", ty, " "); split("long double", mt, " ")
        for (i = 1; i <= 2; i++) {
            printf "\n%-9s %9s %9s %9s %9s %9s %7s %7s %9s %9s %9s %7s %7s\n", "type " ty[i],
                   "bytes", "reduceNO", "reduceAL", "ompiRed", "mpichRed", "ompi/x", "mpich/x",
                   "prefixNO", "ompiScan", "mpichScan", "ompi/x", "mpich/x"
            for (b = 8; b <= 1073741824; b *= 2) {
                if (!(b in seen)) continue
                rn = t["reduce" ty[i] ",NO|NO," b]; ra = t["reduce" ty[i] ",AL|AL," b]
                pn = t["prefix" ty[i] ",NO|NO," b]
                orr = m["openmpi,reduce_" mt[i] "," b]; mr = m["mpich,reduce_" mt[i] "," b]
                os = m["openmpi,scan_" mt[i] "," b]; ms = m["mpich,scan_" mt[i] "," b]
                printf "%-9s %9d %9.3f %9.3f %9s %9s %7s %7s %9.3f %9s %9s %7s %7s\n", "", b,
                       rn, ra, orr == "" ? "-" : orr, mr == "" ? "-" : mr, r(orr, rn), r(mr, rn),
                       pn, os == "" ? "-" : os, ms == "" ? "-" : ms, r(os, pn), r(ms, pn)
            }
        }
    }' "$DIR/tupc_reduce.csv" "$DIR"/mpi_*.csv
