#!/usr/bin/env python3
"""Never silent: the trace and the stats are written when a thread calls
upc_global_exit (exit_prog.c) and when the hang watchdog ends the process,
and the hang report is printed then even under quiet (quiet_hang.c).
usage: check_exit.py EXIT_PROG QUIET_HANG THREADS"""
import json
import os
import subprocess
import sys
import tempfile

exit_prog, quiet_hang, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "trace.json")
    r = subprocess.run([exit_prog, "-n", str(threads)], capture_output=True, text=True,
                       env=dict(os.environ, TUPC_TRACE=path, TUPC_STATS="1"), timeout=60)
    check(r.returncode == 3, "upc_global_exit(3): status %d" % r.returncode)
    check("tupc stats: %d THREADS" % threads in r.stderr, "no stats:\n%s" % r.stderr)
    check("upc_all_broadcast" in r.stderr, "the stats lack the broadcast:\n%s" % r.stderr)
    with open(path) as f:
        doc = json.load(f)  # written whole: valid JSON
    names = {e["name"] for e in doc["traceEvents"] if e["ph"] == "X"}
    check({"upc_all_alloc", "upc_all_broadcast"} <= names, "trace spans %r" % names)
    # Without the trace or the stats, the exit is at once, status kept: the
    # other threads are not joined, which ThreadSanitizer would call a leak.
    tsan = (os.environ.get("TSAN_OPTIONS", "") + " report_thread_leaks=0").strip()
    r = subprocess.run([exit_prog, "-n", str(threads)], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, TSAN_OPTIONS=tsan))
    check(r.returncode == 3 and r.stderr == "", "plain upc_global_exit: %d %r" % (r.returncode, r.stderr))

    path = os.path.join(tmp, "hang.json")
    r = subprocess.run([quiet_hang], capture_output=True, text=True,
                       env=dict(os.environ, TUPC_TRACE=path, TUPC_STATS="1"), timeout=60)
    check(r.returncode == 1, "quiet hang: status %d" % r.returncode)
    check("no thread has made progress for 1 s" in r.stderr, "quiet hang, no report:\n%s" % r.stderr)
    check("thread 0: running user code" in r.stderr, "quiet hang, report lacks thread 0:\n%s" % r.stderr)
    check("the process exits" in r.stderr, "quiet hang: no word on the exit:\n%s" % r.stderr)
    check("tupc stats: 2 THREADS" in r.stderr, "quiet hang: no stats:\n%s" % r.stderr)
    with open(path) as f:
        doc = json.load(f)
    barriers = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "upc_barrier"]
    check(len(barriers) >= 3, "quiet hang: %d barrier spans in the trace" % len(barriers))
if fails:
    print("\n".join(fails))
    sys.exit(1)
print("at %d THREADS: upc_global_exit writes the trace and the stats and keeps its status; a "
      "hang under quiet is reported, traced and summed up" % threads)
