#!/bin/sh
# The environment variables come from one table (lib/runtime/config.c):
# the README's table is the one it prints, and a TUPC_* name it does not
# know draws one line on stderr naming the closest known one.
#   env.sh SOURCE_ROOT ENV_TABLE MAIN_ARGS
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^## Environment variables/ { on = 1; next }
     on && /^\|/ { print; seen = 1; next }
     on && seen { exit }' "$1/README.md" >"$tmp/readme"
"$2" >"$tmp/table"
if ! diff -u "$tmp/readme" "$tmp/table"; then
    echo "env.sh: the README's table (-) differs from lib/runtime/config.c's (+)"
    exit 1
fi
# A misspelt name, and a known one beside it that must not be named.
env -u TUPC_TEST_QUICK TUPC_SPINN=10 TUPC_YIELD=3 MAIN_ARGS_EXPECT= "$3" -n 3 2>"$tmp/err"
want="tupc: warning: TUPC_SPINN is no variable of tupc (the closest is TUPC_SPIN)"
if [ "$(cat "$tmp/err")" != "$want" ]; then
    echo "env.sh: expected exactly the line"
    echo "  $want"
    echo "on stderr, got:"
    cat "$tmp/err"
    exit 1
fi
# TUPC_VERBOSE names the algorithms UPC_TEAM_ALL's calls take, chosen for
# its size when the run starts (struct tupc_team_algos): the entries read up
# to 16 THREADS, a barrier above; no small-call path while the stats are on.
# (main_args wants 3 THREADS and fails at 17, after the line is printed.)
check_algos() { # THREADS VAR=VALUE WANT
    got=$(env -u TUPC_TEST_QUICK TUPC_VERBOSE=1 $2 MAIN_ARGS_EXPECT= "$prog" -n "$1" 2>&1 |
        sed -n "s/^tupc: UPC_TEAM_ALL's calls: //p")
    if [ "$got" != "$3" ]; then
        echo "env.sh: at $1 THREADS with $2, TUPC_VERBOSE said"
        echo "  $got"
        echo "expected"
        echo "  $3"
        exit 1
    fi
}
prog=$3
check_algos 3 TUPC_CHECKS=default "barrier: the barrier of all threads; reductions' IN_ALLSYNC: each member's entry read; small reductions: one member reads every piece"
check_algos 17 TUPC_CHECKS=default "barrier: the barrier of all threads; reductions' IN_ALLSYNC: a barrier; small reductions: partials combined"
check_algos 3 TUPC_STATS=1 "barrier: the barrier of all threads; reductions' IN_ALLSYNC: each member's entry read; small reductions: partials combined"
echo "env.sh: README table and config.c's agree ($(wc -l <"$tmp/table") lines); unknown names warned; UPC_TEAM_ALL's algorithms as chosen"
