#!/bin/sh
# run.sh IMPL LAUNCHER NP T [tcp] -- PROG ARGS...: PROG under mpirun, NP
# processes of T threads. IMPL openmpi or mpich; tcp (Open MPI): every
# byte through TCP, none through shared memory (the BTLs for messages,
# UCX_TLS for the one-sided transfers of osc/ucx).
set -eu
impl=$1 launcher=$2 np=$3 t=$4
shift 4
net=
if [ "$1" = tcp ]; then
    net=tcp
    shift
fi
[ "$1" = -- ] && shift
prog=$1
shift
case $impl in
openmpi)
    # --oversubscribe: more processes than the machine's cores;
    # --bind-to none: a process's T threads must not share one core.
    set -- --oversubscribe --bind-to none -np "$np" "$prog" -n "$t" "$@"
    [ "$(id -u)" -eq 0 ] && set -- --allow-run-as-root "$@"
    [ -n "$net" ] && set -- --mca btl tcp,self -x UCX_TLS=tcp,self "$@"
    exec "$launcher" "$@"
    ;;
mpich)
    exec "$launcher" -n "$np" "$prog" -n "$t" "$@"
    ;;
esac
echo "run.sh: unknown MPI $impl" >&2
exit 2
