#!/bin/sh
# wait_tune.sh IMPL LAUNCHER PROG: two processes of one thread, each bound
# to a core of its own, must spin in their waits (a CPU per thread), though
# THREADS (2) exceeds the CPUs each process may use (1): the waits are tuned
# by the threads that share a process's CPUs, not by THREADS, which counts
# the other processes' threads too. And two processes that share one CPU
# (taskset around the launcher, as a cgroup would) must not spin, though the
# node has more CPUs online: the node's CPUs are those its processes may use.
# Those two, a thread each on one CPU, must not nap (two threads per CPU);
# two threads each on one CPU must (four). TUPC_VERBOSE's placement must
# say that no thread is pinned by THREADS (the launcher places them); where
# the launcher bound none and the node's CPUs divide evenly, each process's
# threads go to a share of their own, a different one in each process. A
# process whose CPUs no other process of the node uses (a core each, or a
# share each) must say so, so that its leader polls MPI before it yields;
# two processes on one CPU must not.
set -eu
impl=$1 launcher=$2 prog=$3
[ "$(nproc --all)" -ge 2 ] || exit 77 # one core: both processes share it

# check WANT PATTERN WHAT [PREFIX...] -- LAUNCHER-OPTIONS...: two processes of
# $threads threads under PREFIX and the launcher; WANT lines of their waits'
# tunings must match PATTERN.
threads=1
check() {
    want=$1 pattern=$2 what=$3
    shift 3
    pre=
    while [ "$1" != -- ]; do
        pre="$pre $1"
        shift
    done
    shift
    [ "$impl" = openmpi ] && [ "$(id -u)" -eq 0 ] && set -- --allow-run-as-root "$@"
    [ "$impl" = openmpi ] && set -- -x TUPC_VERBOSE "$@"
    out=$(TUPC_VERBOSE=1 $pre "$launcher" "$@" -np 2 "$prog" -n $threads $((2 * threads)) 2>&1) || {
        echo "$out"
        exit 1
    }
    echo "$out" | grep '^tupc: waits' || true
    echo "$out" | grep '^tupc: the node' || true
    echo "$out" | grep -i "^tupc: .*process's CPUs" || true
    # Across processes the launcher places the threads: none pinned, and
    # TUPC_VERBOSE must not say otherwise.
    if echo "$out" | grep '^tupc:   thread [0-9]*: cpu [0-9]'; then
        echo "wait_tune.sh: expected no thread pinned across processes"
        exit 1
    fi
    n=$(echo "$out" | grep -c "$pattern" || true)
    [ "$n" -eq "$want" ] || {
        echo "wait_tune.sh: expected $what"
        exit 1
    }
}
bind=--bind-to free="--oversubscribe --bind-to none"
[ "$impl" = mpich ] && bind=-bind-to free=
# A core each: the last tuning of each process (the one its run keeps) spins.
check 2 '^tupc: waits spin 20000 times, yield 200, nap 0 (a CPU per thread)$' \
    "both processes to spin (a CPU per thread)" -- $bind core
[ "$(echo "$out" | grep -c "^tupc: no other process of the node runs on this process's CPUs")" \
    -eq 2 ] || {
    echo "wait_tune.sh: expected a core each to be each process's own"
    exit 1
}
# One CPU for both: two tunings per process (tupc_run's by THREADS, then the
# crowd's), none that spins; the crowd's (two threads on the CPU) not to nap.
check 4 '^tupc: waits spin 0 times.*(more threads than CPUs)$' \
    "both processes on one CPU not to spin (more threads than CPUs)" taskset -c 0 -- $free
check 2 '^tupc: waits spin 0 times, yield 8, nap 0 (more threads than CPUs)$' \
    "both processes on one CPU, a thread each, not to nap" taskset -c 0 -- $free
[ "$(echo "$out" | grep -c "^tupc: other processes of the node may run on this process's CPUs")" \
    -eq 2 ] || {
    echo "wait_tune.sh: expected one CPU for both not to be either's own"
    exit 1
}
# Two threads each on one CPU: every tuning naps.
threads=2
check 4 '^tupc: waits spin 0 times, yield 8, nap 100 (more threads than CPUs)$' \
    "both processes on one CPU, two threads each, to nap" taskset -c 0 -- $free
# Bound by nobody, a node whose CPUs divide between the two processes:
# each process's two threads pinned to its own share.
threads=2
cpus=$(nproc)
share=0
[ $((cpus % 2)) -eq 0 ] && share=2
check $share "^tupc: the node's 2 processes share its $cpus CPUs: this process's 2 threads pinned" \
    "each process's threads pinned to a share of the node's CPUs" -- $free
if [ $share -eq 2 ]; then
    shares=$(echo "$out" | grep "^tupc: the node's" | sed 's/.*pinned to //' | sort -u | wc -l)
    [ "$shares" -eq 2 ] || {
        echo "wait_tune.sh: expected the two processes on different CPUs"
        exit 1
    }
    [ "$(echo "$out" | grep -c "^tupc: no other process of the node runs on this process's CPUs")" \
        -eq 2 ] || {
        echo "wait_tune.sh: expected each process's share to be its own"
        exit 1
    }
fi
