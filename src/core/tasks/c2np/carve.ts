/**
 * Carving a spherical particle from a crystal the way the C2NP/RADII raw particles were made with Atomsk
 * (as the C2NP repository's data was made): an n×n×n supercell of the cell as read, atoms ordered with the c shift outermost, then b,
 * then a, the cell's atoms innermost; sphere centre ½(A1+A2+A3); keep |r − c| < R; no re-centring.
 * Only lattice cells that can reach the sphere are visited (same order), so R = 30 Å takes milliseconds.
 */
import { type Mat3, type Vec3, det, inverse } from '../../math/mat3.ts';
import { LIMITS, LimitError, limitSentence, groupedNumber } from '../../limits.ts';
import type { Structure } from '../../structure/structure.ts';
import { fracOf, majorSpecies } from '../../structure/structure.ts';
import { sin, cos, pow } from '../../math/libm.ts';

const DEG = Math.PI / 180;

/**
 * Cell vectors from lattice parameters as Atomsk/ASE build them: a along x, b in the xy-plane, c completing
 * a right-handed set (not pymatgen's c-along-z convention, which the CIF reader uses).
 */
export function atomskCellFromParameters(a: number, b: number, c: number, alpha: number, beta: number, gamma: number): Mat3 {
  const cosAlpha = cos(alpha * DEG),
    cosBeta = cos(beta * DEG);
  const cosGamma = cos(gamma * DEG),
    sinGamma = sin(gamma * DEG);
  const cx = c * cosBeta;
  const cy = (c * (cosAlpha - cosBeta * cosGamma)) / sinGamma;
  return [
    [a, 0, 0],
    [b * cosGamma, b * sinGamma, 0],
    [cx, cy, Math.sqrt(c * c - cx * cx - cy * cy)],
  ];
}

export type CarveCenter = { kind: 'box' } | { kind: 'origin' } | { kind: 'point'; point: Vec3 };

export interface CarveOptions {
  radius: number;
  /** Replicas per axis (C2NP: 20, RADII: 60). */
  repeats?: number;
  center?: CarveCenter;
  /** Keep |r − c| ≤ R instead of Atomsk's strict <. */
  inclusive?: boolean;
  /** Use the lattice matrix as stored instead of rebuilding it a-along-x from its parameters. */
  keepLatticeFrame?: boolean;
  /** Most atoms the particle may have (default LIMITS.atoms, raised by the CLI's --limit atoms=N). */
  maxAtoms?: number;
}

export interface CarvedParticle {
  symbols: string[];
  positions: Vec3[];
  center: Vec3;
  /** Cell vectors used (rows a, b, c). */
  cell: Mat3;
  warnings: string[];
}

/** Distance within which an atom counts as lying on the sphere (where < and ≤ disagree). */
export const SPHERE_TIE_TOLERANCE = 1e-6;
export function carveParticle(structure: Structure, options: CarveOptions): CarvedParticle {
  const { radius } = options;
  const repeats = options.repeats ?? 20;
  if (!structure.lattice) throw new Error(`${structure.name || 'the structure'} has no lattice; only a periodic cell can be carved`);
  if (!(radius > 0) || !Number.isFinite(radius)) throw new Error(`the radius must be a positive number of Å, got ${radius}`);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`repeats must be a positive integer, got ${repeats}`);
  const lattice = structure.lattice;
  let cell: Mat3;
  if (options.keepLatticeFrame) cell = lattice.matrix.map((r) => [r[0], r[1], r[2]]) as Mat3;
  else {
    const p = lattice.parameters;
    cell = atomskCellFromParameters(p.a, p.b, p.c, p.alpha, p.beta, p.gamma);
  }
  const [a1, a2, a3] = cell;
  const maxAtoms = options.maxAtoms ?? LIMITS.atoms;
  const volume = Math.abs(det(cell));
  // A cell rebuilt from impossible angles has NaN rows; a flat one packs unboundedly many atoms in the sphere.
  if (
    !cell.every((row) => row.every(Number.isFinite)) ||
    !(volume >= LIMITS.cellFlatness * Math.hypot(...a1) * Math.hypot(...a2) * Math.hypot(...a3))
  ) {
    throw new Error(`the cell (${[a1, a2, a3].map((r) => `[${r.join(', ')}]`).join(', ')}) is flat or impossible; it cannot be carved`);
  }
  const symbols = structure.sites.map((site) => majorSpecies(site));
  const fracs = structure.sites.map((site) => fracOf(site, lattice));
  // Atoms the sphere holds at the cell's density (or the whole supercell if that is smaller): refused before
  // anything is allocated when it is clearly over the limit (the count below catches the rest exactly).
  const expected = Math.min(((4 / 3) * Math.PI * pow(radius, 3)) / volume, pow(repeats, 3)) * structure.sites.length;
  if (expected > 1.5 * maxAtoms + 1000) {
    throw new LimitError(
      'atoms',
      limitSentence(
        `a particle of R = ${radius} Å from this cell (${repeats}³ replicas)`,
        Math.round(expected),
        maxAtoms,
        'atoms',
        'atoms',
      ),
    );
  }
  // Fractional → Cartesian as Atomsk does: x = f·H.
  const basis: Vec3[] = fracs.map((f) => [0, 1, 2].map((k) => f[0] * a1[k] + f[1] * a2[k] + f[2] * a3[k]) as Vec3);

  // Shift ranges and centre. 'origin' centres the sphere on the Cartesian origin (the CIF origin) with the
  // supercell's shifts running −⌊n/2⌋ … n−1−⌊n/2⌋, i.e. the box-centred particle in a frame centred on 0.
  const kind = options.center?.kind ?? 'box';
  const first = kind === 'origin' ? -Math.floor(repeats / 2) : 0;
  const last = first + repeats - 1;
  let center: Vec3;
  if (kind === 'point') {
    center = [...(options.center as { point: Vec3 }).point] as Vec3;
    if (!center.every((x) => Number.isFinite(x) && Math.abs(x) <= LIMITS.coordinateAbs)) {
      throw new LimitError(
        'coordinateAbs',
        `the centre (${center.join(', ')}) must be finite and within ±${groupedNumber(LIMITS.coordinateAbs)} Å`,
      );
    }
  } else if (kind === 'origin') center = [0, 0, 0];
  else center = [0, 1, 2].map((k) => 0.5 * (repeats * a1[k] + repeats * a2[k] + repeats * a3[k])) as Vec3;

  // Per axis, the fractional extent of the sphere is ± R·|reciprocal vector|; add the basis atoms' spread.
  const inv = inverse(cell);
  const warnings: string[] = [];
  const ranges: [number, number][] = [];
  const centreFrac = [0, 1, 2].map((k) => center[0] * inv[0][k] + center[1] * inv[1][k] + center[2] * inv[2][k]);
  for (let axis = 0; axis < 3; axis++) {
    const reach = radius * Math.hypot(inv[0][axis], inv[1][axis], inv[2][axis]);
    // A loop, not Math.min(...list): a spread of 10⁵ arguments overflows the stack.
    let fMin = Infinity,
      fMax = -Infinity;
    for (const f of fracs) {
      fMin = Math.min(fMin, f[axis]);
      fMax = Math.max(fMax, f[axis]);
    }
    const low = Math.max(first, Math.floor(centreFrac[axis] - reach - fMax) - 1);
    const high = Math.min(last, Math.ceil(centreFrac[axis] + reach - fMin) + 1);
    ranges.push([low, high]);
    // Half-width of the supercell seen from the centre along this reciprocal direction.
    const toFaces = Math.min(centreFrac[axis] - first, last + 1 - centreFrac[axis]) / Math.hypot(inv[0][axis], inv[1][axis], inv[2][axis]);
    if (toFaces < radius && warnings.length === 0) {
      warnings.push(
        `the sphere (R = ${radius} Å) is clipped by the ${repeats}×${repeats}×${repeats} supercell (${toFaces.toFixed(3)} Å from ` +
          'its centre to a face); the particle has flat faces',
      );
    }
  }
  const cells = ranges.reduce((n, [lo, hi]) => n * Math.max(0, hi - lo + 1), 1);
  if (cells * basis.length > 20 * maxAtoms + 1e6) {
    throw new LimitError(
      'atoms',
      limitSentence(`carving R = ${radius} Å`, cells * basis.length, 20 * maxAtoms + 1e6, 'candidate atoms to test', 'atoms'),
    );
  }

  const outSymbols: string[] = [];
  const positions: Vec3[] = [];
  let ties = 0;
  for (let o = ranges[2][0]; o <= ranges[2][1]; o++) {
    for (let n = ranges[1][0]; n <= ranges[1][1]; n++) {
      for (let m = ranges[0][0]; m <= ranges[0][1]; m++) {
        for (let s = 0; s < basis.length; s++) {
          const p = basis[s];
          const x = p[0] + m * a1[0] + n * a2[0] + o * a3[0];
          const y = p[1] + m * a1[1] + n * a2[1] + o * a3[1];
          const z = p[2] + m * a1[2] + n * a2[2] + o * a3[2];
          const dx = x - center[0],
            dy = y - center[1],
            dz = z - center[2];
          const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
          if (Math.abs(d - radius) <= SPHERE_TIE_TOLERANCE) ties++;
          if (options.inclusive ? d <= radius : d < radius) {
            outSymbols.push(symbols[s]);
            positions.push([x, y, z]);
            if (positions.length > maxAtoms)
              throw new LimitError('atoms', limitSentence(`the particle of R = ${radius} Å`, null, maxAtoms, 'atoms', 'atoms'));
          }
        }
      }
    }
  }
  // An empty particle is no result a metric can use (a centre far outside the supercell gives one).
  if (positions.length === 0) {
    throw new Error(
      `no atom of the ${repeats}×${repeats}×${repeats} supercell lies within R = ${radius} Å of the centre ` +
        `(${center.map((x) => +x.toPrecision(6)).join(', ')}); the particle would be empty`,
    );
  }
  if (ties > 0) {
    warnings.push(
      `${ties} atom${ties === 1 ? '' : 's'} lie within ${SPHERE_TIE_TOLERANCE} Å of the sphere; ` +
        `${options.inclusive ? 'kept (--inclusive)' : 'left out (strict <, as Atomsk)'}`,
    );
  }
  return { symbols: outSymbols, positions, center, cell, warnings };
}
