#!/usr/bin/env bash
# One entry point for people and CI: installs what is missing, builds, runs.
#   ./dev.sh demo        build and run the demo on 4 THREADS
#   ./dev.sh test        build (gcc, -Werror) and run the whole test suite
#   ./dev.sh test-clang  the same with clang
#   ./dev.sh test-tsan   the suite under ThreadSanitizer
#   ./dev.sh test-asan   the suite under AddressSanitizer + UBSan
#   ./dev.sh test-nonuma the runtime tests of a build without libnuma
#   ./dev.sh bench       build and run the benchmarks (see README)
set -euo pipefail
cd "$(dirname "$0")"

packages=(meson ninja-build pkg-config gcc g++ clang python3 libnuma-dev libcmocka-dev libomp-dev libgtest-dev mandoc
    gnuplot-nox)

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

# setup DIR [meson options...]: configure once, reconfigure when options change.
setup() {
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" "$@" >/dev/null
    fi
    ninja -C "$dir" >/dev/null
}

run_suite() {
    local dir=$1
    shift
    meson test -C "$dir" --print-errorlogs --num-processes 2 "$@"
}

cmd=${1:-test}
need_packages
case "$cmd" in
demo)
    setup build -Dwerror=true
    ./build/samples/demo -n 4
    ;;
test)
    setup build -Dwerror=true
    run_suite build
    ;;
test-clang)
    # The whole suite at the strictest check level: no false alarm.
    CC=clang setup build-clang -Dwerror=true
    TUPC_CHECKS=full run_suite build-clang
    ;;
test-tsan)
    # Quick matrices: the sanitizer makes each test about ten times slower.
    # ignore_noninstrumented_modules: libgomp (bench_reduce, bench_barrier)
    # is not built with TSan; without it TSan warns at start-up of each.
    CC=clang setup build-tsan -Dwerror=true -Db_sanitize=thread -Db_lundef=false
    TUPC_TEST_QUICK=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1" \
        run_suite build-tsan --timeout-multiplier 4
    ;;
test-asan)
    CC=clang setup build-asan -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false
    TUPC_TEST_QUICK=1 ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
        run_suite build-asan --timeout-multiplier 4
    ;;
test-nonuma)
    setup build-nonuma -Dwerror=true -Dnuma=disabled
    run_suite build-nonuma runtime barrier heap errors sample_demo
    ;;
bench)
    setup build-release --buildtype=release
    ./build-release/tests/bench/bench_barrier --csv build-release/bench_barrier.csv
    ;;
*)
    sed -n '2,10p' "$0"
    exit 2
    ;;
esac
