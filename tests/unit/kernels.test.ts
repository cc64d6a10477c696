/**
 * The WebAssembly kernels (kernels/*.ts, src/core/math/kernels.ts): the module compiled from the current sources,
 * small, and its memory grown for inputs larger than it holds. What each kernel computes is tested with its analysis
 * (c2np-metrics.test.ts: pair histograms against brute force, hull volumes against scipy; facets.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { KERNELS_SOURCES_SHA256, KERNELS_WASM_BASE64 } from '../../src/core/math/kernels-binary.generated.ts';
import { kernelArena, kernels } from '../../src/core/math/kernels.ts';
import { pairDistanceHistogram } from '../../src/core/analysis/rdf.ts';
import { sourcesHash } from '../../scripts/build-kernels.mjs';

describe('WebAssembly kernels', () => {
  it('are compiled from the sources as they are now (vitest recompiles them when they change)', () => {
    expect(KERNELS_SOURCES_SHA256).toBe(sourcesHash());
  });

  it('make one small module with no imports (compiled synchronously in about a millisecond, where it is first used)', () => {
    const bytes = Buffer.from(KERNELS_WASM_BASE64, 'base64');
    expect(bytes.length).toBeLessThan(64 * 1024);
    expect(WebAssembly.Module.imports(new WebAssembly.Module(bytes))).toEqual([]);
  });

  it('grow their memory for a large input, and lay each call out anew from the heap base', () => {
    const before = kernels().memory.buffer.byteLength;
    // A 40 × 40 × 36 block of atoms 3.1 Å apart: 1.4 MB of coordinates, past the 64 KB page the module starts with.
    const n = 40 * 40 * 36,
      xyz = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      xyz[3 * i] = (i % 40) * 3.1;
      xyz[3 * i + 1] = (Math.floor(i / 40) % 40) * 3.1;
      xyz[3 * i + 2] = Math.floor(i / 1600) * 3.1;
    }
    const h = pairDistanceHistogram(xyz);
    expect(kernels().memory.buffer.byteLength).toBeGreaterThan(Math.max(before, 24 * n));
    // Bin 39 ([3.047, 3.125) Å) holds the nearest neighbours only: 39 × 40 × 36 pairs along x, as many along y, 40 × 40 × 35 along z.
    expect(h.counts[Math.floor(3.1 / (10 / 128))]).toBe(2 * 39 * 40 * 36 + 40 * 40 * 35);
    const arena = kernelArena(),
      again = kernelArena();
    expect(arena.put(new Float64Array([1, 2]))).toBe(again.put(new Float64Array([3])));
  });
});
