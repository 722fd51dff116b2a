#!/usr/bin/env bash
# A/B of two MPI builds of tupc on bench_coll's figures (tests/mpi): the two
# builds' bench_coll at one shape, P processes x T threads, in turns, R
# rounds, so that both see the same phases of the VM. For each figure: the
# median over the rounds of tupc's ns per call in A and in B, B / A, and
# the median of each side's ratio to the raw MPI call of its own run.
#   tests/bench/ab_mpi.sh A_BUILD B_BUILD [-r R] [-np P] [-n T] [-ea VAR=VALUE]
#       [-- ARGS...]
# A_BUILD and B_BUILD are builds configured with -Dmpi=enabled on the same
# MPI (the launcher is chosen by the build's mpi_impl); ARGS go to
# bench_coll after its repetitions (default 200), e.g. `200 team`. -ea sets
# an environment variable for A's runs only (the same build twice then
# compares a setting with the default).
# Example, the tree at some commit against this one (Open MPI):
#   git worktree add /tmp/base COMMIT && (cd /tmp/base && meson setup
#     build-mpi-openmpi -Dmpi=enabled -Dmpi_impl=openmpi &&
#     ninja -C build-mpi-openmpi tests/mpi/bench_coll)
#   tests/bench/ab_mpi.sh /tmp/base/build-mpi-openmpi build-mpi-openmpi -np 2 -n 2
set -euo pipefail
usage() {
    echo "usage: $0 A_BUILD B_BUILD [-r R] [-np P] [-n T] [-ea VAR=VALUE] [-- ARGS...]" >&2
    exit 2
}
[ $# -ge 2 ] || usage
A=$1 B=$2
shift 2
R=3 P=2 T=2 ea=
while [ $# -gt 0 ]; do
    case $1 in
    -ea) ea=$2; shift 2 ;;
    -r) R=$2; shift 2 ;;
    -np) P=$2; shift 2 ;;
    -n) T=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
[ $# -gt 0 ] || set -- 200
impl=$(meson introspect "$B" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "mpi_impl"][0])')
case $impl in
openmpi)
    launch=(mpirun.openmpi --oversubscribe --bind-to none -x UPC_SHARED_HEAP_SIZE -np "$P")
    [ "$(id -u)" -eq 0 ] && launch=(mpirun.openmpi --allow-run-as-root "${launch[@]:1}")
    ;;
mpich) launch=(mpiexec.mpich -n "$P") ;;
*) echo "$0: $B: mpi_impl is '$impl'; expected openmpi or mpich" >&2; exit 2 ;;
esac
for dir in "$A" "$B"; do
    [ -x "$dir/tests/mpi/bench_coll" ] || { echo "$0: no $dir/tests/mpi/bench_coll" >&2; exit 2; }
done
probe=$(dirname "$0")/../../build-release/tests/bench/bench_probe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export UPC_SHARED_HEAP_SIZE=${UPC_SHARED_HEAP_SIZE:-256M}
for r in $(seq "$R"); do
    for side in A B; do
        dir=$A env=(env) x=()
        [ "$side" = B ] && dir=$B
        if [ "$side" = A ] && [ -n "$ea" ]; then
            env=(env "$ea")
            [ "$impl" = openmpi ] && x=(-x "${ea%%=*}")
        fi
        [ -x "$probe" ] && "$probe" >&2
        echo "ab_mpi.sh: round $r of $R, $side ($dir${ea:+, A with $ea}), $impl $P x $T" >&2
        "${env[@]}" "${launch[@]}" "${x[@]}" "$dir/tests/mpi/bench_coll" -n "$T" "$@" >"$tmp/$side.$r"
    done
done
[ -x "$probe" ] && "$probe" >&2
python3 - "$tmp" "$R" <<'EOF'
import statistics, sys
tmp, R = sys.argv[1], int(sys.argv[2])
def rows(path):
    out = {}
    for line in open(path):
        f = line.split()
        # figure names have spaces: the last four fields are numbers
        if len(f) >= 5 and not line.startswith("#") and f[-1].replace(".", "", 1).isdigit():
            try:
                out[" ".join(f[:-4]) + " " + f[-4]] = (float(f[-2]), float(f[-1]))
            except ValueError:
                pass
    return out
sides = {s: [rows(f"{tmp}/{s}.{r}") for r in range(1, R + 1)] for s in "AB"}
order = list(sides["A"][0])
print(f"# {R} rounds in turns; tupc's ns per call (median), B / A, and each side's tupc / raw")
print(f"{'figure':30} {'A_ns':>10} {'B_ns':>10} {'B/A':>6} {'A/raw':>7} {'B/raw':>7}")
for k in order:
    a = [x[k] for x in sides["A"] if k in x]
    b = [x[k] for x in sides["B"] if k in x]
    if not a or not b:
        continue
    ma, mb = statistics.median(v[0] for v in a), statistics.median(v[0] for v in b)
    ra, rb = statistics.median(v[1] for v in a), statistics.median(v[1] for v in b)
    print(f"{k:30} {ma:10.0f} {mb:10.0f} {mb / ma:6.2f} {ra:7.2f} {rb:7.2f}")
EOF
