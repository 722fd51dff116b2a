#!/bin/sh
# Runs bench_reduce and the MPI reduction benchmark (tests/bench/mpi_coll,
# MPI_Reduce/Allreduce/Scan/Exscan, by a colleague) at the same P, for Open
# MPI and MPICH where their launchers are installed, and prints the figures
# side by side with the ratio tupc/MPI per size.
#
# Usage: compare_reduce.sh BUILD_DIR [P] [--quick]
# Expects mpi_coll to print lines "<op> <bytes> <ns>" (op Reduce, Allreduce,
# Scan, Exscan); lines starting with '#' are comments. Anything else is
# shown as it is.
set -eu
build=${1:?usage: compare_reduce.sh BUILD_DIR [P] [--quick]}
P=${2:-2}
quick=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$build/tests/bench/bench_reduce" -n "$P" $quick | tee "$tmp/tupc.txt"

for flavour in openmpi mpich; do
    launcher=$(command -v "mpirun.$flavour" || true)
    exe="$build/tests/bench/mpi_coll_$flavour"
    [ -x "$exe" ] || exe="$build/tests/bench/mpi_coll"
    if [ -z "$launcher" ] || [ ! -x "$exe" ]; then
        echo "# $flavour: launcher or $exe missing, skipped"
        continue
    fi
    echo "# $flavour: $launcher -np $P $exe"
    "$launcher" -np "$P" "$exe" > "$tmp/$flavour.txt" 2>&1 || true
    # tupc reduceL NO|NO and prefixL NO|NO beside MPI_Reduce and MPI_Scan.
    awk -v fl="$flavour" '
        FNR == NR { if ($1 == "reduceL" && $2 == "NO|NO") red[$3] = $4;
                    if ($1 == "prefixL" && $2 == "NO|NO") pre[$3] = $4; next }
        /^#/ { next }
        ($1 == "Reduce" || $1 == "MPI_Reduce") && ($2 in red) {
            printf "%-8s %10s tupc %12.1f  %s %12.1f  ratio %6.2f\n", "reduce", $2, red[$2], fl, $3, red[$2] / $3 }
        ($1 == "Scan" || $1 == "MPI_Scan") && ($2 in pre) {
            printf "%-8s %10s tupc %12.1f  %s %12.1f  ratio %6.2f\n", "scan", $2, pre[$2], fl, $3, pre[$2] / $3 }
    ' "$tmp/tupc.txt" "$tmp/$flavour.txt"
    grep -v '^#' "$tmp/$flavour.txt" | head -50
done
