/**
 * The ten AtomWorld (AtomMotor-2K) actions, reproducing the benchmark's ground truth with its quirks
 * (AtomWorldBench src/atom_world/actions.py; see README.md here): 0-based indices in CIF order, fractional coordinates wrapped on
 * read, ASE's Cartesian frame, raw in-cell vectors for insert_between / move_towards, minimum-image neighbour
 * selection (but raw positions rotated) for rotate_around, delete_below's inert include_self,
 * diagonal supercells. The result is the AFTER structure in the ASE frame, wrapped as written.
 */
import { type Mat3, type Vec3, add, cross, dot, inverse, norm, scale, sub, vecMat } from '../../math/mat3.ts';
import { Lattice, type LatticeParameters } from '../../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, fracOf, majorSpecies } from '../../structure/structure.ts';
import { isElementSymbol } from '../../structure/elements.ts';
import { cifNumber, parseCif } from '../../io/cif/reader.ts';
import { parseCifDocument } from '../../io/cif/tokenizer.ts';
import { aseCellFromParameters, aseLabels, aseWrap3, wrappedFractions, writeAseCif } from './ase-frame.ts';
import { LIMITS, limitSentence, printable } from '../../limits.ts';
import { sin, cos } from '../../math/libm.ts';

export const ATOMWORLD_ACTIONS = [
  'change',
  'remove',
  'add',
  'insert_between',
  'swap',
  'delete_below',
  'move',
  'move_towards',
  'rotate_around',
  'super_cell',
] as const;
export type AtomworldActionName = (typeof ATOMWORLD_ACTIONS)[number];

export const isAtomworldAction = (name: string): name is AtomworldActionName => (ATOMWORLD_ACTIONS as readonly string[]).includes(name);

/** A bad action name or parameter; the message is one human sentence. */
export class AtomworldActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AtomworldActionError';
  }
}

/** An atom that moved: raw (unwrapped) Cartesian start and end in the ASE frame, Å. */
export interface TraceMove {
  beforeIndex: number;
  afterIndex: number;
  from: Vec3;
  to: Vec3;
}

/** What the lab needs to draw an action. Indices are 0-based; positions are ASE-frame Cartesian, Å. */
export interface ActionTrace {
  action: AtomworldActionName;
  /** The ASE cell (rows a, b, c) every position below refers to (the BEFORE cell). */
  cell: Mat3;
  /** Atoms whose position changed (move, move_towards, rotate_around). */
  moves: TraceMove[];
  /** BEFORE indices of deleted atoms (remove, delete_below). */
  removed: number[];
  /** Appended atoms (add, insert_between): AFTER index, symbol and raw Cartesian position. */
  added: { afterIndex: number; symbol: string; position: Vec3 }[];
  /** Atoms whose element changed (change, swap). */
  changed: { index: number; from: string; to: string }[];
  /** rotate_around: centre atom and position, unit axis, angle, radius, rotated BEFORE indices. */
  rotation?: { centreIndex: number; centre: Vec3; axis: Vec3; angleDeg: number; radius: number; rotatedIndices: number[] };
  /** delete_below: the cut plane z = const (normal +z, parallel to the ab-plane). */
  plane?: { referenceIndex: number; z: number; normal: Vec3 };
  /** insert_between / move_towards: the raw in-cell segment used (no minimum image) and the ratio along it. */
  segment?: { index1: number; index2: number; from: Vec3; to: Vec3; ratio: number };
  /** super_cell: the diagonal repetition. */
  supercell?: Vec3;
}

export interface ActionResult {
  after: Structure;
  trace: ActionTrace;
}

/** The BEFORE structure as the benchmark sees it: ASE cell, wrapped fractions, Cartesian positions. */
interface Frame {
  cell: Mat3;
  species: SpeciesMap[];
  positions: Vec3[];
}

/** Where `readAtomworldCif` keeps the file's own cell parameters (exact digits, as ASE reads them). */
const CIF_CELL_PARAMETERS = 'atomworldCellParameters';

/** The cell parameters: the file's own when they describe this lattice, else recomputed from it. */
function cellParametersOf(s: Structure, lattice: Lattice): LatticeParameters {
  const own = s.properties?.[CIF_CELL_PARAMETERS] as LatticeParameters | undefined;
  const p = lattice.parameters;
  if (
    own &&
    (['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const).every((k) => Math.abs(own[k] - p[k]) <= 1e-9 * Math.max(1, Math.abs(p[k])))
  )
    return own;
  return p;
}

function frameOf(before: Structure): Frame {
  if (!before.lattice) throw new AtomworldActionError('an AtomWorld action needs a periodic structure with a unit cell');
  const cell = aseCellFromParameters(cellParametersOf(before, before.lattice));
  const lattice = before.lattice;
  const positions = before.sites.map((site) => vecMat(aseWrap3(fracOf(site, lattice)), cell));
  return { cell, species: before.sites.map((s) => ({ ...s.species })), positions };
}

// ---------------------------------------------------------------------------------------------
// Parameter reading (clear sentences naming the parameter)

type Params = Record<string, unknown>;

/** A parameter as echoed in a message: JSON, control characters escaped, long values cut. */
const shown = (v: unknown): string => printable(JSON.stringify(v) ?? String(v));

function indexParam(params: Params, name: string, n: number): number {
  const v = params[name];
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new AtomworldActionError(`parameter "${name}" must be an integer atom index, got ${shown(v)}`);
  if (v < 0 || v >= n)
    throw new AtomworldActionError(`parameter "${name}" = ${v} is out of range: the structure has ${n} atoms (indices 0 to ${n - 1})`);
  return v;
}

function numberParam(params: Params, name: string): number {
  const v = params[name];
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new AtomworldActionError(`parameter "${name}" must be a finite number, got ${shown(v)}`);
  return v;
}

function vectorParam(params: Params, name: string): Vec3 {
  const v = params[name];
  if (!Array.isArray(v) || v.length !== 3 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
    throw new AtomworldActionError(`parameter "${name}" must be a list of three numbers, got ${shown(v)}`);
  }
  return [v[0], v[1], v[2]];
}

function symbolParam(params: Params, name = 'symbol'): string {
  const v = params[name];
  if (typeof v !== 'string' || !isElementSymbol(v))
    throw new AtomworldActionError(`parameter "${name}" must be an element symbol (H to Og), got ${shown(v)}`);
  return v;
}

function distinct(name1: string, i: number, name2: string, j: number): void {
  if (i === j) throw new AtomworldActionError(`parameters "${name1}" and "${name2}" must be different atoms, both are ${i}`);
}

// ---------------------------------------------------------------------------------------------
// Geometry

/** Minimum-image distance between two Cartesian points of the cell (brute force over nearby images). */
export function minimumImageDistance(a: Vec3, b: Vec3, cell: Mat3, inv: Mat3 = inverse(cell)): number {
  const f = vecMat(sub(b, a), inv);
  const reduced: Vec3 = [f[0] - Math.round(f[0]), f[1] - Math.round(f[1]), f[2] - Math.round(f[2])];
  let best = Infinity;
  // After reduction to [-0.5, 0.5], the shortest image lies within ±2 cells even for skewed cells.
  for (let i = -2; i <= 2; i++)
    for (let j = -2; j <= 2; j++)
      for (let k = -2; k <= 2; k++) {
        const d = norm(vecMat([reduced[0] + i, reduced[1] + j, reduced[2] + k], cell));
        if (d < best) best = d;
      }
  return best;
}

/** Right-handed (counter-clockwise looking down the axis) rotation of v about a unit axis (Rodrigues). */
export function rotateVector(v: Vec3, axis: Vec3, angleDeg: number): Vec3 {
  const t = (angleDeg * Math.PI) / 180;
  const c = cos(t),
    s = sin(t);
  return add(add(scale(v, c), scale(cross(axis, v), s)), scale(axis, dot(axis, v) * (1 - c)));
}

// ---------------------------------------------------------------------------------------------

function emptyTrace(action: AtomworldActionName, cell: Mat3): ActionTrace {
  return { action, cell, moves: [], removed: [], added: [], changed: [] };
}

/** Builds the AFTER structure: positions wrapped into the cell as ASE writes them, ASE labels. */
function buildAfter(name: string, cell: Mat3, species: SpeciesMap[], positions: Vec3[]): Structure {
  const lattice = new Lattice(cell);
  const fracs = wrappedFractions(positions, cell);
  const labels = aseLabels(species.map((sp) => majorSpecies({ species: sp } as Site)));
  const sites: Site[] = fracs.map((frac, i) => ({ species: { ...species[i] }, frac, xyz: vecMat(frac, cell), label: labels[i] }));
  return { name, lattice, sites };
}

/**
 * Applies one AtomWorld action. `params` uses the golden cases' names (as `structlab atomworld apply` takes them):
 * redundant ones are resolved as the benchmark's target does (add: position_cart over position_frac;
 * insert_between: distance_ratio over distance_from_index1).
 */
export function applyAtomworldActionWithTrace(before: Structure, action: string, params: Params): ActionResult {
  if (!isAtomworldAction(action))
    throw new AtomworldActionError(`unknown action "${action}"; the actions are ${ATOMWORLD_ACTIONS.join(', ')}`);
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new AtomworldActionError('the action parameters must be a JSON object');
  const { cell, species, positions } = frameOf(before);
  const n = positions.length;
  const trace = emptyTrace(action, cell);
  const name = before.name;
  const symbolOf = (i: number) => majorSpecies({ species: species[i] } as Site);

  switch (action) {
    case 'change': {
      const i = indexParam(params, 'index', n);
      const symbol = symbolParam(params);
      trace.changed.push({ index: i, from: symbolOf(i), to: symbol });
      species[i] = { [symbol]: 1 };
      return { after: buildAfter(name, cell, species, positions), trace };
    }
    case 'remove': {
      const i = indexParam(params, 'index', n);
      trace.removed.push(i);
      return {
        after: buildAfter(
          name,
          cell,
          species.filter((_, k) => k !== i),
          positions.filter((_, k) => k !== i),
        ),
        trace,
      };
    }
    case 'add': {
      const symbol = symbolParam(params);
      let position: Vec3;
      if (params.position_cart !== undefined) position = vectorParam(params, 'position_cart');
      else if (params.position_frac !== undefined) position = vecMat(vectorParam(params, 'position_frac'), cell);
      else throw new AtomworldActionError('add needs "position_cart" (Cartesian, Å) or "position_frac"');
      trace.added.push({ afterIndex: n, symbol, position });
      return { after: buildAfter(name, cell, [...species, { [symbol]: 1 }], [...positions, position]), trace };
    }
    case 'insert_between': {
      const i = indexParam(params, 'index1', n),
        j = indexParam(params, 'index2', n);
      distinct('index1', i, 'index2', j);
      const symbol = symbolParam(params);
      const r1 = positions[i],
        r2 = positions[j];
      const segment = sub(r2, r1); // raw in-cell vector: no minimum image, as the benchmark
      let ratio: number;
      if (params.distance_ratio !== undefined) ratio = numberParam(params, 'distance_ratio');
      else if (params.distance_from_index1 !== undefined) {
        const length = norm(segment);
        if (length === 0)
          throw new AtomworldActionError(`atoms ${i} and ${j} are at the same position, so a distance along them means nothing`);
        ratio = numberParam(params, 'distance_from_index1') / length;
      } else throw new AtomworldActionError('insert_between needs "distance_ratio" or "distance_from_index1"');
      const position = add(r1, scale(segment, ratio));
      trace.segment = { index1: i, index2: j, from: r1, to: r2, ratio };
      trace.added.push({ afterIndex: n, symbol, position });
      return { after: buildAfter(name, cell, [...species, { [symbol]: 1 }], [...positions, position]), trace };
    }
    case 'swap': {
      const i = indexParam(params, 'index1', n),
        j = indexParam(params, 'index2', n);
      distinct('index1', i, 'index2', j);
      // Exchanging the elements keeps order and positions: the same as exchanging the positions.
      trace.changed.push({ index: i, from: symbolOf(i), to: symbolOf(j) }, { index: j, from: symbolOf(j), to: symbolOf(i) });
      [species[i], species[j]] = [species[j], species[i]];
      return { after: buildAfter(name, cell, species, positions), trace };
    }
    case 'delete_below': {
      const i = indexParam(params, 'index', n);
      // include_self is read by nobody: the reference atom never satisfies "strictly below" (§4.6).
      const z = positions[i][2];
      const keep = positions.map((p) => !(p[2] < z));
      positions.forEach((_, k) => {
        if (!keep[k]) trace.removed.push(k);
      });
      trace.plane = { referenceIndex: i, z, normal: [0, 0, 1] };
      return {
        after: buildAfter(
          name,
          cell,
          species.filter((_, k) => keep[k]),
          positions.filter((_, k) => keep[k]),
        ),
        trace,
      };
    }
    case 'move': {
      const i = indexParam(params, 'index', n);
      const d = vectorParam(params, params.d_pos_cart === undefined && params.d_pos !== undefined ? 'd_pos' : 'd_pos_cart');
      const to = add(positions[i], d);
      trace.moves.push({ beforeIndex: i, afterIndex: i, from: positions[i], to });
      positions[i] = to;
      return { after: buildAfter(name, cell, species, positions), trace };
    }
    case 'move_towards': {
      const i = indexParam(params, 'index1', n),
        j = indexParam(params, 'index2', n);
      distinct('index1', i, 'index2', j);
      const distance = numberParam(params, 'distance');
      const v = sub(positions[j], positions[i]); // raw in-cell vector; may overshoot atom j
      const length = norm(v);
      if (length === 0) throw new AtomworldActionError(`atoms ${i} and ${j} are at the same position, so "towards" has no direction`);
      const to = add(positions[i], scale(v, distance / length));
      trace.segment = { index1: i, index2: j, from: positions[i], to: positions[j], ratio: distance / length };
      trace.moves.push({ beforeIndex: i, afterIndex: i, from: positions[i], to });
      positions[i] = to;
      return { after: buildAfter(name, cell, species, positions), trace };
    }
    case 'rotate_around': {
      const c = indexParam(params, 'index', n);
      const radius = numberParam(params, 'radius');
      const angleDeg = numberParam(params, params.angle_deg === undefined && params.angle !== undefined ? 'angle' : 'angle_deg');
      const rawAxis = vectorParam(params, 'axis');
      const axisLength = norm(rawAxis);
      if (axisLength === 0) throw new AtomworldActionError('parameter "axis" must not be the zero vector');
      const axis = scale(rawAxis, 1 / axisLength);
      const centre = positions[c];
      const inv = inverse(cell);
      const rotated: number[] = [];
      for (let k = 0; k < n; k++) {
        // Selected by minimum-image distance, but the raw in-cell position is what rotates (§4.9).
        if (k === c || !(minimumImageDistance(centre, positions[k], cell, inv) < radius)) continue;
        const to = add(centre, rotateVector(sub(positions[k], centre), axis, angleDeg));
        trace.moves.push({ beforeIndex: k, afterIndex: k, from: positions[k], to });
        positions[k] = to;
        rotated.push(k);
      }
      trace.rotation = { centreIndex: c, centre, axis, angleDeg, radius, rotatedIndices: rotated };
      return { after: buildAfter(name, cell, species, positions), trace };
    }
    case 'super_cell': {
      const size = vectorParam(params, 'size');
      if (size.some((m) => !Number.isInteger(m) || m < 1))
        throw new AtomworldActionError(`parameter "size" must be three positive integers, got ${shown(params.size)}`);
      if (size[0] * size[1] * size[2] * n > LIMITS.atoms)
        throw new AtomworldActionError(
          limitSentence(`a ${size.join('x')} supercell of ${n} atoms`, size[0] * size[1] * size[2] * n, LIMITS.atoms, 'atoms'),
        );
      const newCell: Mat3 = [scale(cell[0], size[0]), scale(cell[1], size[1]), scale(cell[2], size[2])];
      const newSpecies: SpeciesMap[] = [];
      const newPositions: Vec3[] = [];
      // ASE `atoms * (n1, n2, n3)`: m0 outermost, m2 innermost, all atoms in order per image.
      for (let m0 = 0; m0 < size[0]; m0++)
        for (let m1 = 0; m1 < size[1]; m1++)
          for (let m2 = 0; m2 < size[2]; m2++) {
            const shift = vecMat([m0, m1, m2], cell);
            for (let k = 0; k < n; k++) {
              newSpecies.push(species[k]);
              newPositions.push(add(positions[k], shift));
            }
          }
      trace.supercell = size;
      return { after: buildAfter(name, newCell, newSpecies, newPositions), trace };
    }
  }
}

export function applyAtomworldAction(before: Structure, action: string, params: Params): Structure {
  return applyAtomworldActionWithTrace(before, action, params).after;
}

/** Reads the BEFORE CIF as the benchmark does: the first data block, P1 atoms in file order. */
export function readAtomworldCif(text: string, warnings?: string[]): Structure {
  const parsed = parseCif(text, { idealThirds: 'withSymmetry' });
  warnings?.push(...parsed.warnings);
  if (parsed.structures.length > 1) warnings?.push(`the file holds ${parsed.structures.length} structures; using the first`);
  const structure = parsed.structures[0];
  // Keep the written cell parameters: recomputing them from the matrix changes the last bits.
  const block = parseCifDocument(text).blocks.find((b) => b.name === structure.name);
  const value = (tag: string) => {
    const v = block?.items.get(tag)?.values[0];
    return v ? cifNumber(v.text) : NaN;
  };
  const own = {
    a: value('_cell_length_a'),
    b: value('_cell_length_b'),
    c: value('_cell_length_c'),
    alpha: value('_cell_angle_alpha'),
    beta: value('_cell_angle_beta'),
    gamma: value('_cell_angle_gamma'),
  };
  if (Object.values(own).every(Number.isFinite)) structure.properties = { ...structure.properties, [CIF_CELL_PARAMETERS]: own };
  return structure;
}

/** CIF text in, CIF text out (ASE's layout), plus the AFTER structure and the drawing trace. */
export function applyAtomworldActionToCif(beforeCif: string, action: string, params: Params): ActionResult & { cif: string } {
  const result = applyAtomworldActionWithTrace(readAtomworldCif(beforeCif), action, params);
  return { ...result, cif: writeAseCif(result.after) };
}
