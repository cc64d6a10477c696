/**
 * spglib's symmetry dataset (spglib/spglib src/spglib.c, src/refinement.c; through pymatgen
 * symmetry/analyzer.py, materialsproject/pymatgen v2022.11.7) computed with moyo, corrected where moyo's
 * standardized cells differ from spglib's: the conventional lattice is idealized from the point-group
 * symmetrized metric, monoclinic cells are reduced in the plane normal to b, and the primitive cell is
 * spglib's fixed centring matrix times the conventional cell. (The Niggli lattice is structure/niggli.ts's.)
 * This repository's docs/crystallography.md states the conventions.
 */
import type { MoyoCell } from '@spglib/moyo-wasm';
import { type Mat3, type Vec3, det, dot, inverse, matMul, vecMat, wrapFrac } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, fracOf } from '../structure/structure.ts';
import { runMoyo, spaceGroupSymbol } from './analyze.ts';
import { moyo } from './moyo.ts';
import { operationsFromHallNumber } from './spacegroups.ts';
import { type SymOp, normalizeOp } from './symop.ts';
import { acos } from '../math/libm.ts';
import { angleFromCosine } from '../math/measure.ts';

export interface SymmetrySite {
  species: SpeciesMap;
  frac: Vec3;
  wyckoff: string;
  /** Index of the first site of the same orbit (spglib's equivalent_atoms). */
  orbit: number;
  siteSymmetry: string;
}

export interface SymmetryDataset {
  number: number;
  international: string;
  hallNumber: number;
  hall: string;
  pointGroup: string;
  crystalSystem: string;
  /** Every operation of the input cell, x' = R·x + t (fractional, R row-major), t in [0, 1). */
  operations: SymOp[];
  sites: SymmetrySite[];
  stdCell: Structure;
  primStdCell: Structure;
  /** spglib's (P, p): x_std = P·x + p. */
  transformationMatrix: Mat3;
  originShift: Vec3;
}

/** pymatgen `SpacegroupAnalyzer.get_crystal_system` from the space-group number. */
export function crystalSystemOf(n: number): string {
  if (n <= 2) return 'triclinic';
  if (n <= 15) return 'monoclinic';
  if (n <= 74) return 'orthorhombic';
  if (n <= 142) return 'tetragonal';
  if (n <= 167) return 'trigonal';
  if (n <= 194) return 'hexagonal';
  return 'cubic';
}

const transpose = (m: Mat3): Mat3 => [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]) as Mat3;
const rows = (b: readonly number[]): Mat3 => [
  [b[0], b[1], b[2]],
  [b[3], b[4], b[5]],
  [b[6], b[7], b[8]],
];
const roundMat = (m: Mat3): Mat3 => m.map((r) => r.map((x) => Math.round(x) + 0)) as Mat3;

/** Operation (R, t) in a basis whose fractional coordinates are x_new = Q · x_old. */
function conjugate(op: SymOp, q: Mat3, qInv: Mat3, integer = true): SymOp {
  const rot = matMul(matMul(q, op.rot), qInv);
  const t = vecMat(op.trans, transpose(q));
  return normalizeOp({ rot: integer ? roundMat(rot) : rot, trans: t });
}

const fixed = (ms: number[][]): Mat3 => ms as Mat3;
/** spglib's primitive basis rows = M · conventional rows, per centring (spglib src/spacegroup.c). */
const CENTRING_TO_PRIMITIVE: Record<string, Mat3> = {
  A: fixed([
    [1, 0, 0],
    [0, 0.5, 0.5],
    [0, -0.5, 0.5],
  ]),
  C: fixed([
    [0.5, -0.5, 0],
    [0.5, 0.5, 0],
    [0, 0, 1],
  ]),
  I: fixed([
    [-0.5, 0.5, 0.5],
    [0.5, -0.5, 0.5],
    [0.5, 0.5, -0.5],
  ]),
  F: fixed([
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0],
  ]),
  R: fixed([
    [2 / 3, 1 / 3, 1 / 3],
    [-1 / 3, 1 / 3, 1 / 3],
    [-1 / 3, -2 / 3, 1 / 3],
  ]),
};

/**
 * Hall symbols where spglib 2.0 (src/spg_database.c; '=' printed as '"') spells the default setting of a
 * group differently from moyo; same operations.
 */
const SPGLIB_HALL_SYMBOLS: Record<number, string> = {
  440: 'P 31 2c (0 0 1)',
  442: 'P 32 2c (0 0 -1)',
  472: 'P 61 2 (0 0 -1)',
  474: 'P 62 2c (0 0 1)',
  475: 'P 64 2c (0 0 -1)',
};

interface Cell {
  matrix: Mat3;
  frac: Vec3[];
  species: SpeciesMap[];
}

/** Cell with rows new = C · old (C integer, det 1): positions x_new = C⁻ᵀ x_old, wrapped. */
function changeBasis(cell: Cell, c: Mat3): Cell {
  const cInvT = inverse(c);
  return {
    matrix: matMul(c, cell.matrix),
    frac: cell.frac.map((f) => vecMat(f, cInvT).map((x) => wrapFrac(x)) as Vec3),
    species: cell.species,
  };
}

/** The origin shift s (x_new = x + s, on a 1/8 grid) that turns `ops` into `target`, or null. */
function originShiftOnto(ops: SymOp[], target: SymOp[]): Vec3 | null {
  if (ops.length !== target.length) return null;
  const sameRot = (a: SymOp, b: SymOp) => a.rot.every((r, i) => r.every((v, j) => v === b.rot[i][j]));
  const partners = ops.map((o) => target.filter((t) => sameRot(o, t)));
  if (partners.some((p) => p.length === 0)) return null;
  for (let i = 0; i < 512; i++) {
    const sh: Vec3 = [(i & 7) / 8, ((i >> 3) & 7) / 8, ((i >> 6) & 7) / 8];
    const ok = ops.every((o, k) => {
      const rs = matVec3(o.rot, sh);
      return partners[k].some((t) =>
        [0, 1, 2].every((x) => {
          const d = o.trans[x] + sh[x] - rs[x] - t.trans[x];
          return Math.abs(d - Math.round(d)) < 1e-6;
        }),
      );
    });
    if (ok) return sh;
  }
  return null;
}

const matVec3 = (m: Mat3, v: Vec3): Vec3 => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];

/**
 * spglib's monoclinic cell: among the bases of the plane normal to b (and origins) that keep the Hall
 * setting's operations (centring and glide included), the one with the shortest a + c, then β closest to
 * 90° from above (moyo may return β = 166°; spglib src/refinement.c, and this repository's docs/crystallography.md).
 */
function reduceMonoclinic(cell: Cell, hallOps: SymOp[]): { c: Mat3; shift: Vec3 } | null {
  const len = (v: Vec3) => Math.sqrt(dot(v, v));
  const candidates: { c: Mat3; score: number; beta: number }[] = [];
  const R = 3;
  for (let p = -R; p <= R; p++)
    for (let q = -R; q <= R; q++)
      for (let r = -R; r <= R; r++)
        for (let s = -R; s <= R; s++)
          for (const sb of [1, -1]) {
            const c: Mat3 = [
              [p, 0, q],
              [0, sb, 0],
              [r, 0, s],
            ];
            if (det(c) !== 1) continue;
            const m = matMul(c, cell.matrix);
            const la = len(m[0]),
              lc = len(m[2]);
            candidates.push({ c, score: la + lc, beta: (acos(dot(m[0], m[2]) / (la * lc)) * 180) / Math.PI });
          }
  const betaKey = (b: number) => (b >= 90 - 1e-9 ? b - 90 : 1000 + 90 - b);
  candidates.sort((x, y) => (Math.abs(x.score - y.score) > 1e-6 ? x.score - y.score : betaKey(x.beta) - betaKey(y.beta)));
  for (const { c } of candidates) {
    // Rows new = C · old ⇒ x_new = C⁻ᵀ x_old: operations conjugate by Q = C⁻ᵀ.
    const ops = hallOps.map((o) => conjugate(o, transpose(inverse(c)), transpose(c)));
    const shift = originShiftOnto(ops, hallOps);
    if (shift) return { c, shift };
  }
  return null;
}

/**
 * Idealized lattice: the metric averaged over the point group (Rᵀ G R, R on fractional columns), rebuilt
 * from its parameters (refinement.c `ref_get_conventional_lattice`: exact 90°/120°, a = b where required).
 */
function idealize(matrix: Mat3, hallOps: SymOp[]): Mat3 {
  const g = matMul(matrix, transpose(matrix));
  const sum: number[][] = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const seen = new Set<string>();
  for (const op of hallOps) {
    const key = op.rot.flat().join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const rg = matMul(matMul(transpose(op.rot), g), op.rot);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) sum[i][j] += rg[i][j];
  }
  const G = sum.map((r) => r.map((x) => x / seen.size));
  const [a, b, c] = [Math.sqrt(G[0][0]), Math.sqrt(G[1][1]), Math.sqrt(G[2][2])];
  const [alpha, beta, gamma] = [G[1][2] / (b * c), G[0][2] / (a * c), G[0][1] / (a * b)].map((cosine) => angleFromCosine(cosine));
  const ideal = Lattice.fromParameters(a, b, c, alpha, beta, gamma).matrix;
  // Keep the handedness of the input basis.
  return det(matrix) < 0 ? (ideal.map((r) => r.map((x) => -x)) as Mat3) : ideal;
}

function structureOf(cell: Cell, name: string): Structure {
  const lattice = new Lattice(cell.matrix);
  const sites: Site[] = cell.frac.map((f, k) => ({ species: { ...cell.species[k] }, frac: f, xyz: lattice.fracToCart(f) }));
  return { name, lattice, sites };
}

/** Primitive cell = M · conventional rows; positions mapped and de-duplicated within 1e-5 (fractional). */
function primitiveOf(conv: Cell, centring: string, reduceTo: number): Cell {
  const m = CENTRING_TO_PRIMITIVE[centring];
  if (!m) return conv;
  const matrix = matMul(m, conv.matrix);
  const toPrim = inverse(m); // x_prim = M⁻ᵀ x_conv, i.e. row vector x_conv · M⁻¹
  const frac: Vec3[] = [];
  const species: SpeciesMap[] = [];
  conv.frac.forEach((f, k) => {
    const p = vecMat(f, toPrim).map((x) => wrapFrac(x)) as Vec3;
    const dup = frac.some((q) => {
      for (let i = 0; i < 3; i++) {
        const d = q[i] - p[i];
        if (Math.abs(d - Math.round(d)) > 1e-4) return false;
      }
      return true;
    });
    if (!dup) {
      frac.push(p);
      species.push(conv.species[k]);
    }
  });
  if (frac.length !== reduceTo) throw new Error(`primitive cell has ${frac.length} sites, expected ${reduceTo}`);
  return { matrix, frac, species };
}

/** The dataset of `s` at `symprec` (Å); null when the search fails (finite, too large, overlapping atoms). */
export function symmetryDataset(s: Structure, symprec = 0.01): SymmetryDataset | null {
  const run = runMoyo(s, symprec);
  if (!run || !s.lattice) return null;
  const d = run.dataset;
  const lattice = s.lattice;
  const n = s.sites.length;
  const inputFrac = s.sites.map((site) => fracOf(site, lattice).map((x) => wrapFrac(x)) as Vec3);
  // moyo-wasm flattens rotations column by column (see spacegroups.ts operationsFromHallNumber).
  let operations: SymOp[] = d.operations.map((o) =>
    normalizeOp({ rot: transpose(rows(o.rotation)), trans: [o.translation[0], o.translation[1], o.translation[2]] }),
  );
  let wyckoffs = d.wyckoffs;
  let siteSymmetry = d.site_symmetry_symbols;
  let orbits = d.orbits;
  const r = run.reduction;
  if (r) {
    // moyo saw the primitive cell: operations back to the input basis (x_p = Q x_in) times the pure translations.
    const q = transpose(matMul(lattice.matrix, inverse(r.matrix)));
    const qInv = inverse(q);
    const anchor = r.siteMap[0];
    const translations: Vec3[] = [];
    for (let k = 0; k < n; k++) {
      if (r.siteMap[k] !== anchor) continue;
      translations.push([0, 1, 2].map((i) => wrapFrac(inputFrac[k][i] - inputFrac[0][i])) as Vec3);
    }
    const primOps = operations.map((o) => conjugate(o, qInv, q));
    operations = [];
    for (const t of translations)
      for (const o of primOps) operations.push(normalizeOp({ rot: o.rot, trans: [0, 1, 2].map((i) => o.trans[i] + t[i]) as Vec3 }));
    const firstInput = new Map<number, number>();
    for (let i = r.siteMap.length - 1; i >= 0; i--) firstInput.set(d.orbits[r.siteMap[i]], i);
    wyckoffs = Array.from(r.siteMap, (p) => d.wyckoffs[p]);
    siteSymmetry = Array.from(r.siteMap, (p) => d.site_symmetry_symbols[p]);
    orbits = Array.from(r.siteMap, (p) => firstInput.get(d.orbits[p])!);
  }
  const hallEntry = moyo().hall_symbol_entry(d.hall_number);
  const hall = SPGLIB_HALL_SYMBOLS[d.hall_number] ?? hallEntry.hall_symbol.replace(/=/g, '"');
  const hallOps = operationsFromHallNumber(d.hall_number);
  const { symbol } = spaceGroupSymbol(d.number);

  const moyoCell = (c: MoyoCell): Cell => ({
    matrix: rows(c.lattice.basis),
    frac: c.positions.map((p) => [wrapFrac(p[0]), wrapFrac(p[1]), wrapFrac(p[2])] as Vec3),
    species: c.numbers.map((t) => run.speciesOfType[t - 1]),
  });
  let std = moyoCell(d.std_cell);
  // moyo's (P, p): x_std = P x + p; rows L_std = P⁻ᵀ L (spglib's transformation_matrix convention).
  let p = transpose(matMul(lattice.matrix, inverse(std.matrix)));
  let origin: Vec3 = [d.std_origin_shift[0], d.std_origin_shift[1], d.std_origin_shift[2]];
  if (d.number >= 3 && d.number <= 15) {
    const found = reduceMonoclinic(std, hallOps);
    if (found) {
      const { c, shift } = found;
      std = changeBasis(std, c);
      std = { ...std, frac: std.frac.map((f) => [0, 1, 2].map((i) => wrapFrac(f[i] + shift[i])) as Vec3) };
      const cInvT = transpose(inverse(c));
      p = matMul(cInvT, p);
      origin = vecMat(origin, transpose(cInvT)).map((x, i) => x + shift[i]) as Vec3;
    }
  }
  std = { ...std, matrix: idealize(std.matrix, hallOps) };
  const centring = hallEntry.centering;
  const m = CENTRING_TO_PRIMITIVE[centring];
  const nPrim = m ? Math.round(std.frac.length * Math.abs(det(m))) : std.frac.length;
  const prim = primitiveOf(std, centring, nPrim);

  return {
    number: d.number,
    international: symbol,
    hallNumber: d.hall_number,
    hall,
    pointGroup: moyo().space_group_type(d.number).geometric_crystal_class,
    crystalSystem: crystalSystemOf(d.number),
    operations,
    sites: s.sites.map((site, k) => ({
      species: site.species,
      frac: inputFrac[k],
      wyckoff: wyckoffs[k],
      orbit: orbits[k],
      siteSymmetry: siteSymmetry[k],
    })),
    stdCell: structureOf(std, `${s.name} (conventional standard)`),
    primStdCell: structureOf(prim, `${s.name} (primitive standard)`),
    transformationMatrix: p,
    originShift: origin.map((x) => wrapFrac(x)) as Vec3,
  };
}
