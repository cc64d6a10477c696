/**
 * C2NP task 2, solved classically: from a finite particle (species + Cartesian positions, any
 * orientation, surface-truncated, noisy) recover the bulk crystal's translation lattice, fold the
 * atoms into one cell, and let the symmetry search name the space group and the conventional cell.
 *
 * Steps: (1) candidate translations = differences between same-species atoms near the centre
 * (minority species, fewest candidates), merged into clusters; (2) a candidate is a lattice
 * translation when it maps (nearly) every atom, of every species, onto an atom of the same species,
 * tested only where both ends lie well inside the particle; (3) the three successive minima of the
 * accepted translations form a basis (true in 3D), refined by least squares over every matched pair;
 * (4) interior atoms are folded into that cell and merged per site (averaging removes most noise);
 * (5) moyo standardises the cell (spglib setting).
 */
import { type Mat3, type Vec3, cross, det, dot, inverse, norm, sub, vecMat } from '../../math/mat3.ts';
import { Lattice, type LatticeParameters } from '../../structure/lattice.ts';
import { type Site, type Structure, majorSpecies, makeSiteFromFrac } from '../../structure/structure.ts';
import { analyzeSymmetry, standardizedCell } from '../../symmetry/analyze.ts';
import { LIMITS, limitSentence, groupedNumber } from '../../limits.ts';
import { cbrt, pow } from '../../math/libm.ts';

/** Particles above this many atoms are refused: the pair searches would take minutes. */

export class InverseError extends Error {}

export interface InverseResult {
  /** Conventional cell parameters (spglib standard setting), Å and degrees. */
  lattice: LatticeParameters;
  spacegroup: { number: number; symbol: string } | null;
  /** The standardized conventional cell (or the folded cell when the symmetry search fails). */
  cell: Structure;
  /** The folded translation cell before standardisation (a reduced primitive cell). */
  foldedCell: Structure;
  /** Matching tolerance used (Å) and the RMS residual of the lattice fit (Å): a noise estimate. */
  tolerance: number;
  fitResidual: number;
}

interface Atoms {
  species: string[];
  pos: Vec3[];
}

/** One number per grid cell (exact below 2^17 cells per axis, far beyond any particle). */
const GRID_SPAN = 131_072;
const cellKey = (x: number, y: number, z: number): number =>
  ((x + GRID_SPAN / 2) * GRID_SPAN + (y + GRID_SPAN / 2)) * GRID_SPAN + (z + GRID_SPAN / 2);

/**
 * A sparse hash grid over the particle, for nearest-same-species queries within one cell size. Not
 * analysis/hausdorff.ts's PointGrid (a dense CSR grid for unbounded nearest distances): this one filters
 * by a predicate and counts the cells and points it looks at, which the search charges to LIMITS.inverseWork.
 */
class ParticleHashGrid {
  private readonly cells = new Map<number, number[]>();
  /** Cells and points looked at by `nearest` so far: the work a search charges to its budget. */
  visited = 0;
  constructor(
    private readonly pos: Vec3[],
    private readonly size: number,
  ) {
    pos.forEach((p, i) => {
      const key = this.keyOf(p);
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    });
  }
  private keyOf(p: Vec3): number {
    return cellKey(Math.floor(p[0] / this.size), Math.floor(p[1] / this.size), Math.floor(p[2] / this.size));
  }
  /** Index of the nearest point within `radius` (≤ the cell size) accepted by `keep`, or -1. */
  nearest(p: Vec3, radius: number, keep: (i: number) => boolean): number {
    const cx = Math.floor(p[0] / this.size),
      cy = Math.floor(p[1] / this.size),
      cz = Math.floor(p[2] / this.size);
    let best = -1;
    let bestD2 = radius * radius;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          const list = this.cells.get(cellKey(cx + dx, cy + dy, cz + dz));
          this.visited++;
          if (!list) continue;
          this.visited += list.length;
          for (const i of list) {
            if (!keep(i)) continue;
            const q = this.pos[i];
            const d2 = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2;
            if (d2 < bestD2) {
              bestD2 = d2;
              best = i;
            }
          }
        }
    return best;
  }
}

const centroidOf = (pos: Vec3[]): Vec3 => {
  const c: Vec3 = [0, 0, 0];
  for (const p of pos) {
    c[0] += p[0];
    c[1] += p[1];
    c[2] += p[2];
  }
  return [c[0] / pos.length, c[1] / pos.length, c[2] / pos.length];
};

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Indices of atoms sorted by distance from `centre` (closest first). */
const byDistanceFrom = (pos: Vec3[], centre: Vec3): number[] => {
  const d = pos.map((p) => norm(sub(p, centre)));
  return pos.map((_, i) => i).sort((a, b) => d[a] - d[b]);
};

interface TranslationTest {
  accepted: boolean;
  /** Matched (from, to) atom pairs, used by the least-squares refinement. */
  pairs: [number, number][];
}

interface Context {
  atoms: Atoms;
  grid: ParticleHashGrid;
  centre: Vec3;
  /** Atoms tested for translations: the central ones, at most a few thousand. */
  probes: number[];
  /** Both ends of a tested translation must lie within this distance of the centre. */
  innerRadius: number;
  tol: number;
  speciesList: string[];
  /**
   * Grid cells and points looked at by probe lookups, and cluster comparisons, so far, held to LIMITS.inverseWork (see
   * spendInverseWork).
   */
  work: number;
}

/**
 * A crystal shows its lattice within the first few candidate translations (a sample particle of 8,843 atoms:
 * 3.9e5 units of work); a particle with no lattice would have every candidate tested and clustered, quadratic in
 * its size (a random cloud of 1,500 atoms: 4e8 units, 14 s). Past LIMITS.inverseWork the search gives up.
 */
function spendInverseWork(ctx: Context, units: number): void {
  ctx.work += units;
  if (ctx.work > LIMITS.inverseWork) {
    throw new InverseError(
      'no three independent lattice translations were found within the search budget ' +
        `(${limitSentence('the search', null, LIMITS.inverseWork, 'grid cells, points and translations looked at', 'inverseWork')}): ` +
        'the particle looks too disordered to be a crystal',
    );
  }
}

/** Does `d` map the crystal onto itself? Per-species match fractions must all be high. */
function testTranslation(ctx: Context, d: Vec3): TranslationTest {
  const { atoms, grid, centre, innerRadius, tol } = ctx;
  const tested = new Map<string, number>();
  const matched = new Map<string, number>();
  const pairs: [number, number][] = [];
  for (const i of ctx.probes) {
    const p = atoms.pos[i];
    const target: Vec3 = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
    if (norm(sub(target, centre)) > innerRadius) continue;
    const el = atoms.species[i];
    tested.set(el, (tested.get(el) ?? 0) + 1);
    const j = grid.nearest(target, tol, (k) => atoms.species[k] === el);
    if (j >= 0) {
      matched.set(el, (matched.get(el) ?? 0) + 1);
      pairs.push([i, j]);
    }
  }
  let total = 0;
  for (const n of tested.values()) total += n;
  if (total < 4) return { accepted: false, pairs };
  for (const el of ctx.speciesList) {
    const n = tested.get(el) ?? 0;
    if (n >= 2 && (matched.get(el) ?? 0) < 0.6 * n) return { accepted: false, pairs };
  }
  return { accepted: pairs.length >= 0.75 * total, pairs };
}

/** Candidate translations: differences between central same-species atoms, merged by proximity. */
function candidateTranslations(ctx: Context, cutoff: number): Vec3[] {
  const { atoms } = ctx;
  const counts = new Map<string, number>();
  for (const el of atoms.species) counts.set(el, (counts.get(el) ?? 0) + 1);
  const minority = [...counts.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  const order = byDistanceFrom(atoms.pos, ctx.centre).filter((i) => atoms.species[i] === minority);
  const refs = order.slice(0, 12);
  // Only one of ±d is needed: keep the half-space of a generic direction.
  const generic: Vec3 = [0.5773, 0.5774, 0.5775];
  const clusters: { sum: Vec3; n: number }[] = [];
  for (const r of refs) {
    const pr = atoms.pos[r];
    for (const j of order) {
      if (j === r) continue;
      const d = sub(atoms.pos[j], pr);
      const len = norm(d);
      if (len < ctx.tol || len > cutoff || dot(d, generic) < 0) continue;
      let hit = null;
      spendInverseWork(ctx, clusters.length + 1);
      for (const c of clusters) {
        const m: Vec3 = [c.sum[0] / c.n, c.sum[1] / c.n, c.sum[2] / c.n];
        if (norm(sub(m, d)) < ctx.tol) {
          hit = c;
          break;
        }
      }
      if (hit) {
        hit.sum[0] += d[0];
        hit.sum[1] += d[1];
        hit.sum[2] += d[2];
        hit.n++;
      } else clusters.push({ sum: [...d] as Vec3, n: 1 });
    }
  }
  return clusters.map((c) => [c.sum[0] / c.n, c.sum[1] / c.n, c.sum[2] / c.n] as Vec3).sort((a, b) => norm(a) - norm(b));
}

/** The shortest accepted translation, then the shortest independent of it, then of both. */
function successiveMinima(ctx: Context, candidates: Vec3[]): Vec3[] {
  const found: Vec3[] = [];
  for (const d of candidates) {
    if (found.length === 3) break;
    if (found.length === 1 && norm(cross(found[0], d)) < 0.2 * norm(d) * norm(found[0])) continue;
    if (found.length === 2) {
      const normal = cross(found[0], found[1]);
      if (Math.abs(dot(normal, d)) < 0.2 * norm(normal) * norm(d)) continue;
    }
    const before = ctx.grid.visited;
    const accepted = testTranslation(ctx, d).accepted;
    spendInverseWork(ctx, ctx.grid.visited - before);
    if (accepted) found.push(d);
  }
  return found;
}

/** Least squares B (rows) minimising Σ |measured − n·B|² over pairs with integer coefficients n. */
function fitBasis(rows: { n: Vec3; d: Vec3 }[]): Mat3 | null {
  const ntn: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const ntd: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const { n, d } of rows) {
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        ntn[i][j] += n[i] * n[j];
        ntd[i][j] += n[i] * d[j];
      }
  }
  if (Math.abs(det(ntn)) < 1e-9) return null;
  const inv = inverse(ntn);
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => inv[i][0] * ntd[0][j] + inv[i][1] * ntd[1][j] + inv[i][2] * ntd[2][j])) as Mat3;
}

interface SiteCluster {
  species: string;
  anchor: Vec3;
  /** Member atoms and the integer cell each sits in, relative to the anchor. */
  members: { atom: number; cell: Vec3 }[];
}

/** Folds atoms into the cell `basis` (origin `origin`) and groups periodic images per species. */
function foldIntoCell(atoms: Atoms, indices: number[], basis: Mat3, origin: Vec3, tol: number): SiteCluster[] {
  const inv = inverse(basis);
  const clusters: SiteCluster[] = [];
  for (const i of indices) {
    const f = vecMat(sub(atoms.pos[i], origin), inv);
    const el = atoms.species[i];
    let placed = false;
    for (const c of clusters) {
      if (c.species !== el) continue;
      const cell: Vec3 = [Math.round(f[0] - c.anchor[0]), Math.round(f[1] - c.anchor[1]), Math.round(f[2] - c.anchor[2])];
      const df: Vec3 = [f[0] - cell[0] - c.anchor[0], f[1] - cell[1] - c.anchor[1], f[2] - cell[2] - c.anchor[2]];
      if (norm(vecMat(df, basis)) < tol) {
        c.members.push({ atom: i, cell });
        placed = true;
        break;
      }
    }
    if (!placed) clusters.push({ species: el, anchor: f, members: [{ atom: i, cell: [0, 0, 0] }] });
  }
  // Periodic images from a handful of displaced surface atoms form small spurious clusters.
  const typical = median(clusters.map((c) => c.members.length));
  return clusters.filter((c) => c.members.length >= 0.25 * typical);
}

/**
 * Joint least squares over every folded atom: x_i = o_site + n_i·B. Eliminating the site origins
 * leaves a 3×3 system in the per-site centred cell indices, whose baselines span the whole particle.
 */
function fitBasisToSites(atoms: Atoms, clusters: SiteCluster[]): Mat3 | null {
  const rows: { n: Vec3; d: Vec3 }[] = [];
  for (const c of clusters) {
    if (c.members.length < 2) continue;
    const nMean: Vec3 = [0, 0, 0];
    const xMean: Vec3 = [0, 0, 0];
    for (const { atom, cell } of c.members) {
      for (let k = 0; k < 3; k++) {
        nMean[k] += cell[k];
        xMean[k] += atoms.pos[atom][k];
      }
    }
    for (let k = 0; k < 3; k++) {
      nMean[k] /= c.members.length;
      xMean[k] /= c.members.length;
    }
    for (const { atom, cell } of c.members) rows.push({ n: sub(cell, nMean), d: sub(atoms.pos[atom], xMean) });
  }
  return fitBasis(rows);
}

/** RMS distance (Å) of the folded atoms from their site's mean position: a noise estimate. */
function siteResidual(atoms: Atoms, clusters: SiteCluster[], basis: Mat3): number {
  let sq = 0;
  let count = 0;
  for (const c of clusters) {
    const shifted = c.members.map(({ atom, cell }) => sub(atoms.pos[atom], vecMat(cell, basis)));
    const mean = centroidOf(shifted);
    for (const x of shifted) {
      const r = sub(x, mean);
      sq += dot(r, r);
      count++;
    }
  }
  return count ? Math.sqrt(sq / count) : NaN;
}

/** Mean fractional position of each site (wrapped into [0, 1)) in the cell `basis`. */
function sitePositions(atoms: Atoms, clusters: SiteCluster[], basis: Mat3, origin: Vec3): { species: string; frac: Vec3 }[] {
  const inv = inverse(basis);
  const wrap = (x: number) => x - Math.floor(x);
  return clusters.map((c) => {
    const sum: Vec3 = [0, 0, 0];
    for (const { atom, cell } of c.members) {
      const f = vecMat(sub(atoms.pos[atom], origin), inv);
      for (let k = 0; k < 3; k++) sum[k] += f[k] - cell[k];
    }
    const m = c.members.length;
    return { species: c.species, frac: [wrap(sum[0] / m), wrap(sum[1] / m), wrap(sum[2] / m)] as Vec3 };
  });
}

/** The conventional cell with its metric made exact for its crystal system (fractions kept). */
function idealizedCell(cell: Structure, crystalSystem: string): Structure {
  const { a, b, c, beta } = cell.lattice!.parameters;
  const system = crystalSystem.toLowerCase();
  const mean = (...xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  let ideal: [number, number, number, number, number, number];
  if (system.startsWith('cubic')) {
    const m = mean(a, b, c);
    ideal = [m, m, m, 90, 90, 90];
  } else if (system.startsWith('tetragonal')) {
    const m = mean(a, b);
    ideal = [m, m, c, 90, 90, 90];
  } else if (system.startsWith('orthorhombic')) ideal = [a, b, c, 90, 90, 90];
  else if (system.startsWith('hexagonal') || system.startsWith('trigonal')) {
    const m = mean(a, b);
    ideal = [m, m, c, 90, 90, 120];
  } else if (system.startsWith('monoclinic')) ideal = [a, b, c, 90, beta, 90];
  else return cell;
  const lattice = Lattice.fromParameters(...ideal);
  return {
    ...cell,
    lattice,
    sites: cell.sites.map((site) => makeSiteFromFrac(lattice, site.frac ?? cell.lattice!.cartToFrac(site.xyz), site.species)),
  };
}

/** Recovers the bulk crystal of a particle; throws InverseError with a sentence when it cannot. */
export function solveInverse(particle: Structure, symprec = 0.1): InverseResult {
  const n = particle.sites.length;
  if (n > LIMITS.particleAtoms) throw new InverseError(limitSentence('the particle', n, LIMITS.particleAtoms, 'atoms', 'particleAtoms'));
  for (const site of particle.sites) {
    // Beyond the policy's coordinate range distances lose their Å digits (and the neighbour search its cells).
    if (!site.xyz.every((v) => Math.abs(v) <= LIMITS.coordinateAbs)) {
      throw new InverseError(
        `an atom lies at (${site.xyz.join(', ')}) Å; coordinates must be finite and within ±${groupedNumber(LIMITS.coordinateAbs)} Å`,
      );
    }
  }
  if (n < 8) throw new InverseError(`the particle has only ${n} atoms; at least 8 are needed to find a lattice`);
  const atoms: Atoms = { species: particle.sites.map(majorSpecies), pos: particle.sites.map((s) => [...s.xyz] as Vec3) };
  const centre = centroidOf(atoms.pos);
  const order = byDistanceFrom(atoms.pos, centre);
  const rMax = norm(sub(atoms.pos[order[order.length - 1]], centre));
  const volumePerAtom = ((4 / 3) * Math.PI * pow(rMax, 3)) / n;

  // Typical nearest-neighbour distance (any species) over the central atoms sets the tolerance.
  const coarse = new ParticleHashGrid(atoms.pos, 2 * cbrt(volumePerAtom));
  const central = order.slice(0, Math.min(n, 2000));
  const nnDistances = central
    .map((i) => {
      const j = coarse.nearest(atoms.pos[i], 2 * cbrt(volumePerAtom), (k) => k !== i);
      return j >= 0 ? norm(sub(atoms.pos[j], atoms.pos[i])) : NaN;
    })
    .filter((d) => Number.isFinite(d));
  if (nnDistances.length === 0) throw new InverseError('the atoms are too far apart to form a crystal fragment');
  const dnn = median(nnDistances);
  // Atoms piled onto each other (no real structure has neighbours closer than ~0.5 Å) leave no tolerance to
  // match translations with, and a grid of cell size 0.
  if (!(dnn >= 0.5))
    throw new InverseError(
      `the typical nearest-neighbour distance is ${dnn.toPrecision(3)} Å: the atoms overlap, so the particle is not a crystal fragment`,
    );
  const tol = Math.min(1.0, 0.4 * dnn);

  const speciesList = [...new Set(atoms.species)].sort();
  const ctx: Context = {
    atoms,
    grid: new ParticleHashGrid(atoms.pos, tol),
    centre,
    probes: order.slice(0, Math.min(n, 4000)),
    innerRadius: Math.max(rMax - tol - 0.05 * rMax, 0.5 * rMax),
    tol,
    speciesList,
    work: 0,
  };

  // Successive minima of the accepted translations; a short search radius first (three times the
  // spacing of the minority species covers ordinary cells), the whole particle only if that fails.
  const maxCutoff = Math.min(1.6 * ctx.innerRadius, 25);
  const minorityCount = Math.min(...speciesList.map((el) => atoms.species.filter((x) => x === el).length));
  const shortCutoff = Math.min(maxCutoff, 3 * cbrt(((4 / 3) * Math.PI * pow(rMax, 3)) / minorityCount) + tol);
  let basisVectors: Vec3[] = [];
  for (const cutoff of shortCutoff < maxCutoff ? [shortCutoff, maxCutoff] : [maxCutoff]) {
    basisVectors = successiveMinima(ctx, candidateTranslations(ctx, cutoff));
    if (basisVectors.length === 3) break;
  }
  if (basisVectors.length < 3) {
    throw new InverseError(
      'no three independent lattice translations were found: the particle is too small, too disordered or not crystalline',
    );
  }
  let basis: Mat3 = [basisVectors[0], basisVectors[1], basisVectors[2]];
  if (det(basis) < 0) basis = [basis[0], basis[1], [-basis[2][0], -basis[2][1], -basis[2][2]]];

  // Refinement: every short lattice vector n·B is tested; matched pairs enter one least-squares fit.
  const refineCutoff = Math.min(maxCutoff, 2 * Math.max(...basis.map(norm)) + tol);
  const refineRows = (b: Mat3): { n: Vec3; d: Vec3 }[] => {
    const rows: { n: Vec3; d: Vec3 }[] = [];
    const span = 3;
    for (let i = -span; i <= span; i++)
      for (let j = -span; j <= span; j++)
        for (let k = 0; k <= span; k++) {
          if (k === 0 && (j < 0 || (j === 0 && i <= 0))) continue;
          const nv: Vec3 = [i, j, k];
          const d = vecMat(nv, b);
          if (norm(d) > refineCutoff) continue;
          const test = testTranslation(ctx, d);
          if (!test.accepted) continue;
          for (const [p, q] of test.pairs) rows.push({ n: nv, d: sub(atoms.pos[q], atoms.pos[p]) });
        }
    return rows;
  };
  let rows = refineRows(basis);
  const refined = fitBasis(rows);
  if (refined) {
    basis = refined;
    rows = refineRows(basis);
    basis = fitBasis(rows) ?? basis;
  }
  // Fold the interior atoms (surface atoms are the likeliest to be displaced in a real particle),
  // then refit the lattice to all folded atoms at once and fold again.
  // Small particles keep every atom: there the statistics matter more than surface displacements.
  const interior = order.filter((i) => norm(sub(atoms.pos[i], centre)) < 0.85 * rMax).slice(0, 40_000);
  const foldSet = interior.length >= 2000 ? interior : order.slice(0, 40_000);
  const origin = atoms.pos[order[0]];
  let clusters = foldIntoCell(atoms, foldSet, basis, origin, tol);
  for (let round = 0; round < 2; round++) {
    const better = fitBasisToSites(atoms, clusters);
    if (!better || Math.abs(det(better)) < 1e-6) break;
    basis = better;
    clusters = foldIntoCell(atoms, foldSet, basis, origin, tol);
  }
  const folded = sitePositions(atoms, clusters, basis, origin);
  const fitResidual = siteResidual(atoms, clusters, basis);
  const lattice = new Lattice(basis);
  const sites: Site[] = folded.map((f) => makeSiteFromFrac(lattice, f.frac, { [f.species]: 1 }));
  const foldedCell: Structure = { name: `${particle.name} (folded cell)`, lattice, sites };

  // Noise leaves the folded cell slightly distorted; tolerances up to symprec + the measured
  // scatter are tried and the most symmetric answer kept (for exact input only symprec is tried).
  const tolerances = [symprec];
  for (const factor of [1.5, 2, 3]) if (symprec * factor <= symprec + fitResidual) tolerances.push(symprec * factor);
  let best: { tolerance: number; sym: NonNullable<ReturnType<typeof analyzeSymmetry>> } | null = null;
  for (const t of tolerances) {
    const found = analyzeSymmetry(foldedCell, t);
    if (found && (!best || found.nOperations > best.sym.nOperations)) best = { tolerance: t, sym: found };
  }
  const sym = best?.sym ?? null;
  const standard = best ? standardizedCell(foldedCell, best.tolerance) : null;
  const conventional = standard && sym ? idealizedCell(standard, sym.crystalSystem) : null;
  const cell = conventional ?? foldedCell;
  if (conventional) conventional.name = `${particle.name} (recovered conventional cell)`;
  return {
    lattice: cell.lattice!.parameters,
    spacegroup: sym ? { number: sym.number, symbol: sym.symbol } : null,
    cell,
    foldedCell,
    tolerance: tol,
    fitResidual,
  };
}
