#!/bin/sh
# samples.sh RUN.SH IMPL LAUNCHER NET TUPCC OUTDIR PROG...: each sample under
# mpirun at 2 x 2 and 4 x 1 (NET tcp: Open MPI over TCP only, else -). A
# PROG is a program built from samples/NAME.c (named mpi_sample_NAME), or
# samples/NAME.upc, which TUPCC translates into OUTDIR first. Each must end
# with status 0, which the samples give only when their own check of the
# answer passed, and print the line that states its result. $TUPCC_CFLAGS
# goes to tupcc (a sanitizer build passes its -fsanitize).
set -eu
run=$1 impl=$2 launcher=$3 net=$4 tupcc=$5 out=$6
shift 6
[ "$net" = - ] && net=
mkdir -p "$out"
for prog in "$@"; do
    name=$(basename "$prog" .upc)
    name=${name#mpi_sample_}
    form=C
    case $prog in
    *.upc)
        form=UPC
        # Fewer locked updates than the sample's default: across processes
        # each is a lock, a get and a put through MPI.
        flags=
        [ "$name" = histogram ] && flags=-DSAMPLES=500
        # shellcheck disable=SC2086
        "$tupcc" $flags ${TUPCC_CFLAGS:-} "$prog" -o "$out/$name"
        prog=$out/$name
        ;;
    esac
    case $name in
    matmul) want='^matmul: 96 x 96 product on' ;;
    pi) want='^pi ~ 3\.14159265' ;;
    histogram) want='^bin  *locked  *reduced' ;;
    prefix_sum) want='^prefix_sum: sum\[999\] = ' ;;
    sample_sort) want='^sample_sort: 10000 keys sorted on' ;;
    transpose) want='^transpose: 100 x 100 matrix transposed' ;;
    heat) want='^heat: ' ;;
    *) want= ;;
    esac
    for shape in 2x2 4x1; do
        np=${shape%x*} t=${shape#*x}
        if ! res=$(sh "$run" "$impl" "$launcher" "$np" "$t" $net -- "$prog" 2>&1); then
            printf '%s\n' "$res"
            echo "samples.sh: $name ($form) failed at $np x $t" >&2
            exit 1
        fi
        if [ -n "$want" ] && ! printf '%s\n' "$res" | grep -q -- "$want"; then
            printf '%s\n' "$res"
            echo "samples.sh: $name ($form) at $np x $t printed no line matching '$want'" >&2
            exit 1
        fi
        echo "samples.sh: $name ($form) passed at $np x $t"
    done
done
