#!/usr/bin/env python3
"""The README as a script: every ```sh block, in order, in one scratch copy
of the tree, as a newcomer pastes them into one terminal (a block's exports
and cd carry to the next), with HOME a scratch directory so that the
installs to "$HOME/.local" stay in it.

What a block needs is said by a comment on the line before its fence:
  <!-- readme-test: file NAME -->  the block (C, UPC, ...) is a file the
                                   reader saves as NAME; written there
  <!-- readme-test: root -->       installs into the system as root: run
                                   only with --system (CI's fresh machine)
  <!-- readme-test: status N -->   the block ends with status N (a race that
                                   ThreadSanitizer reports exits 66)
Lines that call apt-get run only with --system too; README_SKIP, a regular
expression, skips the lines it matches (each skip is reported).

--in-place runs the blocks in SOURCE_ROOT itself, which must then be a
fresh clone (CI's is): what they build stays for the steps after them.

usage: readme.py SOURCE_ROOT [--system] [--in-place] [--readme FILE]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

args = sys.argv[1:]
src = os.path.abspath(args[0])
system = "--system" in args
in_place = "--in-place" in args
readme = os.path.join(src, "README.md")
if "--readme" in args:
    readme = os.path.abspath(args[args.index("--readme") + 1])
skip = re.compile(os.environ["README_SKIP"]) if os.environ.get("README_SKIP") else None
if system and os.geteuid() != 0:
    sys.exit("readme.py --system installs into the system: run it as root (CI does)")


def blocks(text):
    """(line, language, marker, body) of each fenced block."""
    lines = text.split("\n")
    out, i = [], 0
    section = ""
    while i < len(lines):
        if lines[i].startswith("## "):
            section = lines[i][3:].strip()
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m and m.group(1):
            marker = ""
            prev = lines[i - 1].strip() if i else ""
            mm = re.match(r"<!-- readme-test: (.*) -->", prev)
            if mm:
                marker = mm.group(1).strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 1, m.group(1), marker, section, "\n".join(lines[i + 1:j])))
            i = j
        i += 1
    return out


with open(readme) as f:
    found = blocks(f.read())
tmp = tempfile.mkdtemp(prefix="readme-")
tree, home = os.path.join(tmp, "tupc"), os.path.join(tmp, "home")
os.makedirs(home)


def copy_tree():
    # The tracked files and the work in progress, not the build directories:
    # what a fresh clone holds.
    files = subprocess.run(["git", "-C", src, "ls-files", "-co", "--exclude-standard", "-z"],
                           capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, files):
        name = name.decode()
        if not os.path.isfile(os.path.join(src, name)):
            continue
        os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
        shutil.copy2(os.path.join(src, name), os.path.join(tree, name))
    shutil.copy2(readme, os.path.join(tree, "README.md"))
    # A clone is a git repository, which some steps ask (the subproject test
    # lists the tree's files with git): a fresh one, every file untracked.
    subprocess.run(["git", "init", "-q", tree], check=True)


if in_place:
    tree = src
else:
    copy_tree()
state = os.path.join(tmp, "state.sh")
with open(state, "w") as f:
    f.write("cd %s\n" % tree)
env = {"PATH": os.environ["PATH"], "HOME": home, "LANG": "C.UTF-8", "TERM": "dumb",
       "NO_COLOR": "1"}
results = []
program_saved = False
for line, lang, marker, section, body in found:
    where = "README.md:%d (%s)" % (line, section)
    if marker.startswith("file "):
        name = marker[5:]
        with open(os.path.join(tree, name), "w") as f:
            f.write(body + "\n")
        print("== %s: saved as %s" % (where, name), flush=True)
        continue
    if lang == "c" and section == "A program" and not program_saved:
        # The README says to save its program as prog.c.
        program_saved = True
        with open(os.path.join(tree, "prog.c"), "w") as f:
            f.write(body + "\n")
        print("== %s: saved as prog.c" % where, flush=True)
        continue
    if lang != "sh":
        continue
    if marker == "root" and not system:
        print("== %s: skipped, it installs into the system as root (CI runs it: readme.py "
              "--system)\n%s" % (where, body), flush=True)
        results.append((where, "skipped (root)"))
        continue
    want = int(marker.split()[1]) if marker.startswith("status ") else 0
    script = []
    lines = body.split("\n")
    for k, cmd in enumerate(lines):
        if re.match(r"^\s*(sudo\s+)?apt-get\b", cmd) and not system:
            script.append("echo 'readme-test: skipped (apt-get, only with --system): %s'" %
                          cmd.replace("'", ""))
        elif skip and cmd.strip() and skip.search(cmd):
            script.append("echo 'readme-test: skipped (README_SKIP): %s'" % cmd.replace("'", ""))
        else:
            script.append(cmd)
        # set -e spares the first commands of an && list: a line's status
        # is checked after it (unless it goes on on the next line).
        if cmd.strip() and not cmd.rstrip().endswith("\\") and not cmd.lstrip().startswith("#"):
            script.append("rc=$?; [ $rc -eq 0 ] || exit $rc")
    # The state of the terminal before the block, the block under set -e,
    # and the state after it for the next.
    text = ("set -e\n. %s\n%s\n{ echo \"cd '$PWD'\"; export -p; } >%s\n" %
            (state, "\n".join(script), state))
    print("== %s:\n%s" % (where, body), flush=True)
    t0 = time.time()
    r = subprocess.run(["bash", "-c", text], env=env, stdin=subprocess.DEVNULL)
    took = time.time() - t0
    ok = r.returncode == want
    verdict = "ok" if ok else "FAILED"
    print("== %s: status %d%s, %.0f s: %s" % (where, r.returncode,
          " (expected %d)" % want if want else "", took, verdict), flush=True)
    # A failed block's exports are lost; the next runs regardless, so that
    # every failing block shows.
    results.append((where, verdict if ok else "FAILED, status %d" % r.returncode))
print("\nREADME blocks:")
for where, verdict in results:
    print("  %-60s %s" % (where, verdict))
failed = [w for w, v in results if v.startswith("FAILED")]
shutil.rmtree(tmp, ignore_errors=True)
if failed:
    print("%d of %d blocks failed" % (len(failed), len(results)))
    sys.exit(1)
print("every block of the README works as pasted")
