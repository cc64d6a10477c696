import { existsSync, statSync } from 'node:fs';
import type { Vec3 } from '../../core/math/mat3.ts';
import { ClusterError } from '../../core/structure/clusters/common.ts';
import { type SurfaceEnergy, parseSurfaceEnergies } from '../../core/structure/clusters/surface-energies.ts';
import type { WulffRounding } from '../../core/structure/clusters/wulff.ts';
import type { WulffSymmetry } from '../../core/tasks/c2np/wulff-crystal.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { type CarveCenter, type CarvedParticle, carveParticle } from '../../core/tasks/c2np/carve.ts';
import { RAW_COMMENT, formatGeneratorXyz, formatRawXyz, rotatedComment, roundLikeRawText } from '../../core/tasks/c2np/dataset.ts';
import { applyRotation, normalizeQuaternion, quaternionProblem, quaternionToMatrix } from '../../core/tasks/c2np/rotation.ts';
import { type AseShape, type AseShapeSize, aseShape, fccOfCrystal, fillWulff } from '../../core/tasks/c2np/shapes.ts';
import { type ParsedArgs, choiceOption, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputFile, loadStructureFile, readInputText, toStrictJson, writeOutputSafely } from '../io.ts';
import { errorText } from '../../core/errors.ts';
import { quoted } from '../../core/limits.ts';

export const CARVE_HELP = `usage: structlab carve CELL --radius R [--repeats 20] [--center box|origin|X,Y,Z] [--inclusive]
                      [--quaternion X,Y,Z,W] -o OUT.xyz [--force]
       structlab carve CELL --shape wulff --surface-energies SPEC|FILE --size N [--rounding closest|above|below]
                      [--symmetry laue|point-group|lattice] [--repeats 20] [--center box|origin|X,Y,Z] -o OUT.xyz
       structlab carve CELL --shape icosahedron|cuboctahedron (--shells K | --size N) -o OUT.xyz
       structlab carve CELL --shape decahedron (--p P --q Q [--r R] | --size N [--r R]) -o OUT.xyz
       structlab carve CELL --shape octahedron (--length L [--cutoff C] | --size N [--cutoff C]) -o OUT.xyz

Carves a spherical nanoparticle from a crystal with the C2NP/Atomsk convention: a repeats³ supercell of the
cell as read (CIF cells rebuilt with a along x, b in the xy-plane), atoms in Atomsk order (c shift outermost,
then b, then a, cell atoms innermost), centre ½(A1+A2+A3), keep |r − c| < R, no re-centring.
  --radius R        sphere radius in Å (required for the sphere)
  --repeats N       replicas per axis (default 20, as C2NP; RADII used 60)
  --center C        box (default), origin (sphere on the CIF origin, supercell shifts −n/2 … n/2−1),
                    or a Cartesian point X,Y,Z in Å in the supercell frame
  --inclusive       keep |r − c| ≤ R instead of < R
  --quaternion Q    rotate the particle (scalar-last X,Y,Z,W) about the file origin, as C2NP's generator does
                    (from the 8-decimal coordinates of the raw text); written in the generator's XYZ format.
                    Any finite non-zero scale names the same rotation (1e300,0,0,0 = 1,0,0,0); all zeros or
                    only subnormal components (below 2.2e-308) are refused
  -o, --output OUT  the XYZ file to write (Atomsk raw format without --quaternion)
  --force           replace OUT if it exists (OUT may never be CELL; written whole or not at all)
Prints {"written": OUT, "natoms": N, "center": [x, y, z]}.

--shape picks another shape (sphere is the default and the behaviour above, byte for byte):
  wulff          the crystal's Wulff polyhedron filled with its atoms: each (hkl) of --surface-energies expanded
                 with the crystal's point group (--symmetry laue, the default: with inversion, so (hkl) and
                 (-h-k-l) share an energy; point-group: a polar crystal's opposite faces apart; lattice: the bare
                 lattice's symmetry, as pymatgen's WulffShape), each plane at its energy from the centre, then
                 every atom of the crystal inside the polyhedron scaled to hold about --size N atoms (--rounding
                 closest, the default: the nearer closed size, the smaller on a tie; above; below, as ASE's
                 wulff_construction). Same frame, atom order and centre as the sphere (--repeats, --center);
                 the crystal is extended as far as the polyhedron needs. Miller indices refer to the cell as
                 read (the Materials Project's to the conventional standard cell)
  --surface-energies SPEC|FILE  "h,k,l:E;h,k,l:E" (h,k,i,l for hexagonal four-index; any positive unit), or
                 a file: Materials Project JSON {"surfaces": [{"miller_index": [1,0,0], "surface_energy": 1.2},
                 ...]} (or that list, or {"1,0,0": 1.2}), or CSV rows h,k,l,energy (header optional)
  icosahedron, cuboctahedron, decahedron, octahedron
                 ASE 3.22.1's builders (as structlab cluster) with the element and conventional lattice
                 constant of CELL, which must be a one-element fcc crystal (Fm-3m, one atom per primitive
                 cell): --shells K (cuboctahedron: Octahedron(2K-1, K-1)), --p --q --r, --length --cutoff,
                 or --size N for the closed-shell size nearest N (icosahedra, cuboctahedra and Ino decahedra
                 p = q: 13, 55, 147, 309, ...; octahedra: regular, cuboctahedral or regular truncated, or with
                 --cutoff C the nearest length). Centred on the origin as ASE centres them
Prints {"written", "natoms", "center", "shape", ...}: for wulff the size asked, the closed sizes below and
above it, the scale (Å per unit of energy: a family of energy E stands scale·E Å from the centre), the
point group, the area fraction of each family on the polyhedron and the composition; for ASE's shapes the
element, lattice constant, the builder's parameters and "magic" (a closed-shell size).
At most 100,000 atoms (--limit particleAtoms=N) and 2,000,000 lattice sites looked at (--limit clusterSites=N).
`;

function parseTriple(raw: string, name: string, count: number): number[] {
  const values = raw.split(',').map((v) => (v.trim() === '' ? NaN : Number(v)));
  if (values.length !== count || values.some((v) => !Number.isFinite(v))) {
    throw new CliError(`--${name} must be ${count} comma-separated numbers, got ${quoted(raw)}`);
  }
  return values;
}

export function parseCenter(raw: string | boolean | undefined): CarveCenter {
  if (raw === undefined || raw === 'box') return { kind: 'box' };
  if (raw === 'origin') return { kind: 'origin' };
  return { kind: 'point', point: parseTriple(String(raw), 'center', 3) as Vec3 };
}

const SHAPES = ['sphere', 'wulff', 'icosahedron', 'decahedron', 'octahedron', 'cuboctahedron'] as const;
type Shape = (typeof SHAPES)[number];

/** Options each shape takes besides CELL, -o and --force. */
const SHAPE_OPTIONS: Record<Shape, readonly string[]> = {
  sphere: ['radius', 'repeats', 'center', 'inclusive', 'quaternion'],
  wulff: ['surface-energies', 'size', 'rounding', 'symmetry', 'repeats', 'center'],
  icosahedron: ['shells', 'size'],
  cuboctahedron: ['shells', 'size'],
  decahedron: ['p', 'q', 'r', 'size'],
  octahedron: ['length', 'cutoff', 'size'],
};
const SHAPE_SPECIFIC = [...new Set(Object.values(SHAPE_OPTIONS).flat())];

/** A whole number written in decimal digits, at least `min`. */
export function wholeOption(raw: string | boolean | undefined, name: string, min: number): number {
  const text = String(raw).trim();
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw new CliError(`--${name} must be a whole number, got ${quoted(String(raw))}`);
  if (value < min) throw new CliError(`--${name} must be ${min === 1 ? 'a positive whole number' : `at least ${min}`}, got ${value}`);
  return value;
}

/**
 * The surface energies of `--surface-energies`: a file when one exists at that path (.json and .csv by their ending,
 * anything else recognised by its content), else the typed `h,k,l:E;…` form.
 */
export function loadSurfaceEnergies(raw: string): SurfaceEnergy[] {
  let isFile: boolean;
  try {
    isFile = raw.trim() !== '' && existsSync(raw) && statSync(raw).isFile();
  } catch {
    isFile = false;
  }
  try {
    if (isFile) {
      const ending = raw.toLowerCase().match(/\.(json|csv)$/)?.[1] as 'json' | 'csv' | undefined;
      return parseSurfaceEnergies(readInputText(raw), ending);
    }
    if (!raw.includes(':'))
      throw new CliError(`--surface-energies ${quoted(raw)} is no file and not h,k,l:energy pairs (e.g. "1,0,0:1.0;1,1,1:0.8")`);
    return parseSurfaceEnergies(raw, 'spec');
  } catch (e) {
    if (e instanceof ClusterError) throw new CliError(isFile ? `${raw}: ${e.message}` : `--surface-energies: ${e.message}`);
    throw e;
  }
}

/** The one crystal of CELL (the first, with a warning, when the file holds several) and whether its frame is kept. */
export function loadCrystal(path: string, warn: (line: string) => void): { structure: Structure; keepLatticeFrame: boolean } {
  const loaded = loadStructureFile(path);
  for (const w of loaded.warnings) warn(`warning: ${w}`);
  if (loaded.structures.length > 1) warn(`warning: ${loaded.path} holds ${loaded.structures.length} structures; carving the first`);
  return { structure: loaded.structures[0], keepLatticeFrame: loaded.format !== 'cif' };
}

export function runCarve(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'shape', kind: 'string' },
    { name: 'radius', kind: 'string' },
    { name: 'repeats', kind: 'string' },
    { name: 'center', kind: 'string' },
    { name: 'inclusive', kind: 'flag' },
    { name: 'quaternion', kind: 'string' },
    ...['surface-energies', 'size', 'rounding', 'symmetry', 'shells', 'p', 'q', 'r', 'length', 'cutoff'].map((name) => ({
      name,
      kind: 'string' as const,
    })),
    { name: 'output', kind: 'string', short: 'o' },
    { name: 'force', kind: 'flag' },
  ]);
  const shape = choiceOption<Shape>(options, 'shape', SHAPES, 'sphere');
  for (const name of SHAPE_SPECIFIC)
    if (options[name] !== undefined && !SHAPE_OPTIONS[shape].includes(name))
      throw new CliError(`--${name} does not apply to --shape ${shape} (see structlab carve --help)`);
  if (shape !== 'sphere') return runShape(shape, positionals, options, warn);

  if (positionals.length !== 1) throw new CliError('carve takes exactly one CELL file (see structlab carve --help)');
  if (options.radius === undefined) throw new CliError('carve needs --radius R (in Å)');
  if (typeof options.output !== 'string') throw new CliError('carve needs -o OUT.xyz');
  const radius = numberOption(options, 'radius', 0, 1e-6, 1000);
  const repeats = numberOption(options, 'repeats', 20, 1, 1000);
  if (!Number.isInteger(repeats)) throw new CliError(`--repeats must be a whole number, got ${repeats}`);
  const center = parseCenter(options.center);
  const quaternion = typeof options.quaternion === 'string' ? parseTriple(options.quaternion, 'quaternion', 4) : null;
  // Any scale of a quaternion names the same rotation (1e300,0,0,0 is the identity; see normalizeQuaternion).
  const quaternionWrong = quaternion && quaternionProblem(quaternion);
  if (quaternionWrong) throw new CliError(`--quaternion ${quoted(String(options.quaternion))} is not a rotation: ${quaternionWrong}`);
  const outputOptions = { force: options.force === true, inputs: [positionals[0]] };
  checkOutputFile(options.output, outputOptions);

  const loaded = loadStructureFile(positionals[0]);
  for (const w of loaded.warnings) warn(`warning: ${w}`);
  if (loaded.structures.length > 1) warn(`warning: ${loaded.path} holds ${loaded.structures.length} structures; carving the first`);
  const particle = carveStructure(loaded.path, loaded.format, loaded.structures[0], {
    radius,
    repeats,
    center,
    inclusive: options.inclusive === true,
  });
  for (const w of particle.warnings) warn(`warning: ${w}`);

  let text: string;
  let reportedCenter = particle.center;
  if (quaternion) {
    const matrix = quaternionToMatrix(normalizeQuaternion(quaternion));
    const positions = applyRotation(matrix, roundLikeRawText(particle.positions));
    reportedCenter = applyRotation(matrix, [particle.center])[0];
    text = formatGeneratorXyz({ symbols: particle.symbols, positions }, rotatedComment(quaternion, radius));
  } else {
    text = formatRawXyz(particle, RAW_COMMENT);
  }
  writeOutputSafely(options.output, text, outputOptions);
  return toStrictJson({ written: options.output, natoms: particle.symbols.length, center: reportedCenter });
}

/** Element → atoms of a particle, in order of first appearance. */
function composition(symbols: readonly string[]): Record<string, number> {
  const out = new Map<string, number>();
  for (const s of symbols) out.set(s, (out.get(s) ?? 0) + 1);
  return Object.fromEntries(out);
}

/** carve CELL --shape wulff|icosahedron|…: the particle written as carve writes a sphere, with the shape's numbers. */
function runShape(
  shape: Exclude<Shape, 'sphere'>,
  positionals: string[],
  options: ParsedArgs['options'],
  warn: (line: string) => void,
): string {
  if (positionals.length !== 1) throw new CliError(`carve --shape ${shape} takes exactly one CELL file (see structlab carve --help)`);
  if (typeof options.output !== 'string') throw new CliError('carve needs -o OUT.xyz');
  const size = options.size !== undefined ? wholeOption(options.size, 'size', 1) : undefined;
  let sizing: AseShapeSize | null = null;
  let energies: SurfaceEnergy[] = [];
  if (shape === 'wulff') {
    if (typeof options['surface-energies'] !== 'string') throw new CliError('carve --shape wulff needs --surface-energies SPEC|FILE');
    if (size === undefined) throw new CliError('carve --shape wulff needs --size N (atoms)');
    energies = loadSurfaceEnergies(options['surface-energies']);
  } else {
    sizing = aseSizing(shape, options, size);
  }
  const rounding = choiceOption<WulffRounding>(options, 'rounding', ['closest', 'above', 'below'], 'closest');
  const symmetry = choiceOption<WulffSymmetry>(options, 'symmetry', ['laue', 'point-group', 'lattice'], 'laue');
  const repeats = numberOption(options, 'repeats', 20, 1, 1000);
  if (!Number.isInteger(repeats)) throw new CliError(`--repeats must be a whole number, got ${repeats}`);
  const center = parseCenter(options.center);
  const outputOptions = { force: options.force === true, inputs: [positionals[0]] };
  checkOutputFile(options.output, outputOptions);
  const { structure, keepLatticeFrame } = loadCrystal(positionals[0], warn);

  let text: string;
  let report: Record<string, unknown>;
  try {
    if (shape === 'wulff') {
      const p = fillWulff(structure, energies, { size: size!, rounding, symmetry, repeats, center, keepLatticeFrame });
      for (const w of p.warnings) warn(`warning: ${w}`);
      text = formatRawXyz(p, `# Wulff particle by StructLab (structlab carve --shape wulff, Atomsk convention; xyz f16.8)`);
      report = {
        natoms: p.nAtoms,
        center: p.center,
        shape,
        size,
        rounding,
        below: p.below,
        above: p.above,
        scale: p.scale,
        symmetry,
        point_group: p.shape.pointGroup,
        space_group: p.shape.spaceGroup,
        area_fractions: Object.fromEntries(p.shape.families.map((f) => [f.label, f.areaFraction])),
        composition: composition(p.symbols),
      };
    } else {
      const fcc = fccOfCrystal(structure);
      const built = aseShape(shape, fcc.element, fcc.latticeConstant, sizing!);
      const c = built.cluster;
      const positions: Vec3[] = [];
      for (let i = 0; i < c.nAtoms; i++) positions.push([c.positions[3 * i], c.positions[3 * i + 1], c.positions[3 * i + 2]]);
      text = formatRawXyz(
        { symbols: new Array<string>(c.nAtoms).fill(fcc.element), positions },
        `# ${c.structure.name} by StructLab (structlab carve --shape ${shape}; xyz f16.8)`,
      );
      report = {
        natoms: c.nAtoms,
        center: [0, 0, 0],
        shape,
        element: fcc.element,
        lattice_constant: c.latticeConstant,
        ...(size !== undefined ? { size } : {}),
        ...built.parameters,
        magic: built.magic,
      };
    }
  } catch (e) {
    if (e instanceof ClusterError) throw new CliError(`${positionals[0]}: ${e.message}`);
    throw e;
  }
  writeOutputSafely(options.output, text, outputOptions);
  return toStrictJson({ written: options.output, ...report });
}

/** How an ASE shape is sized on the command line: its parameters or --size, not both, not neither. */
function aseSizing(shape: AseShape, options: ParsedArgs['options'], size: number | undefined): AseShapeSize {
  const own: Record<AseShape, string[]> = {
    icosahedron: ['shells'],
    cuboctahedron: ['shells'],
    decahedron: ['p', 'q'],
    octahedron: ['length'],
  };
  const given = own[shape].filter((name) => options[name] !== undefined);
  if (size !== undefined && given.length > 0) throw new CliError(`give --size or --${given[0]}, not both`);
  if (size === undefined && given.length < own[shape].length)
    throw new CliError(`carve --shape ${shape} needs ${own[shape].map((n) => `--${n}`).join(' and ')} or --size N`);
  const r = options.r !== undefined ? wholeOption(options.r, 'r', 0) : undefined;
  const cutoff = options.cutoff !== undefined ? wholeOption(options.cutoff, 'cutoff', 0) : undefined;
  if (size !== undefined) return { size, r, cutoff };
  switch (shape) {
    case 'decahedron':
      return { p: wholeOption(options.p, 'p', 1), q: wholeOption(options.q, 'q', 1), r: r ?? 0 };
    case 'octahedron':
      return { length: wholeOption(options.length, 'length', 1), cutoff: cutoff ?? 0 };
    default:
      return { shells: wholeOption(options.shells, 'shells', 1) };
  }
}

/** Carves with the frame rule the CLI documents: CIF cells rebuilt a-along-x, other formats' matrices as stored. */
export function carveStructure(
  path: string,
  format: string,
  structure: Parameters<typeof carveParticle>[0],
  options: { radius: number; repeats: number; center?: CarveCenter; inclusive?: boolean },
): CarvedParticle {
  try {
    return carveParticle(structure, { ...options, keepLatticeFrame: format !== 'cif' });
  } catch (e) {
    throw new CliError(`${path}: ${errorText(e)}`);
  }
}
