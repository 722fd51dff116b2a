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
echo "env.sh: README table and config.c's agree ($(wc -l <"$tmp/table") lines); unknown names warned"
