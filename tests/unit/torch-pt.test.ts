/**
 * src/core/io/pickle.ts and src/core/io/torch-pt.ts: pickles checked with CPython's pickletools (the disassembly is
 * quoted beside each), tensors torch 1.13 wrote (tests/reference/golden/generations/pt/tensors.pt, values from
 * torch in expected.json, scripts/make-pt-fixtures.py), and hostile inputs made here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS, LimitError, resetLimits, overrideLimits } from '../../src/core/limits.ts';
import { type PickleObject, type PickleValue, unpickle } from '../../src/core/io/pickle.ts';
import { type Tensor, isTensor, readTorchPt, tensorValues } from '../../src/core/io/torch-pt.ts';
import { ParseError } from '../../src/core/io/types.ts';

const DIR = join(__dirname, '../reference/golden/generations/pt');
const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
const ascii = (s: string) => [...new TextEncoder().encode(s)];
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
/** BINUNICODE s */
const str = (s: string) => {
  const b = ascii(s);
  return [0x58, ...u32(b.length), ...b];
};
/** GLOBAL 'module name' */
const glob = (module: string, name: string) => [0x63, ...ascii(`${module}\n${name}\n`)];
/** BININT n */
const int = (n: number) => [0x4a, ...u32(n)];
const tuple = (items: number[][]) => [0x28, ...items.flat(), 0x74];

/** The pickle torch.save writes for one tensor: _rebuild_tensor_v2((storage pid), offset, size, stride, False, OrderedDict()). */
function tensorPickle(cls: string, key: string, numel: number, offset: number, shape: number[], strides: number[]): Uint8Array {
  return Uint8Array.from([
    0x80,
    0x02,
    ...glob('torch._utils', '_rebuild_tensor_v2'),
    0x28,
    ...tuple([str('storage'), glob('torch', cls), str(key), str('cpu'), int(numel)]),
    0x51, // BINPERSID
    ...int(offset),
    ...tuple(shape.map(int)),
    ...tuple(strides.map(int)),
    0x89,
    ...glob('collections', 'OrderedDict'),
    0x29,
    0x52,
    0x74,
    0x52,
    0x2e,
  ]);
}

const pt = (files: Record<string, Uint8Array>): Uint8Array => zipSync(files, { level: 0 });
const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

afterEach(() => resetLimits());

describe('pickle machine', () => {
  it('reads what pickle.dumps(protocol=2) writes', () => {
    // pickle.dumps({'a': [1, (2.5, 'x')], 'b': None, 'c': True, 'big': 2**70, 'neg': -5, 'by': b'\x00\x01',
    //               'i2': 40000, 'i4': -70000}, protocol=2): EMPTY_DICT BINPUT MARK BINUNICODE … EMPTY_LIST … TUPLE2
    // APPENDS … NONE … NEWTRUE … LONG1 … BININT … GLOBAL '_codecs encode' … REDUCE … BININT2 … BININT SETITEMS STOP
    const v = unpickle(
      hex(
        '80027d71002858010000006171015d7102284b0147400400000000000058010000007871038671046558010000006271054e5801000000' +
          '63710688580300000062696771078a0900000000000000004058030000006e656771084afbffffff580200000062797109635f636f6465' +
          '63730a656e636f64650a710a58020000000001710b58060000006c6174696e31710c86710d52710e58020000006932710f4d409c580200' +
          '0000693471104a90eefeff752e',
      ),
      'a.pkl',
    ) as Map<PickleValue, PickleValue>;
    expect(v).toBeInstanceOf(Map);
    expect(v.get('a')).toEqual([1, [2.5, 'x']]);
    expect(v.get('b')).toBe(null);
    expect(v.get('c')).toBe(true);
    expect(v.get('big')).toBe(2n ** 70n);
    expect(v.get('neg')).toBe(-5);
    expect(v.get('by')).toEqual(Uint8Array.from([0, 1]));
    expect(v.get('i2')).toBe(40000);
    expect(v.get('i4')).toBe(-70000);
    expect([...v.keys()]).toEqual(['a', 'b', 'c', 'big', 'neg', 'by', 'i2', 'i4']);
  });

  it('reads protocol 4 (FRAME, SHORT_BINUNICODE, MEMOIZE, STACK_GLOBAL) and keeps a class as an opaque record', () => {
    // pickle.dumps(argparse.Namespace(x=1, name='é'), protocol=4):
    // PROTO 4, FRAME 52, SHORT_BINUNICODE 'argparse', MEMOIZE, SHORT_BINUNICODE 'Namespace', MEMOIZE, STACK_GLOBAL,
    // MEMOIZE, EMPTY_TUPLE, NEWOBJ, MEMOIZE, EMPTY_DICT, MEMOIZE, MARK, … SETITEMS, BUILD, STOP
    const v = unpickle(
      hex('80049534000000000000008c086172677061727365948c094e616d6573706163659493942981947d94288c0178944b018c046e616d65948c02c3a99475622e'),
      'ns.pkl',
    ) as PickleObject;
    expect(v.$class).toBe('argparse.Namespace');
    expect(v.args).toEqual([]);
    expect(v.state).toEqual(
      new Map<PickleValue, PickleValue>([
        ['x', 1],
        ['name', 'é'],
      ]),
    );
  });

  it('never runs a global: os.system through REDUCE is an opaque record', () => {
    // PROTO 2, GLOBAL 'os system', BINUNICODE 'ls', TUPLE1, REDUCE, STOP
    const v = unpickle(Uint8Array.from([0x80, 2, ...glob('os', 'system'), ...str('ls'), 0x85, 0x52, 0x2e]), 'evil.pkl');
    expect(v).toEqual({ $class: 'os.system', args: ['ls'], state: undefined });
  });

  it('keeps the items of a dict or list subclass on its opaque record (a torch_geometric Batch holds such)', () => {
    // pickle.dumps((Store(num_atoms=2) with .tag = 1, Rows([1, 2])), protocol=2), Store(dict) and Rows(list) in module
    // geo: GLOBAL 'geo Store', EMPTY_TUPLE, NEWOBJ, … SETITEM, EMPTY_DICT … BUILD, GLOBAL 'geo Rows', NEWOBJ, MARK, APPENDS
    const v = unpickle(
      hex(
        '80026367656f0a53746f72650a71002981710158090000006e756d5f61746f6d7371024b02737d7103580300000074616771044b01736263676' +
          '56f0a526f77730a710529817106284b014b02658671072e',
      ),
      'subclass.pkl',
    ) as PickleObject[];
    expect(v[0]).toEqual({ $class: 'geo.Store', args: [], state: new Map([['tag', 1]]), items: new Map([['num_atoms', 2]]) });
    expect(v[1]).toEqual({ $class: 'geo.Rows', args: [], state: undefined, list: [1, 2] });
  });

  it('keeps a torch_geometric 2.x Batch, reduced by an instance, as an opaque record', () => {
    // pickle.dumps(Batch()) where Batch.__reduce__ returns (Getter(), (Batch, Data), {'n': 2}), all in module tg:
    // GLOBAL 'tg Getter', EMPTY_TUPLE, NEWOBJ, GLOBAL 'tg Batch', GLOBAL 'tg Data', TUPLE2, REDUCE, EMPTY_DICT … BUILD
    const v = unpickle(
      hex(
        '80026374670a4765747465720a7100298171016374670a42617463680a71026374670a446174610a71038671045271057d710658010000006e71074b0273622e',
      ),
      'batch.pkl',
    );
    expect(v).toEqual({ $class: 'tg.Getter()', args: [{ $global: 'tg.Batch' }, { $global: 'tg.Data' }], state: new Map([['n', 2]]) });
  });

  it('keeps keys from the file off every prototype', () => {
    // {'__proto__': {'polluted': 1}, 'constructor': 2}
    const v = unpickle(
      Uint8Array.from([
        0x80,
        2,
        0x7d,
        0x28,
        ...str('__proto__'),
        0x7d,
        ...str('polluted'),
        0x4b,
        1,
        0x73,
        ...str('constructor'),
        0x4b,
        2,
        0x75,
        0x2e,
      ]),
      'p.pkl',
    ) as Map<PickleValue, PickleValue>;
    expect(v.get('__proto__')).toEqual(new Map([['polluted', 1]]));
    expect(v.get('constructor')).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['INST', [0x80, 2, 0x69, ...ascii('os\nsystem\n'), 0x2e], /the opcode INST at byte 2/],
    ['OBJ', [0x80, 2, 0x28, ...glob('os', 'system'), 0x6f, 0x2e], /the opcode OBJ/],
    ['STRING (protocol 0 text)', [...ascii("cos\nsystem\n(S'ls'\ntR.")], /the opcode STRING at byte 12/],
    ['EXT1', [0x80, 2, 0x82, 1, 0x2e], /the opcode EXT1/],
    ['an unknown byte', [0x80, 2, 0xff, 0x2e], /the opcode byte 0xff/],
  ])('refuses %s with a sentence naming the file and the opcode', (_, bytes, message) => {
    expect(() => unpickle(Uint8Array.from(bytes), 'bad.pkl')).toThrow(ParseError);
    expect(() => unpickle(Uint8Array.from(bytes), 'bad.pkl')).toThrow(message);
    expect(() => unpickle(Uint8Array.from(bytes), 'bad.pkl')).toThrow(/^bad\.pkl /);
  });

  it.each([
    ['a cut-short pickle', [0x80, 2, 0x58, 9, 0, 0, 0, 0x61], /ends inside an opcode/],
    ['no STOP', [0x80, 2, 0x4e], /ends before STOP/],
    ['a GET of nothing stored', [0x80, 2, 0x68, 7, 0x2e], /memo entry 7 was never stored/],
    ['an empty stack', [0x80, 2, 0x30, 0x2e], /stack is empty/],
    ['values left at STOP', [0x80, 2, 0x4e, 0x4e, 0x2e], /STOP leaves values/],
    ['a persistent id outside a .pt', [0x80, 2, 0x4e, 0x51, 0x2e], /persistent id/],
    ['SETITEM on a list', [0x80, 2, 0x5d, 0x4e, 0x4e, 0x73, 0x2e], /not a dict/],
    ['an integer of 300 bytes', [0x80, 2, 0x8b, ...u32(300), ...new Array(300).fill(1), 0x2e], /an integer of 300 bytes/],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => unpickle(Uint8Array.from(bytes), 'bad.pkl')).toThrow(message);
  });

  it('holds the opcodes to LIMITS.pickleOps and strings to LIMITS.tokenChars', () => {
    const many = Uint8Array.from([0x80, 2, 0x5d, ...new Array(100).fill([0x4e, 0x61]).flat(), 0x2e]);
    expect((unpickle(many, 'ok.pkl') as unknown[]).length).toBe(100);
    overrideLimits({ pickleOps: 50 });
    expect(() => unpickle(many, 'many.pkl')).toThrow(LimitError);
    expect(() => unpickle(many, 'many.pkl')).toThrow(/The pickle of many\.pkl is over the limit; the limit is 50 opcodes/);
    resetLimits();
    const long = Uint8Array.from([0x80, 2, ...str('x'.repeat(LIMITS.tokenChars + 1)), 0x2e]);
    expect(() => unpickle(long, 'long.pkl')).toThrow(/long\.pkl: a pickled string has 65,537 bytes; the limit is 65,536 bytes/);
  });
});

describe('PyTorch .pt files', () => {
  const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as {
    tensors: Record<string, { dtype: string; shape: number[]; strides: number[]; offset: number; values: (number | string)[] }>;
  };

  it('reads every dtype and view torch 1.13 wrote, equal to torch (tensors.pt)', () => {
    const v = readTorchPt(readFileSync(join(DIR, 'tensors.pt')), 'tensors.pt') as Map<PickleValue, PickleValue>;
    const tensors = v.get('tensors') as Map<PickleValue, PickleValue>;
    expect([...tensors.keys()].sort()).toEqual(Object.keys(expected.tensors).sort());
    for (const [name, e] of Object.entries(expected.tensors)) {
      const t = tensors.get(name) as Tensor;
      expect(isTensor(t), name).toBe(true);
      expect({ dtype: t.dtype, shape: t.shape, strides: t.strides, offset: t.offset }, name).toEqual({
        dtype: e.dtype,
        shape: e.shape,
        strides: e.strides,
        offset: e.offset,
      });
      if (e.dtype === 'int64') {
        // Exact as BigInt64Array; tensorValues refuses ±2^53 and beyond... which 2**53 itself still is (exactly representable).
        const idx = (k: number) => t.data[t.offset + k * t.strides[0]];
        expect(e.values.map((_, k) => String(idx(k)))).toEqual(e.values);
      } else expect(Array.from(tensorValues(t, name)), name).toEqual(e.values);
    }
    expect(v.get('nested')).toEqual([1, [2, 'three'], new Map([['four', null]])]);
    expect(v.get('big')).toBe(2n ** 70n);
    expect(v.get('neg')).toBe(-(2 ** 40));
  });

  it('reads a non-contiguous view with an offset in row-major order', () => {
    // storage 0..11; view offset 1, shape [2, 3], strides [1, 4]: rows (1, 5, 9), (2, 6, 10)
    const file = pt({
      'x/data.pkl': tensorPickle('FloatStorage', '0', 12, 1, [2, 3], [1, 4]),
      'x/data/0': f32([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
    });
    const t = readTorchPt(file, 'x.pt') as Tensor;
    expect(Array.from(tensorValues(t, 't'))).toEqual([1, 5, 9, 2, 6, 10]);
  });

  it('refuses an int64 beyond 2^53 when turned into numbers', () => {
    const big = new Uint8Array(new BigInt64Array([2n ** 53n + 1n]).buffer);
    const t = readTorchPt(pt({ 'x/data.pkl': tensorPickle('LongStorage', '0', 1, 0, [1], [1]), 'x/data/0': big }), 'x.pt') as Tensor;
    expect(t.data).toBeInstanceOf(BigInt64Array);
    expect(() => tensorValues(t, 'x.pt "num_atoms"')).toThrow(/x\.pt "num_atoms" holds the integer 9007199254740993/);
  });

  it.each([
    [
      'a storage shorter than its element count',
      { 'x/data.pkl': tensorPickle('FloatStorage', '0', 12, 0, [12], [1]), 'x/data/0': f32([1, 2, 3]) },
      /x\.pt is not a readable PyTorch file \(the storage "0" holds 12 bytes, its 12 elements need 48\)/,
    ],
    [
      'a view past its storage',
      { 'x/data.pkl': tensorPickle('FloatStorage', '0', 4, 1, [2, 2], [2, 1]), 'x/data/0': f32([1, 2, 3, 4]) },
      /a tensor of shape \[2, 2\] with strides \[2, 1\] at offset 1 reaches element 4, its storage holds 4/,
    ],
    ['a missing storage', { 'x/data.pkl': tensorPickle('FloatStorage', '7', 1, 0, [1], [1]) }, /the storage "7" has no entry x\/data\/7/],
    [
      'an unknown storage class',
      { 'x/data.pkl': tensorPickle('ComplexFloatStorage', '0', 1, 0, [1], [1]), 'x/data/0': f32([1, 2]) },
      /the storage class "torch\.ComplexFloatStorage"/,
    ],
    ['no data.pkl', { 'x/data/0': f32([1]) }, /x\.pt is not a PyTorch file \(no <name>\/data\.pkl entries\)/],
    [
      'a pickle with an opcode outside the subset',
      { 'x/data.pkl': Uint8Array.from([0x80, 2, 0x69, ...ascii('os\nsystem\n'), 0x2e]) },
      /x\.pt holds a pickle with the opcode INST/,
    ],
  ])('refuses %s with a sentence naming the file', (_, files, message) => {
    expect(() => readTorchPt(pt(files as Record<string, Uint8Array>), 'x.pt')).toThrow(ParseError);
    expect(() => readTorchPt(pt(files as Record<string, Uint8Array>), 'x.pt')).toThrow(message);
  });

  it('refuses a truncated .pt (a real one cut at every tenth of its length)', () => {
    const bytes = readFileSync(join(DIR, 'diffcsp_eval_diff.pt'));
    for (let k = 1; k < 10; k++) {
      const cut = bytes.subarray(0, Math.floor((bytes.length * k) / 10));
      expect(() => readTorchPt(cut, 'eval_diff.pt'), `cut at ${k}/10`).toThrow(/^eval_diff\.pt /);
      expect(() => readTorchPt(cut, 'eval_diff.pt'), `cut at ${k}/10`).toThrow(ParseError);
    }
  });

  it('refuses the legacy (pre-zip) format in a sentence', () => {
    expect(() => readTorchPt(Uint8Array.from([0x80, 2, 0x8a, 0x0a]), 'old.pt')).toThrow(/old\.pt is a legacy PyTorch file/);
  });

  it('keeps a pickled class of a result file as an opaque record (eval_setting)', () => {
    const v = readTorchPt(readFileSync(join(DIR, 'diffcsp_eval_diff.pt')), 'eval_diff.pt') as Map<PickleValue, PickleValue>;
    const setting = v.get('eval_setting') as PickleObject;
    expect(setting.$class).toBe('argparse.Namespace');
    expect((setting.state as Map<PickleValue, PickleValue>).get('num_evals')).toBe(2);
    expect((v.get('input_data_batch') as PickleObject).$class).toBe('torch_geometric.data.batch.DataBatch');
    expect(v.get('time')).toBe(12.5);
  });
});
