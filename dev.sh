#!/usr/bin/env bash
# One entry point for people and CI: installs what is missing, builds, runs.
#   ./dev.sh demo        build what the demo needs and run it on 4 THREADS
#   ./dev.sh test        build (gcc, -Werror) and run the test suite, quick matrices
#   ./dev.sh test-full   the same with the full matrices and the suite slow
#   ./dev.sh test-matrices  after test: what test cut down or left out, whole
#   ./dev.sh test-clang  the quick suite with clang, at the strictest check level
#   ./dev.sh test-tsan   the suite under ThreadSanitizer
#   ./dev.sh test-asan   the suite under AddressSanitizer + UBSan (clang, strictest checks)
#   ./dev.sh test-nonuma the runtime tests of a build without libnuma
#   ./dev.sh test-tupcc-clangs  tupcc with clang 16 and 19 as its front end
#   ./dev.sh test-mpi    THREADS across MPI processes: the suite mpi with Open MPI and MPICH, and under TSan
#   ./dev.sh test-mpi-slow  after test-mpi: the suite mpi-slow (every MPI test whole, at every shape)
#   ./dev.sh bench       build and run the benchmarks (see README)
set -euo pipefail
cd "$(dirname "$0")"

packages=(meson ninja-build pkg-config gcc g++ clang python3 libnuma-dev libcmocka-dev libomp-dev libgtest-dev mandoc
    gnuplot-nox cmake)

need_packages() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return
    fi
    if [ "$(id -u)" -eq 0 ]; then
        echo "dev.sh: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "dev.sh: missing packages; run as root:"
        echo "  apt-get update && apt-get install -y ${missing[*]}"
        exit 1
    fi
}

# configure DIR [meson options...]: once, and again when options change.
configure() {
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" >/dev/null
    else
        echo "dev.sh: configuring $dir/ (meson setup $*)"
        meson setup "$dir" "$@" >/dev/null
    fi
}

# setup DIR [meson options...]: configure, then build everything.
setup() {
    configure "$@"
    ninja -C "$1"
}

# What "Expected Fail" means in meson's summary, for those who read it first.
explain_summary() {
    echo "dev.sh: \"Expected Fail\" counts the tests of refusals (bad arguments must fail): they passed."
}

run_suite() {
    local dir=$1 rc=0
    shift
    meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || rc=$?
    explain_summary
    return $rc
}

# build_mpi_tests DIR IMPL: the libraries and the programs of the suites mpi
# and mpi-slow, nothing else (the whole build, unit tests and benchmarks
# included, would take CI about a minute more per MPI).
build_mpi_tests() {
    configure "$1" -Dwerror=true -Dmpi=enabled -Dmpi_impl="$2" -Dsamples=false
    ninja -C "$1" lib/libtupc.a lib/libtupc_main.a \
        $(for t in runtime memory lock barrier barrier_coll barrier_status refuse runs stop heat coll team; do
            echo tests/mpi/mpi_$t
        done) \
        $(for s in matmul pi histogram prefix_sum sample_sort transpose; do
            echo tests/mpi/mpi_sample_$s
        done)
}

cmd=${1:-test}
need_packages
case "$cmd" in
demo)
    # Only the demo and the library it links: ninja shows its progress.
    configure build -Dwerror=true
    ninja -C build samples/demo
    ./build/samples/demo -n 4
    ;;
test)
    # The matrices of THREADS, sizes and sync modes cut down: every test,
    # in about a third of the time. CI runs the full ones (test-full).
    setup build -Dwerror=true -Dtests=true -Dsamples=true
    TUPC_TEST_QUICK=1 run_suite build --no-suite slow
    echo "dev.sh: that was the quick suite (TUPC_TEST_QUICK=1, without the suite slow: the install,"
    echo "  subproject and CMake tests, which build tupc again, and the performance page);"
    echo "  everything at full size: ./dev.sh test-full"
    ;;
test-full)
    setup build -Dwerror=true -Dtests=true -Dsamples=true
    run_suite build
    ;;
test-matrices)
    # test and test-matrices run everything of test-full between them: the
    # tests that TUPC_TEST_QUICK cuts down (suites matrices and tupcc), at
    # full size, and the suite slow. CI runs both. TUPC_SKIP_SUITES leaves
    # suites out (install: the install test, for a quicker run).
    setup build -Dwerror=true -Dtests=true -Dsamples=true
    skip=()
    for s in ${TUPC_SKIP_SUITES:-}; do skip+=(--no-suite "$s"); done
    run_suite build --suite matrices --suite tupcc --suite slow "${skip[@]}"
    ;;
test-clang)
    # The whole suite at the strictest check level: no false alarm (quick
    # matrices: test-full runs the full ones with gcc).
    CC=clang setup build-clang -Dwerror=true -Dtests=true -Dsamples=true
    TUPC_TEST_QUICK=1 TUPC_CHECKS=full run_suite build-clang
    ;;
test-tsan)
    # Quick matrices: the sanitizer makes each test about ten times slower.
    # ignore_noninstrumented_modules: libgomp (bench_reduce, bench_barrier)
    # is not built with TSan; without it TSan warns at start-up of each.
    # -Dtests=true: the README's TSan block makes build-tsan without them.
    CC=clang setup build-tsan -Dwerror=true -Db_sanitize=thread -Db_lundef=false -Dtests=true -Dsamples=true
    TUPC_TEST_QUICK=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1" \
        run_suite build-tsan --timeout-multiplier 4
    ;;
test-asan)
    # clang with -Werror at the strictest check level: CI's clang build too
    # (test-clang without the sanitizers is for those who want it alone).
    CC=clang setup build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dtests=true -Dsamples=true
    TUPC_TEST_QUICK=1 TUPC_CHECKS=full ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
        run_suite build-asan --timeout-multiplier 4
    ;;
test-nonuma)
    # Only what these tests run is built (the rest is the other builds').
    configure build-nonuma -Dwerror=true -Dnuma=disabled -Dtests=true -Dsamples=true
    ninja -C build-nonuma tests/unit/test_runtime tests/unit/test_barrier tests/unit/test_heap \
        tests/unit/test_errors samples/demo
    run_suite build-nonuma --no-rebuild runtime barrier heap errors sample_demo
    ;;
test-tupcc-clangs)
    # tupcc reads UPC through clang's front end: with the other clangs
    # Debian 12 ships (the build's own is 14), every program of the tupcc
    # suite and the samples must translate to the same C, or pass built and
    # run (tools/tupcc/tests/clangs.sh). The gcc build, which needs no rebuild.
    # TUPCC_CLANGS: the clangs to check (CI: 19, the newest; 16 has made
    # the same C as 14 for every program since it was first checked).
    read -r -a clangs <<<"${TUPCC_CLANGS:-clang-16 clang-19}"
    packages=("${clangs[@]}")
    need_packages
    setup build -Dwerror=true -Dtests=true -Dsamples=true
    sh tools/tupcc/tests/clangs.sh build/tools/tupcc/tupcc "${clangs[@]}"
    ;;
test-mpi)
    # -Dmpi=enabled with each MPI Debian ships: the library, the tests of
    # the suite mpi (under mpirun at 2x2, 4x1, 3x2; Open MPI over TCP too)
    # and the layers test, nothing else, so that the step stays short; then
    # a part of it under ThreadSanitizer.
    packages=(openmpi-bin libopenmpi-dev mpich libmpich-dev)
    need_packages
    rc=0
    for impl in openmpi mpich; do
        build_mpi_tests build-mpi-$impl $impl || rc=1
        meson test -C build-mpi-$impl --print-errorlogs --no-rebuild --suite mpi || rc=1
        # the layers with the MPI layer's files in them (needs only the libraries)
        meson test -C build-mpi-$impl --print-errorlogs --no-rebuild layers || rc=1
    done
    # ThreadSanitizer across processes (MPICH, whose libraries are not
    # instrumented: ignore_noninstrumented_modules), the library's tests at
    # 2 x 2 (both barriers) and the collectives; the samples that call them
    # run without it above.
    CC=clang configure build-mpi-tsan -Dwerror=true -Db_sanitize=thread -Db_lundef=false \
        -Dmpi=enabled -Dmpi_impl=mpich -Dsamples=false
    tsan_progs=(runtime memory lock barrier barrier_coll stop heat coll team)
    ninja -C build-mpi-tsan lib/libtupc.a lib/libtupc_main.a \
        $(for t in "${tsan_progs[@]}"; do echo tests/mpi/mpi_$t; done) || rc=1
    tsan_tests=(mpi_runtime_2x2 mpi_memory_2x2 mpi_lock_2x2 mpi_barrier_2x2 mpi_barrier_coll_2x2
        mpi_stop_2x2 mpi_stop_coll_2x2 mpi_heat_2x2 mpi_coll_2x2 mpi_team_2x2)
    TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1" \
        meson test -C build-mpi-tsan --print-errorlogs --no-rebuild --timeout-multiplier 4 \
        "${tsan_tests[@]}" || rc=1
    exit $rc
    ;;
test-mpi-slow)
    # The tests test-mpi cuts down or leaves out, whole, with both MPIs: the
    # teams' test at every shape, MPICH's collectives on the oversubscribed
    # shapes, the samples over TCP.
    packages=(openmpi-bin libopenmpi-dev mpich libmpich-dev)
    need_packages
    rc=0
    for impl in openmpi mpich; do
        build_mpi_tests build-mpi-$impl $impl || rc=1
        meson test -C build-mpi-$impl --print-errorlogs --no-rebuild --suite mpi-slow || rc=1
    done
    exit $rc
    ;;
bench)
    setup build-release --buildtype=release
    ./build-release/tests/bench/bench_barrier --csv build-release/bench_barrier.csv
    ;;
*)
    sed -n '2,14p' "$0"
    exit 2
    ;;
esac
