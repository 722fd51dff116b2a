#!/usr/bin/env bash
# Builds tests/bench/mpi_coll.c with Open MPI and MPICH and runs both at P ranks.
#   tests/bench/run_mpi.sh [-n P] [-o DIR] [--only IMPL] [--probe PROG] [mpi_coll options...]
# Binaries and CSVs go to DIR (default build-mpi): DIR/mpi_coll.{openmpi,mpich}
# and DIR/mpi_{openmpi,mpich}.csv. An MPI that is not installed is skipped.
# --only openmpi or --only mpich runs that one alone. --probe PROG runs PROG
# (build-release/tests/bench/bench_probe) before and after each MPI, so that
# its figures say which phase of the VM they come from ("# probe ..." lines).
# One line on stderr says which MPI runs, with which options.
set -euo pipefail
cd "$(dirname "$0")/../.."
P=2
DIR=build-mpi
impls=(openmpi mpich)
probe=
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -o) DIR=$2; shift 2 ;;
    --only) IFS=, read -r -a impls <<<"$2"; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    *) break ;;
    esac
done
mkdir -p "$DIR"
ran=0
i=0
for impl in "${impls[@]}"; do
    i=$((i + 1))
    cc=mpicc.$impl
    if ! command -v "$cc" >/dev/null; then
        echo "run_mpi.sh: $cc not found, skipping $impl" >&2
        continue
    fi
    # Rebuilt when the source is newer than the binary.
    if [ ! "$DIR/mpi_coll.$impl" -nt tests/bench/mpi_coll.c ]; then
        "$cc" -O2 -std=gnu11 -Wall -Wextra -Itests/bench/common -o "$DIR/mpi_coll.$impl" tests/bench/mpi_coll.c
    fi
    case $impl in
    openmpi) run=(mpirun.openmpi --allow-run-as-root --oversubscribe -np "$P") ;;
    mpich) run=(mpiexec.mpich -n "$P") ;;
    *) echo "run_mpi.sh: unknown MPI $impl (openmpi or mpich)" >&2; exit 2 ;;
    esac
    echo "run_mpi.sh: [$i/${#impls[@]}] $impl, $P ranks${*:+: $*}" >&2
    echo "== $impl: ${run[*]}"
    [ -z "$probe" ] || "$probe" --label "before $impl"
    "${run[@]}" "$DIR/mpi_coll.$impl" --label "$impl" --csv "$DIR/mpi_$impl.csv" "$@"
    [ -z "$probe" ] || "$probe" --label "after $impl"
    ran=1
done
[ $ran = 1 ] || { echo "run_mpi.sh: no MPI found" >&2; exit 1; }
