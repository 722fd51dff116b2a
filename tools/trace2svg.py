#!/usr/bin/env python3
"""Draws a tupc trace (TUPC_TRACE's Chrome trace-event JSON) as an SVG
timeline laid out as trace viewers lay it out: a row per UPC thread, a box
per call, the waits inside each call hatched, a time axis in ms, and a
legend: each function's colour, and the hatching.
usage: trace2svg.py TRACE.json OUT.svg [--from MS] [--to MS] [--width PX]"""
import argparse
import html
import json
import zlib

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7",
           "#9c755f", "#e15759", "#bab0ac"]


def colour(name):
    return PALETTE[zlib.crc32(name.encode()) % len(PALETTE)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="t0", type=float, default=None, help="start, ms")
    ap.add_argument("--to", dest="t1", type=float, default=None, help="end, ms")
    ap.add_argument("--width", type=int, default=1000)
    a = ap.parse_args()
    with open(a.trace) as f:
        doc = json.load(f)
    spans = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    tids = sorted(names) or sorted({e["tid"] for e in spans})
    t0 = a.t0 * 1000 if a.t0 is not None else min(e["ts"] for e in spans)
    t1 = a.t1 * 1000 if a.t1 is not None else max(e["ts"] + e["dur"] for e in spans)
    left, row, top = 90, 34, 40
    scale = (a.width - left - 10) / max(t1 - t0, 1e-9)
    # The legend: one swatch per function drawn, in order of first call,
    # then the hatching; wrapped to the width.
    drawn = [e for e in spans if e["cat"] != "wait" and e["ts"] + e["dur"] >= t0 and e["ts"] <= t1]
    legend, lx, ly = [], left, 0
    for name in list(dict.fromkeys(e["name"] for e in sorted(drawn, key=lambda e: e["ts"]))) + [None]:
        w = 24 + 7 * len(name or "waiting for other threads")
        if lx + w > a.width - 10 and lx > left:
            lx, ly = left, ly + 18
        legend.append((lx, ly, name))
        lx += w + 12
    height = top + row * len(tids) + 48 + ly + 18
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (a.width, height),
           '<defs><pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="3" height="6" fill="#ffffff" '
           'fill-opacity="0.55"/></pattern></defs>',
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           '<text x="10" y="18" font-size="13">%s</text>' % html.escape(
               doc.get("traceEvents", [{}])[0].get("args", {}).get("name", "tupc trace"))]
    x = lambda ts: left + (ts - t0) * scale
    for i, tid in enumerate(tids):
        y = top + i * row
        out.append('<text x="8" y="%d">%s</text>' % (y + 20, html.escape(names.get(tid, str(tid)))))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#dddddd"/>' % (left, y + row - 2, a.width - 10, y + row - 2))
        labels = []
        mine = [e for e in spans if e["tid"] == tid and e["ts"] + e["dur"] >= t0 and e["ts"] <= t1]
        for e in (e for e in mine if e["cat"] != "wait"):
            x0, x1 = max(x(e["ts"]), left), min(x(e["ts"] + e["dur"]), a.width - 10)
            w = max(x1 - x0, 0.5)
            label = e["name"] + "".join(" %s=%s" % kv for kv in sorted(e.get("args", {}).items()))
            out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" stroke="#333333" '
                       'stroke-width="0.3"><title>%s, %.3f ms</title></rect>'
                       % (x0, y + 4, w, row - 10, colour(e["name"]), html.escape(label), e["dur"] / 1000))
            if w > 7 * len(e["name"]):
                labels.append('<text x="%.2f" y="%d" fill="#111111">%s</text>' % (x0 + 3, y + 19, html.escape(e["name"])))
        for e in (e for e in mine if e["cat"] == "wait"):
            x0, x1 = max(x(e["ts"]), left), min(x(e["ts"] + e["dur"]), a.width - 10)
            out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="url(#wait)"><title>wait%s, %.3f ms</title></rect>'
                       % (x0, y + 4, max(x1 - x0, 0.5), row - 10,
                          " for thread %s" % e["args"]["for_thread"] if "for_thread" in e.get("args", {}) else "",
                          e["dur"] / 1000))
        out.extend(labels)  # over the hatching, so they stay readable
    y = top + row * len(tids) + 12
    steps = 10
    for k in range(steps + 1):
        ts = t0 + (t1 - t0) * k / steps
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999999"/>' % (x(ts), y - 6, x(ts), y))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%.2f ms</text>' % (x(ts), y + 12, ts / 1000))
    out.append('<text x="%d" y="%d" fill="#555555">hatched: waiting for other threads</text>' % (left, 30))
    ly0 = y + 30
    for lx, ly, name in legend:
        # Swatches carry no <title>: only the timeline's boxes do.
        fill = colour(name) if name else "#888888"
        out.append('<rect x="%d" y="%d" width="16" height="11" fill="%s" stroke="#333333" '
                   'stroke-width="0.3"/>' % (lx, ly0 + ly, fill))
        if not name:
            out.append('<rect x="%d" y="%d" width="16" height="11" fill="url(#wait)"/>' % (lx, ly0 + ly))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 20, ly0 + ly + 10,
                                                       html.escape(name or "waiting for other threads")))
    out.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
