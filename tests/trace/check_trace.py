#!/usr/bin/env python3
"""Runs trace_prog with TUPC_TRACE and checks the file with Python's JSON
parser against what the program did (see trace_prog.c).
usage: check_trace.py TRACE_PROG THREADS [TUPCRUN]
With TUPCRUN, the trace is asked for with `tupcrun --trace FILE`."""
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

prog, threads = sys.argv[1], int(sys.argv[2])
tupcrun = sys.argv[3] if len(sys.argv) > 3 else None


def command(path):
    """The run and its environment, writing the trace to path."""
    if tupcrun:
        return [tupcrun, "-n", str(threads), "--trace", path, prog], dict(os.environ)
    return [prog, "-n", str(threads)], dict(os.environ, TUPC_TRACE=path)

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "trace.json")
    cmd, env = command(path)
    subprocess.run(cmd, env=env, check=True)
    with open(path) as f:
        doc = json.load(f)  # a real parser: the file must be valid JSON
    # An unwritable path fails the run at once, naming the variable.
    cmd, env = command(os.path.join(tmp, "no", "such", "dir.json"))
    bad = subprocess.run(cmd, capture_output=True, text=True, env=env)
    check(bad.returncode != 0 and "TUPC_TRACE is" in bad.stderr,
          "an unwritable TUPC_TRACE was not refused: rc %d, %r" % (bad.returncode, bad.stderr))

events = doc["traceEvents"]
check(doc["otherData"] == {"threads": threads, "dropped_events": 0}, "otherData %r" % doc["otherData"])
names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
check(names == {t: "thread %d" % t for t in range(threads)}, "thread names %r" % names)
spans = [e for e in events if e["ph"] == "X"]
for e in spans:
    check(e["ts"] >= 0 and e["dur"] >= 0, "negative time in %r" % e)
    check(0 <= e["tid"] < threads and e["pid"] == 1, "bad track in %r" % e)

expected = Counter({"upc_all_alloc": 3, "upc_all_lock_alloc": 1, "upc_all_broadcast": 3,
                    "upc_all_reduceL": 2, "upc_lock": 1, "upc_barrier": 1,
                    "tupc_team_split": 1, "tupc_team_barrier": 1, "tupc_team_reduceL": 1,
                    "tupc_team_free": 1,
                    "upc_all_lock_free": 1, "upc_all_free": 3})
for t in range(threads):
    mine = [e for e in spans if e["tid"] == t]
    calls = [e for e in mine if e["cat"] == "call"]
    got = Counter(e["name"] for e in calls)
    check(got == expected, "thread %d: calls %r, expected %r" % (t, dict(got), dict(expected)))
    # Calls follow each other in program order on a thread, without overlap.
    order = [e["name"] for e in sorted(calls, key=lambda e: e["ts"])]
    check(order[:3] == ["upc_all_alloc"] * 3 and order[-3:] == ["upc_all_free"] * 3,
          "thread %d: order %r" % (t, order))
    calls.sort(key=lambda e: e["ts"])
    for x, y in zip(calls, calls[1:]):
        check(x["ts"] + x["dur"] <= y["ts"] + 0.001, "thread %d: %s overlaps %s" % (t, x["name"], y["name"]))
    # Every wait lies inside one call of its thread.
    for w in (e for e in mine if e["cat"] == "wait"):
        inside = [c for c in calls if c["ts"] - 0.001 <= w["ts"] and
                  w["ts"] + w["dur"] <= c["ts"] + c["dur"] + 0.001]
        check(len(inside) == 1, "thread %d: wait at %.3f us is in %d calls" % (t, w["ts"], len(inside)))
    for c in calls:
        if c["name"] == "upc_all_broadcast":
            check(c["args"] == {"bytes": 8, "flags": "IN_ALLSYNC|OUT_ALLSYNC", "team": 0},
                  "thread %d: broadcast args %r" % (t, c["args"]))
        if c["name"] == "upc_all_reduceL":
            check(c["args"]["bytes"] == 8 * threads, "thread %d: reduce args %r" % (t, c["args"]))
    # Thread 0 is 60 ms late at the barrier: the others, which come from a
    # lock taken in turn (slow under ThreadSanitizer at 32 THREADS), wait
    # at least a quarter of it, nearly all of their barrier.
    bar = [c for c in calls if c["name"] == "upc_barrier"][0]
    waited = sum(w["dur"] for w in mine if w["cat"] == "wait" and bar["ts"] <= w["ts"] <= bar["ts"] + bar["dur"])
    if t != 0:
        check(bar["dur"] >= 15000 and waited >= 0.8 * bar["dur"],
              "thread %d: barrier %.0f us with %.0f us of waits; expected at least 15 ms of 60, nearly all waiting"
              % (t, bar["dur"], waited))

# tools/trace2svg.py (TRACE2SVG) draws a box for every call and wait.
svg_tool = os.environ.get("TRACE2SVG")
if svg_tool:
    import xml.etree.ElementTree as ET
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "t.json"), os.path.join(tmp, "t.svg")
        with open(src, "w") as f:
            json.dump(doc, f)
        subprocess.run([sys.executable, svg_tool, src, dst], check=True)
        boxes = [r for r in ET.parse(dst).iter("{http://www.w3.org/2000/svg}rect")
                 if r.find("{http://www.w3.org/2000/svg}title") is not None]
        check(len(boxes) == len(spans), "trace2svg drew %d boxes for %d spans" % (len(boxes), len(spans)))

if fails:
    print("\n".join(fails[:20]))
    sys.exit(1)
print("trace of %d THREADS: %d spans, valid JSON, every call and wait where the program put it"
      % (threads, len(spans)))
