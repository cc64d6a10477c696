/**
 * Geometry for the AtomWorld page, DOM-free: structures in ASE's Cartesian frame (a ∥ x, b in the
 * xy-plane — the frame every AtomWorld parameter uses), and the target/answer overlay: each target atom
 * joined to the answer atom the matcher assigned to it, after the mean translation is removed (as
 * pymatgen's get_rms_dist does), with missing and extra atoms.
 */
import { type Mat3, type Vec3, inverse, norm, vecMat } from '../../core/math/mat3.ts';
import { Lattice } from '../../core/structure/lattice.ts';
import { type Structure, fracOf, majorSpecies, makeSiteFromFrac } from '../../core/structure/structure.ts';
import { aseCellFromParameters, aseWrap3 } from '../../core/tasks/atomworld/ase-frame.ts';

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
  return { name: s.name, lattice, sites: s.sites.map((site, i) => makeSiteFromFrac(lattice, f.frac[i], site.species, { label: site.label })) };
}

const wrapHalf = (x: number): number => x - Math.round(x);

export interface OverlayPair {
  /** Target site, answer site. */
  a: number;
  b: number;
  /** Drawn distance, Å (target atom to the answer atom after the mean shift). */
  distance: number;
}

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
 * of the same element are paired greedily by nearest periodic distance up to `maxDistance` Å (no shift).
 */
export function overlayGeometry(target: Structure, answer: Structure, mapping: readonly { a: number; b: number }[] | null, maxDistance: number): OverlayGeometry {
  const T = aseFrameOf(target), A = aseFrameOf(answer);
  const inv = inverse(T.cell);
  // Fractions of the answer's atoms in the target's cell (equal to its own when the cells agree).
  const answerFrac = A.cart.map((x) => vecMat(x, inv));
  const delta = (a: number, b: number): Vec3 => [0, 1, 2].map((k) => wrapHalf(answerFrac[b][k] - T.frac[a][k])) as Vec3;
  let chosen: { a: number; b: number }[];
  let shift: Vec3 = [0, 0, 0];
  if (mapping) {
    chosen = mapping.filter((p) => p.a < T.frac.length && p.b < answerFrac.length);
    if (chosen.length) {
      // Two passes, so that a shift near half a cell does not split the atoms across the wrap.
      const mean = (ds: Vec3[]): Vec3 => [0, 1, 2].map((k) => ds.reduce((s, d) => s + d[k], 0) / ds.length) as Vec3;
      const first = mean(chosen.map((p) => delta(p.a, p.b)));
      shift = mean(chosen.map((p) => {
        const d = delta(p.a, p.b);
        return [0, 1, 2].map((k) => first[k] + wrapHalf(d[k] - first[k])) as Vec3;
      }));
    }
  } else {
    const candidates: { a: number; b: number; d: number }[] = [];
    for (let a = 0; a < T.frac.length; a++) {
      for (let b = 0; b < answerFrac.length; b++) {
        if (T.symbols[a] !== A.symbols[b]) continue;
        const d = norm(vecMat(delta(a, b), T.cell));
        if (d <= maxDistance) candidates.push({ a, b, d });
      }
    }
    candidates.sort((x, y) => x.d - y.d || x.a - y.a || x.b - y.b);
    const usedA = new Set<number>(), usedB = new Set<number>();
    chosen = [];
    for (const c of candidates) {
      if (usedA.has(c.a) || usedB.has(c.b)) continue;
      usedA.add(c.a);
      usedB.add(c.b);
      chosen.push(c);
    }
  }
  const answerCart: Vec3[] = answerFrac.map((f) => vecMat(aseWrap3([f[0] - shift[0], f[1] - shift[1], f[2] - shift[2]]), T.cell));
  const pairs: OverlayPair[] = chosen.map(({ a, b }) => {
    const d = delta(a, b);
    const rel = [0, 1, 2].map((k) => shift[k] + wrapHalf(d[k] - shift[k]) - shift[k]) as Vec3;
    const f: Vec3 = [T.frac[a][0] + rel[0], T.frac[a][1] + rel[1], T.frac[a][2] + rel[2]];
    answerCart[b] = vecMat(f, T.cell);
    return { a, b, distance: norm(vecMat(rel, T.cell)) };
  });
  pairs.sort((x, y) => x.a - y.a);
  const pairedA = new Set(pairs.map((p) => p.a)), pairedB = new Set(pairs.map((p) => p.b));
  return {
    cell: T.cell, targetSymbols: T.symbols, targetCart: T.cart, answerSymbols: A.symbols, answerCart, pairs,
    missing: T.frac.map((_, i) => i).filter((i) => !pairedA.has(i)),
    extra: answerFrac.map((_, i) => i).filter((i) => !pairedB.has(i)),
    shift,
  };
}
