/**
 * PyTorch `.pt` files as `torch.save` writes them since torch 1.6 (the zip format): `<name>/data.pkl`, a pickle
 * (protocol 2) whose tensors are `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, …)` calls on
 * storages named by persistent ids `('storage', torch.FloatStorage, key, location, numel)`, each stored raw in
 * `<name>/data/<key>` (little-endian unless `<name>/byteorder` says otherwise). Read through pickle.ts (data
 * only, no code); any other class becomes an opaque record. pytorch/pytorch `torch/serialization.py`
 * (`_save`, `_load`) and `torch/_utils.py` (`_rebuild_tensor_v2`) describe the layout.
 *
 * int64 tensors are BigInt64Array (exact); `tensorValues` turns any tensor into float64 numbers in row-major order,
 * refusing an int64 past ±2^53 rather than rounding it. float16 and bfloat16 are widened to Float32Array (exact).
 */
import { checkLimit, printable } from '../limits.ts';
import { type PickleExtension, type PickleValue, isGlobal, unpickle } from './pickle.ts';
import { ParseError } from './types.ts';
import { readZip } from './zip.ts';

export type TensorDtype = 'float64' | 'float32' | 'float16' | 'bfloat16' | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool';

export type TensorData = Float64Array | Float32Array | BigInt64Array | Int32Array | Int16Array | Int8Array | Uint8Array;

/** A tensor as stored: a view (shape, strides, offset, in elements) into its whole storage `data`. */
export interface Tensor extends PickleExtension {
  readonly $kind: 'tensor';
  dtype: TensorDtype;
  shape: number[];
  strides: number[];
  offset: number;
  /** The storage (shared by every tensor that views it); bool as 0/1 bytes. */
  data: TensorData;
}

interface Storage extends PickleExtension {
  readonly $kind: 'storage';
  dtype: TensorDtype;
  data: TensorData;
}

/** torch's typed storage classes (torch 1.13 `torch/storage.py`) and the element each holds. */
const STORAGES = new Map<string, { dtype: TensorDtype; bytes: number }>([
  ['torch.DoubleStorage', { dtype: 'float64', bytes: 8 }],
  ['torch.FloatStorage', { dtype: 'float32', bytes: 4 }],
  ['torch.HalfStorage', { dtype: 'float16', bytes: 2 }],
  ['torch.BFloat16Storage', { dtype: 'bfloat16', bytes: 2 }],
  ['torch.LongStorage', { dtype: 'int64', bytes: 8 }],
  ['torch.IntStorage', { dtype: 'int32', bytes: 4 }],
  ['torch.ShortStorage', { dtype: 'int16', bytes: 2 }],
  ['torch.CharStorage', { dtype: 'int8', bytes: 1 }],
  ['torch.ByteStorage', { dtype: 'uint8', bytes: 1 }],
  ['torch.BoolStorage', { dtype: 'bool', bytes: 1 }],
]);

export const isTensor = (v: unknown): v is Tensor => typeof v === 'object' && v !== null && (v as Tensor).$kind === 'tensor';

function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** A storage's bytes as its elements (copied, so alignment and byte order never matter). */
function decodeStorage(raw: Uint8Array, dtype: TensorDtype, count: number, little: boolean): TensorData {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const fill = <T extends TensorData>(out: T, read: (k: number) => number | bigint): T => {
    for (let k = 0; k < count; k++) (out as { [k: number]: number | bigint })[k] = read(k);
    return out;
  };
  switch (dtype) {
    case 'float64':
      return fill(new Float64Array(count), (k) => view.getFloat64(8 * k, little));
    case 'float32':
      return fill(new Float32Array(count), (k) => view.getFloat32(4 * k, little));
    case 'float16':
      return fill(new Float32Array(count), (k) => half(view.getUint16(2 * k, little)));
    case 'bfloat16': {
      const f = new DataView(new ArrayBuffer(4));
      return fill(new Float32Array(count), (k) => {
        f.setUint32(0, view.getUint16(2 * k, little) << 16);
        return f.getFloat32(0);
      });
    }
    case 'int64':
      return fill(new BigInt64Array(count), (k) => view.getBigInt64(8 * k, little));
    case 'int32':
      return fill(new Int32Array(count), (k) => view.getInt32(4 * k, little));
    case 'int16':
      return fill(new Int16Array(count), (k) => view.getInt16(2 * k, little));
    case 'int8':
      return fill(new Int8Array(count), (k) => view.getInt8(k));
    case 'uint8':
      return raw.slice(0, count);
    case 'bool':
      return fill(new Uint8Array(count), (k) => (raw[k] ? 1 : 0));
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The value a `.pt` file holds, tensors as Tensor, dicts as Map, other pickled classes as opaque
 * `{ $class, args, state }` records. `name` names the file in every message. Throws ParseError (one sentence)
 * for a file that is not a zip-format `.pt`, a damaged pickle or a storage too short for its tensors; LimitError
 * past LIMITS.
 */
export function readTorchPt(bytes: Uint8Array, name: string): PickleValue {
  // A legacy (pre-1.6) torch file starts with a pickled magic number, not a zip header.
  if (bytes.length >= 2 && bytes[0] === 0x80 && bytes[1] <= 5)
    throw new ParseError(`${name} is a legacy PyTorch file (torch.save before 1.6 or without the zip format), which is not read`);
  const entries = readZip(bytes, name, (p) => /^[^/]+\/(data\.pkl|byteorder|data\/[^/]+)$/.test(p));
  const pickles = entries.filter((e) => e.path.endsWith('/data.pkl'));
  if (pickles.length !== 1)
    throw new ParseError(`${name} is not a PyTorch file (${pickles.length === 0 ? 'no' : pickles.length} <name>/data.pkl entries)`);
  const prefix = pickles[0].path.slice(0, -'data.pkl'.length);
  const raw = new Map<string, Uint8Array>();
  let little = true;
  for (const e of entries) {
    if (!e.path.startsWith(prefix)) continue;
    if (e.path === `${prefix}byteorder`) little = new TextDecoder().decode(e.bytes).trim() !== 'big';
    else if (e.path.startsWith(`${prefix}data/`)) raw.set(e.path.slice(prefix.length + 5), e.bytes);
  }
  const storages = new Map<string, Storage>();
  const bad = (what: string): never => {
    throw new ParseError(`${name} is not a readable PyTorch file (${what})`);
  };

  const persistentLoad = (pid: PickleValue): PickleValue => {
    if (!Array.isArray(pid) || pid.length !== 5 || pid[0] !== 'storage') return bad('a persistent id is not a storage');
    const [, cls, key, , numel] = pid;
    if (!isGlobal(cls) || typeof key !== 'string' || !isCount(numel)) return bad('a storage id is damaged');
    const kind = STORAGES.get(cls.$global);
    if (!kind) return bad(`the storage class "${printable(cls.$global, 60)}" is not one this reader knows`);
    const known = storages.get(key);
    if (known) return known;
    const data = raw.get(key);
    if (!data) return bad(`the storage "${printable(key, 40)}" has no entry ${prefix}data/${printable(key, 40)}`);
    if (data.length < numel * kind.bytes)
      bad(`the storage "${printable(key, 40)}" holds ${data.length} bytes, its ${numel} elements need ${numel * kind.bytes}`);
    const storage: Storage = { $kind: 'storage', dtype: kind.dtype, data: decodeStorage(data, kind.dtype, numel, little) };
    storages.set(key, storage);
    return storage;
  };

  const rebuildTensor = (args: PickleValue[]): PickleValue => {
    const [storage, offset, size, stride] = args;
    if (typeof storage !== 'object' || storage === null || (storage as Storage).$kind !== 'storage')
      return bad('a tensor is rebuilt from something that is not a storage');
    if (!isCount(offset) || !Array.isArray(size) || !Array.isArray(stride) || size.length !== stride.length)
      return bad('a tensor has a damaged shape or stride');
    if (!size.every(isCount) || !stride.every(isCount)) return bad('a tensor has a shape or stride that is not whole numbers ≥ 0');
    const shape = size as number[],
      strides = stride as number[];
    const s = storage as Storage;
    // The last element a view reaches must lie inside its storage.
    let last = offset,
      empty = false;
    for (let k = 0; k < shape.length; k++) {
      if (shape[k] === 0) empty = true;
      last += (shape[k] - 1) * strides[k];
    }
    if (!empty && last >= s.data.length)
      bad(
        `a tensor of shape [${shape.join(', ')}] with strides [${strides.join(', ')}] at offset ${offset} ` +
          `reaches element ${last}, its storage holds ${s.data.length}`,
      );
    const tensor: Tensor = { $kind: 'tensor', dtype: s.dtype, shape, strides, offset, data: s.data };
    return tensor;
  };

  return unpickle(pickles[0].bytes, name, {
    persistentLoad,
    reducers: new Map([['torch._utils._rebuild_tensor_v2', rebuildTensor]]),
  });
}

/** Elements of a tensor (the product of its shape). */
export const tensorSize = (t: Tensor): number => t.shape.reduce((a, b) => a * b, 1);

/**
 * A tensor's elements in row-major order as float64 (float32 widened exactly; bool as 0/1). An int64 beyond
 * ±2^53 is refused (ParseError naming `what`) rather than rounded. The copy is held to LIMITS.inputBytes.
 */
export function tensorValues(t: Tensor, what: string): Float64Array {
  const n = tensorSize(t);
  checkLimit('inputBytes', what, n * 8, 'bytes as float64');
  const out = new Float64Array(n);
  const index = new Array<number>(t.shape.length).fill(0);
  let at = t.offset;
  const big = t.data instanceof BigInt64Array ? t.data : null;
  for (let k = 0; k < n; k++) {
    if (big) {
      const v = big[at];
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER))
        throw new ParseError(`${what} holds the integer ${v}, beyond what float64 holds exactly`);
      out[k] = Number(v);
    } else out[k] = (t.data as Exclude<TensorData, BigInt64Array>)[at];
    // Odometer over the shape, last axis fastest.
    for (let d = t.shape.length - 1; d >= 0; d--) {
      if (++index[d] < t.shape[d]) {
        at += t.strides[d];
        break;
      }
      at -= (t.shape[d] - 1) * t.strides[d];
      index[d] = 0;
    }
  }
  return out;
}
