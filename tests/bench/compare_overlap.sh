#!/usr/bin/env bash
# Overlap of a posted 16 MiB collective with computation: tupc's
# upc_all_broadcast_x and upc_all_exchange_x with UPC_ASYNC (bench_async)
# beside MPI_Ibcast and MPI_Ialltoall of Open MPI and MPICH (mpi_overlap.c),
# at 1 and 2 THREADS or ranks, in one run, each between probes of the VM.
#   tests/bench/compare_overlap.sh [BUILD_DIR] [--bytes B] [--rounds R]
# BUILD_DIR: a release build (default build-release). The ratio is
# both / (coll + comp): 1 without overlap, 0.5 for a perfect one.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-release
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then B=$1; shift; fi
out=build-mpi
mkdir -p "$out"
probe=$B/tests/bench/bench_probe
for P in 1 2; do
    echo "compare_overlap.sh: tupc at $P THREADS" >&2
    "$B/tests/bench/bench_async" -n "$P" "$@" | grep -v '^# probe after'
    for impl in openmpi mpich; do
        cc=mpicc.$impl
        command -v "$cc" >/dev/null || { echo "compare_overlap.sh: $cc not found, skipping" >&2; continue; }
        if [ ! "$out/mpi_overlap.$impl" -nt tests/bench/mpi_overlap.c ]; then
            "$cc" -O2 -std=gnu11 -Wall -Wextra -Itests/bench/common -o "$out/mpi_overlap.$impl" \
                tests/bench/mpi_overlap.c
        fi
        case $impl in
        openmpi) run=(mpirun.openmpi --allow-run-as-root --oversubscribe -np "$P") ;;
        mpich) run=(mpiexec.mpich -n "$P") ;;
        esac
        echo "compare_overlap.sh: $impl at $P ranks" >&2
        "$probe" --label "before $impl" 2>/dev/null || true
        "${run[@]}" "$out/mpi_overlap.$impl" --label "$impl" "$@"
    done
done
"$probe" --label "end" 2>/dev/null || true
