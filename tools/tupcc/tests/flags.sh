#!/bin/sh
# flags.sh TUPCC: the spellings of static THREADS other UPC compilers take
# (-T N of Berkeley upcc, -fupc-threads-N of GNU UPC, -fupc-threads=N) fix
# THREADS as -n N does; -T FILE stays a linker script; --version names
# tupc's version and the clang tupcc drives.
set -eu
tupcc=$1
command -v clang >/dev/null 2>&1 || { echo "no clang: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
int main(void)
{
    if (MYTHREAD == 0)
        printf("THREADS %d static %d\n", THREADS, THREADS == 3);
    return 0;
}
UPC
cd "$tmp"
spellings='"-n 3" "-n3" "-T 3" "-T3" "-T=3" "-fupc-threads-3" "-fupc-threads=3"'
# TUPC_TEST_QUICK: one spelling of each compiler's (CI builds them all)
[ -n "${TUPC_TEST_QUICK:-}" ] && spellings='"-T 3" "-fupc-threads-3" "-fupc-threads=3"'
eval "set -- $spellings"
for spelling in "$@"; do
    # shellcheck disable=SC2086
    "$tupcc" $spelling t.upc -o t
    # Static THREADS: with no -n the program runs its 3 THREADS.
    got=$(env -u UPC_THREADS ./t)
    echo "$spelling: $got"
    [ "$got" = "THREADS 3 static 1" ]
done
# -T with a file is the linker's: an empty linker script the link rejects
# or takes, but never THREADS.
if "$tupcc" -E -T not_a_number t.upc 2>&1 | grep -q "number of threads"; then
    echo "-T FILE read as THREADS"
    exit 1
fi
"$tupcc" --version >version
cat version
grep -q "^tupcc (tupc) [0-9]*\.[0-9]*\.[0-9]*$" version
grep -q "^clang: .*clang.*version" version
echo "static THREADS spellings and --version: ok"
