#!/usr/bin/env python3
"""ast_marshal.py TUPCC-AST CLANG TUPCC DIR: tupcc-ast makes of a JSON text the object
json.loads makes of it, decoded as Latin-1 as tupcc reads clang's output:
clang's own AST of a program with every kind of literal, and JSON written
here with every escape, non-ASCII bytes, surrogates, numbers of every size,
and strings repeated (written once, referred to after). Deeper than the
depth it is given: status 3; no JSON: status 2. And tupcc translates the
same through it as through the JSON, for DIR's programs and for a sum
deeper than the reader is allowed (which takes the JSON)."""

import ast

import json
import marshal
import os
import subprocess
import sys
import tempfile

reader, clang, tupcc, srcdir = sys.argv[1:5]
failed = 0


def convert(data, depth=1900):
    r = subprocess.run([reader, str(depth)], input=data, capture_output=True)
    return r.returncode, r.stdout


def check(name, data):
    global failed
    want = json.loads(data.decode('latin-1'))
    rc, out = convert(data)
    if rc != 0:
        print(f'FAIL {name}: status {rc}')
        failed += 1
        return
    got = marshal.loads(out)
    if got != want or type(got) is not type(want):
        print(f'FAIL {name}: {got!r:.200} != {want!r:.200}')
        failed += 1
        return
    print(f'ok   {name} ({len(data)} bytes of JSON, {len(out)} of marshal)')


def expect_status(name, data, status, depth=1900):
    global failed
    rc, _ = convert(data, depth)
    if rc != status:
        print(f'FAIL {name}: status {rc}, not {status}')
        failed += 1
    else:
        print(f'ok   {name} (status {rc})')


# clang's own AST of C with strings, characters, floats, large integers
program = r'''
#include <stdio.h>
struct s { int a; double b[3]; };
static const char *words[] = { "plain", "tab\there", "quote\"s", "back\\slash", "caf\xe9",
                               "\u00e9t\u00e9", "\U0001F600", "ctl\x01\x1f" };
int main(void)
{
    struct s v = { -2147483648LL > 0, { 1.5, -2.25e-300, 0x1p+60 } };
    unsigned long long big = 18446744073709551615ULL;
    long long neg = -9223372036854775807LL - 1;
    printf("%s %llu %lld %c %f\n", words[v.a], big, neg, 'x', v.b[2]);
    return 0;
}
'''
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, 'p.c')
    with open(src, 'w', encoding='utf-8') as f:
        f.write(program)
    r = subprocess.run([clang, '-fsyntax-only', '-Xclang', '-ast-dump=json', src], capture_output=True)
    if r.returncode != 0:
        print(r.stderr.decode('latin-1'))
        sys.exit(1)
    check("clang's AST of a C program", r.stdout)

texts = {
    'escapes': json.dumps(['"\\/\b\f\n\r\t', 'a\u0001b', '\u00e9', '\U0001F600']).encode(),
    'raw UTF-8 and Latin-1 bytes': b'["caf\xc3\xa9", "caf\xe9", {"k\xff": "\x80"}]',
    'lone and paired surrogates': b'["\\ud83d\\ude00", "\\ud83d", "\\ude00x", "\\ud83d\\u0041", "\\ud83d\\n", "\\udbff\\udfff"]',
    'numbers': b'[0, -0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, '
               b'9223372036854775807, -9223372036854775807, 1.5, -2.5e-300, 1E10, 0.1]',
    'literals and empties': b'{"t": true, "f": false, "n": null, "l": [], "d": {}, "s": ""}',
    'repeated keys and values': json.dumps([{'kind': 'X', 'id': f'0x{i:x}', 'qualType': 'int' * (i % 30)}
                                            for i in range(5000)], indent=2).encode(),
    'long strings': json.dumps(['x' * 300, 'y' * 70000, '\u00e9' * 300]).encode(),
    'more strings than the table keeps': json.dumps([f's{i}' for i in range(300000)]).encode(),
}
for name, data in texts.items():
    check(name, data)

deep = b'[' * 50 + b']' * 50
expect_status('nested 50 deep, allowed 60', deep, 0, depth=60)
expect_status('nested 50 deep, allowed 40', deep, 3, depth=40)
for name, data in [('truncated', b'{"a": [1, 2'), ('no JSON', b'{"a" 1}'), ('empty', b''),
                   ('text after', b'{} x'), ('a bad escape', b'["\\q"]')]:
    expect_status(name, data, 2)

# tupcc's translations through the reader and through the JSON: the same
with open(tupcc, encoding='utf-8') as f:
    script = f.read()
cfg = ast.literal_eval(script[script.index('{', script.index('driver.main(')):script.rindex('}') + 1])
cfg['ast_reader'] = os.path.abspath(reader)  # a sanitizer build's tupcc has none
sys.path.insert(0, cfg.get('moddir') or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.setrecursionlimit(60000)
import translate  # noqa: E402

# Deeper than the reader may nest (marshal's limit, made small here so that a
# short sum reaches it): tupcc takes the JSON path, with the same result.
piped = []
read_piped = translate._read_piped


def counting(*args):
    piped.append(1)
    return read_piped(*args)


translate._read_piped = counting
with tempfile.TemporaryDirectory() as tmp:
    deep = os.path.join(tmp, 'deep.upc')
    with open(deep, 'w', encoding='utf-8') as f:
        f.write('#include <upc.h>\nshared int x[THREADS];\nint main(void)\n{\n    int s = ' +
                ' + '.join(f'x[{i % 4} % THREADS]' for i in range(100)) + ';\n    return s == 7;\n}\n')
    progs = [os.path.join(srcdir, p) for p in ('basic.upc', 'pointers.upc', 'forall_local.upc')] + [deep]
    for prog in progs:
        name = os.path.basename(prog)
        want = translate.generate(prog, {}, dict(cfg, ast_reader=None))
        del piped[:]
        depth = translate.MARSHAL_DEPTH
        if prog == deep:
            translate.MARSHAL_DEPTH = 60
        try:
            got = translate.generate(prog, {}, cfg)
        finally:
            translate.MARSHAL_DEPTH = depth
        # the reader's path reads no JSON after the conversions' parse; the
        # deep program's takes the JSON again
        how = 'the JSON' if len(piped) > 1 else 'tupcc-ast'
        if (prog == deep) != (how == 'the JSON'):
            print(f'FAIL tupcc {name}: read through {how}')
            failed += 1
        elif got != want:
            print(f'FAIL tupcc {name}: the translation through {how} differs from the JSON\'s')
            failed += 1
        else:
            print(f'ok   tupcc {name}: the same translation through {how} ({len(got[0])} characters)')
sys.exit(1 if failed else 0)
