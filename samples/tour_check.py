#!/usr/bin/env python3
"""tour_check.py DEMO README: checks what the tour (samples/demo.c) prints.

Runs DEMO with NO_COLOR=1 on 2, 3 and 4 THREADS and reads its pictures back:
where every block went after each relocalization (1.3 and _x), that the
reduction's result is the sum of the operands drawn and its fold their
order, that the prefix reduction's partials are the running sums, that the
sort is sorted and stable, that each team broadcast from its own rank 0.
Then --only, --help and a bad option; that there are no colour codes
without a terminal or with NO_COLOR, and colour codes on a terminal; and
that the README's excerpt is what the tour prints.
"""
import os
import pty
import re
import subprocess
import sys

DEMO, README = sys.argv[1], sys.argv[2]
SECTIONS = [
    "upc_all_broadcast", "upc_all_scatter", "upc_all_gather", "upc_all_gather_all",
    "upc_all_exchange", "upc_all_permute", "upc_all_reduceI", "upc_all_prefix_reduceI",
    "upc_all_sort", "upc_all_broadcast_x", "upc_all_scatter_x", "upc_all_gather_x",
    "upc_all_gather_all_x", "upc_all_exchange_x", "upc_all_permute_x", "tupc_team_broadcast",
]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def run(args, env_extra=None):
    env = dict(os.environ, NO_COLOR="1")
    env.update(env_extra or {})
    return subprocess.run([DEMO] + args, capture_output=True, text=True, env=env, timeout=60)


# ---- Reading the output back -------------------------------------------------

def parse_column(text):
    """A column of a row: a list of ('box', [cells]) and ('loose', cell)."""
    items = []
    for m in re.finditer(r"\[([^\]]*)\]|(\S+)", text):
        if m.group(1) is not None:
            items.append(("box", m.group(1).split()))
        else:
            items.append(("loose", m.group(2)))
    return items


def boxes(items):
    return [cells for kind, cells in items if kind == "box"]


def parse_sections(out):
    """{name: {'lines': [...], 'before': rows, 'after': rows}}, where rows
    maps a thread to (its columns, its note)."""
    sections, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^== (\S+) ==$", line)
        if m:
            cur = sections.setdefault(m.group(1), {"lines": [], "before": {}, "after": {}})
            when = None
            continue
        if cur is None:
            continue
        cur["lines"].append(line)
        if re.match(r"^(before|after)\s", line):
            when = line.split()[0]
            continue
        m = re.match(r"^  thread +(\d+) \|(.*)$", line)
        if m and when:
            parts = m.group(2).split("|")
            cur[when][int(m.group(1))] = ([parse_column(p) for p in parts[:-1]], parts[-1].strip())
    return sections


def column(sec, when, t, k):
    return sec[when][t][0][k]


def label(t, k):
    return f"{t}.{k}"


def ints(items):
    return [int(c[0]) for c in boxes(items)]


# ---- The 1.3 relocalizations ---------------------------------------------------

def check_reloc(s, T):
    r = 1 % T
    sec = s["upc_all_broadcast"]
    for t in range(T):
        check(boxes(column(sec, "before", t, 1)) == [["."]], f"broadcast T={T}: dst {t} not empty before")
        check(boxes(column(sec, "after", t, 1)) == [[label(r, 0)]],
              f"broadcast T={T}: thread {t}'s dst is not the root's block {label(r, 0)}")
        check((boxes(column(sec, "after", t, 0)) != []) == (t == r), f"broadcast T={T}: src only on the root")
    sec = s["upc_all_scatter"]
    for t in range(T):
        check(boxes(column(sec, "after", t, 1)) == [[label(r, t)]], f"scatter T={T}: thread {t}")
    seen = [l for l in sec["lines"] if l.startswith("each thread's own dst block")]
    check(seen and seen[0].split(":")[-1].split() == [label(r, t) for t in range(T)],
          f"scatter T={T}: what each thread read right after its call")
    sec = s["upc_all_gather"]
    for t in range(T):
        want = [[label(i, 0)] for i in range(T)] if t == r else []
        check(boxes(column(sec, "after", t, 1)) == want, f"gather T={T}: thread {t}'s dst")
    sec = s["upc_all_gather_all"]
    for t in range(T):
        check(boxes(column(sec, "after", t, 1)) == [[label(i, 0)] for i in range(T)],
              f"gather_all T={T}: thread {t}'s dst")
    sec = s["upc_all_exchange"]
    for i in range(T):
        got = boxes(column(sec, "after", i, 1))
        # Thread i's block j came from thread j (its block i).
        check(got == [[label(j, i)] for j in range(T)], f"exchange T={T}: thread {i}'s dst is {got}")
        check(boxes(column(sec, "after", i, 0)) == [[label(i, j)] for j in range(T)],
              f"exchange T={T}: thread {i}'s src changed")
    sec = s["upc_all_permute"]
    perm = [ints(column(sec, "after", i, 1))[0] for i in range(T)]
    check(sorted(perm) == list(range(T)), f"permute T={T}: perm {perm} is no permutation")
    for i in range(T):
        check(boxes(column(sec, "after", perm[i], 2)) == [[label(i, 0)]],
              f"permute T={T}: thread {i}'s block did not reach thread perm[{i}] = {perm[i]}")


# ---- The computational collectives -----------------------------------------

def numbers(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def paragraph(lines, prefix):
    """A wrapped line of the tour, joined again."""
    for k, l in enumerate(lines):
        if l.startswith(prefix):
            out = l
            for m in lines[k + 1:]:
                if not m.startswith("  ") or m.startswith("  thread"):
                    break
                out += " " + m.strip()
            return out
    return ""


def check_compute(s, T):
    sec = s["upc_all_reduceI"]
    ops = [v for t in range(T) for v in ints(column(sec, "after", t, 0))]
    check(len(ops) == 2 * T, f"reduce T={T}: {len(ops)} operands drawn")
    result = ints(column(sec, "after", 0, 1))
    check(result == [sum(ops)], f"reduce T={T}: dst {result}, the operands drawn sum to {sum(ops)}")
    check(all(boxes(column(sec, "after", t, 1)) == [] for t in range(1, T)), f"reduce T={T}: dst off thread 0")
    fold = paragraph(sec["lines"], "fold, in index order:")
    check(numbers(fold.split("=", 1)[1]) == ops + [sum(ops)], f"reduce T={T}: fold line {fold!r}")
    order = paragraph(sec["lines"], "order:")
    check(f"gives {''.join(map(str, ops))}:" in order,
          f"reduce T={T}: the UPC_NONCOMM_FUNC fold is not the operands in order: {order!r}")

    sec = s["upc_all_prefix_reduceI"]
    src = [v for t in range(T) for v in ints(column(sec, "after", t, 0))]
    dst = [v for t in range(T) for v in ints(column(sec, "after", t, 1))]
    running = [sum(src[:i + 1]) for i in range(len(src))]
    check(dst == running, f"prefix T={T}: dst {dst}, running sums {running}")
    per = len(src) // T
    for t in range(T):
        line = [l for l in sec["lines"] if l.startswith(f"  thread {t}: dst[")]
        check(line and numbers(line[0])[-1] == running[(t + 1) * per - 1],
              f"prefix T={T}: thread {t}'s partial line {line}")

    sec = s["upc_all_sort"]

    def elems(when):
        out = []
        for t in range(T):
            for cells in boxes(column(sec, when, t, 0)):
                key, frm = cells[0].split(":")
                out.append((int(key), tuple(map(int, frm.split(".")))))
        return out

    before, after = elems("before"), elems("after")
    check(sorted(before) == sorted(after) and len(after) > T, f"sort T={T}: not the same elements")
    check([k for k, _ in after] == sorted(k for k, _ in before), f"sort T={T}: not sorted: {after}")
    # Stable: equal keys keep the order they had (by position in src).
    pos = {e: i for i, e in enumerate(before)}
    ties = 0
    for key in {k for k, _ in after}:
        order = [pos[e] for e in after if e[0] == key]
        check(order == sorted(order), f"sort T={T}: key {key} reordered: {after}")
        ties += len(order) > 1
    check(ties > 0, f"sort T={T}: no equal keys to show stability with")
    for key in {k for k, _ in after}:
        line = [l for l in sec["lines"] if l.startswith(f"  key {key}:")]
        want = [f"{t}.{k}" for kk, (t, k) in after if kk == key]
        check(line and line[0].split(":", 1)[1].split() == want, f"sort T={T}: line of key {key}")


# ---- The _x forms and the team -------------------------------------------------

def runs_of(row_items):
    return [tuple(b) for b in boxes(row_items)]


def check_ext(s, T):
    r = 1 % T
    counts = {"upc_all_broadcast_x": T, "upc_all_scatter_x": T, "upc_all_gather_x": T,
              "upc_all_gather_all_x": T * T, "upc_all_exchange_x": T * T, "upc_all_permute_x": T}
    for name, n in counts.items():
        sec = s[name]
        dcol = 2 if name == "upc_all_permute_x" else 1
        src_blocks = {b for t in range(T) for b in runs_of(column(sec, "after", t, 0))}
        got = [b for t in range(T) for b in runs_of(column(sec, "after", t, dcol))]
        empty = [b for t in range(T) for b in runs_of(column(sec, "before", t, dcol))]
        check(len(got) == n and len(empty) == n, f"{name} T={T}: {len(got)} dst blocks, expected {n}")
        check(all(set(b) == {"."} for b in empty), f"{name} T={T}: dst not empty before")
        # Every block written is a block that the call read, whole.
        check(all(b in src_blocks for b in got), f"{name} T={T}: dst blocks {got} not among {src_blocks}")
        # Nothing written outside the boxes.
        for t in range(T):
            loose = [c for kind, c in column(sec, "after", t, dcol) if kind == "loose"]
            check(set(loose) <= {"."}, f"{name} T={T}: thread {t} written outside its blocks")

    def src_row(name, t):
        return runs_of(column(s[name], "after", t, 0))

    def dst_row(name, t, k=1):
        return runs_of(column(s[name], "after", t, k))

    root_block = src_row("upc_all_broadcast_x", r)
    check(len(root_block) == 1 and all(dst_row("upc_all_broadcast_x", t) == root_block for t in range(T)),
          f"broadcast_x T={T}: not the root's block everywhere")
    blocks = src_row("upc_all_scatter_x", r)
    check(all(dst_row("upc_all_scatter_x", t) == [blocks[t]] for t in range(T)),
          f"scatter_x T={T}: block t of the root is not on thread t")
    gathered = dst_row("upc_all_gather_x", r)
    check(sorted(gathered) == sorted(b for t in range(T) for b in src_row("upc_all_gather_x", t)),
          f"gather_x T={T}: the root did not get every thread's block")
    every = sorted(b for t in range(T) for b in src_row("upc_all_gather_all_x", t))
    check(all(sorted(dst_row("upc_all_gather_all_x", t)) == every for t in range(T)),
          f"gather_all_x T={T}: a thread lacks a block")
    for i in range(T):
        # Block j of thread i is block i of thread j.
        want = sorted(src_row("upc_all_exchange_x", j)[i] for j in range(T))
        check(sorted(dst_row("upc_all_exchange_x", i)) == want, f"exchange_x T={T}: thread {i}")
    perm = [ints(column(s["upc_all_permute_x"], "after", i, 1))[0] for i in range(T)]
    check(sorted(perm) == list(range(T)), f"permute_x T={T}: perm {perm} is no permutation")
    for i in range(T):
        check(dst_row("upc_all_permute_x", perm[i], 2) == src_row("upc_all_permute_x", i),
              f"permute_x T={T}: thread {i}'s block did not reach thread {perm[i]}")

    sec = s["tupc_team_broadcast"]
    for t in range(T):
        cols, note = sec["after"][t]
        check(boxes(cols[1]) == [[label(t % 2, 0)]], f"team T={T}: thread {t} did not get its team root's block")
        check(note == f"team {'odd' if t % 2 else 'even'}, rank {t // 2}", f"team T={T}: note {note!r}")


# ---- The runs --------------------------------------------------------------------

for T in (2, 3, 4):
    p = run(["-n", str(T)])
    check(p.returncode == 0 and p.stderr == "", f"T={T}: exit {p.returncode}, stderr {p.stderr[:200]!r}")
    check("\x1b" not in p.stdout, f"T={T}: an escape code with NO_COLOR and no terminal")
    check(f"on {T} THREADS" in (p.stdout.splitlines() or [""])[0], f"T={T}: first line {p.stdout[:80]!r}")
    s = parse_sections(p.stdout)
    check(list(s) == SECTIONS, f"T={T}: sections {list(s)}")
    if list(s) != SECTIONS:
        continue
    for name in SECTIONS:
        sec = s[name]
        check(len(sec["before"]) == T and len(sec["after"]) == T, f"{name} T={T}: not a row per thread")
        check(any(l.startswith("sync: UPC_IN_") for l in sec["lines"]), f"{name} T={T}: no sync line")
        cite = (r'^(UPC 1\.3 7\.4\.[23]\.\d para \d|Collective Operations 1\.0 4\.3\.4 paras 1 and 6|'
                r'Extended Collectives 0\.3 (5\.3\.\d para 1|section 4 item 9)): "')
        check(re.match(cite, sec["lines"][0]) is not None,
              f"{name} T={T}: no quote with its section: {sec['lines'][0]!r}")
    check_reloc(s, T)
    check_compute(s, T)
    check_ext(s, T)

p = run(["-n", "3", "--only", "upc_all_exchange"])
heads = re.findall(r"^== (\S+) ==$", p.stdout, re.M)
check(p.returncode == 0 and heads == ["upc_all_exchange"], f"--only upc_all_exchange: sections {heads}")
# The options in any order: -n after --only gives the same tour.
q = run(["--only", "upc_all_exchange", "-n", "3"])
check(q.returncode == 0 and q.stdout == p.stdout, "--only upc_all_exchange -n 3: not as -n 3 first")

p = run(["-n", "2", "--help"])
check(p.returncode == 0 and p.stdout.startswith("usage: ") and "upc_all_permute_x" in p.stdout,
      "--help: exit 0 and the usage, with the names, on stdout")
for bad in (["--only", "upc_all_nothing"], ["--only"], ["--colour"], ["-n", "zero"], ["-n"]):
    p = run(["-n", "2"] + bad)
    check(p.returncode == 2 and p.stdout == "" and "usage: " in p.stderr,
          f"{' '.join(bad)}: exit {p.returncode}, expected 2 with the usage on stderr")


def on_terminal(env_extra):
    """The tour's output when its stdout is a terminal (a pty)."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(env_extra, TERM="xterm")
    p = subprocess.Popen([DEMO, "-n", "2", "--only", "upc_all_broadcast"], stdout=slave,
                         stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    p.wait(timeout=60)
    return out.decode()


check("\x1b[" in on_terminal({}), "no colour on a terminal")
check("\x1b" not in on_terminal({"NO_COLOR": "1"}), "colour on a terminal with NO_COLOR=1")

# The README's excerpt: the lines under its marker, a run of the tour's lines.
readme = open(README, encoding="utf-8").read()
m = re.search(r"<!-- tour: demo (.*?) -->\n```text\n(.*?)```", readme, re.S)
if check(m is not None, "README: no tour excerpt"):
    p = run(m.group(1).split())
    check(m.group(2) in p.stdout, f"README: the excerpt is not what `demo {m.group(1)}` prints")

for f in failures:
    print("FAIL", f)
print("tour: ok" if not failures else f"tour: {len(failures)} failures")
sys.exit(1 if failures else 0)
