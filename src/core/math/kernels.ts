/**
 * The WebAssembly kernels (kernels/*.ts in AssemblyScript, compiled by scripts/build-kernels.mjs): hot numeric loops
 * that run at full speed from their first call. A command runs once in a fresh process, and V8 runs new JavaScript
 * in its interpreter until it has compiled it, so such a loop in TypeScript took 2–5× its warm time there; the
 * WebAssembly module is compiled in about a millisecond, before it runs. The module allocates nothing itself:
 * callers lay out their arrays in its memory with `kernelArena`, call, and read the results back.
 */
import { KERNELS_WASM_BASE64 } from './kernels-binary.generated.ts';

export interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  countPairs(
    xyz: number,
    slab: number,
    slabHeight: number,
    start: number,
    nx: number,
    ny: number,
    offsets: number,
    nOffsets: number,
    rMax: number,
    counts: number,
    bins: number,
    pairLimit: number,
  ): number;
  centre(xyz: number, n: number, centred: number): void;
  pairSums(moving: number, target: number, pairs: number, n: number, out: number): void;
  rigidMotion(xyz: number, n: number, motion: number, out: number): void;
  quickhull(
    points: number,
    n: number,
    vertices: number,
    neighbours: number,
    areas: number,
    states: number,
    outsides: number,
    next: number,
    free: number,
    workStack: number,
    workSize: number,
    hA: number,
    hB: number,
    hFace: number,
    hEdge: number,
    orphans: number,
    dfs: number,
  ): number;
  slabColumns(
    source: number,
    n: number,
    loX: number,
    loY: number,
    loZ: number,
    side: number,
    slabHeight: number,
    nx: number,
    ny: number,
    nSlabs: number,
    columnOf: number,
    slabOf: number,
    slabStart: number,
    fill: number,
    bySlab: number,
    start: number,
    order: number,
    xyz: number,
    slab: number,
  ): void;
  translateCompare(
    n1: number,
    n2: number,
    frac1: number,
    frac2: number,
    s1i: number,
    anchor: number,
    shift: number,
    translated2: number,
    mask: number,
    fracTol: number,
  ): number;
  lllSites(frac: number, count: number, toLll: number, lattice: number, outFrac: number, outWrapped: number, outCart: number): void;
  gridColumns(
    wrapped: number,
    n1: number,
    cx: number,
    cy: number,
    cz: number,
    classOf: number,
    buckets: number,
    start: number,
    cols: number,
    bucketOf: number,
  ): void;
  shortestVectors(
    n1: number,
    n2: number,
    frac1: number,
    wrapped1: number,
    cart1: number,
    frac2: number,
    wrapped2: number,
    cart2: number,
    d2: number,
    vecs: number,
    inBox: number,
    boxColumns: number,
    boxCount: number,
    allowedFrom: number,
    allowedClasses: number,
    start: number,
    cols: number,
    cx: number,
    cy: number,
    cz: number,
    windows: number,
    stretches: number,
    fracTol: number,
    images: number,
    lambdaMin: number,
    boundSlack: number,
  ): void;
  meanRemovedDistances(
    n1: number,
    n2: number,
    vecs: number,
    inBox: number,
    mapping: number,
    mean: number,
    dist: number,
    normalization: number,
  ): void;
  strictValue(n: number, dist: number, useRms: number): number;
  assignmentScratchBytes(n: number): number;
  assignmentSolution(ws: number, n: number): number;
  assign(n: number, c: number, ws: number, columns: number, count: number, far: number): number;
  latticePoints(
    matrix: number,
    mapping: number,
    b0: number,
    b1: number,
    b2: number,
    searched: number,
    kept: number,
    r2: number,
    validMin: number,
    out: number,
    capacity: number,
  ): number;
}

let compiled: WebAssembly.Module | null = null;
let instance: KernelExports | null = null;

/**
 * The kernels' exports, compiled and instantiated on first use, synchronously (browsers allow that on their main
 * thread too for modules up to 8 MB, Chrome since 114; this one is under 16 KB).
 */
export function kernels(): KernelExports {
  instance ??= ownKernels();
  return instance;
}

/**
 * A new instance of the kernels, with a memory of its own: for arrays that must stay in place between calls (the
 * structure matcher's workspace), where `kernelArena`'s arrays last only until the next arena opens.
 */
export function ownKernels(): KernelExports {
  if (!compiled) {
    const text = atob(KERNELS_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return new WebAssembly.Instance(compiled, {}).exports as unknown as KernelExports;
}

/** Places arrays one after another in the kernels' memory (8-byte aligned), growing it as needed. */
export interface KernelArena {
  /** Copies `data` into the memory; returns its byte offset. */
  put(data: Float64Array | Int32Array): number;
  /** Reserves `n` zeroed f64 values; returns their byte offset. */
  zerosF64(n: number): number;
  /** Reserves `n` zeroed i32 values; returns their byte offset. */
  zerosI32(n: number): number;
  /** A copy of `n` f64 values at byte offset `at`. */
  readF64(at: number, n: number): Float64Array;
  /** A copy of `n` i32 values at byte offset `at`. */
  readI32(at: number, n: number): Int32Array;
}

/**
 * An arena over the kernels' memory, from its heap base up. Each arena starts there again and overwrites the arrays
 * of any earlier one: a caller is done with its arena before it calls anything that may open another.
 */
export function kernelArena(): KernelArena {
  const k = kernels();
  let top = k.heapBase();
  const reserve = (bytes: number): number => {
    const at = Math.ceil(top / 8) * 8;
    top = at + bytes;
    const have = k.memory.buffer.byteLength;
    if (top > have) k.memory.grow(Math.ceil((top - have) / 65536));
    return at;
  };
  return {
    put(data) {
      const at = reserve(data.byteLength);
      new Uint8Array(k.memory.buffer, at, data.byteLength).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      return at;
    },
    zerosF64(n) {
      const at = reserve(8 * n);
      new Float64Array(k.memory.buffer, at, n).fill(0);
      return at;
    },
    zerosI32(n) {
      const at = reserve(4 * n);
      new Int32Array(k.memory.buffer, at, n).fill(0);
      return at;
    },
    readF64: (at, n) => new Float64Array(k.memory.buffer, at, n).slice(),
    readI32: (at, n) => new Int32Array(k.memory.buffer, at, n).slice(),
  };
}
