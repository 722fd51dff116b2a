"""tupcc front end and translator: UPC source -> C11 that calls tupc.

1. clang -E with tupcc's UPC view of the library headers (include/);
2. the pre-pass (prepass.py) maps UPC syntax to C that clang can type;
3. clang parses it; an implicit conversion between pointers-to-shared of
   different layouts, which clang rejects as a change of address space, gets
   the explicit cast inserted and the file is parsed again;
4. clang's JSON AST drives a rewrite of the pre-passed text: every node is
   re-emitted from its own text with its children replaced, and only shared
   accesses, pointers-to-shared and declarations that name shared types
   change. No newline is added or removed in user code, so the line markers
   turn into #line directives that stay right;
5. regions of system headers collapse back into their #include lines, and
   the static shared objects get a collective allocation before main."""

import bisect
import gc
import fcntl
import json
import marshal
import os
import re
import subprocess
import tempfile

import prepass
from upctypes import UPCError, InternalError, Types, Ty, parse, decode_as, K_STAR

# source text is read and written byte for byte (clang's offsets are bytes;
# a Latin-1 string literal or a UTF-8 identifier is kept as it is)
ENC = 'latin-1'
DIAG = re.compile(r"^(?P<file>[^:\n]*):(?P<line>\d+):(?P<col>\d+):(?P<ranges>(?:\{[^}]*\})*):? ?(?P<sev>error|fatal error|warning|note): (?P<msg>.*)$", re.M)
RANGE = re.compile(r'\{(\d+):(\d+)-(\d+):(\d+)\}')
QUOTED = re.compile(r"'([^']*)'(?: \(aka '([^']*)'\))?")
# an affinity (6.6.2) of a type no integer: floating, pointer-to-local, struct
NOT_INTEGER = re.compile(r'float|double|_Complex|\*|\[|\(|^\s*(?:const |volatile )*(?:struct|union|void)\b')
ARITH = {'char', 'signed char', 'unsigned char', 'short', 'unsigned short', 'int', 'unsigned int',
         'long', 'unsigned long', 'long long', 'unsigned long long', 'float', 'double', '_Bool',
         'int8_t', 'uint8_t', 'int16_t', 'uint16_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t',
         'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t'}


class Lines:
    """offset in the -E text -> (file, line, user) from its line markers."""

    def __init__(self, text, is_user):
        self.starts, self.where = [], []
        off, file, line, user = 0, '?', 1, True
        for ln in text.split('\n'):
            self.starts.append(off)
            self.where.append((file, line, user))
            m = prepass.MARKER.match(ln)
            if m:
                file, line = m.group(2), int(m.group(1))
                user = is_user(file, m.group(3).split())
            else:
                line += 1
            off += len(ln) + 1

    def at(self, off):
        return self.where[bisect.bisect_right(self.starts, off) - 1]

    def physical(self, line):
        return self.where[line - 1] if 0 < line <= len(self.where) else ('?', 0, True)


def rng(n):
    """[begin, end) offsets of node n in the parsed text, or None."""
    if ' rng' in n:
        return n[' rng']
    n[' rng'] = r = _rng(n)
    return r


def _rng(n):
    r = n.get('range')
    if not r or 'offset' not in r.get('begin', {}) or 'offset' not in r.get('end', {}):
        return None
    return r['begin']['offset'], r['end']['offset'] + r['end'].get('tokLen', 0)


def kids(n):
    """n's child nodes (the JSON writes absent ones as {}), kept in n."""
    k = n.get(' kids')
    if k is None:
        k = n[' kids'] = [c for c in n.get('inner', ()) if isinstance(c, dict) and c.get('kind')]
    return k


def strip(n):
    """n without the parentheses and implicit conversions around it."""
    while n.get('kind') in ('ParenExpr', 'ImplicitCastExpr') and kids(n):
        n = kids(n)[0]
    return n


# the C library's functions with hidden state, which is each UPC thread's
# own (tupcc_rt.h), and exit, which ends one thread
PER_THREAD = {'rand': 'tupcc_rand', 'srand': 'tupcc_srand', 'strtok': 'tupcc_strtok',
              'exit': 'tupcc_exit'}

INTS = {'char', 'signed char', 'unsigned char', 'short', 'unsigned short', 'int', 'unsigned int', 'long',
        'unsigned long', 'long long', 'unsigned long long'}
INT_TYPEDEFS = {'int8_t', 'uint8_t', 'int16_t', 'uint16_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t',
                'size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t', 'ssize_t'}


def flat(text):
    """text on one line: a second copy of a loop's body, whose newlines the
    first copy keeps (the #line directives stay right)."""
    return text.replace('\n', ' ')


def in_group(grp, d):
    """d belongs to the declaration grp begins: it begins where grp does
    (int a, *b;), or lies inside it (the struct of typedef struct {...} S;)."""
    b, e = rng(d)
    return b == rng(grp[0])[0] or e <= max(rng(x)[1] for x in grp)


DECLS = ('VarDecl', 'FieldDecl', 'TypedefDecl', 'RecordDecl', 'EnumDecl')


def fb_start_name(q):
    """the name of the block's first element (tupcc_rD_N) beside the block
    base tupcc_qD_N of a block loop."""
    return 'tupcc_r' + q[len('tupcc_q'):]


def pragma_mode(pragmas, off):
    """the mode (1 strict, 2 relaxed) that the UPC pragmas give an access at
    offset off of the pre-passed text: relaxed before any (UPC 1.3 6.6.1's
    implicit relaxed pragma), else the innermost pragma in effect there."""
    mode = 2
    for start, end, m in pragmas:
        if start <= off and (end is None or off < end):
            mode = m
    return mode


class Translator:
    """One translation unit's AST and pre-passed text -> C (run())."""

    def __init__(self, text, lines, ast, pragmas, threads):
        self.text, self.lines, self.ast, self.pragmas = text, lines, ast, pragmas
        self.static_threads = threads
        self.types = Types()
        self.errors = []
        self.allocs = []     # (handle, nblocks, nbytes, element C type, init text)
        self.hoisted = []    # handles of block-scope static shared objects
        self.renamed = {}    # decl id -> handle name
        self.defined = set()  # file-scope shared objects already allocated
        self.main = None     # parameters of the user's main
        self.main_void = False  # void main(): its status is 0
        self.tls = set()     # ids of the private objects made _Thread_local
        self.shared_ids = set()  # ids of the static shared objects
        self.local = []      # (array id, index id, variable) of enclosing upc_foralls over &a[i]
        self.affinity_var = None
        self.strided = False    # the innermost upc_forall over &a[i] steps by tupcc_fa_step
        self.local_arrays = {}  # array id of self.local -> (handle, array_shape)
        self.thread_inits = []  # assignments every thread makes before main
        self.scope_file = True
        self.warnings = []
        self._tc = {}
        self.star_decl = {}  # id of a [*] array -> its block size
        self.fb = []         # contexts of the enclosing upc_foralls run as block loops (fast_forall)
        self.forall_nest = 0  # upc_foralls with an affinity being emitted around this node
        self.fb_count = 0
        self.walks = {}      # pointer id -> walk_loop's run pointer

    # ---- helpers -------------------------------------------------------------
    def where(self, n):
        """(file, line) of node n in the user's source."""
        r = rng(n)
        off = r[0] if r else n.get('loc', {}).get('offset')
        if off is None:
            return '?', 0
        f, ln, _ = self.lines.at(off)
        return f, ln

    def refuse(self, n, msg):
        raise UPCError(msg, n)

    def T(self, n):
        qt = n['type']['qualType']
        if 'typeof' in qt and 'desugaredQualType' in n['type']:
            # __typeof__(e) is e's type, which clang gives desugared; the
            # expression inside is a type's, never rewritten
            qt = n['type']['desugaredQualType']
        t = self._tc.get(qt)
        if t is None:
            try:
                t = parse(qt)
            except UPCError:
                # a type this reader does not know, with nothing shared in
                # it, is only ever copied as the user wrote it
                if 'address_space' in qt + n['type'].get('desugaredQualType', ''):
                    raise
                t = Ty('base', name=qt)
            self._tc[qt] = t
            if self.void_layout(t):
                self.refuse(n, f"a layout qualifier on shared void, in '{_untranslate(qt)}' (UPC 1.3 6.5.1.1 "
                            "constraint: the generic pointer-to-shared has none)")
        return t

    def type_words(self, n):
        """n's type as clang prints it, with what its typedefs name."""
        ty = n.get('type', {})
        return ty.get('qualType', '') + ' ' + ty.get('desugaredQualType', '')

    def src_type(self, n):
        return _untranslate(n.get('type', {}).get('qualType', '?'))

    def void_layout(self, t, depth=0):
        """t has a pointer to shared void with a layout qualifier."""
        t = self.types.resolve(t)
        if depth > 20:
            return False
        if t.kind == 'ptr':
            to = self.types.resolve(t.to)
            k = decode_as(to.AS)
            if to.kind == 'base' and to.name == 'void' and k is not None and k[0] != 2:
                return True
            return self.void_layout(t.to, depth + 1)
        if t.kind == 'array':
            return self.void_layout(t.of, depth + 1)
        if t.kind == 'func':
            return self.void_layout(t.ret, depth + 1) or any(self.void_layout(parse(p), depth + 1)
                                                              for p in t.params)
        return False

    def has_type(self, n):
        """n has a type as C prints it (not '<builtin fn type>' and the like)."""
        return 'type' in n and not n['type'].get('qualType', '<').startswith('<')

    def is_sptr(self, n):
        return self.has_type(n) and self.types.is_sptr(self.T(n))

    def shared_lvalue(self, n):
        if not self.has_type(n) or n.get('valueCategory') != 'lvalue':
            return False
        t = self.types.resolve(self.T(n))
        return t.kind not in ('array', 'func') and decode_as(t.AS) is not None

    def shared_array(self, n):
        if not self.has_type(n):
            return False
        t = self.types.resolve(self.T(n))
        return t.kind == 'array' and self.types.is_shared(t)

    def src(self, n):
        b, e = rng(n)
        return self.text[b:e]

    def ctype_of(self, t, inner=''):
        """C type of a shared object type t, shared removed."""
        return self.types.cdecl(t, inner)

    def elem_info(self, t, n=None):
        """(B, C element type, mode) of a shared type (object or array), of
        the expression n where given."""
        e = self.types.elem(t)
        B, mode = self.types.layout(e)
        B = self.star_block(n) or B
        et = e.copy()
        et.AS = 0
        return B, self.types.cdecl(et), mode

    def ptr_info(self, t):
        """(B, element size, scale) of a pointer-to-shared type."""
        t = self.types.resolve(t)
        to = self.types.resolve(t.to)
        ds, e = self.types.dims(to)
        B, mode = self.types.layout(e)
        et = e.copy()
        et.AS = 0
        if self.types.resolve(et).kind == 'base' and self.types.resolve(et).name == 'void':
            raise UPCError('arithmetic or ordering on a pointer to shared void')
        es = f'sizeof({self.types.cdecl(et)})'
        scale = ' * '.join(ds) if ds else ''
        return B, es, scale

    def ptr_layout(self, n):
        """ptr_info of the pointer-to-shared expression n, whose layout is
        indefinite when it points into a shared struct: UPC 1.3 6.4.4 types
        &s.m as shared [] T *, where clang keeps the struct's layout."""
        B, es, scale = self.ptr_info(self.T(n))
        return ('0' if self.member_pointer(n) else self.star_block(n) or B), es, scale

    def star_block(self, n):
        """the block size of the [*] array n names: its own (UPC 1.3
        6.5.1.1), though a typedef gives arrays of other sizes one type."""
        s = strip(n) if n else {}
        if s.get('kind') != 'DeclRefExpr':
            return None
        return self.star_decl.get(s['referencedDecl']['id'])

    def member_pointer(self, n):
        s = strip(n)
        k = s.get('kind')
        if k in ('MemberExpr', 'ArraySubscriptExpr'):
            return self.in_member(s)  # an array (in) a member, decayed
        if k == 'UnaryOperator' and s['opcode'] == '&':
            return self.in_member(kids(s)[0])
        if k == 'BinaryOperator' and s['opcode'] in ('+', '-'):
            return any(self.is_sptr(c) and self.member_pointer(c) for c in kids(s))
        return False

    def in_member(self, n):
        """the lvalue n is a member of a shared struct, or an element of
        one of its (multi-dimensional) array members."""
        e = strip(n)
        while e.get('kind') == 'ArraySubscriptExpr':
            e = strip(kids(e)[0] if self.is_sptr(kids(e)[0]) else kids(e)[1])
        return e.get('kind') == 'MemberExpr'

    def mode_at(self, n, tmode):
        if tmode:
            return tmode
        r = rng(n)
        return pragma_mode(self.pragmas, r[0] if r else 0)

    # ---- shared accesses -----------------------------------------------------
    def access(self, n):
        """a shared lvalue as a C lvalue."""
        t = self.types.resolve(self.T(n))
        k, tmode = decode_as(t.AS)
        et = t.copy()
        et.AS = 0
        ct = self.types.cdecl(et)
        if n['kind'] == 'UnaryOperator' and n['opcode'] == '*' and self.walks:
            w = self.walking(n)
            if w:
                return f'(*({w[1]} *){w[0]})'  # walk_loop: the run's plain pointer
        if self.mode_at(n, tmode) != 1 and n['kind'] == 'ArraySubscriptExpr':
            a, b = kids(n)
            base, idx = (a, b) if self.is_sptr(a) else (b, a)
            priv = self.private_element(strip(base), strip(idx), idx)
            if priv:
                return priv[1]  # a plain load or store of this thread's element
        p = self.sptr(n)
        if self.mode_at(n, tmode) == 1:
            if self.strict_fenced(n):
                # an lvalue (++, +=, a member's address): a fence before
                return f'(*({self.types.cdecl(et, "*")})tupcc_strict_addr({p}))'
            return f'(*(_Atomic({ct}) *)({p}).addr)'
        return f'(*({self.types.cdecl(et, "*")})({p}).addr)'

    def value_access(self, n):
        """(C type, pointer-to-shared, strict) of the shared lvalue n where
        its read or write goes through tupcc_rt.h's tupcc_rd/tupcc_wr, which
        reach another process's data in a library built with MPI (and are
        the plain access otherwise); None where access() makes it a plain
        access of this thread's data (a walk, a private element), or for a
        type the strict path fences instead (strict_fenced)."""
        if not self.shared_lvalue(n) or self.strict_fenced(n):
            return None
        t = self.types.resolve(self.T(n))
        k, tmode = decode_as(t.AS)
        if n['kind'] == 'UnaryOperator' and n['opcode'] == '*' and self.walks and self.walking(n):
            return None
        p = None
        if self.mode_at(n, tmode) != 1 and n['kind'] == 'ArraySubscriptExpr':
            a, b = kids(n)
            base, idx = (a, b) if self.is_sptr(a) else (b, a)
            priv = self.private_element(strip(base), strip(idx), idx)
            if priv and not priv[2]:
                return None
            # x[e] tested against the loop's block (priv[2]): its
            # pointer-to-shared, which may be another process's element
            # (out[pos[i] - 1])
            p = priv[0] if priv else None
        et = t.copy()
        et.AS = 0
        et.quals = [q for q in et.quals if q not in ('const', 'volatile')]
        return self.types.cdecl(et), p or self.sptr(n), self.mode_at(n, tmode) == 1

    def strict_fenced(self, n):
        """the strict shared lvalue n is of a type no C11 atomic fits (a
        struct, a pointer-to-shared, long double): its reads and writes are
        made between two fences, so no access moves across them."""
        if not self.shared_lvalue(n):
            return False
        t = self.types.resolve(self.T(n))
        if self.mode_at(n, decode_as(t.AS)[1]) != 1:
            return False
        r = self.types.resolve(t)
        return not ((r.kind == 'ptr' and not self.types.is_shared(r.to)) or
                    (r.kind == 'base' and (r.name in ARITH or r.name.startswith('enum '))))

    def strict_copy(self, n, value=None):
        """a read of the strict lvalue n, or its assignment of value, as one
        access: a copy under the strict lock, between two fences."""
        et = self.types.resolve(self.T(n)).copy()
        et.AS = 0
        et.quals = [q for q in et.quals if q != 'const']
        v = self.types.cdecl(et, 'tupcc_v')
        p = self.sptr(n)
        # the value of the statement expression, which an expression
        # statement may leave unused (tupcc_rt.h's TUPCC_VALUE_ quiets clang)
        last = 'TUPCC_VALUE_(tupcc_v)'
        if value is None:
            return f'({{ {v}; tupcc_strict_get(&tupcc_v, {p}, sizeof tupcc_v); {last} }})'
        return f'({{ {v} = {value}; tupcc_strict_put({p}, &tupcc_v, sizeof tupcc_v); {last} }})'


    def sptr(self, n):
        """the pointer-to-shared (C text) that designates the shared lvalue or array n."""
        k = n['kind']
        if k == 'ParenExpr':
            return self.sptr(kids(n)[0])
        if k == 'DeclRefExpr':
            d = n['referencedDecl']
            return self.renamed.get(d['id'], d['name'])
        if k == 'UnaryOperator' and n['opcode'] == '*':
            w = self.walking(n) if self.walks else None
            if w:
                return f'tupcc_wptr({w[2]}, {w[0]}, {w[3]})'
            return self.emit(kids(n)[0])
        if k == 'ArraySubscriptExpr':
            a, b = kids(n)
            base, idx = (a, b) if self.is_sptr(a) else (b, a)
            sb, si = strip(base), strip(idx)
            priv = self.private_element(sb, si, idx)
            if priv:
                return priv[0]
            for arr, var, name in self.local:
                if sb.get('kind') == 'DeclRefExpr' and si.get('kind') == 'DeclRefExpr' and \
                        sb['referencedDecl']['id'] == arr and si['referencedDecl']['id'] == var:
                    return name
            like = self.like_element(sb, si)
            if like:
                return like
            sb = strip(base)
            if self.mythread_element(sb, si):
                return f'tupcc_at_mythread({self.emit(base)})'
            if self.shared_array(sb) and self.in_member(sb):
                # an array inside a shared struct: its elements are contiguous
                et = self.types.resolve(self.T(n)).copy()
                et.AS = 0
                return f'tupcc_byte_add({self.sptr(sb)}, (ptrdiff_t)({self.emit(idx)}) * (ptrdiff_t)sizeof({self.types.cdecl(et)}))'
            B, es, scale = self.ptr_layout(base)
            i = f'(ptrdiff_t)({self.emit(idx)})' + (f' * (ptrdiff_t)({scale})' if scale else '')
            return f'tupc_ptr_add({self.emit(base)}, {i}, {B}, {es})'
        if k == 'MemberExpr':
            (base,) = kids(n)
            if not n.get('name'):
                self.refuse(n, 'a member of an unnamed struct or union inside a shared struct')
            if n.get('isArrow'):
                p = self.emit(base)
                st = self.types.resolve(self.types.resolve(self.T(base)).to)
            else:
                p = self.sptr(base)
                st = self.types.resolve(self.T(base))
            st = st.copy()
            st.AS = 0
            return f'tupcc_byte_add({p}, (ptrdiff_t)offsetof({self.types.cdecl(st)}, {n["name"]}))'
        self.refuse(n, f'a shared lvalue of a form tupcc does not translate ({k})')

    def like_element(self, base, idx):
        """b[i] in the body of a upc_forall over &a[i], for a shared array b
        of a's layout (one dimension, block size, element size): b[i] is on
        a[i]'s thread at the same place relative to b, so its address is the
        affinity pointer's moved by b - a, not a new tupc_ptr_add."""
        if base.get('kind') != 'DeclRefExpr' or not self.shared_array(base):
            return None
        # b[i + k] and b[i - k], k a literal: a step from there, which stays
        # in the block (no division) unless it crosses its edge
        k = 0
        if idx.get('kind') == 'BinaryOperator' and idx['opcode'] in ('+', '-'):
            x, y = (strip(c) for c in kids(idx))
            if y.get('kind') != 'IntegerLiteral' or not y.get('value', '').isdigit():
                return None
            idx, k = x, int(y['value']) * (1 if idx['opcode'] == '+' else -1)
        if idx.get('kind') != 'DeclRefExpr':
            return None
        for arr, var, name in self.local:
            a = self.local_arrays.get(arr)
            if a is None or idx['referencedDecl']['id'] != var or self.array_shape(base) != a[1]:
                continue
            p = name if arr == base['referencedDecl']['id'] else f'tupcc_like({name}, {self.sptr(base)}, {a[0]})'
            if k:
                _, B, ct = a[1]
                p = f'tupcc_near({p}, {k}, {B}, sizeof({ct}))'
            return p
        return None

    def walking(self, n):
        """(q, C type, p, element size) where n is *p for the pointer p of
        an enclosing walk_loop."""
        x = strip(kids(n)[0])
        if x.get('kind') == 'DeclRefExpr':
            return self.walks.get(x['referencedDecl']['id'])
        return None

    def private_element(self, base, idx, raw_idx):
        """x[e] in the body of a upc_forall run as a block loop (fast_forall),
        for a shared array x of the loop's layout (one dimension, its block
        size): (pointer-to-shared, lvalue) as C text and whether it is tested,
        else None. x[i] of the loop's own i is this thread's element of the
        block the loop is in, at a known place of x's local part: a plain
        access, with no test. Any other x[e] is tested against that block (in
        it: a plain access, else the general one)."""
        if not self.fb:
            return None
        if base.get('kind') == 'ArraySubscriptExpr':
            return self.private_row_element(base, raw_idx)
        if base.get('kind') != 'DeclRefExpr' or not self.shared_array(base) or self.in_member(base):
            return None
        shape = self.array_shape(base)
        if shape[0] != 1:
            return None
        _, B, ct = shape
        for ctx in reversed(self.fb):
            if ctx['B'] != B:
                continue
            h = self.sptr(base)
            p = self.fb_base(ctx, h, ct, '1')
            d = ctx['d']
            if idx.get('kind') == 'DeclRefExpr' and idx['referencedDecl']['id'] == ctx['var']:
                if ctx['cyclic']:
                    at, phase = f'tupcc_c{d}', '0'
                else:
                    at, phase = f'tupcc_k{d}', f'tupcc_k{d} - tupcc_b{d}'
                lv = f'(({ct} *){p})[{at}]'
                sp = f'((tupc_sptr_t){{(char *)&{lv}, (uint32_t)MYTHREAD, (uint32_t)({phase})}})'
                return sp, lv, False
            K = self.literal_offset(idx, ctx['var'])
            if K is not None and not ctx['cyclic']:
                if ctx['middle']:
                    # the middle of the block: x[i + K] is in it (fast_forall)
                    lv = f'(({ct} *){p})[tupcc_k{d} + ({K})]'
                    sp = f'((tupc_sptr_t){{(char *)&{lv}, (uint32_t)MYTHREAD, (uint32_t)(tupcc_k{d} + ({K}) - tupcc_b{d})}})'
                    return sp, lv, False
                ctx['offsets'].add(K)
            if ctx['cyclic']:
                blk = f'tupcc_k{d}, 1, tupcc_c{d} - tupcc_k{d}'
            else:
                # the array's block size as written: a constant divides faster
                p, blk = self.fb_tested(ctx, h, ct, '1', f'tupcc_b{d}')
            args = f'{p}, {h}, (long long)({self.emit(raw_idx)}), {blk}, sizeof({ct})'
            return f'tupcc_fb_sptr({args})', f'(*({ct} *)tupcc_fb_at({args}))', True
        return None

    def fb_base(self, ctx, h, ct, unit):
        """the name of the base of array h in the block loop ctx: in a
        cyclic loop, its part on this thread (index: the course); else that
        part moved by the block's off (index: i itself, in units of `unit`
        elements), set at each block from the part (tupcc_pD_N)."""
        got = ctx['ptrs'].get(h)
        if got is None:
            n = len(ctx['ptrs'])
            got = ctx['ptrs'][h] = (f"tupcc_p{ctx['d']}_{n}", f"tupcc_q{ctx['d']}_{n}", ct, unit)
        return got[0] if ctx['cyclic'] else got[1]

    def fb_tested(self, ctx, h, ct, unit, b0):
        """(base, b0, off) of tupcc_fb_at for array h in the block loop ctx,
        whose block starts at element b0: in a blocked loop the block's own
        start (tupcc_rD_N, set at each block), so that a tested access is
        one indexed load from it, as a hand-written lx[c - lo]."""
        q = self.fb_base(ctx, h, ct, unit)
        if ctx['cyclic']:
            return q, b0
        ctx['starts'].add(h)
        return fb_start_name(q), f'{b0}, (long long)({ctx["B"]}){"" if unit == "1" else f" * {unit}"}, -({b0})'

    def literal_offset(self, idx, v):
        """K where idx is v + K, K + v or v - K for an integer literal K, else None."""
        if idx.get('kind') != 'BinaryOperator' or idx['opcode'] not in ('+', '-'):
            return None
        x, y = (strip(c) for c in kids(idx))
        if idx['opcode'] == '+' and x.get('kind') == 'IntegerLiteral':
            x, y = y, x
        if not self.is_var(x, v) or y.get('kind') != 'IntegerLiteral' or not y.get('value', '').isdigit():
            return None
        return int(y['value']) * (-1 if idx['opcode'] == '-' else 1)

    def private_row_element(self, row, col):
        """x[r][e] in such a loop, x of two dimensions [R][M] whose blocks
        hold whole rows (B a multiple of M): row r is where element r of a
        one-dimensional array of block size B / M is, so x[i][e] is a plain
        access of row i's local copy (e within the row, as C requires); any
        other row is tested against the loop's block, in elements."""
        x, r = (strip(c) for c in kids(row))
        rb = self.row_block(x)
        if rb is None:
            return None
        RB, M, ct = rb
        for ctx in reversed(self.fb):
            if ctx['B'] != RB:
                continue
            h = self.sptr(x)
            p = self.fb_base(ctx, h, ct, M)
            d = ctx['d']
            e = self.emit(col)
            if r.get('kind') == 'DeclRefExpr' and r['referencedDecl']['id'] == ctx['var']:
                rt = f'tupcc_k{d}'
                at = f'tupcc_c{d}' if ctx['cyclic'] else f'tupcc_k{d}'
                lv = f'(({ct} *){p})[({at}) * {M} + ({e})]'
            else:
                rt, lv = f'(long long)({self.emit(kids(row)[1])})', None
            if ctx['cyclic']:
                blk = f'tupcc_k{d} * {M}, {M}, (tupcc_c{d} - tupcc_k{d}) * {M}'
            else:
                p, blk = self.fb_tested(ctx, h, ct, M, f'tupcc_b{d} * {M}')
            args = f'{p}, {h}, {rt} * {M} + ({e}), {blk}, sizeof({ct})'
            return f'tupcc_fb_sptr({args})', lv or f'(*({ct} *)tupcc_fb_at({args}))', lv is None
        return None

    def row_block(self, x):
        """(rows per block, M, C element type) as text of a shared array
        x[R][M] whose block size is a multiple of M (both constants), else None."""
        if x.get('kind') != 'DeclRefExpr' or not self.shared_array(x) or self.in_member(x):
            return None
        ds, _ = self.types.dims(self.T(x))
        B, ct, _ = self.elem_info(self.T(x), x)
        if len(ds) != 2 or not ds[1].isdigit() or not B.isdigit() or int(ds[1]) == 0 or \
                int(B) == 0 or int(B) % int(ds[1]):
            return None
        return str(int(B) // int(ds[1])), ds[1], ct

    def array_shape(self, n):
        """(dimensions, block size, C element type) of a shared array."""
        ds, _ = self.types.dims(self.T(n))
        B, ct, _ = self.elem_info(self.T(n), n)
        return len(ds), B, ct

    def mythread_element(self, base, idx):
        """a[MYTHREAD] for a shared array a of block size 1 and one
        dimension: element MYTHREAD is the first of a in this thread's own
        partition, so its address needs no division (tupcc_at_mythread)."""
        if base.get('kind') != 'DeclRefExpr' or not self.shared_array(base):
            return False
        if idx.get('kind') != 'DeclRefExpr' or idx['referencedDecl'].get('name') != 'MYTHREAD':
            return False
        ds, _ = self.types.dims(self.T(base))
        return len(ds) == 1 and self.elem_info(self.T(base), base)[0] == '1'

    # ---- pointers-to-shared --------------------------------------------------
    def convert(self, n, child, to_t):
        """child's value converted to the type to_t (as by a cast)."""
        from_sptr = self.is_sptr(child)
        to_sptr = self.types.is_sptr(to_t)
        if to_sptr:
            if not from_sptr:
                if n.get('castKind') == 'NullToPointer' or self.null_constant(child):
                    return 'TUPC_NULL'
                if n.get('castKind') == 'IntegralToPointer' and n['kind'] == 'ImplicitCastExpr':
                    return self.emit(child)  # UPC_IN_PLACE as a src argument: the C macros take it
                self.refuse(n, 'a conversion of a pointer-to-local or an integer to a pointer-to-shared')
            return self.sptr_conv(self.emit(child), self.T(child), to_t)
        if from_sptr:
            tr = self.types.resolve(to_t)
            if tr.kind == 'ptr':
                return f'(({self.types.cdecl(to_t)})({self.emit(child)}).addr)'
            if tr.kind == 'base' and tr.name == '_Bool':
                return f'(!tupc_isnull({self.emit(child)}))'
            if tr.kind == 'base' and tr.name == 'void':
                return f'((void)({self.emit(child)}))'
            self.refuse(n, 'a conversion of a pointer-to-shared to an integer')
        return None

    def null_constant(self, n):
        s = strip(n)
        if s['kind'] == 'IntegerLiteral' and s.get('value') == '0':
            return True
        if s['kind'] == 'CStyleCastExpr':
            return self.null_constant(kids(s)[0])
        return False

    def sptr_conv(self, p, from_t, to_t):
        ft = self.types.resolve(self.types.resolve(from_t).to)
        tt = self.types.resolve(self.types.resolve(to_t).to)
        fe, te = self.types.elem(ft), self.types.elem(tt)
        fvoid = fe.kind == 'base' and fe.name == 'void'
        tvoid = te.kind == 'base' and te.name == 'void'
        if tvoid:
            return p
        B2, es2, _ = self.ptr_info(to_t)
        if fvoid:
            # generic -> non-generic: phase 0 for indefinite or block size one
            return f'tupc_ptr_cast({p})' if B2 in ('0', '1') else p
        B1, es1, _ = self.ptr_info(from_t)
        if B1 == B2 and es1 == es2:
            return p
        return f'tupcc_conv({p}, ({B1}) != ({B2}) || {es1} != {es2})'

    def cond(self, n):
        """n as a condition: a pointer-to-shared tests for null."""
        s = self.emit(n)
        if self.is_sptr(n):
            return f'(!tupc_isnull({s}))'
        return s

    # ---- emission ------------------------------------------------------------
    def emit(self, n):
        try:
            return self.emit_node(n)
        except UPCError as ex:
            if ex.node is None:
                ex.node = n
            raise
        except Exception as ex:
            # tupcc's own failure: the innermost node says where
            if getattr(ex, 'tupcc_node', None) is None:
                ex.tupcc_node = n
            raise

    def emit_node(self, n):
        k = n['kind']
        if k in ('ImplicitCastExpr', 'CStyleCastExpr'):
            ch = kids(n)[0]
            ck = n.get('castKind')
            if ck == 'ArrayToPointerDecay' and self.shared_array(ch):
                return self.sptr(ch)
            if ck == 'LValueToRValue' and self.strict_fenced(ch):
                return self.strict_copy(ch)
            if ck == 'LValueToRValue':
                v = self.value_access(ch)
                if v:
                    return f'tupcc_rd{"_strict" if v[2] else ""}({v[0]}, {v[1]})'
            if ck == 'LValueToRValue' or ck == 'NoOp' and k == 'ImplicitCastExpr':
                return self.emit(ch)
            if self.has_type(n) and self.has_type(ch):
                r = self.convert(n, ch, self.T(n))
                if r is not None:
                    return r
            return self.splice(n)
        if k in ('DeclRefExpr', 'ArraySubscriptExpr', 'MemberExpr') or k == 'UnaryOperator' and n['opcode'] == '*':
            if self.shared_lvalue(n):
                return self.access(n)
            if k == 'DeclRefExpr' and n['referencedDecl']['id'] in self.renamed:
                return self.renamed[n['referencedDecl']['id']]
            if k == 'DeclRefExpr' and n['referencedDecl'].get('name') == 'main' and self.main is not None:
                return 'tupcc_user_main'
            if k == 'DeclRefExpr' and n['referencedDecl'].get('name') in PER_THREAD and \
                    n['referencedDecl']['name'] not in self.user_names:
                return PER_THREAD[n['referencedDecl']['name']]
        if k == 'UnaryOperator':
            return self.unary(n)
        if k == 'BinaryOperator':
            return self.binary(n)
        if k == 'CompoundAssignOperator' and not self.is_sptr(kids(n)[0]):
            v = self.value_access(kids(n)[0])
            if v:
                s = '_strict' if v[2] else ''
                return f'tupcc_rmw{s}({v[0]}, {v[1]}, {n["opcode"]}, {self.emit(kids(n)[1])})'
        if k == 'CompoundAssignOperator' and self.is_sptr(kids(n)[0]):
            L, R = kids(n)
            B, es, scale = self.ptr_info(self.T(L))
            i = f'(ptrdiff_t)({self.emit(R)})' + (f' * (ptrdiff_t)({scale})' if scale else '')
            if n['opcode'] == '-=':
                i = f'-({i})'
            return f'tupcc_padd(&{self.emit(L)}, {i}, {B}, {es}, 0)'
        if k == 'ConditionalOperator':
            c, a, b = kids(n)
            if self.is_sptr(c):
                return self.splice(n, pre={id(c): self.cond(c)})
        if k == 'UnaryExprOrTypeTraitExpr':
            return self.sizeof(n)
        if k == 'InitListExpr':
            # a null pointer-to-shared as {0}: a constant, also at file scope
            return self.splice(n, pre={id(c): '{0}' for c in kids(n) if self.null_sptr(c)})
        if k == 'CallExpr':
            return self.call(n)
        if k == 'IfStmt':
            return self.ifstmt(n)
        if k == 'ForStmt':
            return self.forstmt(n)
        if k in ('WhileStmt', 'DoStmt'):
            ks = kids(n)
            c = ks[0] if k == 'WhileStmt' else ks[-1]
            return self.splice(n, pre={id(c): self.cond(c)} if self.is_sptr(c) else None)
        if k == 'CompoundStmt':
            self.types.push()
            try:
                return self.splice(n)
            finally:
                self.types.pop()
        if k == 'FunctionDecl':
            return self.function(n)
        if k == 'ParenExpr' and self.shared_lvalue(n):
            return f'({self.emit(kids(n)[0])})'
        return self.splice(n)

    def unary(self, n):
        op = n['opcode']
        (c,) = kids(n)
        if op == '&' and (self.shared_lvalue(c) or self.shared_array(c)):
            return self.sptr(c)
        if op in ('++', '--') and not self.is_sptr(c):
            v = self.value_access(c)
            if v:
                s = '_strict' if v[2] else ''
                if n.get('isPostfix'):
                    return f'tupcc_post{s}({v[0]}, {v[1]}, {op})'
                return f'tupcc_rmw{s}({v[0]}, {v[1]}, {"+=" if op == "++" else "-="}, 1)'
        if op in ('++', '--') and self.is_sptr(c):
            B, es, scale = self.ptr_info(self.T(c))
            if not scale:
                # a step to the next element: carried along, no division
                d = -1 if op == '--' else 1
                return f'tupcc_pstep(&{self.emit(c)}, {d}, {B}, {es}, {1 if n.get("isPostfix") else 0})'
            d = ('-' if op == '--' else '') + (f'(ptrdiff_t)({scale})' if scale else '1')
            return f'tupcc_padd(&{self.emit(c)}, {d}, {B}, {es}, {1 if n.get("isPostfix") else 0})'
        if op == '!' and self.is_sptr(c):
            return f'tupc_isnull({self.emit(c)})'
        return self.splice(n)

    def binary(self, n):
        op = n['opcode']
        a, b = kids(n)
        if op == '=' and self.strict_fenced(a):
            return self.strict_copy(a, self.emit(b))
        if op == '=':
            v = self.value_access(a)
            if v:
                return f'tupcc_wr{"_strict" if v[2] else ""}({v[0]}, {v[1]}, {self.emit(b)})'
        pa, pb = self.is_sptr(a), self.is_sptr(b)
        # as written: clang converts a pointer-to-local compared with a
        # pointer-to-shared to the pointer-to-shared type
        sa, sb = strip(a), strip(b)
        wa, wb = self.is_sptr(sa), self.is_sptr(sb)
        if wa != wb and op not in ('=', ','):
            local = sb if wa else sa
            other = self.types.resolve(self.T(local)) if self.has_type(local) else None
            if other is not None and other.kind in ('ptr', 'array') and not self.null_constant(local):
                self.refuse(n, f'the operator {op} on a pointer-to-shared and a pointer-to-local '
                            '(UPC 1.3 6.4.2 constraint: no binary operator applies to them)')
        if op in ('&&', '||') and (pa or pb):
            return self.splice(n, pre={id(a): self.cond(a), id(b): self.cond(b)})
        if not (pa or pb):
            return self.splice(n)
        if op in ('+', '-') and not (pa and pb):
            p, i = (a, b) if pa else (b, a)
            B, es, scale = self.ptr_layout(p)
            idx = f'(ptrdiff_t)({self.emit(i)})' + (f' * (ptrdiff_t)({scale})' if scale else '')
            if op == '-':
                idx = f'-({idx})'
            return f'tupc_ptr_add({self.emit(p)}, {idx}, {B}, {es})'
        if op == '-':
            B, es, scale = self.ptr_layout(a)
            d = f'tupc_ptr_diff({self.emit(a)}, {self.emit(b)}, {B}, {es})'
            return f'({d} / (ptrdiff_t)({scale}))' if scale else d
        if op in ('==', '!='):
            return f'({"!" if op == "!=" else ""}tupc_ptr_eq({self.emit(a)}, {self.emit(b)}))'
        if op in ('<', '<=', '>', '>='):
            B, es, _ = self.ptr_layout(a)
            return f'(tupcc_ptr_cmp({self.emit(a)}, {self.emit(b)}, {B}, {es}) {op} 0)'
        if op in ('=', ','):
            return self.splice(n)
        self.refuse(n, f'the operator {op} on a pointer-to-shared')

    def sizeof(self, n):
        name = n.get('name')
        if 'argType' in n:
            t = parse(n['argType']['qualType'])
        else:
            t = self.T(kids(n)[0])
        if not self.types.has_upc(t):
            return self.splice(n)
        r = self.types.resolve(t)
        if r.kind == 'array' or decode_as(r.AS):
            r = self.strip_top(t)
        if name == 'sizeof':
            return f'sizeof({self.types.cdecl(r)})'
        if name in ('alignof', '_Alignof', '__alignof'):
            return f'_Alignof({self.types.cdecl(r)})'
        self.refuse(n, f'{name} of a shared type')

    def strip_top(self, t):
        """t with the shared qualifier of its (array) elements removed."""
        t = self.types.resolve(t).copy()
        if t.kind == 'array':
            t.of = self.strip_top(t.of)
        else:
            t.AS = 0
        return t

    def upc_sizeof(self, n, which):
        (arg,) = kids(n)[1:]
        arg = strip(arg)
        t = parse(arg['argType']['qualType']) if 'argType' in arg else self.T(kids(arg)[0])
        if not self.types.is_shared(t):
            self.refuse(n, f'upc_{which}sizeof of a type that is not shared')
        B, ct, _ = self.elem_info(t, None if 'argType' in arg else kids(arg)[0])
        if 'argType' not in arg and self.in_member(kids(arg)[0]):
            B = '0'  # as &s.m is shared [] (UPC 1.3 6.4.4)
        ds, _ = self.types.dims(t)
        total = ' * '.join(f'(size_t)({d})' for d in ds) if ds else '(size_t)1'
        if which == 'block':
            return f'((size_t)({B}))'
        if which == 'elem':
            return f'sizeof({ct})'
        if B == '0':
            return f'({total} * sizeof({ct}))'
        return f'tupcc_localsize({total}, (size_t)({B}), sizeof({ct}))'

    def call(self, n):
        callee = strip(kids(n)[0])
        name = callee.get('referencedDecl', {}).get('name', '') if callee['kind'] == 'DeclRefExpr' else ''
        if name == '__tupc_forall':
            args = kids(n)[1:]
            if not args:
                return '1'
            a = args[0]
            if not self.is_sptr(a) and NOT_INTEGER.search(self.type_words(strip(a))):
                self.refuse(a, f"upc_forall with an affinity expression of type '{self.src_type(strip(a))}' "
                            "(UPC 1.3 6.6.2 constraint: it must have pointer-to-shared or integer type)")
            if self.is_sptr(a) and self.affinity_var is not None:
                v = self.affinity_var
                mine = self.local.pop()  # the affinity computes the pointer
                try:
                    p = self.emit(a)
                finally:
                    self.local.append(mine)
                if self.strided:
                    # a controlling loop visits only its own elements, and
                    # its increment moves the pointer along (forstmt)
                    return f'(tupcc_ctl || ({v} = {p}, 1))'
                return f'({v} = {p}, !tupcc_ctl || tupcc_aff_ptr({v}))'
            if self.is_sptr(a):
                test = f'tupcc_aff_ptr({self.emit(a)})'
            elif 'unsigned' in self.types.cdecl(self.types.resolve(self.T(strip(a)))):
                test = f'tupcc_aff_uint({self.emit(a)})'
            else:
                test = f'tupcc_aff_int({self.emit(a)})'
            # inside a controlling upc_forall every iteration runs (6.6.2)
            return f'(!tupcc_ctl || {test})'
        if name in ('upc_threadof', 'upc_phaseof') and name not in self.user_names and len(kids(n)) == 2:
            # fields of the pointer: no call
            return f'((size_t)({self.emit(kids(n)[1])}).{name[4:-2]})'
        m = re.match(r'__tupc_(block|elem|local)sizeof$', name)
        if m:
            return self.upc_sizeof(n, m.group(1))
        if name == 'upc_local_alloc' and name not in self.user_names:
            f, ln = self.where(n)
            self.warnings.append(f'{f}:{ln}: warning: upc_local_alloc is deprecated (UPC 1.3 7.2.2): '
                                 'it is upc_alloc(nblocks * nbytes)')
        if name in ('upc_barrier', 'upc_notify', 'upc_wait') and kids(n)[1:]:
            a = kids(n)[1]
            t = self.types.resolve(self.T(strip(a)))
            if name == 'upc_wait' and self.types.cdecl(t).replace(' ', '') == 'structtupc_coll_request*':
                # Extended Collectives 0.3 5.4.1: upc_wait(handle) completes an
                # asynchronous collective (the C header's upc_wait tells them apart)
                return self.splice(n)
            if t.kind != 'base' or t.name.startswith(('struct ', 'union ')) or t.name == 'void':
                self.refuse(n, f"{name} with an expression of type '{self.types.cdecl(t)}' (UPC 1.3 6.6.1: "
                            "its value must be assignable to an int)")
        return self.splice(n)

    def forall_call(self, n):
        """the __tupc_forall call of the if statement the pre-pass made
        of upc_forall's affinity, or None."""
        if n.get('kind') != 'IfStmt':
            return None
        c = kids(n)[0]
        if c['kind'] != 'UnaryOperator' or c['opcode'] != '!' or not kids(c):
            return None
        call = strip(kids(c)[0])
        if call['kind'] == 'CallExpr' and strip(kids(call)[0]).get('referencedDecl', {}).get('name') == '__tupc_forall':
            return call
        return None

    def ifstmt(self, n):
        c = kids(n)[0]
        if self.is_sptr(c):
            return self.splice(n, pre={id(c): self.cond(c)})
        return self.splice(n)

    def forstmt(self, n):
        """a upc_forall with an affinity is controlling unless it runs
        inside one, lexically or through calls: a thread-local count says."""
        pre = {}
        inner = n.get('inner', [])
        # init, condition variable, condition, increment, body; {} where absent
        c = inner[2] if len(inner) == 5 else {}
        if c.get('kind') and self.is_sptr(c):
            pre[id(c)] = self.cond(c)
        ks = [c for c in inner if isinstance(c, dict) and c.get('kind')]
        call = self.forall_call(ks[-1]) if ks else None
        if call is None:
            walk = self.walk_loop(n, inner)
            if walk is not None:
                return walk
        if call is None or not kids(call)[1:]:
            return self.splice(n, pre=pre)
        fast = self.fast_forall(n, inner, call)
        if fast is not None:
            return fast
        self.forall_nest += 1
        try:
            return self.forall_general(n, inner, call, ks, pre)
        finally:
            self.forall_nest -= 1

    def forall_general(self, n, inner, call, ks, pre):
        local = self.local_element(kids(call)[1], kids(ks[-1])[2])
        var = None
        stride = None
        if local:
            var = f'tupcc_aff{len(self.local)}'
            self.local.append(local + (var,))
            abase = strip(kids(strip(kids(strip(kids(call)[1]))[0]))[0])
            self.local_arrays[local[0]] = (self.sptr(abase), self.array_shape(abase))
            stride = self.stride_of(n, inner, kids(call)[1], local)
        saved = self.affinity_var, self.strided
        self.affinity_var, self.strided = var, stride is not None
        try:
            if stride:
                i, B, es, cond, inc = stride
                mine = self.local.pop()
                try:
                    p = self.emit(kids(call)[1])
                finally:
                    self.local.append(mine)
                ci, ii = self.emit(cond), self.emit(inc)
                # the first test moves i to this thread's first element; then
                # the increment steps from element to element of its own
                pre[id(cond)] = (f'((void)(tupcc_ctl && !{var}_go ? ({var}_go = 1, {i} = (__typeof__({i}))'
                                 f'tupcc_fa_first({i}, {B}), {var} = {p}, 0) : 0), {ci})')
                pre[id(inc)] = (f'(tupcc_ctl ? (void)({i} = (__typeof__({i}))tupcc_fa_step({i}, {B}, '
                                f'&{var}, {es})) : (void)({ii}))')
            text = self.splice(n, pre=pre)
        finally:
            self.affinity_var, self.strided = saved
            if local:
                self.local.pop()
        # one statement, all before the loop, so an expression body keeps its ;
        text = ('for (int tupcc_ctl = !tupcc_forall_depth++, tupcc_once = 1; tupcc_once; '
                'tupcc_once = 0, tupcc_forall_depth--) ' + text)
        if stride:
            text = f'for (int {var}_go = 0, {var}_go_once = 1; {var}_go_once; {var}_go_once = 0) ' + text
        if var:
            text = f'for (tupc_sptr_t {var} = TUPC_NULL, *{var}_once = &{var}; {var}_once; {var}_once = 0) ' + text
        return text

    def walk_loop(self, n, inner):
        """for (...; p < E; p++) S (or p != E, p <= E; ++p), p an automatic
        pointer-to-shared the body reads only as *p, E a pointer the loop
        cannot change: a loop over the runs of p's elements that lie one
        after another in a partition (to the end of p's block, or to E),
        each a plain loop of a char pointer q over them, with *p as *q;
        between runs p moves to the next block (tupcc_wskip). None where it
        does not apply."""
        if len(inner) != 5:
            return None
        init, condvar, cond, inc, body = inner
        if condvar.get('kind') or not cond.get('kind') or inc.get('kind') != 'UnaryOperator' or \
                inc['opcode'] != '++' or not body.get('kind'):
            return None
        p = strip(kids(inc)[0])
        if p.get('kind') != 'DeclRefExpr' or not self.is_sptr(p):
            return None
        v = p['referencedDecl']['id']
        if v not in self.auto_vars or v in self.addr_taken:
            return None
        c = strip(cond)
        if c.get('kind') != 'BinaryOperator' or c['opcode'] not in ('<', '<=', '!=') or not self.is_var(kids(c)[0], v):
            return None
        if not self.sptr_invariant(kids(c)[1], body, v):
            return None
        B, es, scale = self.ptr_info(self.T(p))
        pt = self.types.resolve(self.types.resolve(self.T(p)).to)
        if scale or self.mode_at(n, decode_as(self.types.elem(pt).AS)[1]) == 1:
            return None
        if self.changes(body, v) or not self.only_deref(body, v) or self.top_break(body):
            return None
        d = self.fb_count
        self.fb_count += 1
        name = p['referencedDecl']['name']
        et = pt.copy()
        et.AS = 0
        self.walks[v] = (f'tupcc_q{d}', self.types.cdecl(et), name, es)
        try:
            btext = self.emit(body)
        finally:
            del self.walks[v]
        le = 1 if c['opcode'] == '<=' else 0
        # the body behind a loop over the run
        head = (f'for (char *tupcc_q{d} = (tupcc_z{d} = tupcc_wend({name}, {self.emit(kids(c)[1])}, {B}, {es}, {le}), '
                f'{name}.addr); tupcc_q{d} < tupcc_z{d}; tupcc_q{d} += {es}) ')
        out = self.splice(n, pre={id(inc): f'{name} = tupcc_wskip({name}, tupcc_z{d}, {B}, {es})',
                                  id(body): head + btext})
        return f'for (char *tupcc_z{d} = 0, *tupcc_o{d} = ""; tupcc_o{d}; tupcc_o{d} = 0) ' + out

    def sptr_invariant(self, n, body, v):
        """the pointer-to-shared expression n has one value for the whole
        loop: a shared array, an automatic pointer the body does not change,
        &a[e] and p + e of such, with e invariant."""
        k = n.get('kind')
        if k in ('ParenExpr', 'ImplicitCastExpr', 'CStyleCastExpr'):
            if k != 'ParenExpr' and n.get('castKind') not in ('ArrayToPointerDecay', 'NoOp', 'LValueToRValue',
                                                              'BitCast', 'AddressSpaceConversion'):
                return False
            return self.sptr_invariant(kids(n)[0], body, v)
        if k == 'DeclRefExpr':
            d = n['referencedDecl']
            if d['id'] == v:
                return False
            if self.shared_array(n):
                return True
            return self.is_sptr(n) and d['id'] in self.auto_vars and d['id'] not in self.addr_taken and \
                not self.changes(body, d['id'])
        if k == 'UnaryOperator' and n['opcode'] == '&':
            e = strip(kids(n)[0])
            if e.get('kind') != 'ArraySubscriptExpr':
                return False
            a, b = kids(e)
            base, idx = (a, b) if self.is_sptr(a) else (b, a)
            return self.sptr_invariant(base, body, v) and self.invariant(idx, body, v)
        if k == 'BinaryOperator' and n['opcode'] in ('+', '-'):
            a, b = kids(n)
            if self.is_sptr(a) and not self.is_sptr(b):
                return self.sptr_invariant(a, body, v) and self.invariant(b, body, v)
            if self.is_sptr(b) and not self.is_sptr(a) and n['opcode'] == '+':
                return self.sptr_invariant(b, body, v) and self.invariant(a, body, v)
        return False

    def only_deref(self, n, v):
        """every use of the variable v in n is *v."""
        if n.get('kind') == 'UnaryOperator' and n['opcode'] == '*' and self.is_var(kids(n)[0], v):
            return True
        if n.get('kind') == 'DeclRefExpr' and n['referencedDecl']['id'] == v:
            return False
        return all(self.only_deref(c, v) for c in kids(n))

    def fast_forall(self, n, inner, call):
        """A controlling upc_forall (i = L; i < E; i++; &a[i]) or (...; i),
        a a shared array of one dimension and a definite block size, as a
        loop over this thread's blocks and, in each, over its indices: no
        test of any other i. The body's x[i] for arrays of a's layout are
        plain accesses (private_element). Taken when i is an automatic
        integer variable the body does not change, E (or E for <=) a value
        the loop cannot change, and the body can be written twice: a
        upc_forall that runs inside another (at run time: tupcc_ctl is 0)
        takes the other copy, a plain for loop of general accesses. None
        where it does not apply (forall_general)."""
        if self.forall_nest or len(inner) != 5:
            return None
        init, condvar, cond, inc, ifs = inner
        if condvar.get('kind') or not cond.get('kind') or not inc.get('kind') or len(kids(ifs)) != 3:
            return None
        body = kids(ifs)[2]
        a = strip(kids(call)[1])
        if a.get('kind') == 'DeclRefExpr' and not self.is_sptr(a):
            v, B, cyclic = a['referencedDecl']['id'], '1', True
            idx = a
        elif a.get('kind') == 'UnaryOperator' and a['opcode'] == '&' and \
                strip(kids(a)[0]).get('kind') == 'ArraySubscriptExpr':
            base, idx = (strip(x) for x in kids(strip(kids(a)[0])))
            if base.get('kind') == 'ArraySubscriptExpr':
                # &x[i][0]: the row layout of a two-dimensional array
                x, idx = (strip(c) for c in kids(base))
                rb = self.row_block(x)
                col = strip(kids(strip(kids(a)[0]))[1])
                if rb is None or idx.get('kind') != 'DeclRefExpr' or col.get('kind') != 'IntegerLiteral' or \
                        col.get('value') != '0':
                    return None
                base, B = x, rb[0]
            elif base.get('kind') != 'DeclRefExpr' or idx.get('kind') != 'DeclRefExpr' or \
                    not self.shared_array(base) or self.in_member(base):
                return None
            else:
                dims, B, _ = self.array_shape(base)
                if dims != 1 or B == '0':
                    return None
            if idx.get('kind') != 'DeclRefExpr':
                return None
            v, cyclic = idx['referencedDecl']['id'], B == '1'
        else:
            return None
        if not self.loop_var(idx) or self.changes(body, v):
            return None
        c = strip(cond)
        if c.get('kind') != 'BinaryOperator' or c['opcode'] not in ('<', '<=') or \
                not self.is_var(kids(c)[0], v) or not self.invariant(kids(c)[1], body, v):
            return None
        if not self.step_one(inc, v):
            return None
        if self.top_break(body) or self.duplicated(body):
            return None
        whole = self.src(n)
        if '\n#' in whole:
            return None  # a directive or line marker inside: the copy is one line
        declared = init.get('kind') == 'DeclStmt' and any(d.get('id') == v for d in kids(init))
        d = self.fb_count
        self.fb_count += 1
        i = idx['referencedDecl']['name']
        ti = f'(__typeof__({i}))'
        E = self.emit(kids(c)[1])
        le = ' + 1' if c['opcode'] == '<=' else ''
        if self.unsigned(self.T(kids(c)[0])):
            # i < E compares as unsigned: a negative start ends the loop
            hi = f'tupcc_fb_uhi(tupcc_lo{d}, (unsigned long long)({E}), {1 if le else 0})'
        else:
            hi = f'(long long)({E}){le}'
        if not init.get('kind'):
            it = ';'
        else:
            it = self.emit(init) + ('' if init['kind'] == 'DeclStmt' else ';')
        flat_body = self.emit_flat(body)
        ctx = {'var': v, 'B': B, 'cyclic': cyclic, 'd': d, 'ptrs': {}, 'offsets': set(), 'middle': False,
               'starts': set()}
        self.fb.append(ctx)
        self.forall_nest += 1
        try:
            text = self.emit(body)
            middle = None
            if ctx['offsets']:
                # x[i + K] tested at the block's edges, plain in its middle
                edge = flat(text)
                ctx['middle'] = True
                middle = self.emit(body)
        finally:
            self.forall_nest -= 1
            self.fb.pop()
        final = '' if declared else f', {i} = {ti}(tupcc_hi{d} > tupcc_lo{d} ? tupcc_hi{d} : tupcc_lo{d})'
        # (c: the course of the block, off: element i's place in the local
        # part less i, k: i as long long; only what the body uses)
        off = f', tupcc_off{d} = 0' if ctx['ptrs'] and not cyclic else ''
        if cyclic:
            # the loop counts courses, so that the compiler knows its trips
            head = (f'for (long long tupcc_lo{d} = (long long)({i}), tupcc_hi{d} = {hi}, tupcc_c{d} = 0, '
                    f'tupcc_k{d} = tupcc_fb_first(tupcc_lo{d}, 1, &tupcc_c{d}), '
                    f'tupcc_ce{d} = tupcc_c{d} + tupcc_fb_count(tupcc_k{d}, tupcc_hi{d}), tupcc_h{d} = 1; tupcc_h{d}; '
                    f'tupcc_h{d} = 0{final}) ')
        else:
            head = (f'for (long long tupcc_lo{d} = (long long)({i}), tupcc_hi{d} = {hi}, tupcc_B{d} = (long long)({B}), '
                    f'tupcc_c{d} = 0, tupcc_b{d} = tupcc_fb_first(tupcc_lo{d}, tupcc_B{d}, &tupcc_c{d}), '
                    f'tupcc_e{d} = 0{off}, tupcc_k{d} = 0, tupcc_h{d} = 1; tupcc_h{d}; tupcc_h{d} = 0{final}) ')
        if ctx['ptrs']:
            # each array's part on this thread, found once for the loop
            ps = ', '.join(f'*{p} = {h}.addr + (size_t)MYTHREAD * tupc_impl_partition_size' +
                           ('' if cyclic else f', *{q} = 0') +
                           (f", *{fb_start_name(q)} = 0" if h in ctx['starts'] else '')
                           for h, (p, q, _, _) in ctx['ptrs'].items())
            head += f'for (char {ps}, *tupcc_g{d} = ""; tupcc_g{d}; tupcc_g{d} = 0) '
        if cyclic:
            head += (f'for (; tupcc_c{d} < tupcc_ce{d} && ((void)({i} = {ti}tupcc_k{d}), 1); '
                     f'tupcc_k{d} += THREADS, tupcc_c{d}++) ')
        else:
            if off:
                # the bases of this block: x[i] is q[i]
                # (r: the block's first element, where tupcc_fb_at tests)
                off = f', tupcc_off{d} = tupcc_c{d} * tupcc_B{d} - tupcc_b{d}' + ''.join(
                    f', {q} = {p} + tupcc_off{d} * ({unit} * (long long)sizeof({ct}))' +
                    (f", {fb_start_name(q)} = {q} + tupcc_b{d} * ({unit} * (long long)sizeof({ct}))"
                     if h in ctx['starts'] else '')
                    for h, (p, q, ct, unit) in ctx['ptrs'].items())
            head += (f'for (; tupcc_b{d} < tupcc_hi{d}; tupcc_b{d} += tupcc_B{d} * THREADS, tupcc_c{d}++) ')
            first = (f'tupcc_k{d} = tupcc_b{d} > tupcc_lo{d} ? tupcc_b{d} : tupcc_lo{d}, '
                     f'tupcc_e{d} = tupcc_b{d} + tupcc_B{d} < tupcc_hi{d} ? tupcc_b{d} + tupcc_B{d} : tupcc_hi{d}{off}')
            step = f'((void)({i} = {ti}tupcc_k{d}), 1); tupcc_k{d}++) '
            if middle is None:
                head += f'for ({first}; tupcc_k{d} < tupcc_e{d} && {step}'
            else:
                # three parts of the block's range: where some x[i + K] may
                # leave the block (before m1, from m2 on), and between
                lo_k, hi_k = min(ctx['offsets'] | {0}), max(ctx['offsets'] | {0})
                head += (f'for (long long tupcc_m1{d} = ({first}, tupcc_fb_clamp(tupcc_b{d} - ({lo_k}), tupcc_k{d}, '
                         f'tupcc_e{d})), tupcc_m2{d} = tupcc_fb_clamp(tupcc_b{d} + tupcc_B{d} - ({hi_k}), tupcc_m1{d}, '
                         f'tupcc_e{d}), tupcc_s{d} = 0; tupcc_s{d} < 3; tupcc_s{d}++) '
                         f'if (tupcc_s{d} != 1) for (tupcc_k{d} = tupcc_s{d} ? tupcc_m2{d} : tupcc_k{d}; '
                         f'tupcc_k{d} < (tupcc_s{d} ? tupcc_e{d} : tupcc_m1{d}) && {step}{{ {edge} ; }} '
                         f'else for (tupcc_k{d} = tupcc_m1{d}; tupcc_k{d} < tupcc_m2{d} && {step}')
                text = middle
        general = (f'for ({flat(it)} tupcc_once; tupcc_once = 0) if (!tupcc_ctl) {{ '
                   f'for (; {flat(self.emit(cond))}; {flat(self.emit(inc))}) {{ {flat_body} ; }} }} else ')
        before = self.text[rng(n)[0]:rng(body)[0]]
        indent = before.rsplit('\n', 1)[-1]
        pad = '\n' * before.count('\n') + (indent if indent.isspace() else '')
        return ('for (int tupcc_ctl = !tupcc_forall_depth++, tupcc_once = 1; tupcc_once; '
                'tupcc_once = 0, tupcc_forall_depth--) ' + general + head + pad + text)

    def emit_flat(self, body):
        """body as C on one line, its affinities ignored (a nested upc_forall)."""
        self.forall_nest += 1
        saved = self.fb
        self.fb = []
        try:
            return flat(self.emit(body))
        finally:
            self.fb = saved
            self.forall_nest -= 1

    def loop_var(self, idx):
        """idx names an automatic integer variable whose address is never
        taken: only the code that names it can change it."""
        v = idx['referencedDecl']['id']
        if v not in self.auto_vars or v in self.addr_taken:
            return False
        t = self.types.resolve(self.T(idx))
        return t.kind == 'base' and not t.AS and 'volatile' not in t.quals and \
            (t.name in INTS or self.int_typedef(t.name))

    def int_typedef(self, name):
        return name in INT_TYPEDEFS

    def unsigned(self, t):
        t = self.types.resolve(t)
        return t.kind == 'base' and (t.name.startswith('unsigned') or t.name in ('_Bool', 'size_t', 'uintptr_t') or
                                     t.name.startswith('uint'))

    def is_var(self, n, v):
        x = strip(n)
        return x.get('kind') == 'DeclRefExpr' and x['referencedDecl']['id'] == v

    def step_one(self, inc, v):
        """inc is i++, ++i or i += 1."""
        k = inc.get('kind')
        if k == 'UnaryOperator' and inc['opcode'] == '++':
            return self.is_var(kids(inc)[0], v)
        if k == 'CompoundAssignOperator' and inc['opcode'] == '+=' and self.is_var(kids(inc)[0], v):
            r = strip(kids(inc)[1])
            return r.get('kind') == 'IntegerLiteral' and r.get('value') == '1'
        return False

    def changes(self, n, v):
        """n may change the variable v (assigns it, steps it, takes its address)."""
        k = n.get('kind')
        if k == 'UnaryOperator' and n['opcode'] in ('++', '--', '&') and self.is_var(kids(n)[0], v):
            return True
        if k in ('BinaryOperator', 'CompoundAssignOperator') and n['opcode'].endswith('=') and \
                n['opcode'] not in ('==', '!=', '<=', '>=') and self.is_var(kids(n)[0], v):
            return True
        return any(self.changes(c, v) for c in kids(n))

    def invariant(self, n, body, v):
        """n's value is the same at every test of the loop: constants,
        sizeof, and variables that only the body could change and does not
        (automatic, address never taken) or const ones; no call, no
        assignment, no shared access, not the loop's variable."""
        k = n.get('kind')
        if k in ('IntegerLiteral', 'CharacterLiteral', 'UnaryExprOrTypeTraitExpr'):
            return True
        if self.has_type(n) and self.types.has_upc(self.T(n)):
            return False
        if k in ('ParenExpr', 'ImplicitCastExpr', 'CStyleCastExpr', 'ConditionalOperator'):
            return all(self.invariant(c, body, v) for c in kids(n))
        if k == 'UnaryOperator':
            return n['opcode'] in ('+', '-', '~', '!') and self.invariant(kids(n)[0], body, v)
        if k == 'BinaryOperator':
            return n['opcode'] not in ('=', ',') and all(self.invariant(c, body, v) for c in kids(n))
        if k == 'DeclRefExpr':
            d = n['referencedDecl']
            if d.get('kind') == 'EnumConstantDecl':
                return True
            if d.get('kind') not in ('VarDecl', 'ParmVarDecl') or d['id'] == v:
                return False
            t = self.types.resolve(self.T(n))
            if 'volatile' in t.quals:
                return False
            if 'const' in t.quals and t.kind == 'base':
                return True
            return (d['id'] in self.auto_vars or d['id'] in self.params) and d['id'] not in self.addr_taken and \
                not self.changes(body, d['id'])
        return False

    def top_break(self, n):
        """a break in n that would leave the upc_forall (not an inner loop or switch)."""
        k = n.get('kind')
        if k == 'BreakStmt':
            return True
        if k in ('ForStmt', 'WhileStmt', 'DoStmt', 'SwitchStmt'):
            return False
        return any(self.top_break(c) for c in kids(n))

    def duplicated(self, n):
        """n cannot be written twice: a label, or an object of static storage."""
        k = n.get('kind')
        if k in ('LabelStmt', 'AddrLabelExpr', 'IndirectGotoStmt'):
            return True
        if k == 'VarDecl' and n.get('storageClass') in ('static', 'extern'):
            return True
        return any(self.duplicated(c) for c in kids(n))

    def stride_of(self, n, inner, aff, local):
        """(i, B, element size, condition, increment) when a controlling
        upc_forall over &a[i] can visit only this thread's elements: i
        declared by the loop (so its value after the loop is nobody's
        concern), an integer, tested by i < E or i <= E and stepped by one;
        a of one dimension and a definite block size. Else None."""
        if len(inner) != 5:
            return None
        init, _, cond, inc, _ = inner
        v = local[1]
        if init.get('kind') != 'DeclStmt' or not any(d.get('id') == v for d in kids(init)):
            return None

        def is_i(x):
            x = strip(x)
            return x.get('kind') == 'DeclRefExpr' and x['referencedDecl']['id'] == v
        c = strip(cond) if cond.get('kind') else {}
        if c.get('kind') != 'BinaryOperator' or c['opcode'] not in ('<', '<=') or not is_i(kids(c)[0]):
            return None
        k = inc.get('kind')
        one = k == 'UnaryOperator' and inc['opcode'] in ('++',) and is_i(kids(inc)[0])
        if k == 'CompoundAssignOperator' and inc['opcode'] == '+=' and is_i(kids(inc)[0]):
            r = strip(kids(inc)[1])
            one = r.get('kind') == 'IntegerLiteral' and r.get('value') == '1'
        if not one:
            return None
        base = strip(kids(strip(kids(strip(aff))[0]))[0])
        ds, _ = self.types.dims(self.T(base))
        B, ct, _ = self.elem_info(self.T(base), base)
        if len(ds) != 1 or B == '0' or not B.isdigit():
            return None
        i = strip(kids(c)[0])['referencedDecl']['name']
        return i, B, f'sizeof({ct})', cond, inc

    def local_element(self, aff, body):
        """(array id, index id) when the affinity is &a[i] for a shared array
        a and a variable i that the body does not change: then a[i] in the
        body is the element the affinity test computed, and its accesses
        reuse that pointer (plain loads and stores on this thread's own)."""
        a = strip(aff)
        if a['kind'] != 'UnaryOperator' or a['opcode'] != '&':
            return None
        e = strip(kids(a)[0])
        if e['kind'] != 'ArraySubscriptExpr':
            return None
        base, idx = (strip(x) for x in kids(e))
        if base['kind'] != 'DeclRefExpr' or idx['kind'] != 'DeclRefExpr' or not self.shared_array(base):
            return None
        v = idx['referencedDecl']['id']
        # an automatic variable whose address is never taken: nothing but
        # the body's own code could change it
        if v not in self.auto_vars or v in self.addr_taken or self.types.has_upc(self.T(idx)):
            return None

        def changes(n):
            k = n.get('kind')
            if k == 'UnaryOperator' and n['opcode'] in ('++', '--', '&'):
                t = strip(kids(n)[0])
                if t.get('kind') == 'DeclRefExpr' and t['referencedDecl']['id'] == v:
                    return True
            if k in ('BinaryOperator', 'CompoundAssignOperator') and n['opcode'].endswith('=') and \
                    n['opcode'] not in ('==', '!=', '<=', '>='):
                t = strip(kids(n)[0])
                if t.get('kind') == 'DeclRefExpr' and t['referencedDecl']['id'] == v:
                    return True
            return any(changes(c) for c in kids(n))
        if changes(body):
            return None
        return base['referencedDecl']['id'], v

    # ---- declarations --------------------------------------------------------
    def splice(self, n, pre=None, span=None, children=None, grouping=True):
        """n's text with each child replaced by its translation; declarations
        that share a beginning (int a, *b;) are translated as one group."""
        b, e = span or rng(n)
        cs = [c for c in (children if children is not None else kids(n)) if rng(c)]
        cs.sort(key=lambda c: rng(c)[0])
        items, i = [], 0
        while i < len(cs):
            c = cs[i]
            if grouping and c['kind'] in DECLS:
                j = i + 1
                while j < len(cs) and cs[j]['kind'] in DECLS and in_group(cs[i:j], cs[j]):
                    j += 1
                items.append(cs[i:j])
                i = j
            else:
                items.append(c)
                i += 1
        out, pos = [], b
        for it in items:
            if isinstance(it, list):
                ib, ie = rng(it[0])[0], max(rng(x)[1] for x in it)
            else:
                ib, ie = rng(it)
            if ib < pos or ie > e:
                # a child inside another's text: fine when it needs no change
                if not isinstance(it, list) and it['kind'].endswith(('Expr', 'Operator')) and \
                        self.emit(it) != self.text[ib:ie]:
                    self.refuse(it, 'a construct whose parts overlap in a way tupcc cannot rewrite')
                continue
            out.append(self.text[pos:ib])
            if isinstance(it, list):
                out.append(self.group(it, ib, ie))
            elif pre and id(it) in pre:
                out.append(pre[id(it)])
            else:
                out.append(self.emit(it))
            pos = ie
        out.append(self.text[pos:e])
        return ''.join(out)

    def typeof_of(self, d):
        """d's type is a __typeof__, whose expression is a type's and so not
        rewritten (it may name shared objects): d is written again from its
        type, as clang resolved it, when that type is one this reader knows."""
        if 'typeof' not in d['type']['qualType']:
            return False
        t = self.T(d)
        return not (t.kind == 'base' and '(' in t.name)

    def init_of(self, d):
        for c in kids(d):
            if not c['kind'].endswith('Attr') and c['kind'] not in DECLS:
                return c
        return None

    def group(self, ds, gb, ge):
        for d in ds:
            if d['kind'] == 'TypedefDecl':
                self.types.typedef(d['name'], d['type']['qualType'])
        named = [d for d in ds if d['kind'] in ('VarDecl', 'FieldDecl', 'TypedefDecl')]
        for d in named:
            if self.star_pointer(self.T(d)):
                self.refuse(d, 'a [*] layout in a pointer type (UPC 1.3 6.5.1.1 constraint)')
        records = [d for d in ds if d['kind'] in ('RecordDecl', 'EnumDecl')]
        orig = self.text[gb:ge]
        for d in named:
            if d['kind'] == 'VarDecl' and self.needs_tls(d) and not self.types.is_shared(self.T(d)):
                self.tls.add(d['id'])
        if any(self.types.has_upc(self.T(d)) or self.deferred(d) or self.typeof_of(d) for d in named):
            # written again from the types; a struct defined in the
            # declaration comes first, as a declaration of its own
            parts = [self.record(r, named) for r in records if r.get('completeDefinition') or r['kind'] == 'EnumDecl']
            decls = [s for s in (self.redeclare(d) for d in named) if s]
            out = '; '.join(parts + [self.one_declaration(decls)])
            if not decls:
                out = '; '.join(parts)
            return out + '\n' * max(orig.count('\n') - out.count('\n'), 0)
        sub = []
        for d in ds:
            if d['kind'] in ('RecordDecl', 'EnumDecl'):
                sub.append(d)
            elif d['kind'] == 'VarDecl':
                i = self.init_of(d)
                if i is not None:
                    sub.append(i)
        text = self.splice(None, span=(gb, ge), children=sub, grouping=False)
        v = [d for d in ds if d['kind'] == 'VarDecl']
        if v and self.needs_tls(v[0]):
            m = re.match(r'\s*(static|extern)\b', text)
            at = m.end() if m else 0
            text = text[:at] + (' ' if m else '') + '_Thread_local' + (' ' if not m else '') + text[at:]
        return text

    def record(self, r, named):
        """a struct, union or enum defined in a declaration written again:
        an unnamed one gets a tag, which the declarations' types name."""
        text = self.emit(r)
        if r.get('name'):
            return text
        kw = r.get('tagUsed', 'enum')
        printed = set()
        for d in named:
            t = self.types.resolve(self.T(d))
            while t.kind in ('ptr', 'array'):
                t = self.types.resolve(t.to or t.of)
            if t.kind == 'base' and t.name.startswith(kw + ' ('):
                printed.add(t.name)
        if len(printed) != 1:
            return text
        tag = f'tupcc_anon{len(self.types.tags)}'
        self.types.tags[printed.pop()] = f'{kw} {tag}'
        return re.sub(r'^\s*(struct|union|enum)\b', r'\1 ' + tag, text)

    def star_pointer(self, t, depth=0):
        """a pointer in t points to a [*]-qualified type."""
        t = self.types.resolve(t)
        if depth > 20 or t.kind == 'base':
            return False
        if t.kind == 'ptr':
            e = self.types.elem(t.to)
            if (decode_as(e.AS) or (0, 0))[0] >= K_STAR:
                return True
            return self.star_pointer(t.to, depth + 1)
        if t.kind == 'array':
            return self.star_pointer(t.of, depth + 1)
        return self.star_pointer(t.ret, depth + 1) or any(self.star_pointer(parse(p), depth + 1) for p in t.params)

    def one_declaration(self, decls):
        """declarations that begin alike as one (int *p = a, *q;), which a
        for statement's first clause needs; else one after another."""
        def spec(d):
            m = re.match(r'((?:[A-Za-z_]\w*\s+)*?(?:[A-Za-z_]\w*))(?=\s*[*(]|\s+[A-Za-z_]\w*\s*(?:[\[=]|$))', d)
            return m.group(1) if m else None
        heads = [spec(d) for d in decls]
        if len(decls) > 1 and heads[0] and all(h == heads[0] for h in heads):
            return heads[0] + ' ' + ', '.join(d[len(heads[0]):].strip() for d in decls)
        return '; '.join(decls)

    def needs_tls(self, d):
        if d.get('tls'):
            return False
        sc = d.get('storageClass')
        return self.scope_file or sc in ('static', 'extern')

    def redeclare(self, d):
        t = self.T(d)
        name = d['name']
        k = d['kind']
        if k == 'TypedefDecl':
            return 'typedef ' + self.types.cdecl(t, name)
        if k == 'FieldDecl':
            if self.types.is_shared(t):
                self.refuse(d, 'a shared-qualified struct member')
            return self.types.cdecl(t, name)
        sc = d.get('storageClass', '')
        if self.types.is_shared(t):
            return self.shared_object(d, t, sc)
        init = self.init_of(d)
        tls = '_Thread_local' if self.needs_tls(d) else ''
        s = ' '.join(x for x in (sc, tls, self.types.cdecl(t, name)) if x)
        if init is not None and self.deferred(d):
            # each thread's own object's address is no constant: every
            # thread assigns it before main
            r = self.types.resolve(t)
            if not self.scope_file or r.kind != 'ptr' and r.kind != 'base':
                self.refuse(d, 'an initializer with the address of a private object (one per thread) '
                            'in a block-scope static or an aggregate')
            self.thread_inits.append(f'{name} = {self.emit(init)};')
        elif init is not None:
            s += ' = ' + ('{0}' if self.null_sptr(init) else self.emit(init))
        return s

    def deferred(self, d):
        """d is a thread's own object whose initializer names another
        thread's own object or a shared one: no constant in C."""
        if d['kind'] != 'VarDecl' or d['id'] not in self.tls:
            return False
        init = self.init_of(d)

        def names(n):
            if n.get('kind') == 'DeclRefExpr' and n.get('referencedDecl', {}).get('id') in self.tls | self.shared_ids:
                return True
            return any(names(c) for c in kids(n))
        return init is not None and names(init)

    def null_sptr(self, n):
        """n converts a null pointer constant to a pointer-to-shared."""
        return n.get('kind') in ('ImplicitCastExpr', 'CStyleCastExpr') and self.is_sptr(n) and \
            not self.is_sptr(kids(n)[0]) and (n.get('castKind') == 'NullToPointer' or self.null_constant(kids(n)[0]))

    def shared_object(self, d, t, sc):
        name = d['name']
        r = self.types.resolve(t)
        e = self.types.elem(r)
        k, _ = decode_as(e.AS)
        if k >= K_STAR:
            if r.kind != 'array':
                self.refuse(d, 'the [*] layout on an object that is not an array')
            ds, _ = self.types.dims(r)
            total = ' * '.join(f'(size_t)({x})' for x in ds)
            self.star_decl[d['id']] = f'(({total} + (size_t)THREADS - 1) / (size_t)THREADS)'
            self.types.star.setdefault(k, self.star_decl[d['id']])
        if sc == 'extern':
            return f'extern tupc_sptr_t {name}'
        if not self.scope_file and sc != 'static':
            self.refuse(d, 'a shared object with automatic storage duration (UPC 1.3 6.5.1.1)')
        handle = name
        if not self.scope_file:
            handle = f'tupcc_s{len(self.hoisted)}_{name}'
            self.hoisted.append(handle)
            self.renamed[d['id']] = handle
        init = self.init_of(d)
        itext = None
        B, ct, _ = self.elem_info(r)
        B = self.star_decl.get(d['id'], B)
        # memcpy, not assignment: the object may be const
        if init is not None and r.kind != 'array':
            itext = (f'{{\n        {ct} tupcc_v = {self.emit(init)};\n'
                     f'        memcpy({handle}.addr, &tupcc_v, sizeof tupcc_v);\n    }}')
        elif init is not None:
            # implementation-defined (UPC 1.3 6.5.2.1): thread 0 copies the
            # values, as a private array of the same shape, element by element
            ds, _ = self.types.dims(r)
            if not self.static_threads and any('THREADS' in x for x in ds):
                self.refuse(d, 'an initializer of a shared array with THREADS in a dimension under dynamic THREADS')
            n = ' * '.join(f'(size_t)({x})' for x in ds)
            values = self.types.cdecl(self.strip_top(r), 'tupcc_v')
            itext = (f'{{\n        {values} = {self.emit(init)};\n'
                     f'        for (size_t tupcc_k = 0; tupcc_k < {n}; tupcc_k++)\n'
                     f'            tupc_put(tupc_ptr_add({handle}, (ptrdiff_t)tupcc_k, {B}, sizeof({ct})), '
                     f'&(({ct} const *)tupcc_v)[tupcc_k], sizeof({ct}));\n    }}')
        if r.kind == 'array':
            ds, _ = self.types.dims(r)
            total = ' * '.join(f'(size_t)({x})' for x in ds)
            nt = sum('THREADS' in x for x in ds)
            if not self.static_threads and (nt != 1 if B != '0' else nt != 0):
                f, ln = self.where(d)
                what = (f'THREADS in {nt} of its dimensions with an indefinite block size (UPC 1.3 6.5.2.1 '
                        'wants none' if B == '0' else
                        f'THREADS in {nt} of its dimensions with a definite block size (UPC 1.3 6.5.2.1 '
                        'wants exactly one')
                self.warnings.append(f'{f}:{ln}: warning: shared array {name}: {what} under dynamic THREADS); '
                                     'tupcc lays it out at run time')
        else:
            total = '(size_t)1'
        if B == '0':
            nb, nbytes = '1', f'{total} * sizeof({ct})'
        else:
            nb, nbytes = f'({total} + (size_t)({B}) - 1) / (size_t)({B})', f'(size_t)({B}) * sizeof({ct})'
        if self.scope_file and name in self.defined:
            if itext is None:
                return ('static ' if sc == 'static' else '') + f'tupc_sptr_t {name}'
            self.refuse(d, 'a shared object defined twice')
        if self.scope_file:
            self.defined.add(name)
        self.allocs.append((handle, nb, nbytes, ct, itext))
        self.shared_ids.add(d['id'])
        if not self.scope_file:
            return ''
        return ('static ' if sc == 'static' else '') + f'tupc_sptr_t {name}'

    def function(self, n):
        body = [c for c in kids(n) if c['kind'] == 'CompoundStmt']
        params = [c for c in kids(n) if c['kind'] == 'ParmVarDecl']
        t = self.T(n)
        is_main = n['name'] == 'main' and body
        self.scope_file = False
        try:
            if is_main:
                if len(params) not in (0, 2):
                    self.refuse(n, f'main with {len(params)} parameters: tupcc takes main(void) or main(int, char **)')
                self.main = params
                r = self.types.resolve(self.types.resolve(t).ret)
                self.main_void = r.kind == 'base' and r.name == 'void'
            if not self.types.has_upc(t) and not is_main:
                return self.splice(n)
            ft = self.types.resolve(t)
            name = 'tupcc_user_main' if is_main else n['name']
            ps = ', '.join(self.types.cdecl(self.T(p), p.get('name', '')) for p in params)
            if ft.variadic:
                ps += ', ...'
            if not params and not ft.variadic:
                ps = 'void'
            head = ' '.join(x for x in (n.get('storageClass', ''), 'inline' if n.get('inline') else '',
                                         self.types.cdecl(ft.ret, f'{name}({ps})')) if x)
            b, e = rng(n)
            if not body:
                return head
            hb = rng(body[0])[0]
            nl = self.text[b:hb].count('\n')
            text = self.emit(body[0])
            if is_main and not self.main_void:
                # reaching main's } returns 0 (C11 5.1.2.2.3)
                text = text[:-1] + ' return 0; }'
            return head + '\n' * nl + ' ' + text
        finally:
            self.scope_file = True

    # ---- the translation unit ------------------------------------------------
    def survey(self, n, in_function=False):
        """the automatic variables, and the objects whose address is taken."""
        k = n.get('kind')
        if k == 'VarDecl' and in_function and not n.get('storageClass'):
            self.auto_vars.add(n['id'])
        if k == 'ParmVarDecl':
            self.params.add(n['id'])
        if k in ('FunctionDecl', 'VarDecl') and not in_function and \
                (k == 'VarDecl' or any(c['kind'] == 'CompoundStmt' for c in kids(n))):
            self.user_names.add(n.get('name'))
        if k == 'UnaryOperator' and n.get('opcode') == '&':
            t = strip(kids(n)[0])
            if t.get('kind') == 'DeclRefExpr':
                self.addr_taken.add(t['referencedDecl']['id'])
        for c in kids(n):
            self.survey(c, in_function or k == 'FunctionDecl')

    def run(self):
        self.auto_vars, self.addr_taken, self.user_names, self.params = set(), set(), set(), set()
        for d in kids(self.ast):
            r = rng(d)
            if r and self.lines.at(r[0])[2]:
                self.survey(d)
        out, pos = [], 0
        top = [d for d in kids(self.ast) if rng(d)]
        top.sort(key=lambda d: rng(d)[0])
        i = 0
        while i < len(top):
            d = top[i]
            b, e = rng(d)
            j = i + 1
            if d['kind'] in DECLS:
                while j < len(top) and top[j]['kind'] in DECLS and in_group(top[i:j], top[j]):
                    j += 1
            grp = top[i:j]
            e = max(rng(x)[1] for x in grp)
            i = j
            user = self.lines.at(b)[2]
            if not user:
                for x in grp:
                    if x['kind'] == 'TypedefDecl':
                        self.types.typedef(x['name'], x['type']['qualType'])
                continue
            if b < pos:
                continue
            out.append(self.text[pos:b])
            try:
                if d['kind'] in DECLS:
                    out.append(self.group(grp, b, e))
                else:
                    out.append(self.emit(d))
            except UPCError as ex:
                node = ex.node or d
                f, ln = self.where(node)
                self.errors.append((f, ln, str(ex)))
                out.append(self.text[b:e])
            pos = e
        out.append(self.text[pos:])
        return ''.join(out)


def diag_where(lines, line):
    f, ln, _ = lines.physical(line)
    return f, ln


def frontend(path, opts, cfg):
    """(pre-passed text, Lines, pragmas, AST) of one UPC file, or raises
    UPCError with the messages to print."""
    fe_inc = cfg['fe_include']
    threads = opts.get('threads')
    cpp = [cfg['clang'], '-E', '-x', 'c', '-std=gnu11', '-isystem', fe_inc]
    for d in cfg['real_include']:
        cpp += ['-isystem', d]
    cpp += ['-include', os.path.join(fe_inc, 'tupcc_prelude.h')]
    if threads:
        # a macro, so that #if can test it, as the constant it is
        cpp += [f'-D__TUPCC_THREADS={threads}', '-D__UPC_STATIC_THREADS__=1', f'-DTHREADS={threads}']
    else:
        cpp += ['-D__UPC_DYNAMIC_THREADS__=1']
    # -v: the include search list (header_name), with no run of its own
    cpp += opts.get('cpp_args', []) + ['-v', path]
    r = subprocess.run(cpp, capture_output=True, encoding=ENC)
    opts['search_dirs'], stderr = search_list(r.stderr)
    if r.returncode:
        raise UPCError(stderr.rstrip())
    fe_real = os.path.realpath(fe_inc)
    with tempfile.TemporaryDirectory(prefix='tupcc-cc-') as tmp:
        view = cc_view(r.stdout, opts, (fe_inc, fe_real), tmp)
        if view:
            # the user's files again, their compiler macros renamed to what $CC says
            r = subprocess.run(cpp[:-2] + view + ['-v', path], capture_output=True, encoding=ENC)
            _, stderr = search_list(r.stderr)
            if r.returncode:
                raise UPCError(stderr.rstrip())

    def is_user(file, flags):
        if file.startswith((fe_inc, fe_real)):
            return True
        return '3' not in flags

    def is_translated(file, flags):
        # tupcc's own headers are pre-passed but never written out
        return '3' not in flags and not file.startswith((fe_inc, fe_real))

    toks = prepass.tokenize(r.stdout, is_user)
    pp = prepass.PrePass(toks)
    pp.run()
    if pp.errors:
        raise UPCError('\n'.join(f'{f}:{ln}: error: {m}' for f, ln, m in pp.errors))
    text, pragmas = pp.output()
    opts.setdefault('warnings', []).extend(pp.warnings)
    lines = Lines(text, is_translated)
    # no warnings but the incompatible pointer types: between
    # pointers-to-shared they are UPC's constraint violations (C 6.5.16.1,
    # UPC 1.3 6.5.1.1), which the generated C, where every pointer-to-shared
    # is one struct type, no longer shows the C compiler
    # is one struct type, no longer shows the C compiler; and, as errors with
    # every clang, the C constraint violations that clang 15 and 16 made
    # errors by default (-Wno-everything would drop them, and clang 14 only
    # warns: one program, one answer, whichever clang reads it)
    check_cmd = [cfg['clang'], '-fsyntax-only', '-x', 'c', '-std=gnu11', '-Wno-everything',
                 '-Werror=int-conversion', '-Werror=implicit-function-declaration',
                 '-Werror=implicit-int', '-Werror=incompatible-function-pointer-types',
                 '-Werror=incompatible-pointer-types',
                 '-Wno-error=incompatible-pointer-types-discards-qualifiers',
                 '-ferror-limit=0',
                 '-fno-color-diagnostics', '-fdiagnostics-print-source-range-info', '-']
    dump_cmd = check_cmd[:-1] + ['-Xclang', '-ast-dump=json', '-']
    # an unqualified side of a conversion takes the mode of the pragmas in
    # effect where the conversion is (UPC 1.3 6.6.1: accesses through it
    # there are strict or relaxed by them)
    starts = None  # of this round's text

    def mode_here(line, col):
        return pragma_mode(pragmas, starts[line - 1] + col - 1)
    # the first parse, without the AST (whose JSON costs twice the parse),
    # finds the conversions to make explicit (most programs have some: a
    # shared [4] double * passed to upc_threadof's shared void *); the next
    # makes the AST
    dump = False
    for rnd in range(8):
        stderr, ast = _parse(dump_cmd if dump else check_cmd, _blank_markers(text),
                             cfg.get('ast_reader') if dump else None)
        errs = [m for m in DIAG.finditer(stderr) if m['sev'] in ('error', 'fatal error')
                and ('[-Werror' not in m['msg'] or 'address_space' in m['msg'])]
        for m in DIAG.finditer(stderr):
            # a qualifier of the referenced type dropped: a warning, as C
            # compilers give it for pointers-to-local
            if m['sev'] == 'warning' and 'address_space' in m['msg'] and not errs:
                f, ln = diag_where(lines, int(m['line']))
                msg = _untranslate(_places(WARNING_FLAG.sub('', m['msg']), lines))
                opts.setdefault('warnings', []).append(f'{f}:{ln}: warning: {msg} (C 6.5.16.1)')
        if not errs and dump:
            return text, lines, pragmas, ast()
        dump = True
        if not errs:
            continue
        fixes, msgs = [], []
        starts = _line_starts(text)
        for m in errs:
            fix = _conversion_fix(m, mode_here)
            if fix and fix[2] and not MEMBER_ADDRESS.match(_snippet(text, fix[0])):
                f, ln = diag_where(lines, int(m['line']))
                msgs.append(f'{f}:{ln}: error: {fix[2]}')
            elif fix:
                fixes.append(fix)
                if fix[1]:  # the conversion made, and said
                    f, ln = diag_where(lines, int(m['line']))
                    opts.setdefault('warnings', []).append(f'{f}:{ln}: warning: {fix[1]}')
            else:
                f, ln = diag_where(lines, int(m['line']))
                msg = _untranslate(_places(WERROR.sub('', m['msg']), lines))
                if WERROR.search(m['msg']):
                    msg += ' (a C 6.5.16.1 constraint; pointers-to-shared of incompatible types need a cast)'
                msgs.append(f'{f}:{ln}: error: {msg}')
        if msgs:
            raise UPCError('\n'.join(msgs))
        text = _apply_fixes(text, fixes, pragmas)
        lines = Lines(text, is_translated)
    raise UPCError(f'{path}: error: tupcc could not make the conversions between pointers-to-shared explicit')


# The macros that say which compiler compiles: the C that tupcc writes is
# compiled by $CC, so the user's code must see $CC's (gcc's __GNUC__ 12 and
# no __clang__), while clang's front end reads the system headers with its own
# (glibc's gcc branch is no C for clang). In the user's files each is renamed
# __tupcc_cc_NAME, defined as $CC defines NAME; a VFS overlay gives clang the
# renamed files under their own names, so lines and __FILE__ stay.
CC_IDENT = re.compile(r'\b(__clang(?:_major|_minor|_patchlevel|_version)?__|__llvm__|__GNUC(?:_MINOR|_PATCHLEVEL)?__|'
                      r'__VERSION__|__OPTIMIZE(?:_SIZE)?__|__NO_INLINE__|__INTEL_COMPILER|__TINYC__|'
                      r'__apple_build_version__|__SANITIZE_(?:ADDRESS|THREAD)__)\b')
# a string or character literal or a comment, kept as it is
CC_SKIP = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.S)
MARKER = re.compile(r'^# \d+ "((?:\\.|[^"\\])*)"(.*)$', re.M)


def cc_macros(cmd):
    """{name: value} of the compiler macros (CC_IDENT) that cmd (the C
    compiler and its flags) predefines, or None where it cannot say."""
    try:
        r = subprocess.run(cmd + ['-dM', '-E', '-x', 'c', os.devnull], capture_output=True, encoding=ENC)
    except OSError:
        return None
    if r.returncode:
        return None
    found = {}
    for m in re.finditer(r'^#define (\w+)(?: (.*))?$', r.stdout, re.M):
        if CC_IDENT.fullmatch(m.group(1)):
            found[m.group(1)] = m.group(2) or ''
    return found


def cc_view(out, opts, fe_dirs, tmp):
    """clang options that make the user's files (those of out, clang -E's
    output, that are no system or tupcc header) see $CC's compiler macros;
    [] where none names one."""
    files = {}
    for m in MARKER.finditer(out):
        f, flags = m.group(1), m.group(2).split()
        if '3' in flags or f.startswith(('<',) + fe_dirs):
            continue
        files.setdefault(f.encode(ENC).decode('unicode_escape'), None)
    rewritten = {}
    for f in files:
        try:
            with open(f, encoding=ENC) as fh:
                text = fh.read()
        except OSError:
            continue
        if CC_IDENT.search(text):
            rewritten[f] = _rename_cc(text)
    if not rewritten:
        return []
    macros = opts.get('cc_macros')
    if callable(macros):
        macros = opts['cc_macros'] = macros()
    if macros is None:
        return []
    roots = []
    for k, (f, text) in enumerate(rewritten.items()):
        copy = os.path.join(tmp, f'{k}-{os.path.basename(f)}')
        with open(copy, 'w', encoding=ENC) as fh:
            fh.write(text)
        roots.append({'type': 'file', 'name': os.path.abspath(f), 'external-contents': copy})
    overlay = os.path.join(tmp, 'overlay.yaml')
    with open(overlay, 'w', encoding='utf-8') as fh:
        json.dump({'version': 0, 'use-external-names': False, 'roots': roots}, fh)
    return ['-ivfsoverlay', overlay] + [f'-D__tupcc_cc_{k}={v}' for k, v in sorted(macros.items())]


def _rename_cc(text):
    """text with each compiler macro outside literals and comments
    renamed __tupcc_cc_NAME."""
    out, pos = [], 0
    for m in CC_SKIP.finditer(text):
        out.append(CC_IDENT.sub(r'__tupcc_cc_\1', text[pos:m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(CC_IDENT.sub(r'__tupcc_cc_\1', text[pos:]))
    return ''.join(out)


INDENT = re.compile(rb'\n[ \t]+')
DEEP = b'\n' + b' ' * 128
F_SETPIPE_SZ = getattr(fcntl, 'F_SETPIPE_SZ', 1031)


def _unindent(block):
    return INDENT.sub(b'\n', block) if DEEP in block else block


def _parse(cmd, text, reader=None):
    """clang's diagnostics of text, and a function that returns its JSON
    AST (call it only where the parse had no error).

    The AST comes through reader (tupcc-ast, cfg['ast_reader']): clang's
    JSON as marshal data, which Python loads in a third of the time it takes
    to read and decode the JSON (at 10,000 lines, 0.7 s against 2.5 s). Where
    there is no reader, or the tree is deeper than marshal loads, the JSON
    itself is read."""
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as ferr:
        fin.write(text.encode(ENC))
        fin.seek(0)
        if reader and os.access(reader, os.X_OK):
            fout = tempfile.TemporaryFile()
            clang = subprocess.Popen(cmd, stdin=fin, stdout=subprocess.PIPE, stderr=ferr)
            try:
                rd = subprocess.run([reader, str(MARSHAL_DEPTH)], stdin=clang.stdout, stdout=fout,
                                    stderr=subprocess.DEVNULL)
            finally:
                clang.stdout.close()
                clang.wait()
            if rd.returncode == 0:
                ferr.seek(0)
                return ferr.read().decode(ENC), lambda: _load_marshal(fout)
            fout.close()  # too deep (or no JSON): parsed again, read as JSON
            fin.seek(0)
            ferr.seek(0)
            ferr.truncate()
        out = _read_piped(cmd, fin, ferr)
        ferr.seek(0)
        return ferr.read().decode(ENC), lambda: json.loads(out)


# the deepest nesting tupcc-ast writes: marshal.loads refuses 2,000 levels
MARSHAL_DEPTH = 1900


def _load_marshal(f):
    with f:
        f.seek(0)
        return marshal.loads(f.read())


def _read_piped(cmd, fin, ferr):
    """cmd's standard output, read from a pipe as it comes, with the
    indentation of deep blocks removed: the JSON of a 3,000-term sum would
    take gigabytes."""
    p = subprocess.Popen(cmd, stdin=fin, stdout=subprocess.PIPE, stderr=ferr)
    # a pipe of 1 MiB (where Linux allows): a tenth of the reads and waits;
    # a block with deep indentation loses it (json skips the usual
    # indentation faster than a pass could remove it)
    fd = p.stdout.fileno()
    try:
        fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
    except OSError:
        pass
    parts = []
    try:
        while True:
            block = os.read(fd, 1 << 20)
            if not block:
                break
            parts.append(_unindent(block))
    finally:
        p.stdout.close()
        p.wait()
    return b''.join(parts).decode(ENC)


WERROR = re.compile(r' \[-Werror,-W[\w-]+\]$')
WARNING_FLAG = re.compile(r' \[-W[\w-]+\]$')
# &s.m (and &s.m[i]): UPC 1.3 6.4.4 makes it shared [] T *, so its
# conversion to that type is no change of layout worth a warning
MEMBER_ADDRESS = re.compile(r'\s*&.*(\.|->)\s*\w+\s*(\[[^]]*\]\s*)*$', re.S)


def _snippet(text, where):
    l1, c1, l2, c2, _ = where
    lines = text.split('\n')
    if l1 == l2:
        return lines[l1 - 1][c1 - 1:c2 - 1]
    return lines[l1 - 1][c1 - 1:] + '\n'.join(lines[l1:l2 - 1]) + lines[l2 - 1][:c2 - 1]


def _blank_markers(text):
    return re.sub(r'(?m)^#\s*\d+\s+"[^\n]*$', lambda m: ' ' * len(m.group()), text)


def _conversion_fix(m, mode_here=None):
    msg = m['msg']
    if 'changes address space of pointer' not in msg:
        return None
    q = QUOTED.findall(msg)
    if len(q) < 2:
        return None
    if msg.startswith('initializing'):
        (dest, dka), (src, ska) = q[0], q[1]
    elif msg.startswith(('assigning', 'passing', 'returning')):
        (src, ska), (dest, dka) = q[0], q[1]
    else:
        return None
    # the cast is written with clang's name of the type; the checks read through typedefs
    dfull, sfull = dka or dest, ska or src
    ad = [int(x) for x in re.findall(r'address_space\((\d+)\)', dfull)]
    asrc = [int(x) for x in re.findall(r'address_space\((\d+)\)', sfull)]
    rs = RANGE.findall(m['ranges'])
    if not rs:
        return None
    # both must be pointers-to-shared: local <-> shared is the user's error
    if not ad or not asrc or min(ad + asrc) < 4096:
        return None
    note = None
    gd = 'void' in dfull.split('*')[0]
    gs = 'void' in sfull.split('*')[0]
    kd, ks = decode_as(ad[0])[0], decode_as(asrc[0])[0]
    # a [*] pointer type is refused where it is declared (6.5.1.1)
    star = any(k == 0 or k >= K_STAR for k in (kd, ks))
    if not gd and not gs and not star and kd != ks:
        note = (f"implicit conversion between pointers-to-shared of different block sizes "
                f"({_untranslate(repr(src))} to {_untranslate(repr(dest))}): incompatible types "
                f"(UPC 1.3 6.5.1.1: the block size is part of the type; C 6.5.16.1); write the cast")
    l1, c1, l2, c2 = (int(x) for x in rs[-1])
    # strict to relaxed or back, the block size alike: a qualifier of the
    # referenced type dropped, which C compilers warn of (C 6.5.16.1), as
    # for const; the cast is made all the same. A side with neither
    # qualifier takes the mode the pragmas give where the conversion is.
    md, ms = decode_as(ad[0])[1], decode_as(asrc[0])[1]
    if mode_here:
        here = mode_here(l1, c1)
        md, ms = md or here, ms or here
    warn = None
    if note is None and md and ms and md != ms and len(ad) == len(asrc):
        names = {1: 'strict', 2: 'relaxed'}
        warn = (f"conversion from a pointer to {names[ms]} shared to a pointer to {names[md]} "
                f"shared ({_untranslate(repr(src))} to {_untranslate(repr(dest))}) discards the "
                f"{names[ms]} qualifier (C 6.5.16.1, UPC 1.3 6.5.1.1); write the cast")
    return (l1, c1, l2, c2, dest), warn, note


def _line_starts(text):
    starts = [0]
    for ln in text.split('\n'):
        starts.append(starts[-1] + len(ln) + 1)
    return starts


def _moved(off, edits):
    """where offset off of the text is once the casts of edits are in: each
    puts `((dest)(` before its begin and `))` after its end."""
    return off + sum(len(dest) + 4 for b, _, dest in edits if b <= off) + \
        sum(2 for _, e, _ in edits if e <= off)


def _apply_fixes(text, fixes, pragmas):
    """the text with the casts of fixes written in, and the pragma intervals
    moved with it (they are offsets into the text)."""
    starts = _line_starts(text)
    edits = []
    for (l1, c1, l2, c2, dest), _, _ in fixes:
        edits.append((starts[l1 - 1] + c1 - 1, starts[l2 - 1] + c2 - 1, dest))
    edits.sort()
    pragmas[:] = [(_moved(b, edits), None if e is None else _moved(e, edits), m)
                  for b, e, m in pragmas]
    if all(x[1] <= y[0] for x, y in zip(edits, edits[1:])):
        # apart (the usual case): one pass, not a copy of the text an edit
        out, pos = [], 0
        for b, e, dest in edits:
            out += [text[pos:b], f'(({dest})(', text[b:e], '))']
            pos = e
        return ''.join(out) + text[pos:]
    for b, e, dest in reversed(edits):
        text = text[:b] + f'(({dest})(' + text[b:e] + '))' + text[e:]
    return text


CLANG_WORDS = [
    ('automatic variable qualified with an address space',
     'a shared object with automatic storage duration (UPC 1.3 6.5.1.1)'),
    ('field may not be qualified with an address space', 'a shared-qualified struct member'),
    ('which are pointers to non-overlapping address spaces',
     ': one a pointer-to-shared, one a pointer-to-local (UPC 1.3 6.4.2 constraint: no binary operator applies to them)'),
    ('multiple address spaces specified for type',
     'more than one block size or reference qualifier for one type, through a typedef (UPC 1.3 6.5 constraint)'),
    ('array is too large', 'array is too large (THREADS in two dimensions? UPC 1.3 6.5.2.1 allows one under dynamic THREADS)'),
    ('parameter may not be qualified with an address space', 'a shared-qualified parameter'),
    ('function type may not be qualified with an address space', 'a shared-qualified function type'),
]


STDIN_PLACE = re.compile(r'<stdin>:(\d+):(\d+)')


def _places(msg, lines):
    """A place clang names in the pre-passed text it read from stdin (an
    unnamed struct's, say) as the user's file and line."""
    def at(m):
        f, ln = diag_where(lines, int(m.group(1)))
        return f'{f}:{ln}'
    return STDIN_PLACE.sub(at, msg)


def _untranslate(msg):
    """clang's message about pre-passed text, in UPC words."""
    def sh(m):
        k, mode = decode_as(int(m.group(1)))
        q = ('', 'strict ', 'relaxed ')[mode]
        lay = '' if k == 2 else ' [*]' if k == 0 or k >= K_STAR else ' []' if k == 1 else f' [{k - 1}]'
        return f'{q}shared{lay}'
    msg = re.sub(r'__attribute__\(\(address_space\((\d+)\)\)\)', sh, msg)
    for clang_words, upc_words in CLANG_WORDS:
        msg = msg.replace(clang_words, upc_words)
    msg = msg.replace('__tupcc_cc_', '')  # cc_view's names, as the user wrote them
    return msg.replace(prepass.THREADS_TEXT, 'THREADS').replace('((long)__tupc_THREADS)', 'THREADS')


FE_ONLY = ('tupcc_prelude.h', 'upc_strict.h', 'upc_relaxed.h')


def search_list(stderr):
    """(the include search directories, the rest) of clang -v's stderr:
    what it prints up to the end of the list is not a diagnostic."""
    dirs, on, rest = [], False, None
    for ln in stderr.splitlines(True):
        if rest is not None:
            rest.append(ln)
        elif ln.startswith('#include <...> search starts here'):
            on = True
        elif ln.startswith('End of search list'):
            on, rest = False, []
        elif on:
            dirs.append(os.path.realpath(ln.strip()))
    return dirs, stderr if rest is None else ''.join(rest)


def header_name(path, dirs):
    rp = os.path.realpath(path)
    best = None
    for d in dirs:
        if rp.startswith(d.rstrip('/') + '/') and (best is None or len(d) > len(best)):
            best = d
    if best is None:
        return f'"{path}"'
    return '<' + rp[len(best.rstrip('/')) + 1:] + '>'


def collapse(text, dirs, fe_dirs):
    """user regions with #line directives; each system header entered from
    user code becomes its #include line again."""
    out = []
    cur_user = True
    for ln in text.split('\n'):
        m = prepass.MARKER.match(ln)
        if not m:
            if cur_user:
                out.append(ln)
            continue
        num, file, flags = int(m.group(1)), m.group(2), m.group(3).split()
        user = '3' not in flags and not file.startswith('<') and not file.startswith(fe_dirs)
        if '1' in flags and cur_user and not user and not file.startswith('<'):
            if os.path.basename(file) not in FE_ONLY:
                out.append(f'#include {header_name(file, dirs)}')
            else:
                out.append('')
        elif user:
            out.append(f'#line {num} "{file}"')
        else:
            out.append('') if cur_user else None
        cur_user = user
    return '\n'.join(out)


LEFTOVER = re.compile(r'address_space\(|__tupc_')


def leftovers(body):
    """The last guard: a shared type or a pre-pass marker that reached the
    C unchanged (in a construct the translator has no rule for) would
    compile to something else; refuse it at its line."""
    file, line, errs = '?', 0, []
    for ln in body.split('\n'):
        m = re.match(r'#line (\d+) "(.*)"$', ln)
        if m:
            line, file = int(m.group(1)) - 1, m.group(2)
            continue
        line += 1
        if LEFTOVER.search(ln):
            what = 'a shared type' if 'address_space(' in ln else 'a UPC construct'
            errs.append(f'{file}:{line}: error: {what} in an expression or declaration tupcc does not translate')
    if errs:
        raise UPCError('\n'.join(errs))


def generate(path, opts, cfg):
    """C11 for one UPC file; raises UPCError with the messages to print."""
    # the AST is millions of dicts and lists without a cycle: the collector's
    # passes over them would make the time grow faster than the file
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _generate(path, opts, cfg)
    finally:
        if enabled:
            gc.enable()


def _generate(path, opts, cfg):
    text, lines, pragmas, ast = frontend(path, opts, cfg)
    threads = opts.get('threads')
    tr = Translator(text, lines, ast, pragmas, threads)
    try:
        body = tr.run()
    except (UPCError, InternalError):
        raise
    except Exception as ex:
        node = getattr(ex, 'tupcc_node', None)
        f, ln = tr.where(node) if node else (path, 0)
        if isinstance(ex, RecursionError):
            raise UPCError(f'{f}:{ln}: error: an expression or statement nested too deeply for tupcc')
        raise InternalError(f'{f}:{ln}', ex)
    if tr.errors:
        raise UPCError('\n'.join(f'{f}:{ln}: error: {m}' for f, ln, m in tr.errors))
    body = body.replace(prepass.THREADS_TEXT, 'THREADS')
    dirs = [os.path.realpath(cfg['fe_include'])] + [os.path.realpath(d) for d in cfg['real_include']] + opts['search_dirs']
    fe = cfg['fe_include']
    body = collapse(body, dirs, (fe, os.path.realpath(fe)))
    leftovers(body)
    head = [f'/* Generated by tupcc from {os.path.basename(path)}: UPC translated to C11 and tupc. */',
            '#include <upc.h>', '#include <tupcc_rt.h>']
    if threads:
        head += ['#undef THREADS', f'#define THREADS {threads}', '#undef __UPC_DYNAMIC_THREADS__',
                 '#define __UPC_STATIC_THREADS__ 1']
    head += [f'static tupc_sptr_t {h};' for h in tr.hoisted]
    # what follows is tupcc's, not the user's: diagnostics say so
    tail = ['#line 1 "<tupcc: generated>"']
    if tr.allocs or tr.thread_inits:
        tail.append('static void tupcc_alloc_unit(void)\n{' + ('\n    tupc_sptr_t tupcc_p;' if tr.allocs else ''))
        for h, nb, nbytes, ct, _ in tr.allocs:
            tail.append(f'    tupcc_p = tupcc_alloc({nb}, {nbytes});\n    if (MYTHREAD == TUPCC_FIRST_THREAD)\n        {h} = tupcc_p;')
        tail.append('}')
        tail.append('static void tupcc_init_unit(void)\n{\n    if (MYTHREAD != 0)\n        return;')
        for h, nb, nbytes, ct, it in tr.allocs:
            if it is not None:
                tail.append(f'    {it}')
        tail.append('}')
        tail.append('static void tupcc_thread_unit(void)\n{')
        tail += [f'    {a}' for a in tr.thread_inits]
        tail.append('}')
        tail.append('static struct tupcc_init tupcc_init_node = {tupcc_thread_unit, tupcc_alloc_unit, tupcc_init_unit, 0};')
        tail.append('__attribute__((constructor)) static void tupcc_register_unit(void)\n{\n'
                    '    tupcc_register(&tupcc_init_node);\n}')
    if tr.main is not None:
        opts['main'] = True
        n = len(tr.main)
        # argv as main declares it (char **, char *[], const char **)
        call = 'tupcc_user_main(argc, (void *)argv)' if n == 2 else 'tupcc_user_main()'
        call = f'{call};\n    tupcc_exit_status = 0' if tr.main_void else f'tupcc_exit_status = {call}'
        # exit() in a thread returns here, then from tupc_main
        tail.append('int tupc_main(int argc, char **argv)\n{\n    (void)argc;\n    (void)argv;\n'
                    '    if (!setjmp(tupcc_exit_to)) {\n        tupcc_exit_armed = 1;\n'
                    f'        tupcc_start({threads or 0});\n        {call};\n    }}\n'
                    '    tupcc_exit_armed = 0;\n    return tupcc_exit_status;\n}')
        if threads:
            tail.append('/* Without -n or UPC_THREADS, the THREADS it was translated for (POSIX\n'
                        ' * setenv, declared here for -std=c11). */\n'
                        'int setenv(const char *name, const char *value, int overwrite);\n'
                        '__attribute__((constructor)) static void tupcc_default_threads(void)\n{\n'
                        f'    setenv("UPC_THREADS", "{threads}", 0);\n}}')
    return '\n'.join(head) + '\n' + body + '\n' + '\n'.join(tail) + '\n', opts.get('warnings', []) + tr.warnings
