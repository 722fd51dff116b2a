#!/usr/bin/env bash
# The performance page in one command: docs/performance.md, what tupc costs
# beside Open MPI, MPICH, OpenMP (libgomp) and POSIX threads on this machine
# today, as tables and as SVG plots drawn by gnuplot:
#   - latency against message size of broadcast, scatter, gather, gather_all
#     and exchange, log-log, tupc (NO|NO and ALL|ALL) beside MPI_Bcast,
#     MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoall of both MPIs and
#     the all-threads memcpy floor (compare_reloc.sh);
#   - ns per barrier against THREADS = 1 to 64 (2 CPUs: up to 32x
#     oversubscribed) beside pthread_barrier_wait, the libgomp barrier, a
#     central barrier whose waiters yield and then usleep (bench_barrier) and
#     MPI_Barrier (Open MPI at every count, MPICH up to the CPU count);
#   - bandwidth of reduce and prefix reduce against size beside an OpenMP
#     reduction, MPI_Reduce and MPI_Scan, the streaming-copy floor of a prefix
#     reduction and the all-threads read bandwidth (compare_reduce.sh).
# Every figure says which phase of the VM (fast or slow, from the cache-line
# probe the benchmarks print) it was taken in.
#
#   tests/bench/perf_page.sh [-n P] [-r ROUNDS] [-b BUILD] [-o DIR] [--quick]
#                            [--wait-quiet] [--wait-max MIN]
#   tests/bench/perf_page.sh --from-csv SRC [-o DIR]
#
# It builds BUILD (default build-release) as a release tree if needed, runs
# the benchmarks (raw outputs in BUILD/perf/), and writes the CSV files and
# plots to DIR/performance/ and the page to DIR/performance.md (DIR: default
# docs). compare_reloc.sh runs ROUNDS rounds (default 11); the benchmarks
# take about 3 minutes on 2 CPUs; --quick gives each benchmark --quick (a
# tenth of the calls: noisier). --wait-quiet waits before each benchmark
# until the 1-minute load is below 0.7 and no build (ninja, cc1, clang,
# meson, ld) or CI run of someone else's is running, at most --wait-max
# minutes in all (default 25), and gives up with exit status 3 after that;
# a benchmark with 64 threads leaves a load that takes about 2 minutes to
# fall below 0.7, so a quiet run takes about 10 minutes.
#
# --from-csv SRC runs nothing: it draws the plots and writes the page again
# from the CSV files in SRC (a DIR/performance/ of an earlier run); the test
# docs/check_performance.sh runs it on docs/performance/.
#
# Each step is one line on stderr ("perf_page.sh: [3/7] ..."); the
# benchmarks show their sizes when stderr is a terminal; the last lines say
# where the files are. Needs gnuplot (Debian: gnuplot-nox) and, for the MPI
# peers, openmpi-bin libopenmpi-dev mpich libmpich-dev (a missing MPI is left
# out of the page).
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

usage() {
    sed -n '/^#   tests/,/^#   tests.*--from-csv/p' "$0" | sed 's/^#   /usage: /;2s/^usage: /       /'
}

P=2
ROUNDS=11
BUILD=build-release
OUT=docs
FROM=
quick=0
wait_quiet=0
wait_max=25
args_given="$*"
while [ $# -gt 0 ]; do
    case $1 in
    -n) P=$2; shift 2 ;;
    -r) ROUNDS=$2; shift 2 ;;
    -b) BUILD=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --wait-quiet) wait_quiet=1; shift ;;
    --wait-max) wait_max=$2; shift 2 ;;
    --from-csv) FROM=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
    esac
done

DATA=$OUT/performance
TEMPLATE=tests/bench/perf_page.md.in
log() { echo "perf_page.sh: $*" >&2; }
nsteps=7
k=0
step() {
    k=$((k + 1))
    log "[$k/$nsteps] $*"
    if [ -n "${WORK:-}" ] && [ -d "$WORK" ]; then echo "$*" >"$WORK/step"; fi
}

command -v gnuplot >/dev/null || { log "gnuplot not found (Debian: apt-get install gnuplot-nox)"; exit 1; }

# ---- The machine: quiet or not ----------------------------------------------

# Builds and CI runs that are not this script's (nor its children's, by
# parent or process group): "PID NAME".
MYPGID=$(ps -o pgid= -p $$ | tr -d ' ')
foreign_procs() {
    ps -eo pid=,ppid=,pgid=,comm=,args= | awk -v me=$$ -v pg="$MYPGID" '
        { pp[$1] = $2; grp[$1] = $3; comm[$1] = $4; line[$1] = $0 }
        END {
            for (p in comm) {
                c = comm[p]
                if (c !~ /^(ninja|cc1|cc1plus|clang|clang-[0-9]+|meson|ld|ld\.bfd|ld\.gold|collect2)$/ &&
                    !index(line[p], "/tmp/ciclone"))
                    continue
                if (grp[p] == pg) continue
                q = p
                for (n = 0; q != "" && q > 1 && n < 200; n++) {
                    if (q == me) break
                    q = pp[q]
                }
                if (q != me) print p, c
            }
        }'
}

load1() { cut -d' ' -f1 /proc/loadavg; }

waited=0
wait_for_quiet() {
    # Between benchmarks: what the watcher sees now is not during one.
    if [ -n "${WORK:-}" ] && [ -d "$WORK" ]; then echo - >"$WORK/step"; fi
    [ "$wait_quiet" = 1 ] || return 0
    local busy
    while :; do
        busy=$(foreign_procs | awk '{print $2}' | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
        if [ -z "$busy" ] && awk -v l="$(load1)" 'BEGIN { exit !(l < 0.7) }'; then
            return 0
        fi
        if [ "$waited" -ge $((wait_max * 60)) ]; then
            log "gave up: the machine was not quiet after ${waited} s of waiting in all (load $(load1)${busy:+, running: $busy})"
            exit 3
        fi
        [ $((waited % 60)) = 0 ] && log "waiting for a quiet machine: load $(load1)${busy:+, running: $busy} (${waited} s so far)"
        sleep 10
        waited=$((waited + 10))
    done
}

# ---- Measuring ---------------------------------------------------------------

measure() {
    local B=$BUILD/tests/bench cpus q=() t0
    cpus=$(nproc)
    [ "$quick" = 0 ] || q=(--quick)
    WORK=$BUILD/perf
    step "release build in $BUILD (bench_barrier, bench_reloc, bench_reduce, bench_probe)"
    [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" --buildtype=release >/dev/null
    ninja -C "$BUILD" -j2 tests/bench/bench_barrier tests/bench/bench_reloc tests/bench/bench_reduce \
        tests/bench/bench_probe >/dev/null
    rm -rf "$WORK"
    mkdir -p "$WORK" "$DATA"
    t0=$(date -u +%s)
    date -u '+%Y-%m-%d %H:%M' >"$WORK/start"

    # Watches, every 5 s, for someone else's build or CI while the
    # benchmarks run; what it saw goes on the page. It stops with the script.
    : >"$WORK/disturbed"
    echo - >"$WORK/step"
    (
        while kill -0 $$ 2>/dev/null && sleep 5; do
            f=$(foreign_procs | awk '{ print $2 }' | sort -u | tr '\n' ' ')
            [ -z "$f" ] || echo "$(date -u +%T)|$(cat "$WORK/step" 2>/dev/null || echo -)|$f" >>"$WORK/disturbed"
        done
    ) &
    MON=$!
    trap 'kill $MON 2>/dev/null || true' EXIT

    begin barrier "barrier: bench_barrier, THREADS 1 to 64, beside pthread, libgomp and a central barrier"
    "$B/bench_barrier" --threads 1,2,4,8,16,32,64 --reps 21 --csv "$WORK/barrier.csv" >"$WORK/barrier.txt"
    finish

    begin "MPI barrier" "barrier: MPI_Barrier of Open MPI at 1 to 64 ranks and of MPICH up to $cpus"
    echo "impl,np,op,bytes,lat_us,avg_us,min_us" >"$WORK/barrier_mpi.csv"
    local n impls
    for n in 1 2 4 8 16 32 64; do
        impls=openmpi
        [ "$n" -gt "$cpus" ] || impls=openmpi,mpich
        rm -f "$WORK/mpi_barrier/mpi_"*.csv
        tests/bench/run_mpi.sh -n "$n" -o "$WORK/mpi_barrier" --only "$impls" --probe "$B/bench_probe" \
            --ops barrier --min 8 --max 8 "${q[@]}" >"$WORK/barrier_mpi.$n.txt" ||
            log "MPI_Barrier at $n ranks failed; left out"
        for f in "$WORK/mpi_barrier/mpi_"*.csv; do
            if [ -f "$f" ]; then tail -n +2 "$f" >>"$WORK/barrier_mpi.csv"; fi
        done
    done
    finish

    begin relocalization "relocalization: compare_reloc.sh, 8 B to 16 MiB, $ROUNDS rounds, beside Open MPI and MPICH"
    tests/bench/compare_reloc.sh -n "$P" -b "$BUILD" -o "$WORK/reloc" -r "$ROUNDS" --min 8 --max 16M \
        "${q[@]}" --csv "$WORK/reloc.csv" >"$WORK/reloc.txt"
    finish

    begin reductions "reductions: compare_reduce.sh, 8 B to 64 MiB, beside OpenMP, Open MPI and MPICH"
    tests/bench/compare_reduce.sh -n "$P" -b "$BUILD" -o "$WORK/reduce" "${q[@]}" \
        --csv "$WORK/reduce_table.csv" >"$WORK/reduce.txt"
    finish

    step "collecting the CSV files, the probes and the machine"
    kill "$MON" 2>/dev/null || true
    trap - EXIT
    cp "$WORK/barrier.csv" "$DATA/barrier.csv"
    cp "$WORK/barrier_mpi.csv" "$DATA/barrier_mpi.csv"
    cp "$WORK/reloc.csv" "$DATA/reloc.csv"
    cp "$WORK/reduce/tupc_reduce.csv" "$DATA/reduce_tupc.csv"
    {
        echo "impl,np,op,bytes,lat_us,avg_us,min_us"
        for f in "$WORK/reduce/mpi_openmpi.csv" "$WORK/reduce/mpi_mpich.csv"; do
            if [ -f "$f" ]; then awk -F, 'FNR > 1 && $3 ~ /^(reduce|scan)_/' "$f"; fi
        done
    } >"$DATA/reduce_mpi.csv"

    # Every probe line, by figure and by whose run it brackets.
    {
        echo "figure,source,label,rtt_ns,phase"
        probes barrier tupc "$WORK/barrier.txt"
        for n in 1 2 4 8 16 32 64; do probes barrier "" "$WORK/barrier_mpi.$n.txt" "$n ranks"; done
        for f in "$WORK"/reloc/reloc_tupc.*.txt; do
            probes reloc tupc "$f" "round $(basename "$f" .txt | sed 's/.*\.//')"
        done
        for f in "$WORK"/reloc/reloc_mpi.*.txt; do
            probes reloc "" "$f" "round $(basename "$f" .txt | sed 's/.*\.//')"
        done
        probes reduce tupc "$WORK/reduce/tupc_reduce.txt"
        probes reduce "" "$WORK/reduce/mpi_reduce.txt"
    } >"$DATA/phases.csv"

    local t1 mins model l3 ompi mpich disturbed
    t1=$(date -u +%s)
    mins=$(((t1 - t0 + 30) / 60))
    model=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
    l3=$(lscpu 2>/dev/null | awk -F: '/^L3 cache/ { gsub(/^ +/, "", $2); print $2 }')
    ompi=$(mpirun.openmpi --version 2>/dev/null | head -n 1 | sed 's/.*) /Open MPI /') || ompi=
    mpich=$(mpiexec.mpich --version 2>/dev/null | awk '/Version:/ { print "MPICH " $2; exit }') || mpich=
    # Per benchmark: whose builds were seen, in how many of the looks.
    disturbed=$(awk -F'|' '
        $2 != "-" && $2 != "" {
            if (!($2 in n)) order[++m] = $2
            n[$2]++
            k = split($3, a, " ")
            for (i = 1; i <= k; i++) if (!(($2, a[i]) in seen)) { seen[$2, a[i]] = 1; who[$2] = who[$2] " " a[i] }
        }
        END {
            for (i = 1; i <= m; i++) {
                s = order[i]; sub(/:.*/, "", s)
                printf "%s%s: %s in %d looks 5 s apart", (i > 1 ? "; " : ""), s, substr(who[order[i]], 2), n[order[i]]
            }
        }' "$WORK/disturbed")
    {
        echo "key,value"
        echo "machine,$model"
        echo "cpus,$(nproc)"
        echo "l3,${l3:-unknown}"
        echo "virt,$(lscpu 2>/dev/null | awk -F: '/^Hypervisor vendor/ { gsub(/^ +/, "", $2); print $2 " VM" }')"
        echo "kernel,$(uname -r)"
        echo "start,$(cat "$WORK/start") UTC"
        echo "minutes,$mins"
        echo "commit,$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- lib include 2>/dev/null || echo ' with local changes to lib/ or include/')"
        echo "cc,$(cc --version | head -n 1)"
        echo "openmpi,${ompi:-not installed}"
        echo "mpich,${mpich:-not installed}"
        echo "threads,$P"
        echo "rounds,$ROUNDS"
        echo "quick,$([ "$quick" = 1 ] && echo yes || echo no)"
        echo "command,tests/bench/perf_page.sh${args_given:+ $args_given}"
        echo "loads,$(paste -sd';' "$WORK/loads" | sed 's/;/; /g')"
        echo "times,$(paste -sd';' "$WORK/times" | sed 's/;/; /g')"
        if [ "$wait_quiet" = 1 ]; then
            echo "waited,the run waited $waited s in all for an idle machine (--wait-quiet)"
        else
            echo "waited,the run did not wait for an idle machine (no --wait-quiet)"
        fi
        echo "disturbed,${disturbed:-none}"
    } >"$DATA/meta.csv"
}

# begin NAME LABEL: waits for a quiet machine if asked to, says which step
# this is, and notes the load and the time; finish: the step's time.
begin() {
    wait_for_quiet
    step "$2"
    BEGUN=$1
    BEGIN_T=$(date -u +%s)
    echo "$1 $(load1)" >>"$WORK/loads"
}
finish() {
    echo "$BEGUN $(($(date -u +%s) - BEGIN_T)) s" >>"$WORK/times"
    echo - >"$WORK/step"
}

# probes FIGURE SOURCE FILE [PREFIX]: the "# probe LABEL: ... N ns (PHASE
# phase)" lines of FILE as CSV rows; SOURCE empty: the MPI named in LABEL.
probes() {
    [ -f "$3" ] || return 0
    sed -n 's/^# probe \(.*\): cache-line round trip \([0-9.]*\) ns (\([a-z]*\) phase)$/\1,\2,\3/p' "$3" |
        awk -F, -v fig="$1" -v src="$2" -v pre="${4:-}" '{
            s = src
            if (s == "") s = $1 ~ /openmpi/ ? "openmpi" : $1 ~ /mpich/ ? "mpich" : "mpi"
            l = $1; sub(/ (openmpi|mpich)$/, "", l)
            printf "%s,%s,%s%s,%s,%s\n", fig, s, pre == "" ? "" : pre " ", l, $2, $3
        }'
}

# ---- The page and the plots --------------------------------------------------

meta() { awk -F, -v k="$1" '$1 == k { sub(/^[^,]*,/, ""); print; exit }' "$DATA/meta.csv"; }

# Markdown tables and the phase lines, one file per @@NAME@@ of the template.
fragments() {
    local F=$1
    # Which phase each figure comes from: a line per figure.
    local fig
    for fig in reloc barrier reduce; do
        awk -F, -v fig="$fig" '
            NR > 1 && $1 == fig {
                n++; r = $4 + 0; if (n == 1 || r < lo) lo = r; if (n == 1 || r > hi) hi = r
                if ($5 == "fast") f++; else s++
                name = $2 == "tupc" ? "tupc" : $2 == "openmpi" ? "Open MPI" : $2 == "mpich" ? "MPICH" : $2
                if (!(name in seen)) { seen[name] = 1; order[++m] = name }
                list[name] = list[name] (list[name] == "" ? "" : ", ") sprintf("%.0f", r)
            }
            END {
                if (!n) { print "**Phase:** not recorded."; exit }
                ph = !s ? "fast" : !f ? "slow" : "mixed"
                printf "**Phase: %s** (%d probes, round trip %.0f-%.0f ns; %d fast, %d slow). ", ph, n, lo, hi, f + 0, s + 0
                printf "Probes in ns, in the order taken:"
                for (i = 1; i <= m; i++) printf "%s %s %s", (i > 1 ? ";" : ""), order[i], list[order[i]]
                print "."
            }' "$DATA/phases.csv" >"$F/PHASE_$fig"
    done
    awk -F, '
        NR > 1 { n[$1]++; if ($5 == "fast") f[$1]++
                 r = $4 + 0; if (!(($1) in lo) || r < lo[$1]) lo[$1] = r; if (!(($1) in hi) || r > hi[$1]) hi[$1] = r }
        END {
            print "| figure | probes | fast (< 150 ns) | slow | round trips |"
            print "|---|---:|---:|---:|---|"
            split("reloc barrier reduce", o, " ")
            split("relocalization latency|barrier|reduce and prefix bandwidth", t, "|")
            for (i = 1; i <= 3; i++) {
                k = o[i]
                if (!n[k]) continue
                printf "| %s | %d | %d | %d | %.0f-%.0f ns |\n", t[i], n[k], f[k], n[k] - f[k], lo[k], hi[k]
            }
        }' "$DATA/phases.csv" >"$F/PHASES"

    # Relocalization: a subsection per collective with its plot and a table
    # of every 8th size.
    awk -F, '
        function num(x) {
            if (x == "") return "-"
            x += 0
            return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
        }
        function sz(b) {
            return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B"
        }
        function ratio(m, a) { return (m == "" || a == 0) ? "-" : sprintf("%.2f", m / a) }
        NR == 1 { next }
        {
            if (!($2 in rows)) order[++nf] = $2
            rows[$2]++; key = $2 SUBSEP rows[$2]
            B[key] = $3; no[key] = $4; my[key] = $5; al[key] = $6; fl[key] = $7; pct[key] = $8
            om[key] = $9; mp[key] = $10
            if ($3 + 0 > maxb[$2]) maxb[$2] = $3 + 0
        }
        END {
            split("broadcast scatter gather gather_all exchange", f, " ")
            split("MPI_Bcast|MPI_Scatter|MPI_Gather|MPI_Allgather|MPI_Alltoall", m, "|")
            for (i = 1; i <= 5; i++) {
                fn = f[i]
                if (!(fn in rows)) continue
                printf "### upc_all_%s beside %s\n\n", fn, m[i]
                printf "![latency of upc_all_%s and %s against message size, log-log](performance/reloc_%s.svg)\n\n", fn, m[i], fn
                print "| bytes per block | tupc NO\\|NO, us | MY\\|MY | ALL\\|ALL | memcpy floor, us | tupc at % of the floor (worst mode) | Open MPI, us | MPICH, us | Open MPI / ALL\\|ALL | MPICH / ALL\\|ALL |"
                print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                for (r = 1; r <= rows[fn]; r++) {
                    key = fn SUBSEP r
                    b = B[key] + 0
                    lg = log(b) / log(2)
                    if (int(lg + 0.5) % 3 != 0 && b != maxb[fn]) continue
                    printf "| %s | %s | %s | %s | %s | %s %% | %s | %s | %s | %s |\n", sz(b), num(no[key]), num(my[key]),
                           num(al[key]), num(fl[key]), pct[key], num(om[key]), num(mp[key]),
                           ratio(om[key], al[key]), ratio(mp[key], al[key])
                }
                print ""
            }
        }' "$DATA/reloc.csv" >"$F/RELOC"

    # Barrier: a row per THREADS, a column per barrier.
    awk -F, '
        function num(x) { return x == "" ? "-" : x + 0 >= 100 ? sprintf("%.0f", x) : sprintf("%.1f", x) }
        FNR == 1 { next }
        FILENAME ~ /barrier_mpi/ { v[$2, $1] = $5 * 1000; t[$2] = 1; next }
        $1 == "ticks" { next }
        { v[$1, $2] = $4; t[$1] = 1 }
        END {
            print "| THREADS | upc_barrier | pthread_barrier_wait | libgomp barrier | central yield+usleep | central, pinned as tupc | Open MPI MPI_Barrier | MPICH MPI_Barrier |"
            print "|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (n = 1; n <= 4096; n *= 2) {
                if (!(n in t)) continue
                printf "| %d | %s | %s | %s | %s | %s | %s | %s |\n", n, num(v[n, "upc_barrier"]),
                       num(v[n, "pthread_barrier_wait"]), num(v[n, "omp barrier (libgomp)"]),
                       num(v[n, "central yield+usleep"]), num(v[n, "central pinned as tupc"]),
                       num(v[n, "openmpi"]), num(v[n, "mpich"])
            }
        }' "$DATA/barrier.csv" "$DATA/barrier_mpi.csv" >"$F/BARRIER"

    # Reductions: GB/s per size, all threads' or ranks' input bytes.
    awk -F, '
        function bw(b, us) { return us == "" || us == 0 ? "-" : sprintf("%.2f", b / (us * 1000)) }
        function sz(b) { return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B" }
        FNR == 1 { next }
        FILENAME ~ /reduce_mpi/ { m[$1, $3, $2 * $4] = $5; np = $2; next }
        $2 == "readbw" { rb = $7; next }
        $2 ~ /^(small|big)-round/ { next }
        { t[$2, $3, $4] = $5 / 1000; if ($2 == "reduceL" && $8 > 0) omp[$4] = $8 / 1000; s[$4] = 1 }
        END {
            print "| bytes, all threads | reduceD NO\\|NO | reduceD ALL\\|ALL | OpenMP reduction(+) | Open MPI MPI_Reduce | MPICH MPI_Reduce | prefixD NO\\|NO | prefixD ALL\\|ALL | streaming copy | Open MPI MPI_Scan | MPICH MPI_Scan |"
            print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (b = 8; b <= 1073741824; b *= 2) {
                if (!(b in s)) continue
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", sz(b),
                       bw(b, t["reduceD", "NO|NO", b]), bw(b, t["reduceD", "AL|AL", b]), bw(b, omp[b]),
                       bw(b, m["openmpi", "reduce_double", b]), bw(b, m["mpich", "reduce_double", b]),
                       bw(b, t["prefixD", "NO|NO", b]), bw(b, t["prefixD", "AL|AL", b]), bw(b, t["copyNT", "-", b]),
                       bw(b, m["openmpi", "scan_double", b]), bw(b, m["mpich", "scan_double", b])
            }
        }' "$DATA/reduce_tupc.csv" "$DATA/reduce_mpi.csv" >"$F/REDUCE"
}

# gnuplot's common settings: an SVG of 800 x 580 with a white background,
# the key under the plot.
gp_head() {
    cat <<EOF
set encoding utf8
set terminal svg size 800,580 dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
set output '$1'
set datafile separator ','
set grid xtics ytics lc rgb '#dddddd' lw 1
set key outside below center horizontal maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2 font ',11'
set bmargin 9
set format y '%g'
set style line 1 lc rgb '#1f5fbf' lw 2 pt 7 ps 0.7
set style line 2 lc rgb '#1f5fbf' lw 2 dt 2 pt 6 ps 0.7
set style line 3 lc rgb '#e07000' lw 2 pt 5 ps 0.6
set style line 4 lc rgb '#2a9d3a' lw 2 pt 9 ps 0.8
set style line 5 lc rgb '#303030' lw 2 dt 3
set style line 6 lc rgb '#9040a0' lw 2 pt 13 ps 0.8
set style line 7 lc rgb '#b04040' lw 2 pt 11 ps 0.8
set style line 8 lc rgb '#808080' lw 2 dt 4 pt 4 ps 0.6
EOF
}

# Underscores as themselves in gnuplot's enhanced text.
gp_esc() { printf '%s' "$1" | sed 's/_/\\_/g'; }

# x tics at powers of 8, labelled 8, 64, 512, 4K, ...
size_tics() {
    awk -v lo="$1" -v hi="$2" 'BEGIN {
        printf "set xtics ("
        n = 0
        for (b = 8; b <= hi * 2; b *= 8) {
            if (b < lo / 2) continue
            l = b >= 1048576 ? b / 1048576 "M" : b >= 1024 ? b / 1024 "K" : b
            printf "%s\"%s\" %d", n++ ? ", " : "", l, b
        }
        print ")"
        printf "set xrange [%g:%g]\n", lo / 1.3, hi * 1.3
    }'
}

plots() {
    local T=$1 fn mpi
    # Relocalization: one plot per collective.
    for fn in broadcast scatter gather gather_all exchange; do
        case $fn in
        broadcast) mpi=MPI_Bcast ;; scatter) mpi=MPI_Scatter ;; gather) mpi=MPI_Gather ;;
        gather_all) mpi=MPI_Allgather ;; exchange) mpi=MPI_Alltoall ;;
        esac
        awk -F, -v fn="$fn" 'NR > 1 && $2 == fn' "$DATA/reloc.csv" >"$T/r_$fn"
        [ -s "$T/r_$fn" ] || continue
        awk -F, '$9 != ""' "$T/r_$fn" >"$T/r_${fn}_om"
        awk -F, '$10 != ""' "$T/r_$fn" >"$T/r_${fn}_mp"
        {
            gp_head "$DATA/reloc_$fn.svg"
            echo "set title '$(gp_esc "upc_all_$fn beside $mpi"): latency against message size, THREADS = ranks = $(meta threads)'"
            echo "set logscale x 2"
            echo "set logscale y 10"
            echo "set xlabel 'bytes per block (log scale)'"
            echo "set ylabel 'latency per call, µs (log scale)'"
            size_tics "$(cut -d, -f3 "$T/r_$fn" | sort -n | head -n 1)" "$(cut -d, -f3 "$T/r_$fn" | sort -n | tail -n 1)"
            printf "plot '%s' using 3:4 with linespoints ls 1 title 'tupc NO|NO', \\\\\n" "$T/r_$fn"
            printf "     '%s' using 3:6 with linespoints ls 2 title 'tupc ALL|ALL'" "$T/r_$fn"
            if [ -s "$T/r_${fn}_om" ]; then
                printf ", \\\\\n     '%s' using 3:9 with linespoints ls 3 title 'Open MPI %s'" "$T/r_${fn}_om" "$(gp_esc "$mpi")"
            fi
            if [ -s "$T/r_${fn}_mp" ]; then
                printf ", \\\\\n     '%s' using 3:10 with linespoints ls 4 title 'MPICH %s'" "$T/r_${fn}_mp" "$(gp_esc "$mpi")"
            fi
            printf ", \\\\\n     '%s' using 3:7 with lines ls 5 title 'memcpy floor, all threads'\n" "$T/r_$fn"
        } >"$T/reloc_$fn.gp"
        LC_ALL=C.UTF-8 gnuplot "$T/reloc_$fn.gp"
    done

    # Barrier against THREADS.
    local cpus spec f ls title first
    cpus=$(meta cpus)
    for spec in "upc|upc_barrier" "pthread|pthread_barrier_wait" "omp|omp barrier (libgomp)" \
        "central|central yield+usleep" "central_pinned|central pinned as tupc"; do
        awk -F, -v b="${spec#*|}" 'NR > 1 && $2 == b { print $1 "," $4 }' "$DATA/barrier.csv" >"$T/b_${spec%%|*}"
    done
    for f in openmpi mpich; do
        awk -F, -v b="$f" 'NR > 1 && $1 == b { print $2 "," $5 * 1000 }' "$DATA/barrier_mpi.csv" | sort -n >"$T/b_$f"
    done
    {
        gp_head "$DATA/barrier.svg"
        echo "set title 'Barrier: time per barrier against THREADS on $cpus CPUs'"
        echo "set logscale x 2"
        echo "set logscale y 10"
        echo "set xlabel 'THREADS (threads or ranks; log scale)'"
        echo "set ylabel 'time per barrier, ns (log scale)'"
        echo "set xtics (1, 2, 4, 8, 16, 32, 64)"
        echo "set xrange [0.8:80]"
        echo "set arrow from $cpus, graph 0 to $cpus, graph 1 nohead lc rgb '#909090' dt 3 lw 1.5"
        echo "set label 'more THREADS than CPUs →' at $cpus, graph 0.04 offset 0.6,0 tc rgb '#606060'"
        first=1
        printf "plot "
        for spec in "upc|1|upc_barrier (tupc)" "pthread|3|pthread_barrier_wait" "omp|4|libgomp barrier (OpenMP)" \
            "central|8|central barrier: yield, then usleep(20)" "openmpi|6|Open MPI MPI_Barrier" \
            "mpich|7|MPICH MPI_Barrier"; do
            IFS='|' read -r f ls title <<<"$spec"
            [ -s "$T/b_$f" ] || continue
            [ $first = 1 ] || printf ", \\\\\n     "
            printf "'%s' using 1:2 with linespoints ls %s title '%s'" "$T/b_$f" "$ls" "$(gp_esc "$title")"
            first=0
        done
        echo
    } >"$T/barrier.gp"
    LC_ALL=C.UTF-8 gnuplot "$T/barrier.gp"

    # Reduce and prefix reduce: GB/s against bytes (all threads' input).
    local rb c m what list
    rb=$(awk -F, '$2 == "readbw" { print $7; exit }' "$DATA/reduce_tupc.csv")
    for spec in "reduceD|NO|NO|reduceD_no" "reduceD|AL|AL|reduceD_all" "prefixD|NO|NO|prefixD_no" \
        "prefixD|AL|AL|prefixD_all" "copyNT|-|copyNT"; do
        c=${spec%%|*}
        m=${spec#*|}
        m=${m%|*}
        awk -F, -v c="$c" -v m="$m" 'NR > 1 && $2 == c && $3 == m && $5 > 0 { printf "%s,%.6f\n", $4, $4 / $5 }' \
            "$DATA/reduce_tupc.csv" >"$T/red_${spec##*|}"
    done
    awk -F, 'NR > 1 && $2 == "reduceL" && $3 == "NO|NO" && $8 > 0 { printf "%s,%.6f\n", $4, $4 / $8 }' \
        "$DATA/reduce_tupc.csv" >"$T/red_omp"
    # MPI: count elements on each rank, so the input is bytes x ranks.
    for spec in openmpi,reduce_double openmpi,scan_double mpich,reduce_double mpich,scan_double; do
        awk -F, -v i="${spec%,*}" -v o="${spec#*,}" 'NR > 1 && $1 == i && $3 == o && $5 > 0 {
            printf "%d,%.6f\n", $2 * $4, $2 * $4 / ($5 * 1000) }' "$DATA/reduce_mpi.csv" | sort -n >"$T/red_${spec%,*}_${spec#*,}"
    done
    for what in reduce prefix; do
        if [ $what = reduce ]; then
            list=("reduceD_no|1|tupc reduceD NO|NO" "reduceD_all|2|tupc reduceD ALL|ALL"
                "omp|8|OpenMP reduction(+), long" "openmpi_reduce_double|3|Open MPI MPI_Reduce"
                "mpich_reduce_double|4|MPICH MPI_Reduce")
        else
            list=("prefixD_no|1|tupc prefix_reduceD NO|NO" "prefixD_all|2|tupc prefix_reduceD ALL|ALL"
                "copyNT|8|streaming copy (prefix floor)" "openmpi_scan_double|3|Open MPI MPI_Scan"
                "mpich_scan_double|4|MPICH MPI_Scan")
        fi
        {
            gp_head "$DATA/${what}_bw.svg"
            if [ $what = reduce ]; then
                echo "set title '$(gp_esc upc_all_reduceD) beside $(gp_esc MPI_Reduce), doubles, sum: bandwidth against size, THREADS = ranks = $(meta threads)'"
            else
                echo "set title '$(gp_esc upc_all_prefix_reduceD) beside $(gp_esc MPI_Scan), doubles, sum: bandwidth against size, THREADS = ranks = $(meta threads)'"
            fi
            echo "set logscale x 2"
            echo "set logscale y 10"
            echo "set xlabel 'bytes of input, all threads or ranks together (log scale)'"
            echo "set ylabel 'bandwidth, GB/s of input (log scale)'"
            size_tics 8 "$(cut -d, -f1 "$T/red_${what}D_no" | sort -n | tail -n 1)"
            [ -z "$rb" ] || echo "rb = $rb"
            first=1
            printf "plot "
            for spec in "${list[@]}"; do
                f=${spec%%|*}
                ls=${spec#*|}
                title=${ls#*|}
                ls=${ls%%|*}
                [ -s "$T/red_$f" ] || continue
                [ $first = 1 ] || printf ", \\\\\n     "
                printf "'%s' using 1:2 with linespoints ls %s title '%s'" "$T/red_$f" "$ls" "$(gp_esc "$title")"
                first=0
            done
            if [ -n "$rb" ]; then
                printf ", \\\\\n     rb with lines ls 5 title sprintf('read bandwidth, %%.1f GB/s', rb)"
            fi
            echo
        } >"$T/${what}_bw.gp"
        LC_ALL=C.UTF-8 gnuplot "$T/${what}_bw.gp"
    done
}

# Fills in the template: @KEY@ from meta.csv, a line @@NAME@@ with fragment NAME.
page() {
    local F=$1 quicknote
    if [ "$(meta quick)" = yes ]; then
        quicknote="The run gave each benchmark \`--quick\` (\`perf_page.sh --quick\`): a tenth of the calls of a full run, 1 to 100 timed calls per figure, so its figures are noisier than a full run's. The relocalization benchmark ran $(meta rounds) rounds."
    else
        quicknote="Each benchmark made its full number of timed calls (by size: from 5 for the largest reductions and 10 for the largest collectives up to 1000, or 20 000 for the smallest reductions), and the relocalization benchmark ran $(meta rounds) rounds, alternating with the MPIs; \`--quick\` would take a tenth of the calls."
    fi
    {
        echo "quicknote,$quicknote"
        awk -F, 'NR > 1' "$DATA/meta.csv"
    } >"$F/vars"
    awk -v F="$F" '
        BEGIN {
            while ((getline l < (F "/vars")) > 0) { k = l; sub(/,.*/, "", k); v = l; sub(/^[^,]*,/, "", v); val[k] = v }
        }
        /^@@[A-Za-z_]+@@$/ {
            f = F "/" substr($0, 3, length($0) - 4)
            while ((getline l < f) > 0) print l
            close(f)
            next
        }
        {
            out = ""
            while (match($0, /@[a-z0-9_]+@/)) {
                k = substr($0, RSTART + 1, RLENGTH - 2)
                out = out substr($0, 1, RSTART - 1) ((k in val) ? val[k] : "@" k "@")
                $0 = substr($0, RSTART + RLENGTH)
            }
            print out $0
        }' "$TEMPLATE" >"$OUT/performance.md"
}

generate() {
    local T
    T=$(mktemp -d)
    fragments "$T"
    plots "$T"
    page "$T"
    rm -rf "$T"
}

if [ -n "$FROM" ]; then
    nsteps=1
    mkdir -p "$DATA"
    if [ "$(cd "$FROM" && pwd -P)" != "$(cd "$DATA" && pwd -P)" ]; then
        cp "$FROM"/*.csv "$DATA"/
    fi
    step "plots and page from the CSV files in $FROM"
    generate
else
    measure
    step "plots and page"
    generate
fi
{
    echo "perf_page.sh: done. The page: $OUT/performance.md"
    echo "perf_page.sh: the plots: $(ls "$DATA"/*.svg | tr '\n' ' ')"
    echo "perf_page.sh: the data: $(ls "$DATA"/*.csv | tr '\n' ' ')"
    [ -n "$FROM" ] || echo "perf_page.sh: every benchmark's own output: $BUILD/perf/"
} >&2
