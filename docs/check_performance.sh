#!/usr/bin/env bash
# check_performance.sh SOURCE_ROOT: the performance_page test. Runs no
# benchmark: tests/bench/perf_page.sh --from-csv redraws the plots and writes
# the page from the CSV files checked in under docs/performance/, into a
# temporary directory, and then
#   1. every plot checked in (docs/performance/*.svg) is drawn again, and each
#      drawn plot is an SVG document that parses as XML, with axis labels
#      and a legend (text elements);
#   2. the page shows every plot: performance/NAME.svg for each of them;
#   3. docs/performance.md is the page the script writes from those CSV files
#      (nobody edited it by hand, and the CSV files are the ones it shows);
#   4. README.md links docs/performance.md.
# Skipped (exit 77) where gnuplot or python3 is missing (dev.sh installs
# gnuplot-nox, so CI runs it).
set -euo pipefail
root=${1:?usage: check_performance.sh SOURCE_ROOT}
for t in gnuplot python3; do
    command -v "$t" >/dev/null || {
        echo "SKIP: $t not found (Debian: apt-get install gnuplot-nox python3)"
        exit 77
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() {
    echo "FAIL: $*"
    fail=1
}

"$root/tests/bench/perf_page.sh" --from-csv "$root/docs/performance" -o "$tmp" 2>"$tmp/log" || {
    cat "$tmp/log"
    echo "FAIL: perf_page.sh --from-csv exited with an error"
    exit 1
}
page=$tmp/performance.md

shopt -s nullglob
want=("$root"/docs/performance/*.svg)
[ ${#want[@]} -gt 0 ] || err "no plot checked in under docs/performance/"
for f in "${want[@]}"; do
    n=$(basename "$f")
    [ -s "$tmp/performance/$n" ] || err "$n: not drawn again from the CSV files"
done
for f in "$tmp"/performance/*.svg; do
    n=$(basename "$f")
    python3 - "$f" <<'EOF' || err "$n: not a readable SVG with labels and a legend"
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
texts = " ".join("".join(t.itertext()) for t in root.iter() if t.tag.endswith("text"))
# axis labels with units or scales, and a legend naming tupc
assert "log scale" in texts, "no axis label"
assert "tupc" in texts, "no legend naming tupc"
EOF
    grep -qF "(performance/$n)" "$page" || err "$n: the page does not show it"
    echo "ok   $n"
done
if ! diff -u "$root/docs/performance.md" "$page" >"$tmp/diff"; then
    head -n 40 "$tmp/diff"
    err "docs/performance.md differs from what tests/bench/perf_page.sh --from-csv docs/performance writes"
fi
grep -q '(docs/performance.md)' "$root/README.md" || err "README.md does not link docs/performance.md"
[ $fail = 0 ] && echo "ok   docs/performance.md is the page of docs/performance/*.csv"
exit $fail
