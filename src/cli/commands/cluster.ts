import { writeStructureFile } from '../../core/io/registry.ts';
import { quoted } from '../../core/limits.ts';
import { ClusterError, type ClusterResult } from '../../core/structure/clusters/common.ts';
import { type CubicClusterResult, type CubicStructure, cubicCluster, octahedron } from '../../core/structure/clusters/cubic.ts';
import { decahedron } from '../../core/structure/clusters/decahedron.ts';
import { icosahedron } from '../../core/structure/clusters/icosahedron.ts';
import { type WulffRounding, wulffConstruction } from '../../core/structure/clusters/wulff.ts';
import { type ParsedArgs, choiceOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputFile, toStrictJson, writeOutputSafely } from '../io.ts';

export const CLUSTER_HELP = `usage: structlab cluster icosahedron --element E --shells N                 [--lattice-constant A] -o OUT
       structlab cluster decahedron  --element E --p P --q Q --r R          [--lattice-constant A] -o OUT
       structlab cluster octahedron  --element E --length L [--cutoff C]    [--lattice-constant A] -o OUT
       structlab cluster fcc|bcc|sc  --element E --surfaces "h,k,l;h,k,l" --layers "n1,n2" [--lattice-constant A] -o OUT
       structlab cluster wulff       --element E --structure fcc|bcc|sc --surfaces "h,k,l;..." --energies "e1,e2,..."
                                     --size N [--rounding closest|above|below] [--lattice-constant A] -o OUT

Builds a nanoparticle exactly as ASE 3.22.1's ase.cluster does (same atoms, Cartesian Å, centred as ASE centres it):
  icosahedron   Icosahedron(E, N): a Mackay icosahedron of N shells (1, 13, 55, 147, 309, 561, ... atoms)
  decahedron    Decahedron(E, P, Q, R): P atoms on the (100) facets across the five-fold axis, Q along it,
                Marks re-entrance depth R (0: none)
  octahedron    Octahedron(E, L, C): fcc, L atoms on the edges of the full octahedron, C layers cut at each
                vertex (C = 0 regular; L = 2C + 1 cuboctahedron; L = 3C + 1 regular truncated octahedron)
  fcc, bcc, sc  FaceCenteredCubic / BodyCenteredCubic / SimpleCubic(E, surfaces, layers): the surfaces and their
                cubic equivalents, each cut after its number of atomic layers from the centre
  wulff         wulff_construction(E, surfaces, energies, N, structure, rounding): the cluster of the surface
                energies (any positive unit) nearest N atoms: closest (default; the smaller on a tie), above, below
  --element E             element symbol, as written (Cu, not cu)
  --lattice-constant A    cubic lattice constant in Å; by default ASE's reference one for E (ase.data.reference_states),
                          which must be fcc, bcc or sc (icosahedron, decahedron), fcc (octahedron) or the structure built
  -o, --output OUT        the structure file to write; its name decides the format (.xyz, .extxyz, .json, ...)
  --force                 replace OUT if it exists (written whole or not at all)
Prints {"written": OUT, "n_atoms": N, "element": E, "shape": KIND, "lattice_constant": A, "symbols": {E: N}, ...}
with the builder's arguments (and the surfaces, reduced, with their layer counts for fcc, bcc, sc, octahedron, wulff).
At most 100,000 atoms (--limit particleAtoms=N) and 2,000,000 lattice sites looked at (--limit clusterSites=N).
`;

const KINDS = ['icosahedron', 'decahedron', 'octahedron', 'fcc', 'bcc', 'sc', 'wulff'] as const;
type Kind = (typeof KINDS)[number];

/** Options each kind takes besides --element, --lattice-constant, -o and --force. */
const KIND_OPTIONS: Record<Kind, readonly string[]> = {
  icosahedron: ['shells'],
  decahedron: ['p', 'q', 'r'],
  octahedron: ['length', 'cutoff'],
  fcc: ['surfaces', 'layers'],
  bcc: ['surfaces', 'layers'],
  sc: ['surfaces', 'layers'],
  wulff: ['structure', 'surfaces', 'energies', 'size', 'rounding'],
};
const OPTIONAL = new Set(['cutoff', 'rounding']);
const ALL_OPTIONS = [...new Set(Object.values(KIND_OPTIONS).flat())];
const MAX_SURFACES = 100;
const MAX_INDEX = 1000;

/** A whole number written in decimal digits (`3`, `+3`, `-1`), at least `min`. */
function wholeNumber(raw: string, name: string, min: number): number {
  const text = raw.trim();
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw new CliError(`--${name} must be a whole number, got ${quoted(raw)}`);
  if (value < min) throw new CliError(`--${name} must be ${min === 1 ? 'a positive whole number' : `at least ${min}`}, got ${value}`);
  return value;
}

function positiveNumber(raw: string, name: string): number {
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new CliError(`--${name} must be a positive number, got ${quoted(raw)}`);
  return value;
}

/** `"h,k,l;h,k,l"`: integer triples, not all zero. */
function parseSurfaces(raw: string): number[][] {
  const items = raw.split(';').filter((x) => x.trim() !== '');
  if (items.length === 0 || items.length > MAX_SURFACES)
    throw new CliError(`--surfaces must list 1 to ${MAX_SURFACES} surfaces h,k,l separated by ';'`);
  return items.map((item) => {
    const v = item.split(',').map((x) => (/^[+-]?\d+$/.test(x.trim()) ? Number(x.trim()) : NaN));
    if (v.length !== 3 || v.some((x) => !Number.isSafeInteger(x) || Math.abs(x) > MAX_INDEX) || v.every((x) => x === 0))
      throw new CliError(
        `--surfaces: ${quoted(item.trim())} is not three whole Miller indices h,k,l (|index| ≤ ${MAX_INDEX}, not all zero)`,
      );
    return v;
  });
}

const parseList = <T>(raw: string, parse: (item: string) => T): T[] => raw.split(',').map(parse);

function requireString(options: ParsedArgs['options'], name: string, kind: Kind): string {
  const raw = options[name];
  if (typeof raw !== 'string') throw new CliError(`cluster ${kind} needs --${name} (see structlab cluster --help)`);
  return raw;
}

/** Builds the cluster the options describe; its JSON fields besides the common ones. */
function build(
  kind: Kind,
  element: string,
  options: ParsedArgs['options'],
  a: number | undefined,
): [ClusterResult, Record<string, unknown>] {
  const need = (name: string) => requireString(options, name, kind);
  const facets = (c: CubicClusterResult) => ({ surfaces: c.surfaces, layers: c.layers });
  switch (kind) {
    case 'icosahedron': {
      const shells = wholeNumber(need('shells'), 'shells', 1);
      return [icosahedron(element, shells, a), { shells }];
    }
    case 'decahedron': {
      const p = wholeNumber(need('p'), 'p', 1);
      const q = wholeNumber(need('q'), 'q', 1);
      const r = wholeNumber(need('r'), 'r', 0);
      return [decahedron(element, p, q, r, a), { p, q, r }];
    }
    case 'octahedron': {
      const length = wholeNumber(need('length'), 'length', 1);
      const cutoff = typeof options.cutoff === 'string' ? wholeNumber(options.cutoff, 'cutoff', 0) : 0;
      const c = octahedron(element, length, cutoff, a);
      return [c, { length, cutoff, ...facets(c) }];
    }
    case 'wulff': {
      need('structure');
      const structure = choiceOption<CubicStructure>(options, 'structure', ['fcc', 'bcc', 'sc'], 'fcc');
      const surfaces = parseSurfaces(need('surfaces'));
      const energies = parseList(need('energies'), (x) => positiveNumber(x, 'energies'));
      if (energies.length !== surfaces.length)
        throw new CliError(`--energies must give one energy per surface: ${surfaces.length} surfaces, ${energies.length} energies`);
      const size = wholeNumber(need('size'), 'size', 1);
      const rounding = choiceOption<WulffRounding>(options, 'rounding', ['closest', 'above', 'below'], 'closest');
      const c = wulffConstruction(element, surfaces, energies, size, structure, rounding, a);
      return [c, { structure, energies, size, rounding, ...facets(c) }];
    }
    default: {
      const surfaces = parseSurfaces(need('surfaces'));
      const layers = parseList(need('layers'), (x) => wholeNumber(x, 'layers', 1));
      if (layers.length !== surfaces.length)
        throw new CliError(`--layers must give one layer count per surface: ${surfaces.length} surfaces, ${layers.length} layer counts`);
      const c = cubicCluster(kind, element, surfaces, layers, a);
      return [c, facets(c)];
    }
  }
}

export function runCluster(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'element', kind: 'string' },
    { name: 'lattice-constant', kind: 'string' },
    ...ALL_OPTIONS.map((name) => ({ name, kind: 'string' as const })),
    { name: 'output', kind: 'string', short: 'o' },
    { name: 'force', kind: 'flag' },
  ]);
  const kind = positionals[0] as Kind;
  if (positionals.length === 0) throw new CliError(`cluster needs a kind: ${KINDS.join(', ')} (see structlab cluster --help)`);
  if (!KINDS.includes(kind)) throw new CliError(`unknown cluster kind ${quoted(positionals[0])} (kinds: ${KINDS.join(', ')})`);
  if (positionals.length > 1) throw new CliError(`cluster ${kind} takes no further arguments, got ${quoted(positionals[1])}`);
  for (const name of ALL_OPTIONS)
    if (options[name] !== undefined && !KIND_OPTIONS[kind].includes(name))
      throw new CliError(`--${name} does not apply to cluster ${kind}`);
  for (const name of KIND_OPTIONS[kind]) if (!OPTIONAL.has(name)) requireString(options, name, kind);
  const element = requireString(options, 'element', kind).trim();
  const a = typeof options['lattice-constant'] === 'string' ? positiveNumber(options['lattice-constant'], 'lattice-constant') : undefined;
  if (typeof options.output !== 'string') throw new CliError(`cluster ${kind} needs -o OUT (the structure file to write)`);
  const outputOptions = { force: options.force === true };
  checkOutputFile(options.output, outputOptions);

  let cluster: ClusterResult;
  let fields: Record<string, unknown>;
  try {
    [cluster, fields] = build(kind, element, options, a);
  } catch (e) {
    if (e instanceof ClusterError) throw new CliError(e.message);
    throw e;
  }
  let text: string;
  try {
    text = writeStructureFile(cluster.structure, options.output);
  } catch (e) {
    throw new CliError(`${options.output}: ${e instanceof Error ? e.message.replace(/\.\s*$/, '') : String(e)}`);
  }
  writeOutputSafely(options.output, text, outputOptions);
  return toStrictJson({
    written: options.output,
    n_atoms: cluster.nAtoms,
    element,
    shape: kind,
    lattice_constant: cluster.latticeConstant,
    symbols: { [element]: cluster.nAtoms },
    ...fields,
  });
}
