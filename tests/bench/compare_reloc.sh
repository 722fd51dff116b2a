#!/usr/bin/env bash
# tupc's relocalization collectives beside Open MPI and MPICH at the same P:
# runs bench_reloc (NO|NO, MY|MY, ALL|ALL) and tests/bench/run_mpi.sh in turn,
# ROUNDS times (tupc, MPIs, tupc, MPIs, ...), then prints per function and
# size the median latency of each over the rounds, tupc's median per cent of
# the memcpy floor (its worst mode), and the MPI / tupc ALL|ALL ratios (> 1:
# tupc is faster). Alternating rounds spread the VM's slow and fast phases
# over both sides instead of giving one side a whole phase. permute has no
# MPI counterpart and is left out.
#   tests/bench/compare_reloc.sh [-n P] [-b BUILD] [-o DIR] [-r ROUNDS] [--min B] [--max B] [--quick]
#                                [--csv FILE]
# BUILD holds a built bench_reloc (default build); CSVs go to DIR (default
# build-mpi), one per round and program; ROUNDS defaults to 3. --csv FILE
# also writes the table of medians to FILE (one row per function and size,
# with the median memcpy floor in us). Each step (round, program) is one line
# on stderr; bench_reloc shows the size it is at when stderr is a terminal.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
BUILD=build
DIR=build-mpi
ROUNDS=3
sizes=()
csv=
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    -r) ROUNDS=$2; shift 2 ;;
    --min | --max) sizes+=("$1" "$2"); shift 2 ;;
    --quick) sizes+=(--quick); shift ;;
    --csv) csv=$2; shift 2 ;;
    *) echo "usage: $0 [-n P] [-b BUILD] [-o DIR] [-r ROUNDS] [--min B] [--max B] [--quick] [--csv FILE]" >&2; exit 2 ;;
    esac
done
mkdir -p "$DIR"
rm -f "$DIR"/reloc_tupc.*.csv "$DIR"/reloc_mpi_*.*.csv
probe=()
[ -x "$BUILD/tests/bench/bench_probe" ] && probe=(--probe "$BUILD/tests/bench/bench_probe")
for r in $(seq 1 "$ROUNDS"); do
    echo "compare_reloc.sh: round $r of $ROUNDS: bench_reloc, THREADS $P ${sizes[*]}" >&2
    "$BUILD/tests/bench/bench_reloc" -n "$P" --funcs broadcast,scatter,gather,gather_all,exchange \
        --modes no,my,all "${sizes[@]}" --csv "$DIR/reloc_tupc.$r.csv" >"$DIR/reloc_tupc.$r.txt"
    grep '^# phase' "$DIR/reloc_tupc.$r.txt" | sed "s/^# /# round $r: /" || true
    echo "compare_reloc.sh: round $r of $ROUNDS: Open MPI and MPICH, $P ranks" >&2
    tests/bench/run_mpi.sh -n "$P" -o "$DIR" "${probe[@]}" --ops bcast,scatter,gather,allgather,alltoall \
        "${sizes[@]}" >"$DIR/reloc_mpi.$r.txt"
    for impl in openmpi mpich; do
        [ -f "$DIR/mpi_$impl.csv" ] && mv "$DIR/mpi_$impl.csv" "$DIR/reloc_mpi_$impl.$r.csv"
    done
done
awk -F, -v P="$P" -v R="$ROUNDS" -v csv="$csv" '
    function add(k, v) { n[k]++; val[k, n[k]] = v + 0 }
    function med(k,    i, j, x, c) {
        c = n[k]
        if (!c) return ""
        for (i = 1; i <= c; i++) s[i] = val[k, i]
        for (i = 2; i <= c; i++) { x = s[i]; for (j = i - 1; j >= 1 && s[j] > x; j--) s[j + 1] = s[j]; s[j + 1] = x }
        return c % 2 ? s[(c + 1) / 2] : (s[c / 2] + s[c / 2 + 1]) / 2
    }
    FNR == 1 { next }
    FILENAME ~ /reloc_tupc/ {
        if ($2 == "barrier" || $2 == "memcpy" || $2 == "memcpy*T") next
        add("t," $2 "," $4 "," $3, $5); add("f," $2 "," $4 "," $3, $12); add("u," $2 "," $4 "," $3, $10)
        seen[$2 "," $4] = 1; next
    }
    { add("m," $1 "," $3 "," $4, $5) }
    END {
        split("broadcast scatter gather gather_all exchange", f, " ")
        split("bcast scatter gather allgather alltoall", o, " ")
        printf "# THREADS = ranks = %d; latency in us (OSU: max over threads of the mean),\n", P
        printf "# median of %d alternating rounds; %%floor: the worst of the three modes\n", R
        printf "%-10s %9s %9s %9s %9s %7s %9s %9s %8s %8s\n", "function", "bytes", "NO|NO", "MY|MY",
               "ALL|ALL", "%floor", "openmpi", "mpich", "ompi/ALL", "mpich/ALL"
        if (csv != "")
            print "threads,function,bytes,no_us,my_us,all_us,floor_us,pct_floor_worst,openmpi_us,mpich_us,rounds" >csv
        for (i = 1; i <= 5; i++)
            for (b = 1; b <= 1073741824; b *= 2) {
                k = f[i] "," b
                if (!(k in seen)) continue
                a = med("t," k ",ALL|ALL"); om = med("m,openmpi," o[i] "," b); mp = med("m,mpich," o[i] "," b)
                fl = med("f," k ",NO|NO"); x = med("f," k ",MY|MY"); if (x < fl) fl = x
                x = med("f," k ",ALL|ALL"); if (x < fl) fl = x
                printf "%-10s %9d %9.3f %9.3f %9.3f %6.1f%% %9s %9s %8s %8s\n", f[i], b,
                       med("t," k ",NO|NO"), med("t," k ",MY|MY"), a, fl,
                       om == "" ? "-" : sprintf("%.3f", om), mp == "" ? "-" : sprintf("%.3f", mp),
                       (om == "" || a == 0) ? "-" : sprintf("%.2f", om / a),
                       (mp == "" || a == 0) ? "-" : sprintf("%.2f", mp / a)
                if (csv != "")
                    printf "%d,%s,%d,%.3f,%.3f,%.3f,%.3f,%.1f,%s,%s,%d\n", P, f[i], b, med("t," k ",NO|NO"),
                           med("t," k ",MY|MY"), a, med("u," k ",ALL|ALL"), fl, om, mp, R >csv
            }
    }' "$DIR"/reloc_tupc.*.csv "$DIR"/reloc_mpi_*.*.csv
