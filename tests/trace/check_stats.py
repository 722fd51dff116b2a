#!/usr/bin/env python3
"""Runs trace_prog with TUPC_STATS and checks the summary against what the
program did (see trace_prog.c): the calls and bytes of each function, per
thread and summed, and that the late thread's barrier shows as waiting.
usage: check_stats.py TRACE_PROG THREADS"""
import os
import subprocess
import sys

prog, threads = sys.argv[1], int(sys.argv[2])
run = subprocess.run([prog, "-n", str(threads)], capture_output=True, text=True,
                     env=dict(os.environ, TUPC_STATS="all"), check=True)
rows = {}
for line in run.stderr.splitlines():
    f = line.split()
    if len(f) >= 8 and f[0:2] == ["tupc", "stats:"] and f[3] != "function" and f[2] != str(threads):
        who, name = f[2], f[3]
        rows[(who, name)] = dict(calls=int(f[4]), bytes=int(f[5]), time=float(f[6]),
                                 wait=float(f[7]), most=" ".join(f[9:11]))
fails = []
calls = {"upc_all_alloc": (3, 8 * threads * 2 + 8), "upc_all_lock_alloc": (1, 0),
         "upc_all_broadcast": (3, 3 * 8), "upc_all_reduceL": (2, 2 * 8 * threads),
         "upc_lock": (1, 0), "upc_barrier": (1, 0), "tupc_team_split": (1, 0),
         "tupc_team_barrier": (1, 0), "tupc_team_reduceL": (1, 8), "tupc_team_free": (1, 0), "upc_all_lock_free": (1, 0),
         "upc_all_free": (3, 0)}
for name, (n, b) in calls.items():
    for t in range(threads):
        r = rows.get((str(t), name))
        if not r or r["calls"] != n or r["bytes"] != b:
            fails.append("thread %d %s: %r, expected %d calls, %d bytes" % (t, name, r, n, b))
        elif r["wait"] > r["time"] + 0.001:
            fails.append("thread %d %s: waits %.3f ms longer than the call %.3f ms" % (t, name, r["wait"], r["time"]))
    a = rows.get(("all", name))
    if not a or a["calls"] != n * threads or a["bytes"] != b * threads:
        fails.append("all %s: %r, expected %d calls, %d bytes" % (name, a, n * threads, b * threads))
for t in range(1, threads):
    r = rows.get((str(t), "upc_barrier"))
    if r and not (r["time"] >= 15 and r["wait"] >= 0.8 * r["time"]):
        fails.append("thread %d's barrier: %.3f ms with %.3f ms waiting; expected at least 15 ms of 60, nearly all waiting"
                     % (t, r["time"], r["wait"]))
    # Thread 0 came late: the barrier's waits name it, in the flat barrier
    # (2 THREADS) and in the tree (5 THREADS on 2 CPUs) alike.
    if r and r["most"] != "thread 0":
        fails.append("thread %d's barrier waited for most: %r; expected thread 0" % (t, r["most"]))
if "TUPC_STATS is" not in subprocess.run([prog, "-n", "2"], capture_output=True, text=True,
                                         env=dict(os.environ, TUPC_STATS="yes")).stderr:
    fails.append("TUPC_STATS=yes was not refused")
# The README's excerpt (the same program at 4 THREADS with TUPC_STATS=1): its
# rows, numbers of time apart, must be rows of the real summary, in order.
if threads == 4:
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                               "README.md"), encoding="utf-8").read()
    i = readme.find("tupc stats: 4 THREADS")
    excerpt = readme[i:readme.find("```", i)].splitlines() if i >= 0 else []
    if not excerpt:
        fails.append("README: no TUPC_STATS excerpt of 4 THREADS")
    one = subprocess.run([prog, "-n", "4"], capture_output=True, text=True,
                         env=dict(os.environ, TUPC_STATS="1"), check=True).stderr.splitlines()
    real = [l.split()[:6] for l in one if l.startswith("tupc stats:")]
    at = 0
    for line in excerpt:
        if not line.startswith("tupc stats:"):
            continue
        key = line.split()[:6]
        if key[2:4] == ["4", "THREADS,"]:
            key = key[:4]
        while at < len(real) and real[at][:len(key)] != key:
            at += 1
        if at == len(real):
            fails.append("README's TUPC_STATS excerpt: %r is not in the real summary, in order:\n%s"
                         % (line, "\n".join(one)))
            break
        at += 1
if fails:
    print("\n".join(fails[:20]))
    print(run.stderr)
    sys.exit(1)
print("stats of %d THREADS: every function's calls and bytes, per thread and summed" % threads)
