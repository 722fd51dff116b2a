#!/usr/bin/env bash
# tupc's broadcast and reduce across processes against gfortran's coarrays
# on OpenCoarrays (Debian's libcoarrays-openmpi-dev), the PGAS peer on MPI,
# at the same number of UPC threads and images:
#   tests/bench/compare_caf.sh [-b BUILD] [-n P] [-t T] [-r REPS]
# BUILD is an Open MPI build of tupc (default build-mpi-openmpi, with
# tests/mpi/bench_coll built); tupc runs P processes of T threads, the
# coarrays P * T images. Prints, per figure, both times in ns and
# tupc / caf: upc_all_broadcast (MY|MY) against co_broadcast from image 1,
# upc_all_reduceL of one long per thread against co_sum of one integer(8)
# per image to image 1. One line on stderr per step.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-mpi-openmpi P=4 T=1 R=200
while [ $# -gt 0 ]; do
    case $1 in
    -b) B=$2; shift 2 ;;
    -n) P=$2; shift 2 ;;
    -t) T=$2; shift 2 ;;
    -r) R=$2; shift 2 ;;
    *) echo "usage: $0 [-b BUILD] [-n P] [-t T] [-r REPS]" >&2; exit 2 ;;
    esac
done
command -v caf >/dev/null || { echo "compare_caf.sh: caf not found (apt-get install gfortran libcoarrays-openmpi-dev)" >&2; exit 1; }
[ -x "$B/tests/mpi/bench_coll" ] || { echo "compare_caf.sh: $B/tests/mpi/bench_coll not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "compare_caf.sh: building caf_coll" >&2
caf -O2 tests/bench/caf_coll.f90 -o "$tmp/caf_coll"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
echo "compare_caf.sh: coarrays, $((P * T)) images" >&2
cafrun -np $((P * T)) "${root[@]}" --oversubscribe --bind-to none "$tmp/caf_coll" "$R" >"$tmp/caf.txt"
echo "compare_caf.sh: tupc, $P processes x $T threads" >&2
UPC_SHARED_HEAP_SIZE=256M mpirun.openmpi "${root[@]}" --oversubscribe --bind-to none -np "$P" \
    "$B/tests/mpi/bench_coll" -n "$T" "$R" >"$tmp/tupc.txt"
printf '# %d images against %d processes x %d threads, ns per call\n' $((P * T)) "$P" "$T"
printf '%-14s %9s %12s %12s %9s\n' figure bytes caf_ns tupc_ns tupc/caf
awk 'FNR == NR { if ($1 == "co_broadcast" || $1 == "co_sum") c[$1 " " $2] = $3; next }
     $1 == "broadcast" && $2 == "MY|MY" { k = "co_broadcast " $3 }
     $1 == "reduceL" && $2 == "1/thread" { k = "co_sum " $3 }
     k != "" && (k in c) { split(k, w, " ");
         printf "%-14s %9s %12.0f %12.0f %9.2f\n", w[1], w[2], c[k], $5, $5 / c[k] }
     { k = "" }' "$tmp/caf.txt" "$tmp/tupc.txt"
