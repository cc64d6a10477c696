/**
 * Core benchmarks: parsing, symmetry and neighbour search on real and generated structures.
 * Prints medians (ms) as JSON. Run through `npm run bench` (or `npx tsx bench/core.bench.ts`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { analyzeSymmetry } from '../src/core/symmetry/analyze.ts';
import { makeSupercell } from '../src/core/structure/supercell.ts';
import { initMoyoNode } from '../src/node/moyo.ts';
import { timeMedian } from './stats.ts';
import { REFERENCE } from '../scripts/support/paths.ts';

initMoyoNode();
const CORPUS = join(REFERENCE, 'corpus', 'files');

const time = (fn: () => void, repeats: number): number => timeMedian(fn, repeats).ms;

const results: Record<string, unknown> = {};

// Parse the whole corpus; the largest CIF separately.
const texts = readdirSync(CORPUS)
  .sort()
  .map((name) => ({ name, text: readFileSync(join(CORPUS, name), 'utf8') }));
results.parse_whole_corpus_ms = time(() => {
  for (const f of texts) parseStructureFile(f.text, f.name);
}, 5);
const big = texts.find((f) => f.name === 'cod-2104374.cif');
if (big) results.parse_6400_site_cif_ms = time(() => parseStructureFile(big.text, big.name), 5);

// Symmetry on a perovskite supercell series.
const perovskite = parseStructureFile(readFileSync(resolve(import.meta.dirname, '..', 'datasets', 'CsCaH3.cif'), 'utf8'), 'CsCaH3.cif');
if (perovskite.ok) {
  for (const n of [2, 4, 6]) {
    const s = makeSupercell(perovskite.structures[0], [n, n, n]);
    results[`symmetry_CsCaH3_${n}x${n}x${n}_${s.sites.length}_sites_ms`] = time(() => analyzeSymmetry(s, 0.01), 3);
  }
}

console.log(JSON.stringify({ suite: 'core', node: process.version, results }, null, 2));
