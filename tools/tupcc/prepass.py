"""tupcc pre-pass: token rewrite of preprocessed UPC (clang -E output) into C
that clang parses and types; see docs/design.md, "tupcc".

In user files and tupcc's own headers:
  shared [B] / [] / [*] / none, with strict or relaxed in the same qualifier
      list  ->  __attribute__((address_space(N)))  (upctypes.encode_as)
  THREADS  ->  ((long)__tupc_THREADS)  (an enum constant: a prime, or N with -n N)
  upc_forall (a; b; c; d) S  ->  for (a; b; c) if (!__tupc_forall(d)) {} else S
  upc_barrier [e];  upc_notify [e];  upc_wait [e];  ->  upc_barrier(e); ...
  upc_fence  ->  upc_fence()
  upc_blocksizeof X (and elem, local)  ->  __tupc_blocksizeof(sizeof X)
  #pragma upc strict|relaxed  ->  recorded, blanked
No newline is added or removed: the line markers of clang -E stay right."""

import re

from upctypes import UPCError, encode_as, K_STAR, K_TOO_BIG, MAX_BLOCK

THREADS_TEXT = '((long)__tupc_THREADS)'

_TOKEN = re.compile(r'''
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|[][(){}.,;:?~!<>=+\-*/%&|^\#])
  | (?P<other>.)
''', re.S | re.X)
MARKER = re.compile(r'#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"((?:\s+\d+)*)\s*$')
PRAGMA_UPC = re.compile(r'#\s*pragma\s+upc\b\s*(\w*)')


class Tok:
    __slots__ = ('kind', 'text', 'orig', 'user', 'line')

    def __init__(self, kind, text, user, line):
        self.kind, self.text, self.orig, self.user, self.line = kind, text, text, user, line


def tokenize(src, is_user):
    """tokens of the -E output; a directive line is one token. is_user(path)
    says which files' tokens the pre-pass rewrites."""
    out, bol, user = [], True, False
    toks = list(_TOKEN.finditer(src))
    i = 0
    file, line = '?', 1
    while i < len(toks):
        m = toks[i]
        kind, text = m.lastgroup, m.group()
        if bol and text == '#':
            j = i
            while j < len(toks) and toks[j].lastgroup != 'nl':
                j += 1
            d = src[m.start():toks[j - 1].end()]
            mm = MARKER.match(d)
            t = Tok('directive', d, user, (file, line))
            if mm:
                file, line = mm.group(2), int(mm.group(1)) - 1
                user = is_user(file, mm.group(3).split())
                t.kind = 'marker'
            out.append(t)
            i = j
            continue
        if kind == 'nl':
            bol = True
            line += 1
        elif kind not in ('ws', 'comment'):
            bol = False
        out.append(Tok(kind, text, user, (file, line)))
        i += 1
    return out


class PrePass:
    def __init__(self, toks):
        self.t = toks
        self.sig = [i for i, t in enumerate(toks) if t.kind not in ('ws', 'nl', 'comment', 'directive', 'marker')]
        self.errors = []   # (file, line, message)
        self.warnings = []
        self.twins = {}    # shared typedef name -> its strict and relaxed twins
        self.moded = {}    # strict or relaxed shared typedef name -> its mode (1, 2)
        self.depth, d = [], 0  # brace depth at each significant token
        for i in self.sig:
            t = self.t[i]
            d -= t.text == '}'
            self.depth.append(d)
            d += t.text == '{'
        self.star_ids = 0
        self.pragmas = []  # (token index, mode, scope end token index or None)

    def S(self, si):
        return self.t[self.sig[si]] if 0 <= si < len(self.sig) else Tok('eof', '', False, ('?', 0))

    def error(self, si, msg):
        f, line = self.S(si).line
        self.errors.append((f, line, msg))

    def close_of(self, si):
        pairs = {'(': ')', '[': ']', '{': '}'}
        o, c = self.S(si).text, pairs[self.S(si).text]
        depth = 0
        for sj in range(si, len(self.sig)):
            x = self.S(sj).text
            if x == o:
                depth += 1
            elif x == c:
                depth -= 1
                if depth == 0:
                    return sj
        raise UPCError(f'unbalanced {o}')

    def set(self, si, text):
        self.t[self.sig[si]].text = text

    def qualifiers(self, si):
        """shared/strict/relaxed of the qualifier list holding token si: the
        run of identifiers (and shared's layout brackets) around it."""
        n = len(self.sig)
        a = si
        while a > 0 and self.S(a - 1).kind == 'ident' and self.S(a - 1).user and \
                self.S(a - 1).text not in ('return', 'sizeof', 'case', 'else', 'do', 'goto'):
            a -= 1
        b, shared, mode, modes, layout = a, None, 0, [], None
        while b < n:
            x = self.S(b)
            if x.kind != 'ident' or not x.user:
                break
            if x.text == 'shared':
                if shared is not None:
                    self.error(b, 'shared given twice in one qualifier list (UPC 1.3 6.5.2 constraint: at most one block size)')
                shared = b
                if self.S(b + 1).text == '[':
                    e = self.close_of(b + 1)
                    layout = (b + 1, e)
                    b = e
            elif x.text in ('strict', 'relaxed'):
                if mode and mode != (1 if x.text == 'strict' else 2):
                    self.error(b, 'both strict and relaxed in one qualifier list (UPC 1.3 6.5.2 constraint)')
                mode = 1 if x.text == 'strict' else 2
                modes.append(b)
            b += 1
        return shared, layout, mode, modes, b, a

    def run(self):
        n = len(self.sig)
        si = 0
        while si < n:
            x = self.S(si)
            if not x.user or x.kind != 'ident' or x.text not in ('shared', 'strict', 'relaxed'):
                si += 1
                continue
            shared, layout, mode, modes, end, start = self.qualifiers(si)
            if shared is None:
                # strict or relaxed on a shared typedef name: its twin of that mode
                names = [j for j in range(start, end) if self.S(j).orig in self.twins]
                moded = [j for j in range(start, end) if self.S(j).orig in self.moded]
                if len(moded) == 1 and len(modes) == 1 and not names:
                    if self.moded[self.S(moded[0]).orig] != mode:
                        self.error(si, f'both strict and relaxed, one through the typedef {self.S(moded[0]).orig} '
                                   '(UPC 1.3 6.5 constraint)')
                    self.set(modes[0], '')
                elif len(names) == 1 and len(modes) == 1:
                    j = names[0]
                    self.set(j, self.twins[self.S(j).orig][mode - 1])
                    self.set(modes[0], '')
                else:
                    self.error(si, f'{x.text} without shared in the same qualifier list '
                               '(on a name that is no file-scope shared typedef): a UPC 1.3 6.5.1.1 '
                               'constraint violation')
                si = end
                continue
            if layout is None:
                k = '2'
            else:
                inner = [self.S(j).text for j in range(layout[0] + 1, layout[1])]
                if inner == ['*']:
                    if 'typedef' in [self.S(j).orig for j in range(start, end)]:
                        f, line = self.S(si).line
                        self.warnings.append(f'{f}:{line}: warning: [*] in a typedef (a UPC 1.3 6.5.1.1 constraint '
                                             'violation): tupcc distributes each array declared with it on its own')
                    self.star_ids += 1
                    k = str(K_STAR + self.star_ids)
                elif not inner:
                    k = '1'
                elif 'THREADS' in inner:
                    # with -n N the macro has made it a number; here THREADS
                    # is dynamic and a block size must be constant (6.5.1.1)
                    self.error(layout[0], 'THREADS in a layout qualifier: a block size is a '
                               'constant expression, so this needs static THREADS (tupcc -n N)')
                    k = '2'
                else:
                    # the block size is a constant expression: clang computes
                    # it; one out of range gets the address space that says so
                    b = ' '.join(inner)
                    k = f'(({b}) < 0 || ({b}) > {MAX_BLOCK} ? {K_TOO_BIG} : ({b}) + 1)'
                for j in range(layout[0], layout[1] + 1):
                    self.set(j, '')
            self.set(shared, f'__attribute__((address_space({encode_as(0, mode)} + 4 * {k})))')
            for j in modes:
                self.set(j, '')
            self.typedef_twins(start, end, shared, k, mode)
            si = end
        si = 0
        while si < n:
            x = self.S(si)
            if not x.user or x.kind != 'ident':
                si += 1
                continue
            t = x.text
            stmt = self.S(si - 1).orig in ('', ';', '{', '}', ')', ':', 'else', 'do')
            if t == 'THREADS':
                self.set(si, THREADS_TEXT)
            elif t == 'upc_forall' and stmt and self.S(si + 1).text == '(':
                close = self.close_of(si + 1)
                semis, d = [], 0
                for j in range(si + 2, close):
                    tt = self.S(j).text
                    if tt in ('(', '[', '{'):
                        d += 1
                    elif tt in (')', ']', '}'):
                        d -= 1
                    elif tt == ';' and d == 0:
                        semis.append(j)
                if len(semis) != 3:
                    self.error(si, 'upc_forall needs four clauses separated by ;')
                    si += 1
                    continue
                self.set(si, 'for')
                aff = [self.S(j).text for j in range(semis[2] + 1, close)]
                if aff in ([], ['continue']):
                    for j in range(semis[2] + 1, close):
                        self.set(j, '')
                self.set(semis[2], ') if (!__tupc_forall(')
                self.set(close, ')) {} else')
            elif t in ('upc_barrier', 'upc_notify', 'upc_wait') and stmt:
                j = si + 1
                while j < n and self.S(j).text not in (';', '{', '}'):
                    j += 1
                if self.S(j).text != ';':
                    self.error(si, f'{t} statement without ;')
                elif j == si + 1:
                    self.set(si, t + '()')
                else:
                    self.set(si, t + '(')
                    self.set(j, ');')
                si = j
            elif t == 'upc_fence' and stmt and self.S(si + 1).text == ';':
                self.set(si, 'upc_fence()')
            elif t in ('upc_blocksizeof', 'upc_elemsizeof', 'upc_localsizeof'):
                nxt = self.S(si + 1)
                if nxt.text == '(':
                    e = self.close_of(si + 1)
                elif nxt.kind == 'ident':
                    e = si + 1
                else:
                    self.error(si, f'{t} of an operand tupcc cannot delimit; write {t}(...)')
                    si += 1
                    continue
                self.set(si, f'__tupc_{t[4:]}(sizeof ')
                self.set(e, self.S(e).text + ')')
                if nxt.kind == 'ident':
                    si = e
                # else on inside the parentheses: THREADS in a type name
            si += 1
        self.scan_pragmas()

    def typedef_twins(self, start, end, shared, k, mode):
        """`typedef shared ... NAME[dims];` at file scope gets a strict and a
        relaxed twin on the same line, which `strict NAME` and `relaxed NAME`
        then name: an address space cannot be given a mode afterwards."""
        if 'typedef' not in [self.S(j).orig for j in range(start, end)] or self.depth[start]:
            return
        # the declared name ends the run of identifiers; dimensions may follow
        at = end - 1
        if at <= shared or self.S(at).kind != 'ident':
            return
        name = self.S(at).orig
        j = end
        while self.S(j).orig == '[':
            j = self.close_of(j) + 1
        if self.S(j).orig != ';':
            return
        if mode:
            self.moded[name] = mode
            return
        twins = []
        texts = []
        for mode, word in ((1, 'strict'), (2, 'relaxed')):
            twin = f'tupcc_{word}__{name}'
            parts = [f'__attribute__((address_space({encode_as(0, mode)} + 4 * {k})))' if i == shared
                     else twin if i == at else self.S(i).text for i in range(start, j)]
            texts.append(' '.join(p for p in parts if p) + ';')
            twins.append(twin)
        self.set(j, '; ' + ' '.join(texts))
        self.twins[name] = twins

    def scan_pragmas(self):
        """#pragma upc strict|relaxed: its token index, mode and the end of
        its block (None at file scope); the line itself is blanked."""
        depth_stack = []
        for i, t in enumerate(self.t):
            if t.kind in ('punct',) and t.user:
                if t.text == '{':
                    depth_stack.append(i)
                elif t.text == '}' and depth_stack:
                    opener = depth_stack.pop()
                    for p in self.pragmas:
                        if p[2] == ('open', opener):
                            p[2] = i
            if t.kind == 'directive':
                m = PRAGMA_UPC.match(t.text)
                if not m:
                    continue
                if m.group(1) not in ('strict', 'relaxed'):
                    self.errors.append((t.line[0], t.line[1], f'#pragma upc {m.group(1)}: not supported by tupcc'))
                else:
                    scope = ('open', depth_stack[-1]) if depth_stack and t.user else None
                    self.pragmas.append([i, 1 if m.group(1) == 'strict' else 2, scope])
                t.text = ' ' * len(t.text)

    def output(self):
        """the rewritten text, and the pragma intervals as offsets into it:
        (start, end or None, mode)."""
        offs, pos = [], 0
        for t in self.t:
            offs.append(pos)
            pos += len(t.text)
        offs.append(pos)
        prag = [(offs[i], offs[e] if isinstance(e, int) else None, m) for i, m, e in self.pragmas]
        return ''.join(t.text for t in self.t), prag
