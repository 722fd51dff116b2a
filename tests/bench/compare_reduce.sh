#!/usr/bin/env bash
# tupc's reductions beside Open MPI and MPICH at the same P: runs bench_reduce
# (reduce, reduce_all and prefix_reduce inclusive and exclusive, long and
# double, UPC_ADD) and tests/bench/run_mpi.sh (MPI_Reduce, MPI_Allreduce,
# MPI_Scan, MPI_Exscan), then prints per size the latencies and the MPI / tupc
# ratios (> 1: tupc is faster): a first table of reduce and prefix_reduce
# beside MPI_Reduce and MPI_Scan, a second of reduce_all beside MPI_Allreduce
# (MY|MY, each thread's result in its own dst[i] when it returns, as with
# MPI_Allreduce, and ALL|ALL) and of the exclusive prefix_reduce beside
# MPI_Exscan.
#   tests/bench/compare_reduce.sh [-n P] [-b BUILD] [-o DIR] [--max B] [--quick] [--csv FILE]
#       [--csv-all FILE]
# BUILD holds a built bench_reduce (default build); CSVs go to DIR (default build-mpi).
# --csv FILE also writes the first table to FILE, --csv-all FILE the second,
# one row per type and size. Each step is one line on stderr; bench_reduce
# shows the size it is at when stderr is a terminal.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
BUILD=build
DIR=build-mpi
topt=()
mopt=()
max=64M
csv=
csv_all=
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --quick) topt+=(--quick); mopt+=(--quick); shift ;;
    --csv) csv=$2; shift 2 ;;
    --csv-all) csv_all=$2; shift 2 ;;
    *) echo "usage: $0 [-n P] [-b BUILD] [-o DIR] [--max B] [--quick] [--csv FILE] [--csv-all FILE]" >&2
       exit 2 ;;
    esac
done
mkdir -p "$DIR"
echo "compare_reduce.sh: [1/2] bench_reduce, THREADS $P, 8 B to $max ${topt[*]}" >&2
"$BUILD/tests/bench/bench_reduce" -n "$P" --max "$(numfmt --from=iec "$max")" "${topt[@]}" --csv "$DIR/tupc_reduce.csv" \
    >"$DIR/tupc_reduce.txt"
grep '^# ' "$DIR/tupc_reduce.txt" || true
echo "compare_reduce.sh: [2/2] Open MPI and MPICH, $P ranks, 8 B to $max ${mopt[*]}" >&2
probe=()
[ -x "$BUILD/tests/bench/bench_probe" ] && probe=(--probe "$BUILD/tests/bench/bench_probe")
tests/bench/run_mpi.sh -n "$P" -o "$DIR" "${probe[@]}" --ops reduce,allreduce,scan,exscan --min 8 \
    --max "$max" "${mopt[@]}" >"$DIR/mpi_reduce.txt"
awk -F, -v P="$P" -v csv="$csv" '
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
        if (csv != "")
            print "threads,type,bytes,reduce_no_us,reduce_all_us,openmpi_reduce_us,mpich_reduce_us," \
                  "prefix_no_us,openmpi_scan_us,mpich_scan_us" >csv
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
                if (csv != "")
                    printf "%d,%s,%d,%.3f,%.3f,%s,%s,%.3f,%s,%s\n", P, ty[i], b, rn, ra, orr, mr, pn, os,
                           ms >csv
            }
        }
    }' "$DIR/tupc_reduce.csv" "$DIR"/mpi_*.csv
awk -F, -v P="$P" -v csv="$csv_all" '
    FNR == 1 { next }
    FILENAME ~ /tupc_reduce.csv$/ {
        if ($2 ~ /^(readbw|small|big)/) next
        t[$2 "," $3 "," $4] = $5 / 1000; seen[$4] = 1; next
    }
    { m[$1 "," $3 "," $4] = $5 }
    function r(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.2f", a / b) }
    function v(a) { return a == "" ? "-" : a }
    END {
        printf "\n# reduce_all beside MPI_Allreduce, exclusive prefix_reduce beside MPI_Exscan;\n"
        printf "# latency in us; ratios are MPI / tupc (> 1: tupc faster); allMY is MPI_Allreduce'"'"'s contract\n"
        split("L D", ty, " "); split("long double", mt, " ")
        if (csv != "")
            print "threads,type,bytes,all_no_us,all_my_us,all_all_us,openmpi_allreduce_us," \
                  "mpich_allreduce_us,exclusive_no_us,exclusive_all_us,openmpi_exscan_us,mpich_exscan_us" >csv
        for (i = 1; i <= 2; i++) {
            printf "\n%-9s %9s %8s %8s %8s %9s %9s %6s %6s %6s %6s %8s %8s %9s %9s %6s %6s\n", "type " ty[i],
                   "bytes", "allNO", "allMY", "allAL", "ompiAll", "mpichAll", "o/MY", "m/MY", "o/AL",
                   "m/AL", "exclNO", "exclAL", "ompiExsc", "mpichExs", "o/x", "m/x"
            for (b = 8; b <= 1073741824; b *= 2) {
                if (!(b in seen)) continue
                an = t["reduce_all" ty[i] ",NO|NO," b]; am = t["reduce_all" ty[i] ",MY|MY," b]
                aa = t["reduce_all" ty[i] ",AL|AL," b]
                xn = t["prefixX" ty[i] ",NO|NO," b]; xa = t["prefixX" ty[i] ",AL|AL," b]
                oa = m["openmpi,allreduce_" mt[i] "," b]; ma = m["mpich,allreduce_" mt[i] "," b]
                ox = m["openmpi,exscan_" mt[i] "," b]; mx = m["mpich,exscan_" mt[i] "," b]
                printf "%-9s %9d %8.3f %8.3f %8.3f %9s %9s %6s %6s %6s %6s %8.3f %8.3f %9s %9s %6s %6s\n",
                       "", b, an, am, aa, v(oa), v(ma), r(oa, am), r(ma, am), r(oa, aa), r(ma, aa),
                       xn, xa, v(ox), v(mx), r(ox, xn), r(mx, xn)
                if (csv != "")
                    printf "%d,%s,%d,%.3f,%.3f,%.3f,%s,%s,%.3f,%.3f,%s,%s\n", P, ty[i], b, an, am, aa,
                           oa, ma, xn, xa, ox, mx >csv
            }
        }
    }' "$DIR/tupc_reduce.csv" "$DIR"/mpi_*.csv
