/**
 * Geometry for the AtomWorld page, DOM-free: structures in ASE's Cartesian frame (a ∥ x, b in the
 * xy-plane — the frame every AtomWorld parameter uses), and the target/answer overlay: each target atom
 * joined to the answer atom the matcher assigned to it, after the mean translation is removed (as
 * pymatgen's get_rms_dist does), with missing and extra atoms.
 */
import { type Mat3, type Vec3, det, dot, inverse, matMul, norm, vecMat } from '../../../math/mat3.ts';
import { minimumCostAssignment } from '../../../match/assignment.ts';
import { niggliReducedLattice } from '../../../structure/niggli.ts';
import { Lattice } from '../../../structure/lattice.ts';
import { type Structure, fracOf, majorSpecies, makeSiteFromFrac } from '../../../structure/structure.ts';
import { aseCellFromParameters, aseWrap3 } from '../ase-frame.ts';
import { angleFromCosine } from '../../../math/measure.ts';

export interface AseFrame {
  cell: Mat3;
  symbols: string[];
  /** Wrapped into [0, 1). */
  frac: Vec3[];
  cart: Vec3[];
}

/** A periodic structure re-expressed in ASE's frame from its cell parameters (fractions unchanged, wrapped). */
export function aseFrameOf(s: Structure): AseFrame {
  if (!s.lattice) throw new Error(`${s.name || 'the structure'} has no unit cell; AtomWorld compares periodic structures`);
  const lattice = s.lattice;
  const cell = aseCellFromParameters(lattice.parameters);
  const frac = s.sites.map((site) => aseWrap3(fracOf(site, lattice)));
  return { cell, symbols: s.sites.map(majorSpecies), frac, cart: frac.map((f) => vecMat(f, cell)) };
}

/** The structure rebuilt in ASE's frame (for drawing beside action traces, which use that frame). */
export function inAseFrame(s: Structure): Structure {
  const f = aseFrameOf(s);
  const lattice = new Lattice(f.cell);
  return {
    name: s.name,
    lattice,
    sites: s.sites.map((site, i) => makeSiteFromFrac(lattice, f.frac[i], site.species, { label: site.label })),
  };
}

const wrapHalf = (x: number): number => x - Math.round(x);

/** The fractional vector from `from` to `to` (or a periodic image of it) that is shortest in Cartesian length. */
function shortestFractional(from: Vec3, to: Vec3, cell: Mat3): Vec3 {
  const d = [0, 1, 2].map((k) => wrapHalf(to[k] - from[k])) as Vec3;
  let best = d,
    bestLength = Infinity;
  for (let i = -1; i <= 1; i++)
    for (let j = -1; j <= 1; j++)
      for (let k = -1; k <= 1; k++) {
        const v: Vec3 = [d[0] + i, d[1] + j, d[2] + k];
        const length = norm(vecMat(v, cell));
        if (length < bestLength) {
          best = v;
          bestLength = length;
        }
      }
  return best;
}

const rowLength = (m: Mat3, i: number) => norm(m[i]);
const rowAngle = (m: Mat3, i: number, j: number) => angleFromCosine(dot(m[i], m[j]) / (norm(m[i]) * norm(m[j])));

/** Unimodular matrices with entries −1…1 (identity first), built once. */
let unimodular: Mat3[] | null = null;
function unimodularMatrices(): Mat3[] {
  if (unimodular) return unimodular;
  const out: Mat3[] = [
    [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
  ];
  const v = [-1, 0, 1];
  for (let code = 0; code < 19683; code++) {
    const e: number[] = [];
    for (let k = 0, c = code; k < 9; k++, c = Math.floor(c / 3)) e.push(v[c % 3]);
    const m: Mat3 = [
      [e[0], e[1], e[2]],
      [e[3], e[4], e[5]],
      [e[6], e[7], e[8]],
    ];
    if (Math.abs(Math.abs(det(m)) - 1) < 1e-9 && !(e.join() === '1,0,0,0,1,0,0,0,1')) out.push(m);
  }
  return (unimodular = out);
}

/**
 * The matcher may pair sites through another basis of the same lattice (a symmetry of the cell, or a
 * supercell axis swap); its pairs only make sense in that basis. Among the bases M·A of the answer's
 * lattice whose lengths and angles agree with the target's (20 %, 5°), the one whose pairs give the
 * smallest rms after the mean shift is used; the answer's fractions are returned in it.
 */
function alignedFractions(
  T: AseFrame,
  A: AseFrame,
  pairs: readonly { a: number; b: number }[],
  shortest: (from: Vec3, to: Vec3) => Vec3,
): Vec3[] {
  // The matcher works on Niggli-reduced cells, so candidate bases are tried both in the cells as given
  // and in the reduced cells (f_T = f_A · P_A⁻¹ · M⁻¹ · P_T, with reduced = P · given).
  const identity: Mat3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const reduction = (cell: Mat3): Mat3 => {
    const reduced = niggliReducedLattice(new Lattice(cell)).matrix;
    return matMul(reduced, inverse(cell)).map((row) => row.map(Math.round)) as Mat3;
  };
  const frames: { pT: Mat3; pA: Mat3 }[] = [{ pT: identity, pA: identity }];
  try {
    frames.push({ pT: reduction(T.cell), pA: reduction(A.cell) });
  } catch {
    /* a degenerate cell: the given bases only */
  }
  let best: Vec3[] = A.frac,
    bestScore = Infinity;
  for (const { pT, pA } of frames) {
    if (Math.abs(Math.abs(det(pT)) - 1) > 1e-9 || Math.abs(Math.abs(det(pA)) - 1) > 1e-9) continue;
    const cellT = matMul(pT, T.cell),
      cellA = matMul(pA, A.cell);
    const pAInv = inverse(pA);
    for (const m of unimodularMatrices()) {
      const basis = matMul(m, cellA);
      let ok = true;
      for (let i = 0; i < 3 && ok; i++) ok = Math.abs(rowLength(basis, i) / rowLength(cellT, i) - 1) < 0.2;
      for (const [i, j] of [
        [1, 2],
        [0, 2],
        [0, 1],
      ])
        ok = ok && Math.abs(rowAngle(basis, i, j) - rowAngle(cellT, i, j)) < 5;
      if (!ok) continue;
      const x = matMul(matMul(pAInv, inverse(m)), pT);
      const frac = A.frac.map((f) => vecMat(f, x));
      const ds = pairs.map((p) => shortest(T.frac[p.a], frac[p.b]));
      const mean = [0, 1, 2].map((k) => ds.reduce((s, d) => s + d[k], 0) / ds.length) as Vec3;
      const score = ds.reduce((s, d) => {
        const r = norm(vecMat([d[0] - mean[0], d[1] - mean[1], d[2] - mean[2]], T.cell));
        return s + r * r;
      }, 0);
      if (score < bestScore - 1e-12) {
        best = frac;
        bestScore = score;
      }
    }
  }
  return best;
}

export interface OverlayPair {
  /** Target site, answer site. */
  a: number;
  b: number;
  /** Drawn distance, Å (target atom to the answer atom after the mean shift). */
  distance: number;
  /** The matcher's own distance for this pair, Å (its average lattice), when the pair is the matcher's. */
  matcherDistance?: number;
}

/** The distance a pair is judged and coloured by: the matcher's when known, else the drawn one. */
export const pairDistance = (p: OverlayPair): number => p.matcherDistance ?? p.distance;

export interface OverlayGeometry {
  cell: Mat3;
  targetSymbols: string[];
  targetCart: Vec3[];
  answerSymbols: string[];
  /** Answer atoms in the target's cell: matched ones beside their partner, the others wrapped into the cell. */
  answerCart: Vec3[];
  pairs: OverlayPair[];
  /** Target atoms with no answer partner, answer atoms with no target partner. */
  missing: number[];
  extra: number[];
  /** Mean fractional shift removed from the answer (matcher pairs only). */
  shift: Vec3;
}

/**
 * Overlay of `answer` on `target`. `mapping` are the matcher's (target, answer) pairs; without it, atoms
 * of the same element are paired by a minimum-cost assignment on periodic distances in the target's
 * cell (no shift), and pairs farther than `maxDistance` Å are dropped (their atoms count as missing / extra).
 */
export function overlayGeometry(
  target: Structure,
  answer: Structure,
  mapping: readonly { a: number; b: number }[] | null,
  maxDistance: number,
): OverlayGeometry {
  const T = aseFrameOf(target),
    A = aseFrameOf(answer);
  const inv = inverse(T.cell);
  // Fractions of the answer's atoms in the target's cell (equal to its own when the cells agree);
  // with a mapping, re-expressed in the lattice basis that the mapping implies (see alignedFractions).
  let answerFrac = A.cart.map((x) => vecMat(x, inv));
  const shortestVector = (from: Vec3, to: Vec3): Vec3 => shortestFractional(from, to, T.cell);
  const delta = (a: number, b: number): Vec3 => shortestVector(T.frac[a], answerFrac[b]);
  let chosen: { a: number; b: number }[];
  let shift: Vec3 = [0, 0, 0];
  if (mapping) {
    chosen = mapping.filter((p) => p.a < T.frac.length && p.b < answerFrac.length);
    if (chosen.length) {
      answerFrac = alignedFractions(T, A, chosen, shortestVector);
      // pymatgen removes the mean of the shortest vectors, without wrapping again.
      const ds = chosen.map((p) => delta(p.a, p.b));
      shift = [0, 1, 2].map((k) => ds.reduce((sum, d) => sum + d[k], 0) / ds.length) as Vec3;
    }
  } else {
    // Minimum total squared distance over same-element pairs (the smaller side fully assigned).
    const targetRows = T.frac.length <= answerFrac.length;
    const rowsN = targetRows ? T.frac.length : answerFrac.length,
      colsN = targetRows ? answerFrac.length : T.frac.length;
    const FORBIDDEN = 1e20;
    const cost = Array.from({ length: rowsN }, (_, r) => {
      const row = new Float64Array(colsN);
      for (let c = 0; c < colsN; c++) {
        const [a, b] = targetRows ? [r, c] : [c, r];
        const d = norm(vecMat(delta(a, b), T.cell));
        row[c] = T.symbols[a] === A.symbols[b] ? d * d : FORBIDDEN;
      }
      return row;
    });
    const assigned = rowsN ? minimumCostAssignment(cost) : new Int32Array(0);
    chosen = [];
    assigned.forEach((c, r) => {
      if (c < 0 || cost[r][c] >= FORBIDDEN || Math.sqrt(cost[r][c]) > maxDistance) return;
      chosen.push(targetRows ? { a: r, b: c } : { a: c, b: r });
    });
  }
  const answerCart: Vec3[] = answerFrac.map((f) => vecMat(aseWrap3([f[0] - shift[0], f[1] - shift[1], f[2] - shift[2]]), T.cell));
  const pairs: OverlayPair[] = chosen.map(({ a, b }) => {
    const d = delta(a, b);
    const rel: Vec3 = [d[0] - shift[0], d[1] - shift[1], d[2] - shift[2]];
    const f: Vec3 = [T.frac[a][0] + rel[0], T.frac[a][1] + rel[1], T.frac[a][2] + rel[2]];
    answerCart[b] = vecMat(f, T.cell);
    return { a, b, distance: norm(vecMat(rel, T.cell)) };
  });
  pairs.sort((x, y) => x.a - y.a);
  const pairedA = new Set(pairs.map((p) => p.a)),
    pairedB = new Set(pairs.map((p) => p.b));
  return {
    cell: T.cell,
    targetSymbols: T.symbols,
    targetCart: T.cart,
    answerSymbols: A.symbols,
    answerCart,
    pairs,
    missing: T.frac.map((_, i) => i).filter((i) => !pairedA.has(i)),
    extra: answerFrac.map((_, i) => i).filter((i) => !pairedB.has(i)),
    shift,
  };
}
