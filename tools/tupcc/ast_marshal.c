/* tupcc-ast: clang's JSON AST on stdin, written on stdout as the Python
 * object that json.loads would make of it (the text decoded as Latin-1, as
 * tupcc reads all of clang's output), in the format of Python's marshal
 * module. marshal.loads builds it in under half the time json.loads takes,
 * and the file is a sixth of the JSON's size (clang indents its JSON by the
 * depth of the tree): at 10,000 lines of UPC, 21 MB against 126 MB.
 *
 * Short ASCII strings (keys, kinds, types) are written once, interned, and
 * referred to after that, so the Python objects share them.
 *
 * Exit status: 0, the object written; 3, nested deeper than the depth given
 * as the argument (marshal.loads refuses a depth over 2,000), 2, input that
 * is no JSON, 1, no memory or an I/O error. tupcc reads the JSON itself
 * whenever the status is not 0.
 *
 *     clang ... -Xclang -ast-dump=json - | tupcc-ast MAX_DEPTH > FILE */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_DEEP = 3, EXIT_BAD = 2, EXIT_SYS = 1 };

/* marshal's type codes (Python/marshal.c); FLAG_REF adds the object to the
 * table that 'r' indexes */
enum {
    M_NULL = '0',
    M_NONE = 'N',
    M_FALSE = 'F',
    M_TRUE = 'T',
    M_INT = 'i',
    M_LONG = 'l',
    M_FLOAT = 'g',
    M_UNICODE = 'u',
    M_ASCII = 'a',
    M_SHORT_ASCII_INTERNED = 'Z',
    M_LIST = '[',
    M_DICT = '{',
    M_REF = 'r',
    FLAG_REF = 0x80,
};

static _Noreturn void die(int status, const char *why)
{
    fprintf(stderr, "tupcc-ast: %s\n", why);
    exit(status);
}

/* ---- input: stdin through a buffer of 1 MiB ---- */

static unsigned char in_buf[1 << 20];
static size_t in_pos, in_len;

static int refill(void)
{
    ssize_t n;
    do
        n = read(0, in_buf, sizeof in_buf);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        die(EXIT_SYS, "cannot read the input");
    in_pos = 0;
    in_len = (size_t)n;
    return n > 0;
}

static inline int peek(void)
{
    if (in_pos == in_len && !refill())
        return -1;
    return in_buf[in_pos];
}

static inline int next(void)
{
    int c = peek();
    if (c >= 0)
        in_pos++;
    return c;
}

static inline int skip_space(void)
{
    for (;;) {
        while (in_pos < in_len) {
            unsigned char c = in_buf[in_pos];
            if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
                return c;
            in_pos++;
        }
        if (!refill())
            return -1;
    }
}

static void expect(int want)
{
    if (next() != want)
        die(EXIT_BAD, "the input is no JSON");
}

/* ---- output: one growing buffer, written at the end (a list's length is
 * filled in once its items are counted) ---- */

static unsigned char *out;
static size_t out_len, out_cap;

static void reserve(size_t n)
{
    if (out_len + n <= out_cap)
        return;
    size_t cap = out_cap ? out_cap : 1 << 20;
    while (cap < out_len + n)
        cap *= 2;
    out = realloc(out, cap);
    if (!out)
        die(EXIT_SYS, "out of memory");
    out_cap = cap;
}

static inline void put_byte(unsigned b)
{
    reserve(1);
    out[out_len++] = (unsigned char)b;
}

static void put_u32_at(size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        out[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void put_u32(uint32_t v)
{
    reserve(4);
    put_u32_at(out_len, v);
    out_len += 4;
}

static void put_bytes(const void *p, size_t n)
{
    reserve(n);
    memcpy(out + out_len, p, n);
    out_len += n;
}

/* ---- strings ---- */

/* the string being read, as UTF-8 of the code points json.loads makes of it */
static unsigned char *str;
static size_t str_len, str_cap;

static inline void str_byte(unsigned char b)
{
    if (str_len == str_cap) {
        str_cap = str_cap ? 2 * str_cap : 4096;
        str = realloc(str, str_cap);
        if (!str)
            die(EXIT_SYS, "out of memory");
    }
    str[str_len++] = b;
}

/* a code point as UTF-8; a lone surrogate too, as marshal reads its
 * strings with surrogatepass */
static void str_code(uint32_t c)
{
    if (c < 0x80) {
        str_byte((unsigned char)c);
    } else if (c < 0x800) {
        str_byte((unsigned char)(0xc0 | c >> 6));
        str_byte((unsigned char)(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
        str_byte((unsigned char)(0xe0 | c >> 12));
        str_byte((unsigned char)(0x80 | (c >> 6 & 0x3f)));
        str_byte((unsigned char)(0x80 | (c & 0x3f)));
    } else {
        str_byte((unsigned char)(0xf0 | c >> 18));
        str_byte((unsigned char)(0x80 | (c >> 12 & 0x3f)));
        str_byte((unsigned char)(0x80 | (c >> 6 & 0x3f)));
        str_byte((unsigned char)(0x80 | (c & 0x3f)));
    }
}

static uint32_t hex4(void)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int c = next();
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            die(EXIT_BAD, "a bad \\u escape");
    }
    return v;
}

/* the character of the escape \c (not \u) */
static uint32_t escaped(int c)
{
    switch (c) {
    case '"':
    case '\\':
    case '/':
        return (uint32_t)c;
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    default:
        die(EXIT_BAD, "a bad escape");
    }
}

/* after the opening quote; returns whether every code point is ASCII */
static int read_string(void)
{
    int ascii = 1;
    str_len = 0;
    for (;;) {
        int c = next();
        if (c < 0)
            die(EXIT_BAD, "an unterminated string");
        if (c == '"')
            return ascii;
        if (c != '\\') {
            /* a byte of the text is the Latin-1 character of its value */
            ascii &= c < 0x80;
            str_code((uint32_t)c);
            continue;
        }
        c = next();
        uint32_t u = c == 'u' ? hex4() : escaped(c);
        if (c == 'u' && u >= 0xd800 && u <= 0xdbff && peek() == '\\') {
            /* a surrogate pair is one character, as json.loads reads it */
            in_pos++;
            c = next();
            uint32_t lo = c == 'u' ? hex4() : escaped(c);
            if (c == 'u' && lo >= 0xdc00 && lo <= 0xdfff) {
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            } else {
                str_code(u); /* a lone surrogate, then the next escape */
                ascii = 0;
                u = lo;
            }
        }
        ascii &= u < 0x80;
        str_code(u);
    }
}

/* Short ASCII strings seen before, by their bytes: each was written with
 * FLAG_REF and is now referred to by its index in marshal's table. Node ids
 * ("0x55d0...") are nearly all unique and are not kept. */
enum { SHARE_MAX = 64, TABLE_BITS = 15 };
struct shared {
    uint32_t hash, ref, len;
    unsigned char bytes[SHARE_MAX];
};
static struct shared *table;
static uint32_t table_used, refs;

static uint32_t hash_of(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h | 1; /* 0 marks an empty slot */
}

static void write_string(int ascii)
{
    size_t n = str_len;
    if (ascii && n <= SHARE_MAX && !(n > 1 && str[0] == '0' && str[1] == 'x')) {
        uint32_t h = hash_of(str, n), mask = (1u << TABLE_BITS) - 1;
        for (uint32_t i = h & mask;; i = (i + 1) & mask) {
            struct shared *s = &table[i];
            if (s->hash == h && s->len == n && !memcmp(s->bytes, str, n)) {
                put_byte(M_REF);
                put_u32(s->ref);
                return;
            }
            if (s->hash == 0) {
                if (table_used < (3u << TABLE_BITS) / 4) { /* room to probe */
                    s->hash = h;
                    s->len = (uint32_t)n;
                    s->ref = refs++;
                    memcpy(s->bytes, str, n);
                    table_used++;
                    put_byte(M_SHORT_ASCII_INTERNED | FLAG_REF);
                    put_byte((unsigned)n);
                    put_bytes(str, n);
                    return;
                }
                break;
            }
        }
    }
    put_byte(ascii ? M_ASCII : M_UNICODE);
    put_u32((uint32_t)n);
    put_bytes(str, n);
}

/* ---- numbers ---- */

static void write_number(int first)
{
    char text[64];
    size_t n = 0;
    int is_float = 0;
    text[n++] = (char)first;
    for (int c = peek(); c >= 0; c = peek()) {
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
            break;
        is_float |= c == '.' || c == 'e' || c == 'E';
        if (n == sizeof text - 1)
            die(EXIT_BAD, "a number too long");
        text[n++] = (char)c;
        in_pos++;
    }
    text[n] = 0;
    char *end;
    if (is_float) {
        double d = strtod(text, &end);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        put_byte(M_FLOAT);
        for (int i = 0; i < 8; i++)
            put_byte((unsigned)(bits >> (8 * i)) & 0xff);
    } else {
        long long v = strtoll(text, &end, 10);
        if (v >= INT32_MIN && v <= INT32_MAX) {
            put_byte(M_INT);
            put_u32((uint32_t)(int32_t)v);
        } else {
            /* marshal's long: 15-bit digits, least significant first, their
             * count negative for a negative number */
            unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            uint16_t digit[5];
            int k = 0;
            for (; m; m >>= 15)
                digit[k++] = (uint16_t)(m & 0x7fff);
            put_byte(M_LONG);
            put_u32((uint32_t)(v < 0 ? -k : k));
            for (int i = 0; i < k; i++) {
                put_byte(digit[i] & 0xff);
                put_byte(digit[i] >> 8);
            }
        }
    }
    if (*end)
        die(EXIT_BAD, "a bad number");
}

/* ---- values ---- */

static long max_depth;

static void literal(const char *rest, unsigned code)
{
    for (; *rest; rest++)
        expect(*rest);
    put_byte(code);
}

static void value(long depth)
{
    if (depth > max_depth)
        exit(EXIT_DEEP);
    int c = skip_space();
    if (c < 0)
        die(EXIT_BAD, "the input ends early");
    in_pos++;
    switch (c) {
    case '{':
        put_byte(M_DICT);
        if (skip_space() == '}') {
            in_pos++;
        } else {
            for (;;) {
                skip_space();
                expect('"');
                write_string(read_string());
                if (skip_space() != ':')
                    die(EXIT_BAD, "a key without its value");
                in_pos++;
                value(depth + 1);
                c = skip_space();
                in_pos++;
                if (c == '}')
                    break;
                if (c != ',')
                    die(EXIT_BAD, "the input is no JSON");
            }
        }
        put_byte(M_NULL);
        return;
    case '[': {
        put_byte(M_LIST);
        size_t at = out_len;
        put_u32(0);
        uint32_t count = 0;
        if (skip_space() == ']') {
            in_pos++;
            return;
        }
        for (;;) {
            value(depth + 1);
            count++;
            c = skip_space();
            in_pos++;
            if (c == ']')
                break;
            if (c != ',')
                die(EXIT_BAD, "the input is no JSON");
        }
        put_u32_at(at, count);
        return;
    }
    case '"':
        write_string(read_string());
        return;
    case 't':
        literal("rue", M_TRUE);
        return;
    case 'f':
        literal("alse", M_FALSE);
        return;
    case 'n':
        literal("ull", M_NONE);
        return;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            write_number(c);
            return;
        }
        die(EXIT_BAD, "the input is no JSON");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2 || (max_depth = strtol(argv[1], NULL, 10)) <= 0) {
        fprintf(stderr, "usage: tupcc-ast MAX_DEPTH < JSON > MARSHAL\n");
        return EXIT_BAD;
    }
    /* a pipe of 1 MiB where Linux allows: clang blocks and wakes us a
     * sixteenth as often */
#ifdef F_SETPIPE_SZ
    (void)fcntl(0, F_SETPIPE_SZ, 1 << 20);
#endif
    table = calloc((size_t)1 << TABLE_BITS, sizeof *table);
    if (!table)
        die(EXIT_SYS, "out of memory");
    value(1);
    if (skip_space() >= 0)
        die(EXIT_BAD, "text after the JSON");
    for (size_t done = 0; done < out_len;) {
        ssize_t n = write(1, out + done, out_len - done);
        if (n <= 0)
            die(EXIT_SYS, "cannot write the output");
        done += (size_t)n;
    }
    return 0;
}
