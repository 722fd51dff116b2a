#!/usr/bin/env bash
# Builds tests/bench/mpi_coll.c with Open MPI and MPICH and runs both at P ranks.
#   tests/bench/run_mpi.sh [-n P] [-o DIR] [mpi_coll options...]
# Binaries and CSVs go to DIR (default build-mpi): DIR/mpi_coll.{openmpi,mpich}
# and DIR/mpi_{openmpi,mpich}.csv. An MPI that is not installed is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
DIR=build-mpi
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    *) break ;;
    esac
done
mkdir -p "$DIR"
ran=0
for impl in openmpi mpich; do
    cc=mpicc.$impl
    if ! command -v "$cc" >/dev/null; then
        echo "run_mpi.sh: $cc not found, skipping $impl" >&2
        continue
    fi
    "$cc" -O2 -std=gnu11 -Wall -Wextra -Itests/bench/common -o "$DIR/mpi_coll.$impl" tests/bench/mpi_coll.c
    case $impl in
    openmpi) run=(mpirun.openmpi --allow-run-as-root --oversubscribe -np "$P") ;;
    mpich) run=(mpiexec.mpich -n "$P") ;;
    esac
    echo "== $impl: ${run[*]}"
    "${run[@]}" "$DIR/mpi_coll.$impl" --label "$impl" --csv "$DIR/mpi_$impl.csv" "$@"
    ran=1
done
[ $ran = 1 ] || { echo "run_mpi.sh: no MPI found" >&2; exit 1; }
