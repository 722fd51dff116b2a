"""Types as clang prints them, read back into trees (tupcc).

Clang's JSON AST gives types only as printed strings. The pre-pass turns
every UPC `shared` qualifier into an address space (see AS_BASE), so a
printed type says where shared appears, its block size and strict/relaxed.
This module parses those strings (not user source), resolves typedef names
through a scoped table, and prints C declarations with `shared` removed and
every pointer-to-shared turned into tupc_sptr_t."""

import re

AS_BASE = 4096
# [*] layouts get one address space per occurrence, from here up: the
# translator learns their block size from the array they declare.
K_STAR = 2000000
MAX_BLOCK = 1000000
K_TOO_BIG = MAX_BLOCK + 2  # a block size above MAX_BLOCK, or negative
# THREADS in the front end: a prime far above any real dimension, so that
# clang's computed array sizes say which dimension holds THREADS.
THREADS_PRIME = 2147483647  # 2^31 - 1, the largest int prime


class UPCError(Exception):
    """A construct tupcc refuses; offset locates it in the parsed text."""

    def __init__(self, msg, node=None):
        super().__init__(msg)
        self.node = node


class InternalError(Exception):
    """tupcc's own failure (a bug) at where, the user's file:line."""

    def __init__(self, where, what):
        super().__init__(f'{where}: tupcc internal error: {type(what).__name__}: {what} (please report)')


def encode_as(k, mode):
    return AS_BASE + 4 * k + mode


def decode_as(n):
    """address space -> (k, mode) or None for an ordinary one."""
    if not n or n < AS_BASE:
        return None
    return divmod(n - AS_BASE, 4)


class Ty:
    __slots__ = ('kind', 'name', 'quals', 'AS', 'to', 'of', 'n', 'ret', 'params', 'variadic')

    def __init__(self, kind, **kw):
        self.kind = kind  # base | ptr | array | func
        self.name = ''
        self.quals = []
        self.AS = 0
        self.to = self.of = self.ret = None
        self.n = None
        self.params = None
        self.variadic = False
        for k, v in kw.items():
            setattr(self, k, v)

    def copy(self):
        t = Ty(self.kind)
        for s in Ty.__slots__:
            setattr(t, s, getattr(self, s))
        t.quals = list(self.quals)
        return t

    def __repr__(self):
        a = f'@{self.AS}' if self.AS else ''
        if self.kind == 'base':
            return f'{" ".join(self.quals + [self.name])}{a}'
        if self.kind == 'ptr':
            return f'ptr{a}({self.to!r})'
        if self.kind == 'array':
            return f'arr[{self.n}]{a}({self.of!r})'
        return f'func({self.ret!r}; {self.params})'


_TOK = re.compile(r'''\s*(
    __attribute__\(\(address_space\(\d+\)\)\)
  | (?:struct|union|enum)\s+\((?:unnamed|anonymous)[^)]*\)
  | (?:struct|union|enum)\s+[A-Za-z_]\w*
  | (?:typeof|__typeof__)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)
  | [A-Za-z_]\w*
  | \d+
  | \.\.\.
  | [*()\[\],]
)''', re.X)
QUALS = ('const', 'volatile', 'restrict', '__restrict', '_Atomic')


def _tokens(s):
    out, i = [], 0
    while i < len(s):
        m = _TOK.match(s, i)
        if not m:
            if not s[i:].strip():
                break
            raise UPCError(f'tupcc cannot read the type {s!r}')
        out.append(m.group(1))
        i = m.end()
    return out


def _qual(t, q):
    m = re.match(r'__attribute__\(\(address_space\((\d+)\)\)\)', q)
    if m:
        t.AS = int(m.group(1))
    else:
        t.quals.append(q)


def _is_qual(x):
    return x in QUALS or x.startswith('__attribute__')


_OTHER_ATTR = re.compile(r'\s*__attribute__\(\((?!address_space)(?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)')


def parse(s):
    """Tree of a type as clang prints it (an abstract declarator); attributes
    other than address spaces (noreturn, aligned) are left out."""
    toks = _tokens(_OTHER_ATTR.sub('', s))
    i, specs, quals = 0, [], []
    while i < len(toks) and toks[i] not in ('*', '(', '['):
        (quals if _is_qual(toks[i]) else specs).append(toks[i])
        i += 1
    base = Ty('base', name=' '.join(specs))
    for q in quals:
        _qual(base, q)

    def split_params(ps):
        out, depth, cur = [], 0, []
        for x in ps:
            if x in ('(', '['):
                depth += 1
            elif x in (')', ']'):
                depth -= 1
            if x == ',' and depth == 0:
                out.append(cur)
                cur = []
            else:
                cur.append(x)
        if cur:
            out.append(cur)
        return [' '.join(p) for p in out]

    def declarator(i):
        # returns (wrap, i): wrap(t) builds the type around the base t
        if i < len(toks) and toks[i] == '*':
            i += 1
            qs = []
            while i < len(toks) and _is_qual(toks[i]):
                qs.append(toks[i])
                i += 1
            inner, i = declarator(i)

            def wrap(t, inner=inner, qs=qs):
                p = Ty('ptr', to=t)
                for q in qs:
                    _qual(p, q)
                return inner(p)
            return wrap, i
        inner = None
        if i < len(toks) and toks[i] == '(' and i + 1 < len(toks) and toks[i + 1] in ('*', '('):
            inner, i = declarator(i + 1)
            if toks[i] != ')':
                raise UPCError(f'tupcc cannot read the type {s!r}')
            i += 1
        suffixes = []
        while i < len(toks) and toks[i] in ('[', '('):
            close = ']' if toks[i] == '[' else ')'
            depth, j = 0, i
            while True:
                if toks[j] in ('(', '['):
                    depth += 1
                elif toks[j] in (')', ']'):
                    depth -= 1
                if depth == 0 and toks[j] == close:
                    break
                j += 1
            suffixes.append((toks[i], toks[i + 1:j]))
            i = j + 1

        def wrap(t, inner=inner, suffixes=suffixes):
            for kind, arg in reversed(suffixes):
                if kind == '[':
                    # a variable length array's dimension is kept as text
                    n = int(arg[0]) if len(arg) == 1 and arg[0].isdigit() else ' '.join(arg) or None
                    t = Ty('array', n=n, of=t)
                else:
                    ps = split_params(arg)
                    var = bool(ps) and ps[-1] == '...'
                    if var:
                        ps = ps[:-1]
                    t = Ty('func', ret=t, params=ps, variadic=var)
            return inner(t) if inner else t
        return wrap, i

    wrap, i = declarator(i)
    if i != len(toks):
        raise UPCError(f'tupcc cannot read the type {s!r}')
    return wrap(base)


class Types:
    """Typedef names in scope (a stack of tables) and [*] block sizes."""

    def __init__(self):
        self.scopes = [{}]
        self.star = {}  # k of a [*] address space -> block size C expression
        self.tags = {}  # clang's name of an unnamed struct -> the tag tupcc gave it

    def push(self):
        self.scopes.append({})

    def pop(self):
        self.scopes.pop()

    def typedef(self, name, type_string):
        self.scopes[-1][name] = type_string

    def lookup(self, name):
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return None

    def resolve(self, t):
        """t with typedef names at its top replaced by what they name."""
        for _ in range(50):
            if t.kind != 'base':
                return t
            qt = self.lookup(t.name)
            if qt is None:
                return t
            u = parse(qt)
            if u.kind == 'base' and u.name.startswith(('struct ', 'union ', 'enum ')):
                # the name stays: clang prints an unnamed struct that a
                # typedef names as `struct NAME`, which C does not know
                t = t.copy()
                t.AS = t.AS or u.AS
                t.quals = u.quals + t.quals
                return t
            # qualifiers written on the typedef name go to the elements of an array
            e = u
            while e.kind == 'array':
                e = e.of
            e.quals = e.quals + t.quals
            e.AS = e.AS or t.AS
            t = u
        return t

    def elem(self, t):
        """the ultimate element type of an array type (resolved)."""
        t = self.resolve(t)
        while t.kind == 'array':
            t = self.resolve(t.of)
        return t

    def is_shared(self, t):
        """t (an object type) is shared-qualified, or an array of such."""
        return decode_as(self.elem(t).AS) is not None

    def is_sptr(self, t):
        """t is a pointer-to-shared."""
        t = self.resolve(t)
        return t.kind == 'ptr' and self.is_shared(t.to)

    def has_upc(self, t, depth=0):
        """shared appears anywhere in t (sizeof and declarations must be rewritten)."""
        if depth > 20:
            return False
        t = self.resolve(t)
        if decode_as(t.AS):
            return True
        if t.kind == 'ptr':
            return self.has_upc(t.to, depth + 1)
        if t.kind == 'array':
            return self.has_upc(t.of, depth + 1)
        if t.kind == 'func':
            return self.has_upc(t.ret, depth + 1) or any(self.has_upc(parse(p), depth + 1) for p in t.params)
        return False

    def layout(self, t):
        """(B as C text, mode) of a shared type; B '0' is the indefinite layout."""
        k, mode = decode_as(self.elem(t).AS)
        if k >= K_STAR:
            if k not in self.star:
                raise UPCError('a [*] layout whose array tupcc has not seen')
            return self.star[k], mode
        if k == 0:
            raise UPCError('a [*] layout outside an array declaration')
        if k == K_TOO_BIG:
            raise UPCError(f'a block size above {MAX_BLOCK} (tupcc\'s largest) or below 0')
        if k == 2:
            return '1', mode
        return str(k - 1), mode

    def dims(self, t):
        """dimensions of an array type as C text, and the element type."""
        t = self.resolve(t)
        ds = []
        while t.kind == 'array':
            ds.append(dim(t.n))
            t = self.resolve(t.of)
        return ds, t

    def cdecl(self, t, inner='', strip=True):
        """C declaration of t around the declarator text inner; shared is
        removed (strip) and pointers-to-shared become tupc_sptr_t."""
        if t.kind == 'base':
            if t.name in self.tags:
                return _join(_q(t.quals) + [self.tags[t.name], inner])
            if t.name.startswith(('struct (', 'union (', 'enum (')):
                raise UPCError('an unnamed struct, union or enum where tupcc must write the type')
            return _join(_q(t.quals) + [t.name, inner])
        if t.kind == 'ptr':
            qs = _q(t.quals)
            if self.is_shared(t.to):
                return _join(['tupc_sptr_t'] + qs + [inner])
            return self.cdecl(t.to, _join(['*' + ' '.join(qs)] + [inner]) if qs else '*' + inner)
        if t.kind == 'array':
            if inner.startswith('*'):
                inner = f'({inner})'
            return self.cdecl(t.of, f'{inner}[{dim(t.n) if t.n is not None else ""}]')
        if t.kind == 'func':
            if inner.startswith('*'):
                inner = f'({inner})'
            ps = [self.cdecl(parse(p)) for p in t.params]
            if t.variadic:
                ps.append('...')
            return self.cdecl(t.ret, f'{inner}({", ".join(ps) if ps or t.variadic else "void"})')
        raise UPCError('unknown type')

    def ctype(self, type_string, inner=''):
        return self.cdecl(parse(type_string), inner)


def _q(quals):
    return [q for q in quals if q != '__restrict'] + ['restrict' for q in quals if q == '__restrict']


def _join(parts):
    return ' '.join(p for p in parts if p)


def dim(n):
    """an array dimension as C text: THREADS where the front end had the prime."""
    if n is None:
        return ''
    if isinstance(n, str):
        return n  # a variable length array's
    if n >= THREADS_PRIME // 2:
        q, r = divmod(n, THREADS_PRIME)
        if r or q >= THREADS_PRIME // 2:
            raise UPCError('THREADS in an array dimension other than as expr * THREADS')
        return 'THREADS' if q == 1 else f'({q} * THREADS)'
    return str(n)
