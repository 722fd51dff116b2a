#!/bin/sh
# wait_tune.sh IMPL LAUNCHER PROG: two processes of one thread, each bound
# to a core of its own, must spin in their waits (a CPU per thread), though
# THREADS (2) exceeds the CPUs each process may use (1): the waits are tuned
# by the threads that share a process's CPUs, not by THREADS, which counts
# the other processes' threads too. And two processes that share one CPU
# (taskset around the launcher, as a cgroup would) must not spin, though the
# node has more CPUs online: the node's CPUs are those its processes may use.
set -eu
impl=$1 launcher=$2 prog=$3
[ "$(nproc --all)" -ge 2 ] || exit 77 # one core: both processes share it
case $impl in
openmpi)
    set -- --bind-to core -x TUPC_VERBOSE -np 2 "$prog" -n 1 2
    [ "$(id -u)" -eq 0 ] && set -- --allow-run-as-root "$@"
    ;;
mpich) set -- -bind-to core -n 2 "$prog" -n 1 2 ;;
esac
out=$(TUPC_VERBOSE=1 "$launcher" "$@" 2>&1) || {
    echo "$out"
    exit 1
}
echo "$out" | grep '^tupc: waits' || true
# The last tuning of each process is the one its run keeps.
n=$(echo "$out" | grep -c '^tupc: waits spin 20000 times, yield 200, nap 0 (a CPU per thread)$' || true)
[ "$n" -eq 2 ] || {
    echo "wait_tune.sh: expected both processes to spin (a CPU per thread)"
    exit 1
}
case $impl in
openmpi)
    set -- --oversubscribe --bind-to none -x TUPC_VERBOSE -np 2 "$prog" -n 1 2
    [ "$(id -u)" -eq 0 ] && set -- --allow-run-as-root "$@"
    ;;
mpich) set -- -n 2 "$prog" -n 1 2 ;;
esac
out=$(TUPC_VERBOSE=1 taskset -c 0 "$launcher" "$@" 2>&1) || {
    echo "$out"
    exit 1
}
echo "$out" | grep '^tupc: waits' || true
# Two tunings per process (tupc_run's by THREADS, then the crowd's), none
# that spins.
n=$(echo "$out" | grep -c '^tupc: waits.*(more threads than CPUs)$' || true)
[ "$n" -eq 4 ] || {
    echo "wait_tune.sh: expected both processes on one CPU not to spin (more threads than CPUs)"
    exit 1
}
