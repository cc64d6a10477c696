/**
 * The crystal → nanoparticle transition as numbers: for one shape over a list of sizes, each particle's surface
 * fraction, mean coordination, coordination by site class, facet fractions, Debye peak width and whether its size is a
 * closed-shell (magic) number.
 *
 * Coordination and surface: teaching.ts's rule for particles cut from a crystal (sphere, Wulff): first-shell neighbours
 * read off the bulk crystal, surface = fewer neighbours than the element's smallest bulk coordination. ASE's shapes are
 * strained (an icosahedron's bonds within a shell are 5.1 % longer than those between shells, a decahedron's 1.8 %), so
 * for them the first shell is every pair within 1.2·a/√2 (fcc's second shell is at √2·a/√2) and bulk coordination is 12.
 *
 * Site classes, decided geometrically: the convex hull's facets (facets.ts: hull triangles within 3° are one facet) are
 * planes; a surface atom within 5 % of the nearest-neighbour distance of one facet plane is a face atom, of two an edge
 * atom, of three or more a vertex atom; a surface atom below every facet plane is recessed (the second layer of an open
 * facet such as fcc {110}, a terrace between a sphere's steps, a decahedron's re-entrant groove); every other atom is
 * bulk. Facet fractions: each surface atom on facets is shared equally among the facets it lies on, summed per Miller
 * family ({hkl} in the crystal's Laue class; an icosahedron's faces are all {111}, a decahedron's are {100} parallel to
 * its five-fold axis and {111} otherwise), over all surface atoms.
 *
 * Debye width: the Nanoparticle page's pattern (debye.ts particleVersusBulk: Cu Kα 1.54184 Å, 2θ 10–80°, step 0.05°,
 * pair distances in bins of 0.01 Å) and its peak, the particle's peak nearest the bulk's strongest one with the full width
 * at half maximum taken as twice the high-angle half width. strongestPeakWidth over the same range would measure the
 * small-angle rise below 2θ ≈ 15°, which dominates a small particle's pattern, not a Bragg peak.
 */
import { particleVersusBulk } from '../../analysis/debye.ts';
import { formatCsv } from '../../io/csv.ts';
import { hullFacets } from '../../analysis/facets.ts';
import { convexHullTriangles } from '../../analysis/hull.ts';
import { sin } from '../../math/libm.ts';
import { type Mat3, type Vec3, dot } from '../../math/mat3.ts';
import { type BondOptions, computeBonds, coordinationNumbers } from '../../structure/bonds.ts';
import { ClusterError, latticeConstantOf } from '../../structure/clusters/common.ts';
import type { SurfaceEnergy } from '../../structure/clusters/surface-energies.ts';
import type { WulffRounding } from '../../structure/clusters/wulff.ts';
import { type WulffSymmetry, planeFamilyLabeler } from './wulff-crystal.ts';
import { Lattice } from '../../structure/lattice.ts';
import { type Structure, makeSiteFromCart, makeSiteFromFrac } from '../../structure/structure.ts';
import { type CarveCenter, carveParticle } from './carve.ts';
import { type AseShape, aseShape, fccOfCrystal, fillWulff } from './shapes.ts';
import { bulkCoordinationByElement, surfaceMask, teachingBondOptions } from './teaching.ts';

export type SeriesShape = 'sphere' | 'wulff' | AseShape;
export const SERIES_SHAPES: readonly SeriesShape[] = ['sphere', 'wulff', 'icosahedron', 'decahedron', 'octahedron', 'cuboctahedron'];

/** What the particles are made of: a crystal (any shape; ASE shapes need a one-element fcc one) or an element (ASE shapes). */
export interface SeriesSource {
  crystal?: Structure;
  element?: string;
  /** Å, for an element: ASE's reference fcc a when undefined. */
  latticeConstant?: number;
}

export interface SeriesOptions {
  /** Wulff: the surface energies, rounding, symmetry and tolerance (fillWulff's). */
  energies?: readonly SurfaceEnergy[];
  rounding?: WulffRounding;
  symmetry?: WulffSymmetry;
  symprec?: number;
  /** Sphere and Wulff: carve.ts's supercell, centre, frame (and the sphere's ≤). */
  repeats?: number;
  center?: CarveCenter;
  keepLatticeFrame?: boolean;
  inclusive?: boolean;
  /** Decahedron: the Marks re-entrance r (default 0). Octahedron: the cutoff (default 0). */
  r?: number;
  cutoff?: number;
  /** Compute the Debye peak width (default true; O(N²) in the atoms). */
  debye?: boolean;
}

/** What a size means for each shape: atoms wanted (Wulff), shells, p = q (decahedron), edge length (octahedron), radius. */
export const SIZE_PARAMETER: Record<SeriesShape, string> = {
  sphere: 'radius',
  wulff: 'size',
  icosahedron: 'shells',
  cuboctahedron: 'shells',
  decahedron: 'p',
  octahedron: 'length',
};

export type SiteClass = 'bulk' | 'face' | 'edge' | 'vertex' | 'recessed';
export const SITE_CLASSES: readonly SiteClass[] = ['bulk', 'face', 'edge', 'vertex', 'recessed'];

/** One particle of a shape, ready to draw and to analyse. */
export interface ShapeParticle {
  symbols: string[];
  positions: Vec3[];
  /** The shape's parameters as built (shells, p/q/r, length/cutoff, size and scale, radius). */
  parameters: Record<string, number>;
  magic: boolean;
  /** The lattice whose (hkl) name its facets (the crystal's cell in the particle's frame). */
  cell: Mat3;
  shape: SeriesShape;
  warnings: string[];
}

/** What a series shares between its members: the rule for neighbours and surface, the crystal for the bulk pattern. */
interface SeriesContext {
  bonds: BondOptions;
  bulk: Record<string, number>;
  crystal: Structure;
  /** The family label of a facet's (hkl) or normal. */
  label: (hkl: Vec3 | null, normal: Vec3) => string;
}

/** The conventional fcc cell of `element` with constant a. */
function fccCrystal(element: string, a: number): Structure {
  const lattice = Lattice.cubic(a);
  const sites = (
    [
      [0, 0, 0],
      [0, 0.5, 0.5],
      [0.5, 0, 0.5],
      [0.5, 0.5, 0],
    ] as Vec3[]
  ).map((f) => makeSiteFromFrac(lattice, f, { [element]: 1 }));
  return { name: `${element} (fcc, a = ${a} Å)`, lattice, sites };
}

/** The element and lattice constant ASE's builders get from `source`, and the bulk crystal. */
function aseSource(shape: AseShape, source: SeriesSource): { element: string; a: number | undefined; crystal: Structure | null } {
  if (source.crystal) {
    const fcc = fccOfCrystal(source.crystal);
    return { element: fcc.element, a: fcc.latticeConstant, crystal: source.crystal };
  }
  if (!source.element) throw new ClusterError(`the ${shape} needs an element or a one-element fcc crystal`);
  return { element: source.element, a: source.latticeConstant, crystal: null };
}

/** The particle of `shape` at `size` (see SIZE_PARAMETER) made from `source`. */
export function shapeParticle(shape: SeriesShape, size: number, source: SeriesSource, options: SeriesOptions = {}): ShapeParticle {
  if (!SERIES_SHAPES.includes(shape))
    throw new ClusterError(`unknown shape ${JSON.stringify(shape)} (shapes: ${SERIES_SHAPES.join(', ')})`);
  if (shape === 'sphere' || shape === 'wulff') {
    const crystal = source.crystal;
    if (!crystal) throw new ClusterError(`a ${shape} is cut from a crystal; give one`);
    if (shape === 'sphere') {
      let p: ReturnType<typeof carveParticle>;
      try {
        p = carveParticle(crystal, {
          radius: size,
          repeats: options.repeats,
          center: options.center,
          inclusive: options.inclusive,
          keepLatticeFrame: options.keepLatticeFrame,
        });
      } catch (e) {
        if (e instanceof Error && e.name === 'LimitError') throw e;
        throw new ClusterError(e instanceof Error ? e.message : String(e));
      }
      return {
        symbols: p.symbols,
        positions: p.positions,
        parameters: { radius: size },
        magic: false,
        cell: p.cell,
        shape,
        warnings: p.warnings,
      };
    }
    if (!options.energies) throw new ClusterError('a Wulff shape needs surface energies');
    const p = fillWulff(crystal, options.energies, { ...options, size });
    return {
      symbols: p.symbols,
      positions: p.positions,
      parameters: { size, scale: p.scale },
      magic: false,
      cell: p.cell,
      shape,
      warnings: p.warnings,
    };
  }
  const { element, a } = aseSource(shape, source);
  const sizing =
    shape === 'decahedron'
      ? { p: size, q: size, r: options.r ?? 0 }
      : shape === 'octahedron'
        ? { length: size, cutoff: options.cutoff ?? 0 }
        : { shells: size };
  const built = aseShape(shape, element, a, sizing);
  const c = built.cluster;
  const positions: Vec3[] = [];
  for (let i = 0; i < c.nAtoms; i++) positions.push([c.positions[3 * i], c.positions[3 * i + 1], c.positions[3 * i + 2]]);
  return {
    symbols: new Array<string>(c.nAtoms).fill(element),
    positions,
    parameters: built.parameters,
    magic: built.magic,
    cell: Lattice.cubic(c.latticeConstant).matrix,
    shape,
    warnings: [],
  };
}

/** The neighbour rule, bulk coordination, bulk crystal and facet labels of a series. */
function seriesContext(shape: SeriesShape, source: SeriesSource, options: SeriesOptions): SeriesContext {
  if (shape === 'sphere' || shape === 'wulff') {
    const crystal = source.crystal;
    if (!crystal) throw new ClusterError(`a ${shape} is cut from a crystal; give one`);
    const bonds = teachingBondOptions(crystal);
    const familyOf = planeFamilyLabeler(crystal, options.energies ?? [], { symmetry: options.symmetry, symprec: options.symprec });
    return { bonds, bulk: bulkCoordinationByElement(crystal, bonds), crystal, label: (hkl) => (hkl ? familyOf(hkl) : 'unindexed') };
  }
  const { element, a, crystal: given } = aseSource(shape, source);
  // The lattice constant as the builders resolve it (given, the crystal's, or ASE's reference one).
  const builder = shape === 'icosahedron' || shape === 'decahedron' ? ['fcc', 'bcc', 'sc'] : ['fcc'];
  const constant = latticeConstantOf(element, a, builder, shape);
  const bonds: BondOptions = { overrides: { [`${element}-${element}`]: (1.2 * constant) / Math.SQRT2 }, metalMetal: true };
  const crystal = given ?? fccCrystal(element, constant);
  // An icosahedron's and a decahedron's faces are {111} of their twinned tetrahedra (a decahedron's side faces {100}).
  const sideFace = sin((3 * Math.PI) / 180);
  const label =
    shape === 'icosahedron'
      ? () => '{1 1 1}'
      : shape === 'decahedron'
        ? (_: Vec3 | null, normal: Vec3) => (Math.abs(normal[2]) < sideFace ? '{1 0 0}' : '{1 1 1}')
        : (hkl: Vec3 | null) =>
            hkl
              ? `{${hkl
                  .map(Math.abs)
                  .sort((x, y) => y - x)
                  .join(' ')}}`
              : 'unindexed';
  return { bonds, bulk: { [element]: 12 }, crystal, label };
}

/** Per-atom analysis of a particle: coordination, surface mask and site class. */
export interface ParticleSites {
  coordination: Uint32Array;
  surface: Uint8Array;
  /** Index into SITE_CLASSES per atom. */
  siteClass: Uint8Array;
}

/** Counts and coordination histogram of one site class. */
export interface SiteClassStats {
  count: number;
  /** histogram[k] = atoms of the class with coordination k. */
  coordination: number[];
}

/** One member of a size series. */
export interface SeriesMember {
  /** The size as asked (atoms for Wulff, shells, p, length, radius). */
  size: number;
  parameters: Record<string, number>;
  nAtoms: number;
  surfaceAtoms: number;
  surfaceFraction: number;
  meanCoordination: number;
  siteClasses: Record<SiteClass, SiteClassStats>;
  /** Surface atoms per Miller family (shared among the facets an atom lies on), over all surface atoms, largest first. */
  facetFractions: { family: string; fraction: number }[];
  /** The Debye peak nearest the bulk's strongest (degrees 2θ), or null when not computed. */
  debye: { twoTheta: number; fwhm: number } | null;
  magic: boolean;
  warnings: string[];
}

/** Plane offset within which an atom lies on a facet, relative to the nearest-neighbour distance. */
const ON_FACET = 0.05;

/** Coordination, surface and site class of every atom, and the facet fractions, of `particle` under `context`. */
function analyzeSites(particle: ShapeParticle, context: SeriesContext): ParticleSites & { facetFractions: SeriesMember['facetFractions'] } {
  const { symbols, positions } = particle;
  const n = positions.length;
  const finite: Structure = {
    name: 'particle',
    lattice: null,
    sites: positions.map((p, i) => makeSiteFromCart(null, p, { [symbols[i]]: 1 })),
  };
  const bonds = computeBonds(finite, context.bonds);
  const coordination = coordinationNumbers(n, bonds);
  const surface = surfaceMask(symbols, coordination, context.bulk);
  let nearest = Infinity;
  for (const d of bonds.length) nearest = Math.min(nearest, d);
  const tol = ON_FACET * (Number.isFinite(nearest) ? nearest : 1);
  const triangles = convexHullTriangles(positions);
  const facets = n >= 4 ? hullFacets(positions, triangles, new Lattice(particle.cell), null) : [];
  const planes = facets.map((f) => ({ normal: f.normal, offset: dot(f.normal, f.centroid), family: context.label(f.hkl, f.normal) }));
  const siteClass = new Uint8Array(n);
  // Per family: atoms wholly on it (counted exactly) and the shares of atoms it divides with other families.
  const whole = new Map<string, number>();
  const shares = new Map<string, number>();
  let surfaceAtoms = 0;
  for (let i = 0; i < n; i++) {
    if (!surface[i]) continue;
    surfaceAtoms++;
    const on = planes.filter((p) => Math.abs(dot(p.normal, positions[i]) - p.offset) <= tol);
    siteClass[i] = on.length === 0 ? 4 : on.length === 1 ? 1 : on.length === 2 ? 2 : 3;
    const mine = new Map<string, number>();
    for (const p of on) mine.set(p.family, (mine.get(p.family) ?? 0) + 1);
    for (const [family, k] of mine) {
      if (k === on.length) whole.set(family, (whole.get(family) ?? 0) + 1);
      else shares.set(family, (shares.get(family) ?? 0) + k / on.length);
    }
  }
  const facetFractions = [...new Set([...whole.keys(), ...shares.keys()])]
    .map((family) => ({ family, fraction: ((whole.get(family) ?? 0) + (shares.get(family) ?? 0)) / surfaceAtoms }))
    .sort((x, y) => y.fraction - x.fraction || (x.family < y.family ? -1 : 1));
  return { coordination, surface, siteClass, facetFractions };
}

/** Page defaults of the Debye pattern (workers/c2np.worker.ts `diffraction`). */
const DEBYE = { lambda: 1.54184, twoTheta: [10, 80] as [number, number], step: 0.05 };

function member(particle: ShapeParticle, size: number, context: SeriesContext, debye: boolean): SeriesMember {
  const sites = analyzeSites(particle, context);
  const n = particle.positions.length;
  const classes = Object.fromEntries(SITE_CLASSES.map((c) => [c, { count: 0, coordination: [] as number[] }])) as Record<
    SiteClass,
    SiteClassStats
  >;
  let surfaceAtoms = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = classes[SITE_CLASSES[sites.siteClass[i]]];
    const cn = sites.coordination[i];
    c.count++;
    while (c.coordination.length <= cn) c.coordination.push(0);
    c.coordination[cn]++;
    surfaceAtoms += sites.surface[i];
    total += cn;
  }
  let peak: SeriesMember['debye'] = null;
  if (debye) {
    const flat = new Float64Array(3 * n);
    particle.positions.forEach((p, i) => flat.set(p, 3 * i));
    peak = particleVersusBulk(particle.symbols, flat, context.crystal, DEBYE).particlePeak;
  }
  return {
    size,
    parameters: particle.parameters,
    nAtoms: n,
    surfaceAtoms,
    surfaceFraction: n ? surfaceAtoms / n : 0,
    meanCoordination: n ? total / n : 0,
    siteClasses: classes,
    facetFractions: sites.facetFractions,
    debye: peak,
    magic: particle.magic,
    warnings: particle.warnings,
  };
}

/** Coordination, surface mask and site class of every atom of one particle of a series (for drawing it). */
export function particleSites(particle: ShapeParticle, source: SeriesSource, options: SeriesOptions = {}): ParticleSites {
  const { coordination, surface, siteClass } = analyzeSites(particle, seriesContext(particle.shape, source, options));
  return { coordination, surface, siteClass };
}

/**
 * The series of `shape` from `source` over `sizes` (see SIZE_PARAMETER), one member per size in order; `onMember`
 * reports progress. Sizes past LIMITS.particleAtoms or clusterSites are refused with a sentence (LimitError).
 */
export function sizeSeries(
  shape: SeriesShape,
  sizes: readonly number[],
  source: SeriesSource,
  options: SeriesOptions = {},
  onMember?: (done: number, total: number) => void,
): SeriesMember[] {
  if (!SERIES_SHAPES.includes(shape))
    throw new ClusterError(`unknown shape ${JSON.stringify(shape)} (shapes: ${SERIES_SHAPES.join(', ')})`);
  if (sizes.length === 0) throw new ClusterError('the series needs at least one size');
  const context = seriesContext(shape, source, options);
  return sizes.map((size, k) => {
    const m = member(shapeParticle(shape, size, source, options), size, context, options.debye ?? true);
    onMember?.(k + 1, sizes.length);
    return m;
  });
}

/** A histogram as {cn: atoms}, the empty bins left out. */
const histogramObject = (counts: readonly number[]): Record<string, number> =>
  Object.fromEntries(counts.flatMap((n, cn) => (n > 0 ? [[String(cn), n]] : [])));

/**
 * The series as `structlab series` prints it and the Nanoparticle page downloads it: shape, source, size_parameter,
 * the Wulff area fractions, one row per member (non-finite numbers become null when written as JSON).
 */
export function seriesDocument(
  shape: SeriesShape,
  source: string,
  rows: readonly SeriesMember[],
  areaFractions: Record<string, number> | null,
): Record<string, unknown> {
  return {
    shape,
    source,
    size_parameter: SIZE_PARAMETER[shape],
    ...(areaFractions ? { area_fractions: areaFractions } : {}),
    rows: rows.map((m) => ({
      size: m.size,
      parameters: m.parameters,
      n_atoms: m.nAtoms,
      magic: m.magic,
      surface_atoms: m.surfaceAtoms,
      surface_fraction: m.surfaceFraction,
      mean_cn: m.meanCoordination,
      site_classes: Object.fromEntries(
        SITE_CLASSES.map((c) => [c, { count: m.siteClasses[c].count, coordination: histogramObject(m.siteClasses[c].coordination) }]),
      ),
      facet_fractions: Object.fromEntries(m.facetFractions.map((f) => [f.family, f.fraction])),
      debye: m.debye && { two_theta: m.debye.twoTheta, fwhm: m.debye.fwhm },
    })),
  };
}

/** The series as CSV (`structlab series --csv`, the page's download): one line per member, one column per facet family and CN. */
export function seriesCsv(shape: SeriesShape, rows: readonly SeriesMember[]): string {
  const families = [...new Set(rows.flatMap((m) => m.facetFractions.map((f) => f.family)))];
  let maxCn = 0;
  for (const m of rows) for (const c of SITE_CLASSES) maxCn = Math.max(maxCn, m.siteClasses[c].coordination.length - 1);
  const header = [
    'shape',
    'size',
    'n_atoms',
    'magic',
    'surface_atoms',
    'surface_fraction',
    'mean_cn',
    ...SITE_CLASSES.map((c) => `n_${c}`),
    'debye_two_theta',
    'debye_fwhm',
    ...families.map((f) => `facet ${f}`),
    ...Array.from({ length: maxCn + 1 }, (_, k) => `cn_${k}`),
  ];
  const lines = rows.map((m) => [
    shape,
    m.size,
    m.nAtoms,
    m.magic,
    m.surfaceAtoms,
    m.surfaceFraction,
    m.meanCoordination,
    ...SITE_CLASSES.map((c) => m.siteClasses[c].count),
    m.debye?.twoTheta ?? null,
    m.debye?.fwhm ?? null,
    ...families.map((f) => m.facetFractions.find((x) => x.family === f)?.fraction ?? 0),
    ...Array.from({ length: maxCn + 1 }, (_, k) => SITE_CLASSES.reduce((s, c) => s + (m.siteClasses[c].coordination[k] ?? 0), 0)),
  ]);
  return formatCsv(header, lines);
}
