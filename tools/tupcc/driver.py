"""tupcc's command line: translate each .upc file, compile with the system C
compiler, link with tupc. See tupcc(1)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import translate
from upctypes import UPCError, InternalError

USAGE = '''usage: tupcc [-n N] [-E] [--keep] [-c] [-o OUT] [cc options] FILE.upc [FILE.c|.o ...]
  -n N       static THREADS: THREADS is the constant N (__UPC_STATIC_THREADS__);
             Berkeley's -T N and GNU UPC's -fupc-threads-N and -fupc-threads=N too
  -E         print the generated C (of one .upc file) instead of compiling
  --keep     keep the generated C as NAME.tupcc.c in the current directory
  -c, -o, -I, -D, -U, -O, -g, -W..., -f..., -l, -L: as for cc ($CC, default cc)
  --version  tupc's version and the clang that parses the UPC
'''

# The spellings of static THREADS other UPC compilers take, besides -n N:
# -T N (Berkeley upcc; -T FILE, a linker script, when not a number),
# -fupc-threads-N (GNU UPC), -fupc-threads=N.
THREADS_JOINED = re.compile(r'-n(\d*)|-T=?(\d+)|-fupc-threads[-=](.*)')


# the C compiler's options that change its predefined macros (-O2 defines
# __OPTIMIZE__, -fsanitize=thread __SANITIZE_THREAD__, -std=c11 __STRICT_ANSI__)
CC_MACRO_FLAGS = ('-std=', '-O', '-f', '-m', '-ansi', '-pedantic')

WITH_VALUE = ('-MF', '-MT', '-MQ', '-Xlinker', '-Xassembler', '-Xpreprocessor', '-u', '-T', '-x')


def main(argv, cfg):
    """tupcc's exit status: 0, 1 (the user's error, or the C compiler's
    status) or 2 (tupcc's own failure); never a Python traceback."""
    if os.environ.get('TUPCC_CLANG'):
        # the front end's clang, another than the one found at build time
        cfg = dict(cfg, clang=os.environ['TUPCC_CLANG'])
    try:
        return _main(argv, cfg)
    except InternalError as e:
        sys.stderr.write(f'{e}\n')
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # noqa: BLE001 (the last guard)
        sys.stderr.write(f'tupcc: tupcc internal error: {type(e).__name__}: {e} (please report)\n')
        return 2


def _write(path, text):
    """text to path; a user's error (1) where it cannot be written."""
    try:
        with open(path, 'w', encoding=translate.ENC) as f:
            f.write(text)
    except OSError as e:
        sys.stderr.write(f'tupcc: cannot write {path}: {e.strerror}\n')
        return False
    return True


def _main(argv, cfg):
    threads = None
    cpp_args, cc_args, link_args, inputs = [], [], [], []
    out = None
    mode = 'link'
    keep = False
    i = 0
    while i < len(argv):
        a = argv[i]

        def value():
            nonlocal i
            if len(a) > 2 and a[:2] in ('-I', '-D', '-U', '-o', '-n', '-L', '-l'):
                return a[2:]
            i += 1
            if i == len(argv):
                sys.exit(f'tupcc: {a} needs a value')
            return argv[i]
        if a in ('-h', '--help'):
            sys.stdout.write(USAGE)
            return 0
        if a == '--version':
            return _version(cfg)
        m = THREADS_JOINED.fullmatch(a)
        if m or (a == '-T' and i + 1 < len(argv) and argv[i + 1].isdigit()):
            if m and m.group(1) is not None:
                v = value()
            elif m:
                v = m.group(2) or m.group(3)
            else:
                i += 1
                v = argv[i]
            if not v.isdigit() or not 1 <= int(v) <= 1024:
                sys.exit(f'tupcc: -n {v}: expected a number of threads from 1 to 1024')
            threads = int(v)
        elif a[:2] in ('-I', '-D', '-U'):
            flag = a[:2]
            v = value()
            cpp_args += [flag + v]
            cc_args += [flag + v]
        elif a in ('-include', '-isystem', '-iquote', '-idirafter'):
            i += 1
            cpp_args += [a, argv[i]]
            cc_args += [a, argv[i]]
        elif a in WITH_VALUE:
            # a C compiler option whose value is the next argument
            i += 1
            (link_args if a in ('-Xlinker', '-u', '-T') else cc_args).extend([a, argv[i]])
        elif a[:2] == '-o':
            out = value()
        elif a == '-c':
            mode = 'compile'
        elif a == '-E':
            mode = 'translate'
        elif a == '--keep':
            keep = True
        elif a[:2] in ('-l', '-L') or a.startswith('-Wl,') or a in ('-pthread', '-static', '-shared'):
            link_args.append(a if a[:2] not in ('-l', '-L') or len(a) > 2 else a + value())
        elif a.startswith('-'):
            cc_args.append(a)
            if a.startswith(('-fsanitize', '-pg', '-fprofile', '--coverage')):
                link_args.append(a)
        else:
            inputs.append(a)
        i += 1
    if not inputs:
        sys.stderr.write(USAGE)
        return 1
    if not any(a.startswith('-std=') for a in cc_args):
        cc_args.insert(0, '-std=gnu11')
    cc = os.environ.get('CC') or 'cc'
    opts = {'threads': threads, 'cpp_args': cpp_args,
            # $CC's own predefined macros, for the user's code (translate.cc_view)
            'cc_macros': lambda: translate.cc_macros([cc] + [a for a in cc_args if a.startswith(CC_MACRO_FLAGS)])}
    upcs = [f for f in inputs if f.endswith('.upc')]
    if mode == 'translate':
        if len(upcs) != 1:
            sys.exit('tupcc: -E takes one .upc file')
        code = _translate(upcs[0], opts, cfg)
        if code is None:
            return 1
        if out:
            return 0 if _write(out, code) else 1
        sys.stdout.buffer.write(code.encode(translate.ENC))
        return 0
    if mode == 'compile' and out and len([f for f in inputs if f.endswith(('.upc', '.c'))]) > 1:
        sys.exit('tupcc: -c -o with more than one source file')
    tmp = tempfile.mkdtemp(prefix='tupcc-')
    try:
        objs = []
        for k, f in enumerate(inputs):
            base = os.path.splitext(os.path.basename(f))[0]
            # in the scratch directory, a.upc and lib/a.upc must not meet
            scratch = os.path.join(tmp, f'{k}-{base}')
            if f.endswith(('.upc', '.c')):
                src = f
                if f.endswith('.upc'):
                    code = _translate(f, opts, cfg)
                    if code is None:
                        return 1
                    src = base + '.tupcc.c' if keep else scratch + '.tupcc.c'
                    if not _write(src, code):
                        return 1
                obj = out if mode == 'compile' and out else (base + '.o' if mode == 'compile' else scratch + '.o')
                r = subprocess.run([cc] + cc_args + cfg['cflags'] + ['-c', src, '-o', obj])
                if r.returncode:
                    return r.returncode
                objs.append(obj)
            else:
                objs.append(f)
        if mode == 'compile':
            return 0
        if not opts.get('main') and all(f.endswith('.upc') for f in inputs):
            sys.stderr.write(f'tupcc: no main in {", ".join(inputs)}: a UPC program defines main in one of its .upc files\n')
            return 1
        r = subprocess.run([cc] + [a for a in cc_args if not a.startswith(('-I', '-D', '-U'))] + objs +
                           ['-o', out or 'a.out'] + link_args + cfg['libs'])
        return r.returncode
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _version(cfg):
    print(f"tupcc (tupc) {cfg['version']}")
    try:
        r = subprocess.run([cfg['clang'], '--version'], capture_output=True, text=True)
        first = r.stdout.splitlines()[0] if r.stdout else 'no output'
    except OSError as e:
        first = f'cannot run it: {e.strerror}'
    print(f"clang: {cfg['clang']} ({first})")
    return 0


def _translate(path, opts, cfg):
    if not os.path.isfile(path):
        sys.stderr.write(f'tupcc: {path}: no such file\n')
        return None
    result = []

    def work():
        try:
            mine = dict(opts)
            result.append(translate.generate(path, mine, cfg))
            opts['main'] = opts.get('main') or mine.get('main')
        except BaseException as e:  # noqa: BLE001 (handed to the caller)
            result.append(e)
    # deep expressions (a 300-branch else if) recurse deeply: a thread
    # with room for it, rather than Python's default limit
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(60000)
    threading.stack_size(1 << 29)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    sys.setrecursionlimit(old)
    if isinstance(result[0], UPCError):
        sys.stderr.write(str(result[0]) + '\n')
        return None
    if isinstance(result[0], BaseException):
        if isinstance(result[0], (InternalError, KeyboardInterrupt)):
            raise result[0]
        raise InternalError(path, result[0])
    code, warnings = result[0]
    for w in dict.fromkeys(warnings):  # once each, in order
        sys.stderr.write(w + '\n')
    return code
