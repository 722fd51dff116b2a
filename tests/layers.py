#!/usr/bin/env python3
"""The layers of lib/ held by the object files.

docs/design.md's layer table (the "Layers" section) is the one place that
says which file is in which layer and which layers each layer may call. This
test reads that table, then the symbols of every object of lib/ (nm: what
each defines, what it references), resolves each reference to the object
that defines it, and fails on
  - a file of lib/ that is in no layer (or in two),
  - a reference that points up: to a layer its layer may not call,
  - a cycle between files (files of one layer may use each other, but no two
    files may reach each other).
References are calls and data alike: reading a file's global is depending on
it as much as calling its functions.

usage: layers.py SOURCE_ROOT ARCHIVE... (the static libraries of lib/)"""
import fnmatch
import os
import re
import subprocess
import sys


def read_table(design):
    """The layer table: a list of (name, [file patterns], may-call cell)."""
    text = open(design, encoding="utf-8").read()
    sec = re.search(r"^## Layers\n(.*?)(?=^## )", text, re.S | re.M)
    if not sec:
        sys.exit(f"{design}: no '## Layers' section")
    rows = []
    for line in sec.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 3:
            continue
        if cells[0] == "layer" or set(cells[0]) <= set("-: "):
            continue
        pats = [p for p in re.findall(r"`([^`]+)`", cells[1]) if p.endswith(".c")]
        rows.append((cells[0], pats, cells[2]))
    if not rows:
        sys.exit(f"{design}: the Layers section has no table")
    return rows


def allowed_layers(rows):
    """For each layer, the set of layers it may call (its own is implicit)."""
    names = [r[0] for r in rows]
    allow = {}
    for i, (name, _, cell) in enumerate(rows):
        if cell == "everything":
            allow[name] = set(names)
        elif cell == "nothing of the library":
            allow[name] = set()
        elif cell == "the above":
            allow[name] = set(names[:i])
        else:
            # Layer names, separated by ';' (names themselves hold commas).
            want = [w.strip() for w in cell.split(";")]
            bad = [w for w in want if w not in names[:i]]
            if bad:
                sys.exit(f"layer '{name}' may call '{bad[0]}', which is no layer below it")
            allow[name] = set(want)
    return allow


def layer_of(rows, sources):
    """Each source file's layer: a file named outright wins over a pattern."""
    where, errors = {}, []
    for src in sources:
        exact = [r[0] for r in rows if src in r[1]]
        globbed = [r[0] for r in rows for p in r[1] if "*" in p and fnmatch.fnmatch(src, p)]
        hits = exact or globbed
        if not hits:
            errors.append(f"{src}: in no layer")
        elif len(hits) > 1:
            errors.append(f"{src}: in more than one layer ({', '.join(hits)})")
        else:
            where[src] = hits[0]
    return where, errors


def read_symbols(archives, sources):
    """Per source file, the global symbols it defines and those it uses."""
    obj_to_src = {s.replace("/", "_") + ".o": s for s in sources}
    defs, uses = {}, {}
    out = subprocess.run(["nm", "-A", "-P", *archives], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        m = re.match(r"^.*\[(.+)\]: (\S+) (\S)", line)
        if not m:
            continue
        obj, sym, kind = m.groups()
        src = obj_to_src.get(obj)
        if src is None:
            sys.exit(f"{obj}: an object of no source file under lib/")
        if kind in "Uw":
            uses.setdefault(src, set()).add(sym)
        elif kind.isupper():
            defs.setdefault(sym, src)
        uses.setdefault(src, set())
    return defs, uses


def file_graph(defs, uses):
    """Edges between files, each with the symbols that make it."""
    edges = {}
    for src, syms in uses.items():
        for sym in syms:
            dst = defs.get(sym)
            if dst and dst != src:
                edges.setdefault((src, dst), set()).add(sym)
    return edges


def cycles(nodes, edges):
    """The strongly connected components of more than one file (Tarjan)."""
    succ = {n: sorted(d for (s, d) in edges if s == n) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def show(syms):
    syms = sorted(syms)
    return ", ".join(syms[:3]) + (f" and {len(syms) - 3} more" if len(syms) > 3 else "")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root, archives = sys.argv[1], sys.argv[2:]
    lib = os.path.join(root, "lib")
    sources = sorted(os.path.relpath(os.path.join(d, f), lib)
                     for d, _, fs in os.walk(lib) for f in fs if f.endswith(".c"))
    rows = read_table(os.path.join(root, "docs", "design.md"))
    allow = allowed_layers(rows)
    where, errors = layer_of(rows, sources)
    order = {r[0]: i for i, r in enumerate(rows)}
    defs, uses = read_symbols(archives, sources)
    edges = file_graph(defs, uses)
    up = []
    for (s, d), syms in sorted(edges.items()):
        ls, ld = where.get(s), where.get(d)
        if ls and ld and ls != ld and ld not in allow[ls]:
            up.append(f"{s} ({ls}) -> {d} ({ld}): {show(syms)}")
    loops = cycles(set(uses), edges)
    for e in errors:
        print("no layer:", e)
    for u in up:
        print("upward:", u)
    for comp in loops:
        print(f"cycle of {len(comp)} files: {', '.join(comp)}")
        for (s, d), syms in sorted(edges.items()):
            if s in comp and d in comp:
                print(f"    {s} -> {d}: {show(syms)}")
    print(f"layers: {len(rows)} layers, {len(sources)} files, {len(edges)} arrows between "
          f"files; {len(errors)} files in no layer, {len(up)} arrows pointing up, "
          f"{len(loops)} cycles")
    layers = sorted(set(where.values()), key=order.get)
    for name in layers:
        n = sum(1 for v in where.values() if v == name)
        print(f"  {name}: {n} file{'' if n == 1 else 's'}")
    return 1 if errors or up or loops else 0


if __name__ == "__main__":
    sys.exit(main())
