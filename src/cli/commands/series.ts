import { LIMITS, quoted } from '../../core/limits.ts';
import { ClusterError } from '../../core/structure/clusters/common.ts';
import type { SurfaceEnergy } from '../../core/structure/clusters/surface-energies.ts';
import type { WulffRounding } from '../../core/structure/clusters/wulff.ts';
import { type WulffSymmetry, wulffShapeOf } from '../../core/tasks/c2np/wulff-crystal.ts';
import {
  SERIES_SHAPES,
  type SeriesMember,
  type SeriesShape,
  type SeriesSource,
  seriesCsv,
  seriesDocument,
  sizeSeries,
} from '../../core/tasks/c2np/size-series.ts';
import { choiceOption, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { toStrictJson } from '../io.ts';
import { loadCrystal, loadSurfaceEnergies, parseCenter, wholeOption } from './carve.ts';

export const SERIES_HELP = `usage: structlab series --shape sphere|wulff|icosahedron|decahedron|octahedron|cuboctahedron
                       (CELL | --element E [--lattice-constant A]) --sizes LIST [--csv] [--no-debye]
                       [--surface-energies SPEC|FILE] [--rounding closest|above|below] [--symmetry laue|point-group|lattice]
                       [--r R] [--cutoff C] [--repeats 20] [--center box|origin|X,Y,Z] [--inclusive]

How a particle's numbers approach the crystal's as it grows: one row per size of one shape.
  --shape S     sphere (sizes: radii in Å, carved as structlab carve), wulff (sizes: atoms wanted; needs
                --surface-energies, as structlab carve --shape wulff), icosahedron and cuboctahedron (sizes:
                shells), decahedron (sizes: p = q, Marks re-entrance --r R, default 0), octahedron (sizes: atoms
                on an edge L, --cutoff C layers cut at each corner, default 0)
  CELL          the crystal (sphere and wulff need one; the ASE shapes need a one-element fcc crystal)
  --element E   the ASE shapes without a crystal: element E at --lattice-constant A Å (default: ASE's reference
                fcc a of E)
  --sizes LIST  comma-separated sizes and ranges: 1,2,3 or 2..8 or 5..20:2.5 (radii may be decimals); at most 200 (--limit seriesSizes=N)
  --csv         CSV instead of JSON: one row per size, the coordination histogram in columns cn_0, cn_1, ...
  --no-debye    skip the Debye powder pattern (it costs N² pair distances per particle)
Per size: n_atoms; magic (a closed-shell count: icosahedra, cuboctahedra, Ino decahedra p = q, regular,
cuboctahedral and regular truncated octahedra; never spheres or Wulff particles); surface_atoms and
surface_fraction (an atom with fewer neighbours than its element's bulk coordination; neighbours read off the
crystal's first shell, for ASE's strained shapes every pair within 1.2·a/√2); mean_cn; site_classes (bulk, and
surface atoms on one (face), two (edge) or three or more (vertex) facet planes of the convex hull, or below them
all (recessed), each with its coordination histogram); facet_fractions (surface atoms per {hkl} family, an atom on
several facets shared among them); debye (the particle's peak nearest the crystal's strongest reflection, Cu Kα
2θ 10–80° step 0.05° as the Nanoparticle page: two_theta and fwhm in degrees).
Prints {"shape", "source", "size_parameter", "rows": [...]} (wulff adds the polyhedron's area_fractions).
At most 100,000 atoms per particle (--limit particleAtoms=N) and 2,000,000 lattice sites (--limit clusterSites=N).
`;

/** `1,2,3`, `2..8` or `5..20:2.5`: whole numbers unless `decimals` (radii). */
function parseSizes(raw: string, decimals: boolean): number[] {
  const out: number[] = [];
  const number = (text: string): number => {
    const t = text.trim();
    const value = decimals ? (t === '' ? NaN : Number(t)) : /^[+-]?\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isFinite(value) || (!decimals && !Number.isSafeInteger(value)))
      throw new CliError(`--sizes: ${quoted(t)} is not ${decimals ? 'a number' : 'a whole number'}`);
    return value;
  };
  for (const item of raw.split(',')) {
    const range = /^(.*)\.\.([^:]*)(?::(.*))?$/.exec(item.trim());
    if (!range) {
      out.push(number(item));
    } else {
      const from = number(range[1]);
      const to = number(range[2]);
      const step = range[3] !== undefined ? number(range[3]) : 1;
      if (!(step > 0)) throw new CliError(`--sizes: the step of ${quoted(item.trim())} must be positive`);
      if (to < from) throw new CliError(`--sizes: the range ${quoted(item.trim())} runs backwards`);
      const count = Math.floor((to - from) / step + 1e-9) + 1;
      if (count + out.length > LIMITS.seriesSizes)
        throw new CliError(`--sizes lists ${count + out.length} sizes; at most ${LIMITS.seriesSizes}`);
      for (let k = 0; k < count; k++) out.push(decimals ? +(from + k * step).toPrecision(12) : from + k * step);
    }
    if (out.length > LIMITS.seriesSizes) throw new CliError(`--sizes lists ${out.length} sizes; at most ${LIMITS.seriesSizes}`);
  }
  return out;
}

export function runSeries(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    ...[
      'shape',
      'element',
      'lattice-constant',
      'sizes',
      'surface-energies',
      'rounding',
      'symmetry',
      'r',
      'cutoff',
      'repeats',
      'center',
    ].map((name) => ({ name, kind: 'string' as const })),
    { name: 'inclusive', kind: 'flag' },
    { name: 'csv', kind: 'flag' },
    { name: 'no-debye', kind: 'flag' },
  ]);
  if (options.shape === undefined) throw new CliError(`series needs --shape (${SERIES_SHAPES.join(', ')})`);
  if (!(SERIES_SHAPES as readonly string[]).includes(String(options.shape)))
    throw new CliError(`--shape must be one of ${SERIES_SHAPES.join(', ')}, got ${quoted(String(options.shape))}`);
  const shape = options.shape as SeriesShape;
  if (typeof options.sizes !== 'string') throw new CliError(`series needs --sizes (e.g. 1..8 or 2,3,5)`);
  const fromCrystal = shape === 'sphere' || shape === 'wulff';
  const only = (name: string, applies: boolean, where: string) => {
    if (options[name] !== undefined && !applies) throw new CliError(`--${name} applies to ${where} only`);
  };
  only('surface-energies', shape === 'wulff', '--shape wulff');
  only('rounding', shape === 'wulff', '--shape wulff');
  only('symmetry', shape === 'wulff', '--shape wulff');
  only('r', shape === 'decahedron', '--shape decahedron');
  only('cutoff', shape === 'octahedron', '--shape octahedron');
  only('repeats', fromCrystal, '--shape sphere and wulff');
  only('center', fromCrystal, '--shape sphere and wulff');
  only('inclusive', shape === 'sphere', '--shape sphere');
  if (positionals.length > 1) throw new CliError(`series takes at most one CELL file, got ${positionals.length}`);
  if (fromCrystal && positionals.length === 0) throw new CliError(`series ${shape} needs a CELL file (a crystal to cut it from)`);
  if (positionals.length === 0 && options.element === undefined) throw new CliError(`series ${shape} needs --element E or a CELL file`);
  only('element', !fromCrystal, 'the ASE shapes (icosahedron, decahedron, octahedron, cuboctahedron)');
  if (positionals.length === 1 && options.element !== undefined) throw new CliError('give a CELL file or --element, not both');
  only('lattice-constant', options.element !== undefined, '--element');
  if (shape === 'wulff' && typeof options['surface-energies'] !== 'string')
    throw new CliError('series wulff needs --surface-energies SPEC|FILE');

  const sizes = parseSizes(options.sizes, shape === 'sphere');
  if (shape === 'sphere' && sizes.some((r) => !(r > 0 && r <= 1000)))
    throw new CliError('--sizes: sphere radii must be between 0 and 1000 Å');
  const energies: SurfaceEnergy[] | undefined = shape === 'wulff' ? loadSurfaceEnergies(options['surface-energies'] as string) : undefined;
  const repeats = numberOption(options, 'repeats', 20, 1, 1000);
  if (!Number.isInteger(repeats)) throw new CliError(`--repeats must be a whole number, got ${repeats}`);
  const latticeConstant = options['lattice-constant'] !== undefined ? numberOption(options, 'lattice-constant', 0, 1e-3, 1000) : undefined;

  let source: SeriesSource;
  let keepLatticeFrame = false;
  let sourceName: string;
  if (positionals.length === 1) {
    const loaded = loadCrystal(positionals[0], warn);
    source = { crystal: loaded.structure };
    keepLatticeFrame = loaded.keepLatticeFrame;
    sourceName = positionals[0];
  } else {
    source = { element: String(options.element).trim(), latticeConstant };
    sourceName = `element ${source.element}`;
  }
  const seriesOptions = {
    energies,
    rounding: choiceOption<WulffRounding>(options, 'rounding', ['closest', 'above', 'below'], 'closest'),
    symmetry: choiceOption<WulffSymmetry>(options, 'symmetry', ['laue', 'point-group', 'lattice'], 'laue'),
    repeats,
    center: parseCenter(options.center),
    keepLatticeFrame,
    inclusive: options.inclusive === true,
    r: options.r !== undefined ? wholeOption(options.r, 'r', 0) : undefined,
    cutoff: options.cutoff !== undefined ? wholeOption(options.cutoff, 'cutoff', 0) : undefined,
    debye: options['no-debye'] !== true,
  };

  let rows: SeriesMember[];
  let areaFractions: Record<string, number> | undefined;
  try {
    rows = sizeSeries(shape, sizes, source, seriesOptions);
    if (shape === 'wulff') {
      const w = wulffShapeOf(source.crystal!, energies!, { symmetry: seriesOptions.symmetry });
      areaFractions = Object.fromEntries(w.families.map((f) => [f.label, f.areaFraction]));
    }
  } catch (e) {
    if (e instanceof ClusterError) throw new CliError(positionals.length === 1 ? `${positionals[0]}: ${e.message}` : e.message);
    throw e;
  }
  const warned = new Set<string>();
  for (const m of rows) for (const w of m.warnings) if (!warned.has(w)) warned.add(w);
  for (const w of warned) warn(`warning: ${w}`);
  if (options.csv === true) return seriesCsv(shape, rows).trimEnd();
  return toStrictJson(seriesDocument(shape, sourceName, rows, areaFractions ?? null));
}
