/**
 * The crystals of a CDVAE / DiffCSP result file (`eval_recon.pt`, `eval_diff.pt`, `eval_gen.pt`, `eval_opt.pt`),
 * built as their `scripts/compute_metrics.py` builds them (txie-93/cdvae and jiaor17/DiffCSP, `get_crystal_array_list`,
 * `scripts/eval_utils.py` `get_crystals_list`, `Crystal.get_structure`):
 *
 * - `frac_coords` [E, Natoms, 3], `atom_types` [E, Natoms] (or one-hot [E, Natoms, T]: argmax + 1, as DiffCSP's
 *   `Crystal`), `lengths` and `angles` [E, N, 3], `num_atoms` [E, N]; E = num_evals. Without the leading
 *   dimension (DiffCSP `generation.py`, read with `batch_idx=-2`) there is one eval.
 * - crystal i of eval e takes the next `num_atoms[e][i]` atoms (`narrow`), its lattice is
 *   `Lattice.from_parameters(*(lengths.tolist() + angles.tolist()))` and its sites `Structure(lattice, atom_types,
 *   frac_coords, coords_are_cartesian=False)`: float32 values widened to float64 exactly (`.tolist()`, numpy's
 *   promotion), fractional coordinates kept unwrapped, Cartesian = frac · matrix.
 * - truths: `input_data_batch` when it is a dict of the same tensors (no leading dimension); a torch_geometric
 *   Batch is an opaque object here, and the truths then come from the split's CSV.
 */
import { type PickleValue } from '../../io/pickle.ts';
import { type Tensor, isTensor, tensorValues } from '../../io/torch-pt.ts';
import { checkLimit, printable } from '../../limits.ts';
import { type Vec3, vec3 } from '../../math/mat3.ts';
import { elementByNumber } from '../../structure/elements.ts';
import { Lattice } from '../../structure/lattice.ts';
import type { Structure } from '../../structure/structure.ts';

/** Bad content of a .pt result file: one sentence naming the file. */
export class PtCrystalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PtCrystalError';
  }
}

export interface PtCrystals {
  /** The crystals of each eval (E ≥ 1), in the file's batch order. */
  evals: Structure[][];
  /** Whether the arrays carry the leading num_evals dimension. */
  evalDimension: boolean;
  /** The truths of `input_data_batch` when it is a dict of tensors, else null. */
  truths: Structure[] | null;
  /** What `input_data_batch` is: 'dict', an opaque class's name ("torch_geometric.data.batch.DataBatch"), or null when absent. */
  inputDataBatch: string | null;
}

const KEYS = ['frac_coords', 'atom_types', 'lengths', 'angles', 'num_atoms'] as const;
type Key = (typeof KEYS)[number];

interface Arrays {
  values: Float64Array;
  shape: number[];
}

/** The float64 values of `key` in `dict`, or a sentence naming the file. */
function arrays(dict: Map<PickleValue, PickleValue>, name: string, where: string): Record<Key, Arrays> {
  const out = {} as Record<Key, Arrays>;
  for (const key of KEYS) {
    const t = dict.get(key);
    if (t === undefined) throw new PtCrystalError(`${name} has no "${key}"${where}; a CDVAE/DiffCSP result file has ${KEYS.join(', ')}`);
    if (!isTensor(t)) throw new PtCrystalError(`${name}: "${key}"${where} is not a tensor`);
    out[key] = { values: tensorValues(t as Tensor, `${name} "${key}"${where}`), shape: (t as Tensor).shape };
  }
  return out;
}

/** The slice `index` of the leading dimension. */
function slice(a: Arrays, index: number): Arrays {
  const inner = a.shape.slice(1);
  const n = inner.reduce((x, y) => x * y, 1);
  return { values: a.values.subarray(index * n, (index + 1) * n), shape: inner };
}

const shapeText = (shape: readonly number[]): string => `[${shape.join(', ')}]`;

/**
 * `get_crystals_list(frac_coords, atom_types, lengths, angles, num_atoms)` for one eval, with upstream's asserts
 * as sentences. `label` names the eval or set in messages ("eval 1", "input_data_batch").
 */
function crystalsList(a: Record<Key, Arrays>, name: string, label: string): Structure[] {
  const bad = (what: string): never => {
    throw new PtCrystalError(`${name} ${label}: ${what}`);
  };
  const { frac_coords: fc, atom_types: at, lengths, angles, num_atoms: na } = a;
  if (na.shape.length !== 1) bad(`num_atoms has shape ${shapeText(na.shape)}, not [N]`);
  const n = na.shape[0];
  if (fc.shape.length !== 2 || fc.shape[1] !== 3) bad(`frac_coords has shape ${shapeText(fc.shape)}, not [atoms, 3]`);
  if (at.shape.length !== 1 && at.shape.length !== 2)
    bad(`atom_types has shape ${shapeText(at.shape)}, not [atoms] or one-hot [atoms, types]`);
  for (const [key, v] of [
    ['lengths', lengths],
    ['angles', angles],
  ] as const)
    if (v.shape.length !== 2 || v.shape[0] !== n || v.shape[1] !== 3) bad(`${key} has shape ${shapeText(v.shape)}, not [${n}, 3]`);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = na.values[i];
    if (!Number.isInteger(c) || c < 0) bad(`num_atoms[${i}] is ${c}, not a whole number ≥ 0`);
    total += c;
  }
  checkLimit('fileAtoms', `${name} ${label}`, total, 'atoms');
  if (fc.shape[0] !== total || at.shape[0] !== total)
    bad(`frac_coords has ${fc.shape[0]} rows and atom_types ${at.shape[0]}, num_atoms sums to ${total}`);
  // One-hot atom types (DiffCSP `Crystal.__init__`): np.argmax(..., axis=-1) + 1, the first maximum on ties.
  const types = at.shape.length === 1 ? at.values : argmaxRows(at);
  const out: Structure[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const where = `crystal ${i}`;
    const p = [...lengths.values.subarray(3 * i, 3 * i + 3), ...angles.values.subarray(3 * i, 3 * i + 3)];
    if (!p.every(Number.isFinite)) bad(`${where} has lattice parameters that are not finite (${p.join(', ')})`);
    let lattice: Lattice;
    try {
      lattice = Lattice.fromParameters(p[0], p[1], p[2], p[3], p[4], p[5]);
    } catch {
      return bad(`${where} has lattice parameters that give no cell (${p.join(', ')})`);
    }
    const sites: Structure['sites'] = [];
    for (let k = start; k < start + na.values[i]; k++) {
      const z = types[k];
      const element = elementByNumber(z);
      if (!element) bad(`${where} atom ${k - start} has atom type ${z}, not an atomic number`);
      const frac: Vec3 = vec3(fc.values[3 * k], fc.values[3 * k + 1], fc.values[3 * k + 2]);
      if (!frac.every(Number.isFinite)) bad(`${where} atom ${k - start} has a fractional coordinate that is not finite`);
      sites.push({ species: { [element!.symbol]: 1 }, frac, xyz: lattice.fracToCart(frac) });
    }
    start += na.values[i];
    out.push({ name: String(i), lattice, sites });
  }
  return out;
}

function argmaxRows(a: Arrays): Float64Array {
  const [rows, cols] = a.shape;
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let c = 1; c < cols; c++) if (a.values[r * cols + c] > a.values[r * cols + best]) best = c;
    out[r] = best + 1;
  }
  return out;
}

/** The crystals of a .pt result file's value (torch-pt.ts `readTorchPt`); `name` names the file in messages. */
export function ptCrystals(value: PickleValue, name: string): PtCrystals {
  if (!(value instanceof Map))
    throw new PtCrystalError(`${name} does not hold a dict of tensors (as CDVAE's and DiffCSP's evaluate.py save)`);
  const a = arrays(value, name, '');
  const evalDimension = a.num_atoms.shape.length === 2;
  let evals: Structure[][];
  if (evalDimension) {
    const e = a.num_atoms.shape[0];
    for (const key of KEYS)
      if (a[key].shape[0] !== e)
        throw new PtCrystalError(`${name}: "${key}" has shape ${shapeText(a[key].shape)}, num_atoms has ${e} evals first`);
    evals = [];
    for (let k = 0; k < e; k++) {
      const one = {} as Record<Key, Arrays>;
      for (const key of KEYS) one[key] = slice(a[key], k);
      evals.push(crystalsList(one, name, `eval ${k}`));
    }
  } else evals = [crystalsList(a, name, 'crystals')];
  if (evals.length === 0) throw new PtCrystalError(`${name} has no evals (num_atoms has shape ${shapeText(a.num_atoms.shape)})`);
  const batch = value.get('input_data_batch');
  let truths: Structure[] | null = null;
  let inputDataBatch: string | null = null;
  if (batch instanceof Map) {
    inputDataBatch = 'dict';
    truths = crystalsList(arrays(batch, name, ' of input_data_batch'), name, 'input_data_batch');
  } else if (batch !== undefined) {
    inputDataBatch = typeof batch === 'object' && batch !== null && '$class' in batch ? printable(String(batch.$class), 80) : typeof batch;
  }
  return { evals, evalDimension, truths, inputDataBatch };
}

/** One crystal of a .pt as a set member: row = its index in the batch, sample = its eval (0 without the dimension). */
export interface PtItem {
  id: string;
  structure: Structure;
  where: string;
  row: number;
  sample: number;
}

/**
 * The predictions (every crystal of every eval; id = the batch index, `i__k` for eval k when there is more than one
 * eval) or the truths (`input_data_batch`, id = the batch index) of a .pt result file's value.
 */
export function ptItems(value: PickleValue, name: string, which: 'predictions' | 'truths'): PtItem[] {
  const c = ptCrystals(value, name);
  if (which === 'truths') {
    if (!c.truths)
      throw new PtCrystalError(
        `${name} has no truths: its input_data_batch is ${c.inputDataBatch === null ? 'absent' : `a ${c.inputDataBatch}`}, not a dict of ` +
          "tensors; give the split's CSV (rows in the .pt's order) as the truth",
      );
    return c.truths.map((structure, row) => ({
      id: String(row),
      structure,
      where: `${name} input_data_batch crystal ${row}`,
      row,
      sample: 0,
    }));
  }
  const many = c.evals.length > 1;
  return c.evals.flatMap((crystals, sample) =>
    crystals.map((structure, row) => ({
      id: many ? `${row}__${sample}` : String(row),
      structure,
      where: `${name}${many ? ` eval ${sample}` : ''} crystal ${row}`,
      row,
      sample,
    })),
  );
}
