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
import { mulberry32 } from '../../scripts/support/random.ts';

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

  it("score a match as numpy does: the norm summed as OpenBLAS's ddot, over √n, or the largest distance", () => {
    // OpenBLAS's ddot (kernel/x86_64/ddot.c, SSE2 micro-kernel): the first n & −16 entries in eight running sums,
    // combined ((s0 + s2) + (s4 + s6)) + ((s1 + s3) + (s5 + s7)), then the rest one by one.
    const numpyNorm = (x: Float64Array): number => {
      const n1 = x.length & -16;
      const s = new Float64Array(8);
      for (let i = 0; i < n1; i++) s[i % 8] += x[i] * x[i];
      let dot = n1 ? s[0] + s[2] + (s[4] + s[6]) + (s[1] + s[3] + (s[5] + s[7])) : 0;
      for (let i = n1; i < x.length; i++) dot += x[i] * x[i];
      return Math.sqrt(dot);
    };
    const k = kernels();
    const random = mulberry32(7);
    let differentFromInOrder = 0;
    for (let n = 1; n <= 70; n++) {
      const x = Float64Array.from({ length: n }, () => random() * 10 ** (4 * random() - 2));
      const arena = kernelArena();
      const at = arena.put(x);
      expect(k.strictValue(n, at, 1), `rms of ${n}`).toBe(numpyNorm(x) / Math.sqrt(n));
      expect(k.strictValue(n, at, 0), `max of ${n}`).toBe(Math.max(...x));
      // The order matters: summed in index order, some of these differ in the last bits.
      if (Math.sqrt(x.reduce((a, v) => a + v * v, 0)) / Math.sqrt(n) !== numpyNorm(x) / Math.sqrt(n)) differentFromInOrder++;
    }
    expect(differentFromInOrder).toBeGreaterThan(0);
  });
});
