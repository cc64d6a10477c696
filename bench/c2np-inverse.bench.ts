/**
 * C2NP inverse solver: joint accuracy (space group right and all six parameters within 0.5) over the
 * shared sample particles (raw + rotated, every radius), at Gaussian noise 0, 0.05, 0.1 and 0.2 Å per
 * coordinate (seeded). Truth: the manifest's cellpar and spglib_number.
 * Run with `npx tsx bench/c2np-inverse.bench.ts`; prints JSON.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { solveInverse } from '../src/core/tasks/c2np/inverse.ts';
import { initMoyoNode } from '../src/node/moyo.ts';
import { withNoise } from '../scripts/support/random.ts';
import { REFERENCE } from '../scripts/support/paths.ts';

initMoyoNode();
const SAMPLE = join(REFERENCE, 'golden', 'c2np', 'sample');
const manifest = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8')) as {
  materials: Record<string, { cellpar: number[]; spglib_number: number }>;
};

const cases: { path: string; material: string }[] = [];
const rawDir = join(SAMPLE, 'raw', 'materials');
for (const f of readdirSync(rawDir).sort()) cases.push({ path: join(rawDir, f), material: f.replace(/_R\d+\.xyz$/, '') });
const quatDir = join(SAMPLE, 'quaternions');
for (const material of readdirSync(quatDir).sort()) {
  for (const r of readdirSync(join(quatDir, material)).sort()) {
    const xyz = join(quatDir, material, r, 'xyz');
    if (existsSync(xyz)) for (const f of readdirSync(xyz).sort()) cases.push({ path: join(xyz, f), material });
  }
}
const particles = cases.map((c) => {
  const parsed = parseStructureFile(readFileSync(c.path, 'utf8'), c.path);
  if (!parsed.ok) throw new Error(`${c.path}: ${parsed.error}`);
  return { ...c, structure: parsed.structures[0] };
});

const results: Record<string, unknown>[] = [];
for (const sigma of [0, 0.05, 0.1, 0.2]) {
  let joint = 0,
    sg = 0,
    sq = 0,
    failed = 0;
  const misses: string[] = [];
  const start = performance.now();
  particles.forEach((p, k) => {
    const truth = manifest.materials[p.material];
    try {
      const r = solveInverse(sigma ? withNoise(p.structure, sigma, 1000 + k) : p.structure, 0.1);
      const L = r.lattice;
      const got = [L.a, L.b, L.c, L.alpha, L.beta, L.gamma];
      const sgOk = r.spacegroup?.number === truth.spglib_number;
      got.forEach((x, i) => {
        sq += (x - truth.cellpar[i]) ** 2;
      });
      if (sgOk) sg++;
      if (sgOk && got.every((x, i) => Math.abs(x - truth.cellpar[i]) <= 0.5)) joint++;
      else misses.push(p.path.slice(SAMPLE.length + 1));
    } catch {
      failed++;
      misses.push(`${p.path.slice(SAMPLE.length + 1)} (no answer)`);
    }
  });
  const n = particles.length;
  results.push({
    noise_sigma_A: sigma,
    particles: n,
    joint_accuracy: joint / n,
    spacegroup_accuracy: sg / n,
    lattice_rmse_answered: Math.sqrt(sq / (6 * Math.max(1, n - failed))),
    no_answer: failed,
    seconds: (performance.now() - start) / 1000,
    misses: misses.slice(0, 10),
  });
}
console.log(JSON.stringify(results, null, 2));
