#!/bin/sh
# tupcc.sh TUPCC RUN.SH IMPL LAUNCHER OUTDIR UPC...: each UPC program
# translated once by tupcc (the accessors for every access it cannot prove
# local) and run under mpirun at 2 x 2, 4 x 1 and 3 x 2; each checks its
# own answers (status 0). $TUPCC_CFLAGS goes to tupcc (a sanitizer build
# passes its -fsanitize).
set -eu
tupcc=$1 run=$2 impl=$3 launcher=$4 out=$5
shift 5
mkdir -p "$out"
for f in "$@"; do
    name=$(basename "$f" .upc)
    # shellcheck disable=SC2086
    "$tupcc" ${TUPCC_CFLAGS:-} "$f" -o "$out/$name"
    for shape in 2x2 4x1 3x2; do
        np=${shape%x*} t=${shape#*x}
        if ! sh "$run" "$impl" "$launcher" "$np" "$t" -- "$out/$name"; then
            echo "tupcc.sh: $name failed at $np x $t" >&2
            exit 1
        fi
        echo "tupcc.sh: $name passed at $np x $t"
    done
done
