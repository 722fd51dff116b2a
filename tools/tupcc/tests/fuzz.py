#!/usr/bin/env python3
"""fuzz.py TUPCC DIR: tupcc never shows a Python traceback. It translates
(-E) the suite's programs cut short, mutated at random (a fixed seed) and
nested deeply, and other inputs a user may give (bytes that are no UTF-8,
an empty file, an output it cannot write); each run must end with status
0, 1 or 2 and, unless 0, a message (2: a 'tupcc internal error' line)."""

import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

tupcc, srcdir = sys.argv[1], sys.argv[2]
rng = random.Random(29)
SEEDS = ['basic.upc', 'structs.upc', 'pointers.upc', 'statements.upc']
INSERTS = [b'shared ', b'[*] ', b'strict ', b'{', b'}', b'(', b')', b'*', b'"', b"'", b'#', b'\xe9',
           b'upc_forall ', b'THREADS', b'[', b';', b'upc_barrier ', b'&', b'->', b'0x']


def deep(body):
    return b'#include <upc.h>\nint x[4];\nint main(void)\n{\n' + body + b'\n    return 0;\n}\n'


# TUPC_TEST_QUICK: one cut and one mutation of two programs, not three of
# four, and no deeply nested input
QUICK = bool(os.environ.get('TUPC_TEST_QUICK'))


def cases():
    for name in SEEDS[:2] if QUICK else SEEDS:
        data = open(os.path.join(srcdir, name), 'rb').read()
        for k in (2,) if QUICK else range(1, 4):
            yield f'{name} cut at {k}/4', data[:len(data) * k // 4], ['-E']
        for k in range(1 if QUICK else 3):
            b = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(b))
                if rng.random() < 0.5:
                    del b[at:at + rng.randint(1, 12)]
                else:
                    b[at:at] = rng.choice(INSERTS)
            yield f'{name} mutated {k}', bytes(b), ['-E']
    if not QUICK:  # deep input takes clang and tupcc seconds each: CI's
        yield from deep_cases()
    yield 'unbalanced', deep(b'{' * 50 + b'x[0]++;'), ['-E']
    yield 'a Latin-1 literal', deep(b'    const char *s = "caf\xe9";\n    (void)s;'), ['-E']
    yield 'a Latin-1 identifier', deep(b'    int caf\xe9 = 1;'), ['-E']
    yield 'binary', bytes(rng.randrange(256) for _ in range(2000)), ['-E']
    yield 'empty, linked', b'', []
    yield 'unwritable output', deep(b''), ['-E', '-o', '/nonexistent/dir/out.c']
    yield 'a variable length array', deep(b'    int n = x[0] + 2;\n    int a[n];\n    a[0] = 1;\n    (void)a;'), ['-E']


def deep_cases():
    n = 400
    yield 'a long sum', deep(b'    int s = ' + b' + '.join(b'x[%d]' % (i % 4) for i in range(n)) + b';\n    (void)s;'), ['-E']
    yield 'a long else if', deep(b'    int r = 0;\n    if (x[0] == 1) r = 1;\n' +
                                 b''.join(b'    else if (x[0] == %d) r = 2;\n' % i for i in range(300)) + b'    (void)r;'), ['-E']
    yield 'nested parentheses', deep(b'    int s = ' + b'(' * 300 + b'1' + b')' * 300 + b';\n    (void)s;'), ['-E']
    yield 'nested blocks', deep(b'{' * 300 + b'x[0]++;' + b'}' * 300), ['-E']
    yield 'nested ifs', deep(b'if (x[0]) ' * 300 + b'x[1]++;'), ['-E']


def run(case, tmp):
    what, data, args = case
    k = abs(hash(what)) % 10**8
    path = os.path.join(tmp, f'f{k}.upc')
    with open(path, 'wb') as f:
        f.write(data)
    out = [] if '-o' in args else ['-o', os.path.join(tmp, f'f{k}.out')]
    r = subprocess.run([sys.executable, tupcc] + args + out + [path], capture_output=True, timeout=240)
    err = r.stderr.decode('latin-1')
    if 'Traceback' in err or r.returncode not in (0, 1, 2):
        return f'{what}: status {r.returncode}\n{err[-3000:]}'
    if r.returncode and not err.strip():
        return f'{what}: status {r.returncode} without a message'
    if r.returncode == 2 and 'tupcc internal error' not in err:
        return f'{what}: status 2 without "tupcc internal error"\n{err[-2000:]}'
    return None


def main():
    if not shutil.which('clang'):
        print('no clang: skipped')
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        with ThreadPoolExecutor(2) as ex:
            bad = [r for r in ex.map(lambda c: run(c, tmp), list(cases())) if r]
    for b in bad:
        print(b)
    print(f'{len(bad)} failures')
    return 1 if bad else 0


sys.exit(main())
