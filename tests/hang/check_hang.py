#!/usr/bin/env python3
"""Runs each hang of hang_prog.c with TUPC_HANG_TIMEOUT=1 and checks the
watchdog's report: the run ends, not 0, and the report says what each thread
is in and who waits for whom.
usage: check_hang.py HANG_PROG THREADS"""
import os
import re
import subprocess
import sys
import time

prog, threads = sys.argv[1], int(sys.argv[2])
last = threads - 1
expect = {
    "lockcycle": [r"thread 0: in upc_lock for [0-9.]+ s, queued behind thread 1",
                  r"thread 1: in upc_lock for [0-9.]+ s, queued behind thread 0",
                  r"thread 0 -> thread 1: upc_lock, queued behind it",
                  r"thread 1 -> thread 0: upc_lock, queued behind it"],
    "lockheld": [r"thread 1: in upc_lock for [0-9.]+ s, queued behind thread 0",
                 r"thread 0: in upc_barrier for [0-9.]+ s",
                 r"thread 0 -> thread 1: it has notified \d+ barriers, this thread \d+",
                 r"thread 1 -> thread 0: upc_lock, queued behind it"],
    "loop": [r"thread 0: running user code, [0-9.]+ s since it last waited",
             r"may be computing rather than stuck: if so, set TUPC_HANG_TIMEOUT",
             r"thread 1: in upc_barrier for [0-9.]+ s",
             r"thread 1 -> thread 0: it has notified \d+ barriers, this thread \d+"],
    "missing": [r"thread %d: running user code" % last,
                r"thread 0: in upc_all_broadcast for [0-9.]+ s",
                r"thread 0 -> thread %d: it has made 0 collective calls, this thread 1" % last],
}
fails = []
for mode, patterns in expect.items():
    if mode == "lockcycle" and threads < 2:
        continue
    t0 = time.time()
    r = subprocess.run([prog, "-n", str(threads), mode], capture_output=True, text=True,
                       env=dict(os.environ, TUPC_HANG_TIMEOUT="1"), timeout=60)
    took = time.time() - t0
    if r.returncode == 0:
        fails.append("%s: exited 0" % mode)
    if "no thread has made progress for 1 s (TUPC_HANG_TIMEOUT, which a program that computes " \
            "longer between barriers raises, and 0 turns off)" not in r.stderr:
        fails.append("%s: no hang report:\n%s" % (mode, r.stderr))
        continue
    for p in patterns:
        if not re.search(p, r.stderr):
            fails.append("%s: the report lacks /%s/:\n%s" % (mode, p, r.stderr))
    if took > 20:
        fails.append("%s: took %.1f s with a 1 s timeout" % (mode, took))
bad = subprocess.run([prog, "-n", "2", "loop"], capture_output=True, text=True,
                     env=dict(os.environ, TUPC_HANG_TIMEOUT="soon"), timeout=60)
if "TUPC_HANG_TIMEOUT is \"soon\"" not in bad.stderr:
    fails.append("TUPC_HANG_TIMEOUT=soon was not refused: %r" % bad.stderr)
if fails:
    print("\n".join(fails))
    sys.exit(1)
print("hang reports at %d THREADS: lock cycle, lock held across a barrier, a loop in user code, "
      "a collective missing on one thread" % threads)
