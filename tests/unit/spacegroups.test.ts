/**
 * Declared-symmetry lookup. References: moyo's own operation tables for all 530 Hall entries,
 * gemmi's interpretation of every H-M / Hall symbol in the corpus goldens, and brute-force
 * origin shifts for Hall symbols outside the table.
 */
import { describe, expect, it } from 'vitest';
import { moyo } from '../../src/core/symmetry/moyo.ts';
import {
  defaultHallNumber,
  hallEntries,
  lookupHM,
  lookupHall,
  normalizeHM,
  operationsFromHall,
  operationsFromHallNumber,
  operationsFromITNumber,
} from '../../src/core/symmetry/spacegroups.ts';
import { type SymOp, applyOp, isGroup, normalizeOp, opKey, parseSymop } from '../../src/core/symmetry/symop.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

const keySet = (ops: SymOp[]): Set<string> => new Set(ops.map((o) => opKey(normalizeOp(o))));
const sameSet = (a: SymOp[], b: SymOp[]): boolean => {
  const ka = keySet(a),
    kb = keySet(b);
  return ka.size === kb.size && [...ka].every((k) => kb.has(k));
};

/** moyo's operations read independently of operationsFromHallNumber (rotation flattened column by column). */
function moyoOps(hall: number): SymOp[] {
  const e = moyo().hall_symbol_entry(hall);
  return moyo()
    .operations_from_number(e.number, { type: 'HallNumber', value: hall }, false)
    .map((o) => ({
      rot: [0, 1, 2].map((i) => [0, 1, 2].map((j) => o.rotation[j * 3 + i])) as SymOp['rot'],
      trans: [o.translation[0], o.translation[1], o.translation[2]],
    }));
}

describe('Hall symbols', () => {
  it("parses all 530 tabulated Hall symbols to exactly moyo's operations", () => {
    const mismatches: string[] = [];
    for (let h = 1; h <= 530; h++) {
      const e = moyo().hall_symbol_entry(h);
      const ref = moyoOps(h);
      expect(isGroup(ref)).toBe(true);
      const ours = operationsFromHall(e.hall_symbol);
      if (!sameSet(ours, ref)) mismatches.push(`${h} ${e.hall_symbol}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('reads spacing/underscore/case variants and the table lookup', () => {
    expect(lookupHall('-P_2ybc')).toBe(81);
    expect(lookupHall('-p 2YBC')).toBe(81);
    expect(lookupHall('-P2ybc')).toBe(81);
    expect(lookupHall('-R 3 2"c')).toBe(460);
    expect(lookupHall('P 31 2 (0 0 4)')).toBe(440);
    expect(lookupHall('P 2 2 2 (x,y,z+1/8)')).toBeNull();
  });

  it('applies a change of basis outside the table as an origin shift (brute force)', () => {
    // (x, y, z+1/4) shifts the origin: every operation S becomes T S T⁻¹ with T: p → p + (0,0,1/4).
    const base = operationsFromHall('-P 2ybc');
    const shifted = operationsFromHall('-P 2ybc (x,y,z+1/4)');
    expect(shifted).toHaveLength(base.length);
    const s = [0, 0, 0.25];
    const keys = keySet(shifted);
    for (const op of base) {
      // Build T S T⁻¹ numerically from images of points.
      const f = (p: number[]) => applyOp(op, [p[0] - s[0], p[1] - s[1], p[2] - s[2]]).map((x, i) => x + s[i]);
      const o = f([0, 0, 0]);
      const cols = [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ].map((e) => f(e).map((x, i) => Math.round(x - o[i])));
      const conj: SymOp = { rot: [0, 1, 2].map((i) => cols.map((c) => c[i])) as SymOp['rot'], trans: o as SymOp['trans'] };
      expect(keys.has(opKey(normalizeOp(conj)))).toBe(true);
    }
    // Old-style twelfths: (0 0 3) is the same shift.
    expect(sameSet(operationsFromHall('-P 2ybc (0 0 3)'), shifted)).toBe(true);
  });

  it('builds centred triclinic cells not in the table', () => {
    const ops = operationsFromHall('-A 1');
    expect(ops).toHaveLength(4);
    expect(keySet(ops).has(opKey(normalizeOp(parseSymop('-x,-y+1/2,-z+1/2'))))).toBe(true);
  });

  it('refuses malformed Hall symbols', () => {
    expect(() => operationsFromHall('Q 2')).toThrow();
    expect(() => operationsFromHall('P 7')).toThrow();
    expect(() => operationsFromHall('P 2 3x')).toThrow();
  });
});

describe('Hermann–Mauguin symbols', () => {
  const hmFull = (h: number) => hallEntries()[h - 1].hmFull;
  it.each([
    ['P 21/c', 81],
    ['P 1 21/c 1', 81],
    ['P2_1/c', 81],
    ['P121/c1', 81],
    ['P 21/n', 82],
    ['P 1 21/n 1', 82],
    ['C 2/c', 90],
    ['I 2/c 1 1', 104],
    ['I 1 2/a 1', 92],
    ['P m', 18],
    ['Pm', 18],
    ['F d -3 m', 525],
    ['Fd-3m', 525],
    ['F d -3 m :1', 525],
    ['Fd-3m:2', 526],
    ['F d -3 m S', 525],
    ['Fd-3mZ', 526],
    ['R -3 m', 458],
    ['R -3 m :H', 458],
    ['R -3 m :R', 459],
    ['R3:H', 433],
    ['R 3 :R', 434],
    ['P 4/n b m :2', 403],
    ['P 42/n :2', 362],
    ['I 41/a c d', 428],
    ['I 41/a m d :2', 427],
    ['P c a b', 291],
    ['P b c a', 290],
    ['B b m m', 302],
    ['A m m 2', 185],
    ['Amm2', 185],
    ['C 2/c :b1', 90],
    ['C 1 2/c 1 :b1', 90],
    ['C 2/c:-b2', 94],
    ['P 21/c :c1', 84],
    ['C m c m :ba-c', 299],
    ['P 31 1 2', 440],
    ['P 63/m m c', 488],
    ['P m -3 m', 517],
    ['P m 3 m', 517],
    ['F m 3 m', 523],
    ['I a 3 d', 530],
    ['C m c a', 304],
    ['C m c e', 304],
  ])('%s', (symbol, hall) => {
    const hit = lookupHM(symbol as string);
    expect(hit, `${symbol}`).not.toBeNull();
    expect(hit!.hallNumber, `${symbol} → ${hit && hit.hallNumber && hmFull(hit.hallNumber)}`).toBe(hall);
  });

  it('normalises spaces, underscores and subscripts', () => {
    expect(normalizeHM('P 1 2_1/c 1')).toBe('P121/c1');
    expect(normalizeHM("'P 21/c'")).toBe('P21/c');
    expect(normalizeHM('P 2_{1}/c')).toBe('P21/c');
  });

  it('returns null for symbols that are not space groups', () => {
    expect(lookupHM('X4bm')).toBeNull();
    expect(lookupHM('P 7')).toBeNull();
    expect(lookupHM('')).toBeNull();
  });
});

describe('International Tables numbers', () => {
  it('uses the first (spglib) setting of each number', () => {
    for (let n = 1; n <= 230; n++) {
      const h = defaultHallNumber(n)!;
      expect(hallEntries()[h - 1].number).toBe(n);
      expect(hallEntries().filter((e) => e.number === n && e.hallNumber < h)).toHaveLength(0);
    }
    expect(defaultHallNumber(0)).toBeNull();
    expect(defaultHallNumber(231)).toBeNull();
    expect(operationsFromITNumber(14)).toHaveLength(4);
    expect(operationsFromITNumber(225)).toHaveLength(192);
    expect(sameSet(operationsFromITNumber(227), moyoOps(525))).toBe(true);
  });
});

describe('corpus declared symbols (reference: gemmi in the goldens)', () => {
  const rows: { file: string; block: any }[] = [];
  for (const f of corpusFileNames().filter((n) => n.endsWith('.cif'))) {
    for (const b of readCorpusGolden(f).declared_symmetry?.blocks ?? []) rows.push({ file: f, block: b });
  }

  it('maps every H-M symbol gemmi recognised to the same group and setting', () => {
    let n = 0;
    for (const { file, block } of rows) {
      if (!block.hm || !block.sg_from_hm) continue;
      const hit = lookupHM(block.hm);
      expect(hit, `${file} ${block.hm}`).not.toBeNull();
      expect(hit!.number, `${file} ${block.hm}`).toBe(block.sg_from_hm.number);
      // Centred settings outside moyo's table (e.g. 'A -1') come back as a Hall symbol only.
      const ops = hit!.hallNumber !== null ? operationsFromHallNumber(hit!.hallNumber) : operationsFromHall(hit!.hallSymbol);
      // Same setting: identical operations to gemmi's Hall symbol, parsed by our Hall parser
      // (itself checked against moyo for all 530 entries above).
      expect(sameSet(ops, operationsFromHall(block.sg_from_hm.hall)), `${file} ${block.hm}`).toBe(true);
      n++;
    }
    expect(n).toBeGreaterThan(60);
  });

  it('maps every Hall symbol gemmi recognised to the same operations', () => {
    let n = 0;
    for (const { file, block } of rows) {
      if (!block.hall || !block.sg_from_hall) continue;
      const ours = operationsFromHall(block.hall);
      const h = lookupHall(block.sg_from_hall.hall);
      expect(h, `${file} ${block.sg_from_hall.hall}`).not.toBeNull();
      expect(sameSet(ours, moyoOps(h!)), `${file} ${block.hall}`).toBe(true);
      expect(hallEntries()[h! - 1].number).toBe(block.sg_from_hall.number);
      n++;
    }
    expect(n).toBeGreaterThan(30);
  });

  it('finds the symops group gemmi found, where the listed operations are a tabulated setting', () => {
    let n = 0;
    for (const { file, block } of rows) {
      if (!block.sg_from_symops || !block.symops_raw) continue;
      const ops = block.symops_raw.map((r: string) => parseSymop(r));
      const h = lookupHall(block.sg_from_symops.hall);
      // Settings outside moyo's 530 (e.g. '-A 1') are checked with our Hall parser.
      const ref = h !== null ? moyoOps(h) : operationsFromHall(block.sg_from_symops.hall);
      expect(sameSet(ops, ref), `${file} ${block.sg_from_symops.hall}`).toBe(true);
      n++;
    }
    expect(n).toBeGreaterThan(50);
  });
});
