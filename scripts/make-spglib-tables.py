#!/usr/bin/env python3
"""Extract spglib v2.0.2's static data tables as JSON for the TypeScript port.

Reads src/spg_database.c, src/hall_symbol.c and src/sitesym_database.c at the tag
v2.0.2 from a git clone of github.com/spglib/spglib (`git show v2.0.2:src/<file>`)
and writes one JSON file per C file into src/core/symmetry/spglib/tables/:

  spg_database.json      spacegroup_types, symmetry_operations, symmetry_operation_index
  hall_symbol.json       M_* matrices, *_VSpU and *_generators tables
  sitesym_database.json  position_wyckoff, position_layer_wyckoff, coordinates_first,
                         multiplicities, site_symmetry_symbols

Each JSON file is an object keyed by the C array's name holding the array verbatim:
same element order, nested arrays for the [][n] dimensions, C string literals as JSON
strings (padding spaces kept), struct initialisers as objects with the C field names,
enum constants (Centering) as their integer values. Constant expressions such as
`-1.0 / 2` are evaluated with C semantics (integer division for two integer operands).
Doubles with an integral value are written as JSON integers.

Also writes tables/README.md and tables/LICENSE-spglib.txt (spglib's COPYING).

Usage: /usr/bin/python3 scripts/make-spglib-tables.py [SPGLIB_REPO] [--tag v2.0.2]
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, 'src', 'core', 'symmetry', 'spglib', 'tables')
TYPES_TS = os.path.join(ROOT, 'src', 'core', 'symmetry', 'spglib', 'types.ts')
DEFAULT_REPO = '/work/.mirror/spglib+spglib/repo'
DEFAULT_TAG = 'v2.0.2'

# spg_database.h SpacegroupType, in declaration order.
SPACEGROUP_TYPE_FIELDS = [
    ('number', 'int'),
    ('schoenflies', 'str'),
    ('hall_symbol', 'str'),
    ('international', 'str'),
    ('international_full', 'str'),
    ('international_short', 'str'),
    ('choice', 'str'),
    ('centering', 'int'),
    ('pointgroup_number', 'int'),
]

FILES = {
    'spg_database.c': {
        'json': 'spg_database.json',
        'skip': {'layer_group_types', 'layer_symmetry_operation_index'},
    },
    'hall_symbol.c': {'json': 'hall_symbol.json', 'skip': set()},
    'sitesym_database.c': {'json': 'sitesym_database.json', 'skip': set()},
}


def git_show(repo, tag, path):
    return subprocess.run(
        ['git', '-C', repo, 'show', f'{tag}:{path}'],
        check=True, capture_output=True, text=True,
    ).stdout


def strip_comments(src):
    """Remove /* */ and // comments, leaving string literals intact."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif c == "'":  # character literal such as '\"'
            j = i + 1
            while src[j] != "'":
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif src.startswith('/*', i):
            j = src.index('*/', i + 2)
            out.append(' ')
            i = j + 2
        elif src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


TOKEN_RE = re.compile(r'''
    \s*(?:
      (?P<str>"(?:[^"\\]|\\.)*")
    | (?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?[fFlLuU]*)
    | (?P<id>[A-Za-z_]\w*)
    | (?P<op>[{}(),+\-*/])
    )''', re.VERBOSE)


def tokenize(text):
    pos, toks = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ValueError(f'cannot tokenize near {text[pos:pos + 40]!r}')
        pos = m.end()
        for kind in ('str', 'num', 'id', 'op'):
            if m.group(kind) is not None:
                toks.append((kind, m.group(kind)))
                break
    return toks


def c_string(lit):
    body = lit[1:-1]
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t', '0': '\0'}.get(m.group(1), m.group(1)), body)


class Parser:
    def __init__(self, toks, enums):
        self.toks, self.i, self.enums = toks, 0, enums

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise ValueError(f'expected {value!r}, got {tok!r} at token {self.i}')
        self.i += 1
        return tok

    def initializer(self):
        if self.peek()[1] == '{':
            self.take('{')
            items = []
            while self.peek()[1] != '}':
                items.append(self.initializer())
                if self.peek()[1] == ',':
                    self.take(',')
                elif self.peek()[1] != '}':
                    raise ValueError(f'expected , or }} got {self.peek()!r}')
            self.take('}')
            return items
        if self.peek()[0] == 'str':
            s = ''
            while self.peek()[0] == 'str':  # adjacent literals concatenate
                s += c_string(self.take()[1])
            return s
        return self.expr()

    # C constant expressions: + - * / and unary minus, ints and doubles.
    def expr(self):
        v = self.term()
        while self.peek()[1] in ('+', '-'):
            op = self.take()[1]
            w = self.term()
            v = v + w if op == '+' else v - w
        return v

    def term(self):
        v = self.unary()
        while self.peek()[1] in ('*', '/'):
            op = self.take()[1]
            w = self.unary()
            if op == '*':
                v = v * w
            elif isinstance(v, int) and isinstance(w, int):
                q = abs(v) // abs(w)
                v = q if (v >= 0) == (w >= 0) else -q  # C truncates toward zero
            else:
                v = v / w
        return v

    def unary(self):
        kind, val = self.peek()
        if val == '-':
            self.take()
            return -self.unary()
        if val == '+':
            self.take()
            return self.unary()
        if val == '(':
            self.take('(')
            v = self.expr()
            self.take(')')
            return v
        self.take()
        if kind == 'num':
            s = val.rstrip('fFlLuU')
            if re.fullmatch(r'\d+', s):
                return int(s)
            return float(s)
        if kind == 'id':
            if val not in self.enums:
                raise ValueError(f'unknown identifier {val!r}')
            return self.enums[val]
        raise ValueError(f'unexpected token {(kind, val)!r}')


DECL_RE = re.compile(
    r'^static\s+(?:const\s+)?(?P<type>\w+)\s+(?P<name>\w+)\s*(?P<dims>(?:\[\s*\d*\s*\])+)\s*=\s*\{',
    re.MULTILINE)


def find_block_end(src, start):
    """Index just past the '}' matching the '{' at src[start]."""
    depth, i = 0, start
    while True:
        c = src[i]
        if c == '"':
            i += 1
            while src[i] != '"':
                i += 2 if src[i] == '\\' else 1
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def check_shape(value, dims, ctype, name):
    """Check the nested lists against the declared dimensions ([] = any length)."""
    if not dims:
        if ctype == 'char':
            raise ValueError(f'{name}: char scalar unexpected')
        return
    d, rest = dims[0], dims[1:]
    if ctype == 'char' and not rest:
        # char x[n] initialised from a string literal (n includes the NUL).
        if not isinstance(value, str) or (d is not None and len(value) > d - 1):
            raise ValueError(f'{name}: bad string {value!r} for char[{d}]')
        return
    if not isinstance(value, list):
        raise ValueError(f'{name}: expected a list for dims {dims}, got {value!r}')
    if d is not None and len(value) != d:
        raise ValueError(f'{name}: {len(value)} elements where [{d}] is declared')
    for v in value:
        check_shape(v, rest, ctype, name)


def normalise_numbers(value, ctype):
    if isinstance(value, list):
        return [normalise_numbers(v, ctype) for v in value]
    if ctype == 'double':
        f = float(value)
        if f == int(f):
            if f == 0 and str(f).startswith('-'):
                raise ValueError('negative zero in a double table')
            return int(f)
        return f
    if ctype == 'int':
        if not isinstance(value, int):
            raise ValueError(f'non-integer {value!r} in an int table')
    return value


def to_struct(entry, ctype, name):
    if ctype != 'SpacegroupType':
        raise ValueError(f'{name}: unknown struct type {ctype}')
    if len(entry) != len(SPACEGROUP_TYPE_FIELDS):
        raise ValueError(f'{name}: struct with {len(entry)} fields: {entry!r}')
    obj = {}
    for (field, kind), v in zip(SPACEGROUP_TYPE_FIELDS, entry):
        if kind == 'str' and not isinstance(v, str):
            raise ValueError(f'{name}.{field}: expected a string, got {v!r}')
        if kind == 'int' and not isinstance(v, int):
            raise ValueError(f'{name}.{field}: expected an int, got {v!r}')
        obj[field] = v
    return obj


def extract_arrays(src, enums, skip):
    src = strip_comments(src)
    arrays = {}
    for m in DECL_RE.finditer(src):
        name, ctype = m.group('name'), m.group('type')
        if name in skip:
            continue
        dims = [int(x) if x.strip() else None for x in re.findall(r'\[\s*(\d*)\s*\]', m.group('dims'))]
        start = m.end() - 1
        end = find_block_end(src, start)
        tail = src[end:end + 20].lstrip()
        if not tail.startswith(';'):
            raise ValueError(f'{name}: initializer not followed by ;')
        parser = Parser(tokenize(src[start:end]), enums)
        value = parser.initializer()
        if parser.i != len(parser.toks):
            raise ValueError(f'{name}: trailing tokens')
        if ctype in ('int', 'double', 'char'):
            check_shape(value, dims, ctype, name)
            value = normalise_numbers(value, ctype) if ctype != 'char' else value
        else:
            if len(dims) != 1:
                raise ValueError(f'{name}: struct arrays must be one-dimensional')
            value = [to_struct(e, ctype, name) for e in value]
        arrays[name] = value
    return arrays


def centering_enum(repo, tag):
    """Centering values from types.ts, checked against spacegroup.h's enum order."""
    ts = open(TYPES_TS).read()
    block = re.search(r'export const Centering = \{(.*?)\}', ts, re.S).group(1)
    ts_vals = {k: int(v) for k, v in re.findall(r'(\w+):\s*(\d+)', block)}
    header = strip_comments(git_show(repo, tag, 'src/spacegroup.h'))
    enum_body = re.search(r'typedef enum\s*\{([^}]*)\}\s*Centering\s*;', header).group(1)
    c_names = [x.strip() for x in enum_body.split(',') if x.strip()]
    c_vals = {n: i for i, n in enumerate(c_names)}
    if c_vals != ts_vals:
        raise SystemExit(f'Centering in types.ts {ts_vals} differs from spacegroup.h {c_vals}')
    return ts_vals


def check_tables(out):
    spg = out['spg_database.json']
    types = spg['spacegroup_types']
    assert len(types) == 531, len(types)
    assert len(spg['symmetry_operation_index']) == 531
    assert types[0]['number'] == 0 and types[530]['number'] == 230
    assert [t['number'] for t in types[1:]] == sorted(t['number'] for t in types[1:])
    assert set(t['number'] for t in types[1:]) == set(range(1, 231))
    # Operations of consecutive Hall numbers are stored back to back.
    idx = spg['symmetry_operation_index']
    for h in range(1, 530):
        assert idx[h][1] + idx[h][0] == idx[h + 1][1], h
    assert idx[530][0] + idx[530][1] <= len(spg['symmetry_operations'])
    sites = out['sitesym_database.json']
    assert len(sites['position_wyckoff']) == 532, len(sites['position_wyckoff'])
    assert sites['position_wyckoff'][-1] == sites['position_layer_wyckoff'][1]
    assert len(sites['coordinates_first']) == len(sites['multiplicities']) == len(sites['site_symmetry_symbols'])
    hall = out['hall_symbol.json']
    for name, v in hall.items():
        if name.endswith('_VSpU'):
            base = name[:-len('_VSpU')]
            if base + '_generators' not in hall:  # monocli_A_VSpU -> monocli_generators
                base = base.rsplit('_', 1)[0]
            gens = hall[base + '_generators']
            # *_VSpU and *_generators run over the same Hall numbers of a crystal system.
            assert len(v) == len(gens), (name, len(v), len(gens))


README = """# spglib v2.0.2 data tables

Static data arrays of [spglib](https://github.com/spglib/spglib) v2.0.2 (BSD-3-Clause, see
`LICENSE-spglib.txt`), extracted verbatim from the C sources for the TypeScript port in the
parent folder. Generated; do not edit by hand.

| File | Source | Arrays |
| --- | --- | --- |
{rows}

Each file is a JSON object keyed by the C static array's name. Arrays keep the C element order
(including the index-0 dummy entries); `[][n]` dimensions become nested arrays; C string literals
are JSON strings with their padding spaces kept (`spgdb_get_spacegroup_type` strips them, and in
`spacegroup_types[].hall_symbol` `=` stands for `"`); `SpacegroupType` initialisers are objects
with the C field names; `Centering` enum constants are their integer values (as in `types.ts`).
Double constants such as `-1.0 / 3` are evaluated; integral doubles are written as integers.
Omitted from `spg_database.c`: `layer_group_types` and `layer_symmetry_operation_index` (layer
groups are not ported). `symmetry_operations` is kept whole, so it still ends with the layer-group
operations after the 3D ones.

Source: `git show {tag}:src/<file>` in a clone of https://github.com/spglib/spglib.

Regenerate with:

```sh
/usr/bin/python3 scripts/make-spglib-tables.py [/path/to/spglib/clone]
```
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo', nargs='?', default=DEFAULT_REPO, help='path to a git clone of spglib')
    ap.add_argument('--tag', default=DEFAULT_TAG)
    args = ap.parse_args()

    enums = centering_enum(args.repo, args.tag)
    os.makedirs(OUT_DIR, exist_ok=True)
    out, rows = {}, []
    for cfile, spec in FILES.items():
        arrays = extract_arrays(git_show(args.repo, args.tag, f'src/{cfile}'), enums, spec['skip'])
        out[spec['json']] = arrays
        rows.append(f"| `{spec['json']}` | `src/{cfile}` | {', '.join('`' + k + '`' for k in arrays)} |")
    check_tables(out)
    for fname, arrays in out.items():
        with open(os.path.join(OUT_DIR, fname), 'w') as f:
            json.dump(arrays, f, separators=(',', ':'), ensure_ascii=True)
            f.write('\n')
        sizes = ', '.join(f'{k}[{len(v)}]' for k, v in arrays.items())
        print(f'{fname}: {sizes}', file=sys.stderr)
    with open(os.path.join(OUT_DIR, 'README.md'), 'w') as f:
        f.write(README.replace('{rows}', '\n'.join(rows)).replace('{tag}', args.tag))
    with open(os.path.join(OUT_DIR, 'LICENSE-spglib.txt'), 'w') as f:
        f.write(git_show(args.repo, args.tag, 'COPYING'))


if __name__ == '__main__':
    main()
