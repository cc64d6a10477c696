/**
 * The Nanoparticle page's shapes and size series as plain data: what each shape's size means on the page, the surface
 * energy table → core's energies, the series' sizes, the series → plot data, magic-number markers, and the series as
 * CSV/JSON in `structlab series`'s layout (one writer, src/core/tasks/c2np/size-series.ts; tests/unit/np-shape-model.test.ts
 * holds the two equal). No React, no worker: tests/unit/np-shape-model.test.ts runs it in node.
 */
import { parseSurfaceEnergies, type SurfaceEnergy } from '../core/structure/clusters/surface-energies.ts';
import { SITE_CLASSES, SIZE_PARAMETER, type SeriesMember, type SiteClass, seriesDocument } from '../core/tasks/c2np/size-series.ts';
import type { ParticleShape } from '../../workers/c2np-api.ts';
import { LIMITS } from '../core/limits.ts';

/** The shapes in the page's order; the ASE ones need a one-element fcc crystal. */
export const SHAPES: readonly { id: ParticleShape; label: string; ase: boolean }[] = [
  { id: 'sphere', label: 'sphere (C2NP)', ase: false },
  { id: 'wulff', label: 'Wulff polyhedron', ase: false },
  { id: 'icosahedron', label: 'icosahedron (Mackay)', ase: true },
  { id: 'decahedron', label: 'decahedron (Ino / Marks)', ase: true },
  { id: 'octahedron', label: 'octahedron (truncated)', ase: true },
  { id: 'cuboctahedron', label: 'cuboctahedron', ase: true },
];

/**
 * The page counts an icosahedron's, a cuboctahedron's and a decahedron's shells around the centre atom, as the
 * textbooks do (1 shell: 13 atoms, 2: 55, 3: 147); ASE's noshells (and p = q) count the centre atom as a shell too.
 */
const SHELLED: ReadonlySet<ParticleShape> = new Set(['icosahedron', 'cuboctahedron', 'decahedron']);

/** Core's size (SIZE_PARAMETER) of a page size. */
export const coreSize = (shape: ParticleShape, size: number): number => (SHELLED.has(shape) ? size + 1 : size);
/** The page's size of a core size. */
export const pageSize = (shape: ParticleShape, size: number): number => (SHELLED.has(shape) ? size - 1 : size);

/** What the page's size of a shape is, for its label and the series' x readout. */
export function sizeLabel(shape: ParticleShape): string {
  if (SHELLED.has(shape)) return 'shells around the centre atom';
  if (shape === 'octahedron') return 'atoms on an edge (L)';
  if (shape === 'wulff') return 'atoms wanted, N';
  return 'radius (Å)';
}

/** The core parameter's name next to the page's (ASE's noshells = shells + 1). */
export function coreSizeNote(shape: ParticleShape, size: number): string {
  if (shape === 'decahedron') return `ASE Decahedron(p = q = ${coreSize(shape, size)})`;
  if (SHELLED.has(shape)) return `ASE ${shape === 'icosahedron' ? 'Icosahedron' : 'cuboctahedron'}(noshells = ${coreSize(shape, size)})`;
  if (shape === 'wulff') return `N = ${size} asked; the closed size nearest it is built`;
  return `${SIZE_PARAMETER[shape]} = ${size}`;
}

/** A series' sizes on the page to start from, per shape (page units). */
export const DEFAULT_SIZES: Record<ParticleShape, string> = {
  sphere: '6..14',
  wulff: '50,100,200,400,800',
  icosahedron: '1..5',
  cuboctahedron: '1..5',
  decahedron: '1..5',
  octahedron: '2..7',
};

/** "One sentence." from core's lower-case clause. */
export const sentence = (message: string): string => {
  const t = message.trim();
  return t ? t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') : t;
};

/**
 * The sizes of `text` (page units): `1,2,3`, `2..8` or `5..20:2.5` as `structlab series --sizes` takes them; whole
 * numbers unless `decimals` (radii). Throws the sentence of what is wrong.
 */
export function parseSizes(text: string, decimals: boolean, min = decimals ? 0 : 1): number[] {
  const out: number[] = [];
  const number = (raw: string): number => {
    const t = raw.trim();
    const value = decimals ? (t === '' ? NaN : Number(t)) : /^[+-]?\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isFinite(value) || (!decimals && !Number.isSafeInteger(value)))
      throw new Error(`The sizes: "${t.slice(0, 20)}" is not ${decimals ? 'a number' : 'a whole number'}.`);
    if (decimals ? !(value > min) : value < min)
      throw new Error(`The sizes must be ${decimals ? 'greater than' : 'at least'} ${min}, got ${value}.`);
    return value;
  };
  for (const item of text.split(',')) {
    const range = /^(.*)\.\.([^:]*)(?::(.*))?$/.exec(item.trim());
    if (!range) out.push(number(item));
    else {
      const from = number(range[1]);
      const to = number(range[2]);
      const step = range[3] !== undefined ? Number(range[3]) : 1;
      if (!(step > 0) || (!decimals && !Number.isInteger(step)))
        throw new Error(`The step of "${item.trim()}" must be a positive ${decimals ? 'number' : 'whole number'}.`);
      if (to < from) throw new Error(`The range "${item.trim()}" runs backwards.`);
      const count = Math.floor((to - from) / step + 1e-9) + 1;
      if (count + out.length > LIMITS.seriesSizes)
        throw new Error(`The sizes list ${count + out.length} particles; a series has at most ${LIMITS.seriesSizes}.`);
      for (let k = 0; k < count; k++) out.push(decimals ? +(from + k * step).toPrecision(12) : from + k * step);
    }
    if (out.length > LIMITS.seriesSizes)
      throw new Error(`The sizes list ${out.length} particles; a series has at most ${LIMITS.seriesSizes}.`);
  }
  return out;
}

/** One row of the surface-energy table as typed: "1 1 1" (or 1,1,1, 111, (1 1 1), {1 1 1}) and γ. */
export interface EnergyRow {
  hkl: string;
  energy: string;
}

/** The indices of a typed (hkl): separated by spaces or commas, or one digit each ("111", "1-10"). */
export function millerTokens(text: string): string[] {
  const t = text.replace(/[(){}[\]]/g, ' ').trim();
  if (/[\s,]/.test(t)) return t.split(/[\s,]+/).filter((x) => x !== '');
  return t.match(/[+-]?\d/g) ?? (t ? [t] : []);
}

/**
 * The table as core's energies, or the sentence of the first bad row. Each row is read by core's reader
 * (parseSurfaceEnergies, the Materials Project layout), so the page and `structlab carve --surface-energies` refuse alike.
 */
export function energiesOf(rows: readonly EnergyRow[]): { energies: SurfaceEnergy[] } | { error: string } {
  if (rows.length === 0) return { error: 'Add at least one (hkl) and its surface energy.' };
  const surfaces = rows.map((r) => ({ miller_index: millerTokens(r.hkl), surface_energy: r.energy }));
  try {
    return { energies: parseSurfaceEnergies(JSON.stringify({ surfaces }), 'json') };
  } catch (e) {
    // Core numbers the entries "surface k"; on the page they are the table's rows.
    return { error: sentence((e as Error).message.replace(/^surface (\d+)/, 'row $1')) };
  }
}

/** Energies as table rows (a loaded file shown for editing). */
export const rowsOf = (energies: readonly SurfaceEnergy[]): EnergyRow[] =>
  energies.map((e) => ({ hkl: e.miller.join(' '), energy: String(e.energy) }));

/**
 * Energies to start from. A one-element fcc crystal: the broken-bond ratios of its three low-index faces (first
 * neighbours cut per area: {111} 3 per √3a²/4, {100} 4 per a²/2, {110} 6 per √2a²/2 with the second layer's one), in
 * units of γ{111}. Any other crystal: a neutral guess, {100} lowest, for the teacher to replace (or load the Materials
 * Project's values).
 */
export function defaultEnergyRows(fcc: boolean): EnergyRow[] {
  if (fcc)
    return [
      { hkl: '1 0 0', energy: '1.155' },
      { hkl: '1 1 0', energy: '1.225' },
      { hkl: '1 1 1', energy: '1' },
    ];
  return [
    { hkl: '1 0 0', energy: '1' },
    { hkl: '1 1 0', energy: '1.1' },
    { hkl: '1 1 1', energy: '1.2' },
  ];
}

/** A file of energies by its name: .json as JSON, anything else as CSV (h,k,l,energy rows) or h,k,l:γ text. */
export function energiesFromFile(name: string, text: string): { energies: SurfaceEnergy[] } | { error: string } {
  const format = /\.json$/i.test(name) ? 'json' : undefined;
  try {
    return { energies: parseSurfaceEnergies(text, format) };
  } catch (e) {
    return { error: sentence(`could not read ${name}: ${(e as Error).message}`) };
  }
}

/** A series' members by atom count (x must rise for the plots), with each one's index in the series. */
function byAtoms(members: readonly SeriesMember[]): { m: SeriesMember; k: number }[] {
  return members.map((m, k) => ({ m, k })).sort((a, b) => a.m.nAtoms - b.m.nAtoms || a.k - b.k);
}

/** The site classes drawn, top of the stack first (recessed only when a member has any). */
export const CLASS_COLORS: Record<SiteClass, string> = {
  vertex: '#d62728',
  edge: '#ff7f0e',
  face: '#2ca02c',
  recessed: '#9467bd',
  bulk: '#1f5fd6',
};

/** The series as plot columns against N: each array in members' N order (`order[i]` = the member's index). */
export interface SeriesPlotData {
  order: number[];
  n: number[];
  surfaceFraction: number[];
  meanCn: number[];
  /** Debye FWHM (°2θ); null where not computed. */
  fwhm: (number | null)[];
  /** Per facet family (largest share anywhere first): its fraction of the surface atoms, 0 where absent. */
  facets: { family: string; fraction: number[] }[];
  /** Share of the atoms per site class, cumulative from the bottom (bulk) up: stacked areas drawn back to front. */
  classStack: { cls: SiteClass; own: number[]; top: number[] }[];
}

/** Plot columns of a series (see SeriesPlotData). */
export function seriesPlotData(members: readonly SeriesMember[]): SeriesPlotData {
  const sorted = byAtoms(members);
  const best = new Map<string, number>();
  for (const { m } of sorted) for (const f of m.facetFractions) best.set(f.family, Math.max(best.get(f.family) ?? 0, f.fraction));
  const families = [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([f]) => f);
  const shown = SITE_CLASSES.filter((c) => c !== 'recessed' || members.some((m) => m.siteClasses.recessed.count > 0));
  const running = sorted.map(() => 0);
  const classStack = shown.map((cls) => {
    const own = sorted.map(({ m }) => (m.nAtoms ? m.siteClasses[cls].count / m.nAtoms : 0));
    const top = own.map((v, i) => (running[i] += v));
    return { cls, own, top };
  });
  return {
    order: sorted.map((s) => s.k),
    n: sorted.map((s) => s.m.nAtoms),
    surfaceFraction: sorted.map((s) => s.m.surfaceFraction),
    meanCn: sorted.map((s) => s.m.meanCoordination),
    fwhm: sorted.map((s) => s.m.debye?.fwhm ?? null),
    facets: families.map((family) => ({
      family,
      fraction: sorted.map(({ m }) => m.facetFractions.find((f) => f.family === family)?.fraction ?? 0),
    })),
    classStack,
  };
}

/** One member's coordination histogram by site class, stacked: x = CN, each class's bar on top of those below it. */
export function classHistogram(member: SeriesMember): { cn: number[]; layers: { cls: SiteClass; own: number[]; top: number[] }[] } {
  let max = 0;
  for (const c of SITE_CLASSES) max = Math.max(max, member.siteClasses[c].coordination.length - 1);
  const cn = Array.from({ length: max + 1 }, (_, k) => k);
  const running = cn.map(() => 0);
  const layers = SITE_CLASSES.filter((c) => member.siteClasses[c].count > 0).map((cls) => {
    const own = cn.map((k) => member.siteClasses[cls].coordination[k] ?? 0);
    return { cls, own, top: own.map((v, i) => (running[i] += v)) };
  });
  return { cn, layers };
}

/** Mackay's closed-shell numbers (icosahedra, cuboctahedra, Ino decahedra): 13, 55, 147, 309, 561, … up to `max`. */
export function closedShellNumbers(max: number): number[] {
  const out: number[] = [];
  for (let k = 1; ; k++) {
    const n = (10 * k ** 3 + 15 * k ** 2 + 11 * k + 3) / 3;
    if (n > max) return out;
    out.push(n);
  }
}

/**
 * The vertical markers of a series' plots: the atom counts of its magic members (closed shells), or where it has none
 * (spheres, Wulff particles) Mackay's closed-shell numbers within its range, as references (`reference` true).
 */
export function magicMarkers(members: readonly SeriesMember[]): { n: number[]; reference: boolean } {
  const magic = [...new Set(members.filter((m) => m.magic).map((m) => m.nAtoms))].sort((a, b) => a - b);
  if (magic.length > 0 || members.length === 0) return { n: magic, reference: false };
  const counts = members.map((m) => m.nAtoms);
  const lo = Math.min(...counts);
  return { n: closedShellNumbers(Math.max(...counts)).filter((n) => n >= lo), reference: true };
}

/** The series as `structlab series`'s JSON (src/core/tasks/c2np/size-series.ts seriesDocument), non-finite numbers as null. */
export function seriesJson(
  shape: ParticleShape,
  source: string,
  rows: readonly SeriesMember[],
  areaFractions: Record<string, number> | null,
): string {
  return JSON.stringify(seriesDocument(shape, source, rows, areaFractions), (_key, v) =>
    typeof v === 'number' && !Number.isFinite(v) ? null : v,
  );
}
