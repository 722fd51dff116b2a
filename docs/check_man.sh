#!/bin/sh
# check_man.sh SOURCE_ROOT: the man_pages test.
#
# 1. Every public name of include/*.h has a section 3 page: the functions
#    (declared after preprocessing, so that macro-generated declarations such
#    as upc_all_reduceL count), the function-like macros and the typedefs.
#    Internal names end in '_' and are skipped. docs/man/NAME.3 must exist;
#    if it is a ".so man3/TARGET.3" alias, TARGET.3 must be a real page; and
#    NAME must appear in the NAME section of the real page.
# 2. Every object-like macro with a value (UPC_IN_NOSYNC, THREADS, ...),
#    those of the generated tupc_version.h included, opens a page: `man NAME`
#    (a page or a .so alias, checked as in 1).
# 3. Every file in docs/man is installed by docs/meson.build.
# 4. Where groff is installed, every real page formats without warnings.
# 5. Every name a NAME section lists opens a page.
# 6. Where mandoc is installed (dev.sh installs it, so CI has it), every page
#    in docs/man, the .so aliases included, passes `mandoc -Tlint -W warning`
#    with no message; without mandoc this check is skipped, with a message.
#
# Uses $CC (default cc) for the preprocessor.
set -eu

root=$(cd "${1:?usage: check_man.sh SOURCE_ROOT}" && pwd)
inc=$root/include
man=$root/docs/man
CC=${CC:-cc}
fail=0
tmp=$(mktemp -d)
trap '[ -n "${CHECK_MAN_KEEP:-}" ] || rm -rf "$tmp"' EXIT

err() {
    echo "check_man: $*" >&2
    fail=1
}

# ---- 1. functions, function-like macros, typedefs -------------------------
# tupc_impl.h holds what the public macros need, under the reserved
# tupc_impl_ prefix: not an API, so no pages; upc.h includes it.
public_headers=$(ls "$inc"/*.h | grep -v '/tupc_impl\.h$')
# <upc.h> includes the generated tupc_version.h: here, from its template.
mkdir "$tmp/gen"
sed 's/@VERSION@/0.0.0/; s/@[A-Z]*@/0/' "$inc/tupc_version.h.in" >"$tmp/gen/tupc_version.h"
for h in $public_headers; do
    echo "#include \"$h\""
done >"$tmp/all.c"
# Keep only the text that comes from our headers (not <stdint.h> and the like).
if ! $CC -E -I"$inc" -I"$tmp/gen" "$tmp/all.c" >"$tmp/cpp.out"; then
    err "$CC -E failed on include/*.h"
    exit 1
fi
awk -v inc="$inc/" '
    /^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); keep = index(f, inc) == 1 && f !~ /tupc_impl\.h$/; next }
    /^#pragma/ { next }
    keep' "$tmp/cpp.out" >"$tmp/pp.c"

# Split the preprocessed text into top-level declarations and print the name
# each one declares: "F name" for a function, "T name" for a typedef.
awk '
    { text = text " " $0 }
    END {
        # __attribute__((...)) would look like a function: drop them.
        while ((i = index(text, "__attribute__")) > 0) {
            j = i + length("__attribute__"); d = 0
            for (; j <= length(text); j++) {
                c = substr(text, j, 1)
                if (c == "(") d++
                else if (c == ")") { d--; if (d == 0) break }
            }
            text = substr(text, 1, i - 1) substr(text, j + 1)
        }
        depth = 0; stmt = ""; fndef = 0
        for (k = 1; k <= length(text); k++) {
            c = substr(text, k, 1)
            if (c == "{") {
                if (depth == 0) {
                    s = stmt; sub(/[ \t]+$/, "", s)
                    fndef = s ~ /\)$/
                    stmt = stmt "{}"
                }
                depth++
                continue
            }
            if (c == "}") {
                depth--
                if (depth == 0 && fndef) { emit(stmt); stmt = ""; fndef = 0 }
                continue
            }
            if (depth > 0) continue
            if (c == ";") { emit(stmt); stmt = ""; continue }
            stmt = stmt c
        }
    }
    function emit(s,    name, m) {
        gsub(/[ \t]+/, " ", s)
        if (s ~ /^ ?typedef /) {
            if (match(s, /[A-Za-z_][A-Za-z0-9_]* ?$/)) {
                name = substr(s, RSTART, RLENGTH); gsub(/ /, "", name)
                print "T " name
            }
            return
        }
        if (match(s, /[A-Za-z_][A-Za-z0-9_]* ?\(/)) {
            name = substr(s, RSTART, RLENGTH); sub(/ ?\($/, "", name)
            print "F " name
        }
    }' "$tmp/pp.c" >"$tmp/decls"

# Function-like macros, from the headers themselves.
sed -n 's/^[ \t]*#[ \t]*define[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)(.*/M \1/p' $public_headers >>"$tmp/decls"

grep -v '_$' "$tmp/decls" | grep -v ' __' | sort -u >"$tmp/names"
if [ ! -s "$tmp/names" ]; then
    err "found no declarations in $inc/*.h (is \$CC=$CC a C compiler?)"
    exit 1
fi

# ---- 2. object-like macros with a value: a page each, as the names above --
sed -n 's/^[ \t]*#[ \t]*define[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)[ \t]\{1,\}[^ \t].*/C \1/p' \
    $public_headers "$inc/tupc_version.h.in" | grep -v '_$' | grep -v ' __' | sort -u >>"$tmp/names"

# Every page read once (a process per name took half a minute): for each
# file, whether it is there, the target of its first ".so" line, and the
# words of its NAME section.
pages=$(ls "$man"/*)
count=$(wc -l <"$tmp/names")
# shellcheck disable=SC2086
awk -v names="$tmp/names" '
    FILENAME != names {
        b = FILENAME; sub(/.*\//, "", b)
        if (FNR == 1) { exists[b] = 1; on = 0 }
        if ($1 == ".so" && !(b in so)) { t = $2; sub(/.*\//, "", t); so[b] = t }
        if ($1 == ".SH") { on = ($2 == "NAME"); next }
        if (on) {
            line = $0; gsub(/,/, " ", line)
            n = split(line, w, /[ \t]+/)
            for (i = 1; i <= n; i++) if (w[i] != "") in_name[b, w[i]] = 1
        }
        next
    }
    {
        name = $2; page = name ".3"
        if (!(page in exists)) { print name " (declared in include/) has no page docs/man/" page; next }
        target = page
        if (page in so) {
            target = so[page]
            if (!(target in exists)) { print "docs/man/" page " refers to " target ", which is not in docs/man"; next }
            if (target in so) { print "docs/man/" page " refers to " target ", which is itself an alias"; next }
        }
        if (!((target, name) in in_name)) print name " is not in the NAME section of docs/man/" target
    }' $pages "$tmp/names" >"$tmp/pages.out"
if [ -s "$tmp/pages.out" ]; then
    sed 's/^/check_man: /' "$tmp/pages.out" >&2
    fail=1
fi

# ---- 3. every page is installed ---------------------------------------------
grep -o "'man/[^']*'" "$root/docs/meson.build" | sed "s/'man\/\(.*\)'/\1/" | sort -u >"$tmp/installed"
ls "$man" | sort >"$tmp/present"
comm -23 "$tmp/present" "$tmp/installed" >"$tmp/uninstalled"
while read -r b; do
    err "docs/man/$b is not installed by docs/meson.build"
done <"$tmp/uninstalled"

# The real pages (not .so aliases).
real_pages=$(grep -L '^\.so' "$man"/*.3 "$man"/*.7)

# ---- 4. the pages format cleanly --------------------------------------------
# All in one groff run; only where it warns, page by page to say which.
# shellcheck disable=SC2086
if command -v groff >/dev/null 2>&1 && [ -n "$(groff -man -ww -z $real_pages 2>&1)" ]; then
    for f in $real_pages; do
        out=$(groff -man -ww -z "$f" 2>&1) || true
        if [ -n "$out" ]; then
            err "docs/man/$(basename "$f") has groff warnings:"
            echo "$out" >&2
        fi
    done
fi

# ---- 5. every name a NAME section lists opens a page -------------------------
# (`man UPC_ADD` finds upc_op_t.3 through UPC_ADD.3, a .so alias.)
# shellcheck disable=SC2086
awk -v list="$tmp/present" '
    FILENAME == list { exists[$0] = 1; next }
    FNR == 1 { b = FILENAME; sub(/.*\//, "", b); on = 0 }
    /^\.SH/ { on = ($0 ~ /^\.SH NAME/); next }
    on {
        line = $0; sub(/\\-.*/, "", line)
        n = split(line, w, ",")
        for (i = 1; i <= n; i++) {
            x = w[i]; gsub(/^ +| +$/, "", x)
            if (x != "" && !((x ".3") in exists) && !((x ".7") in exists))
                print "check_man: " x ", in the NAME section of docs/man/" b ", has no page"
        }
    }' "$tmp/present" $real_pages >"$tmp/names.out"
if [ -s "$tmp/names.out" ]; then
    cat "$tmp/names.out" >&2
    fail=1
fi

# ---- 6. mandoc -Tlint ----------------------------------------------------------
# The pages are linted from a copy laid out as they are installed (man1/,
# man3/, man7/), so that an alias's ".so man3/TARGET.3" resolves and is
# checked. The one message dropped is mandoc's advice to make such aliases
# links instead (".so is fragile, better use ln(1)"): the aliases are .so
# pages on purpose (man-db follows them, and check 1 relies on them).
linted=
if command -v mandoc >/dev/null 2>&1; then
    for sec in $(sed 's/.*\.//' "$tmp/present" | sort -u); do
        mkdir -p "$tmp/lint/man$sec"
        cp "$man"/*."$sec" "$tmp/lint/man$sec/"
    done
    (cd "$tmp/lint" && mandoc -Tlint -W warning man*/* 2>&1 || true) |
        grep -v ': WARNING: \.so is fragile, better use ln(1): so ' |
        sed 's|\(^mandoc: \)man[0-9]/|\1docs/man/|' >"$tmp/lint.out" || true
    if [ -s "$tmp/lint.out" ]; then
        err "mandoc -Tlint -W warning reports $(wc -l <"$tmp/lint.out") problems:"
        cat "$tmp/lint.out" >&2
    fi
    linted=", mandoc -Tlint clean"
else
    echo "check_man: mandoc is not installed: skipping the mandoc -Tlint check (./dev.sh installs mandoc)" >&2
fi

if [ "$fail" -ne 0 ]; then
    exit 1
fi
echo "check_man: $count public names, $(grep -c "^C " "$tmp/names") of them constants: every one opens a page$linted"
