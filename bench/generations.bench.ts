/**
 * `structlab gen csp` / `gen eval` against bench/generations_reference.py (pymatgen 2022.11's StructureMatcher, the
 * SMACT rules over SMACT's tables), both as whole processes (the CLI bundle; /usr/bin/python3), interleaved, medians:
 *  - visible: every run of the visible goldens (csp_visible, denovo_visible expected.json), each output compared
 *    with expected.json (spec tolerances, scripts/support/generations-compare.ts) and ours with the reference's;
 *  - batch: a generated CSP batch of 10,000 pairs (the visible truths, each prediction a perturbed copy: jitter,
 *    shuffled sites, strain, swapped species, deleted atom; seeded), ours on all of it, the reference on a
 *    subset (--subset N, default 500) with ours on the same subset, per-pair ratio.
 * Prints JSON. Run via `npm run bench` or `npx tsx bench/generations.bench.ts [--pairs N] [--subset N] [--repeats N]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Vec3 } from '../src/core/math/mat3.ts';
import { Lattice } from '../src/core/structure/lattice.ts';
import { type Structure, fracOf, majorSpecies } from '../src/core/structure/structure.ts';
import { setFromFolder } from '../src/core/tasks/generations/inputs.ts';
import { compareGenOutput } from '../scripts/support/generations-compare.ts';
import { REFERENCE } from '../scripts/support/paths.ts';
import { mulberry32 } from '../src/core/math/random.ts';
import { median } from './stats.ts';

const ROOT = join(import.meta.dirname, '..');
const GOLDEN = join(REFERENCE, 'golden', 'generations');
const PYTHON = '/usr/bin/python3';
const REFERENCE_SCRIPT = join(import.meta.dirname, 'generations_reference.py');
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const PAIRS = arg('--pairs', 10_000);
const SUBSET = arg('--subset', 500);
const REPEATS = arg('--repeats', 3);
const round = (x: number, digits = 1) => +x.toFixed(digits);
const hasPymatgen = spawnSync(PYTHON, ['-c', 'import pymatgen.analysis.structure_matcher, scipy'], { stdio: 'ignore' }).status === 0;
const pyEnv = { ...process.env, STRUCTLAB_SMACT_DATA: join(GOLDEN, 'smact') };

const rng = mulberry32;

interface Timed {
  ms: number;
  doc: unknown;
}

/** `structlab gen …` from the bundle as one process, in `cwd`; wall ms and the parsed document. */
function runOurs(args: string[], cwd: string, dir: string): Timed {
  const out = join(dir, 'ours.json');
  const runner = join(dir, 'run-structlab.mjs');
  // A file, not `node -e`: worker threads inherit the flags, and --input-type breaks their start.
  writeFileSync(
    runner,
    `import { main } from ${JSON.stringify(join(ROOT, '.cli-build', 'structlab.mjs'))};
import { writeFileSync } from 'node:fs';
let out = '';
process.exitCode = await main(${JSON.stringify(args)}, { stdout: (t) => { out += t; }, stderr: (t) => process.stderr.write(t) });
writeFileSync(${JSON.stringify(out)}, out);`,
  );
  const t0 = performance.now();
  const r = spawnSync('node', [runner], { cwd, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`structlab ${args.join(' ')} failed (${r.status}): ${r.stderr.trim()}`);
  return { ms, doc: JSON.parse(readFileSync(out, 'utf8')) };
}

function runReference(args: string[], cwd: string): Timed {
  const t0 = performance.now();
  const r = spawnSync(PYTHON, [REFERENCE_SCRIPT, ...args], { cwd, encoding: 'utf8', env: pyEnv, maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`generations_reference.py failed (${r.status}): ${r.stderr.trim().split('\n').pop()}`);
  return { ms, doc: JSON.parse(r.stdout) };
}

/** Ours and the reference `repeats` times each, interleaved; medians and the last documents. */
function interleaved(args: string[], cwd: string, dir: string, repeats: number) {
  const ours: Timed[] = [],
    ref: Timed[] = [];
  for (let r = 0; r < repeats; r++) {
    ours.push(runOurs(args, cwd, dir));
    if (hasPymatgen) ref.push(runReference(args, cwd));
  }
  const oursMs = median(ours.map((t) => t.ms));
  const refMs = hasPymatgen ? median(ref.map((t) => t.ms)) : null;
  return { oursMs, refMs, ours: ours.at(-1)!.doc, ref: ref.at(-1)?.doc ?? null };
}

interface Run {
  name: string;
  command: string[];
  exit: number;
  output?: unknown;
}

function benchVisible(dir: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const folder of ['csp_visible', 'denovo_visible']) {
    const cwd = join(GOLDEN, folder);
    const runs = (JSON.parse(readFileSync(join(cwd, 'expected.json'), 'utf8')).runs as Run[]).filter((r) => r.exit === 0);
    for (const run of runs) {
      const t = interleaved(run.command, cwd, dir, REPEATS);
      out[run.name] = {
        structlab_ms: round(t.oursMs),
        pymatgen_ms: t.refMs === null ? null : round(t.refMs),
        speedup: t.refMs === null ? null : round(t.refMs / t.oursMs),
        structlab_vs_expected: compareGenOutput(t.ours, run.output, 5),
        pymatgen_vs_expected: t.ref === null ? null : compareGenOutput(t.ref, run.output, 5),
        structlab_vs_pymatgen: t.ref === null ? null : compareGenOutput(t.ours, t.ref, 5),
      };
    }
  }
  return out;
}

/** A pymatgen `Structure.as_dict()` (the JSONL sets' format). */
function asDict(s: Structure) {
  const lattice = s.lattice!;
  return {
    '@module': 'pymatgen.core.structure',
    '@class': 'Structure',
    charge: 0,
    lattice: { matrix: lattice.matrix },
    sites: s.sites.map((site) => {
      const el = majorSpecies(site);
      return { species: [{ element: el, occu: 1 }], abc: fracOf(site, lattice), xyz: site.xyz, label: el, properties: {} };
    }),
  };
}

/** A perturbed copy of a truth: the failure and success modes of CSP models, chosen by `k`. */
function perturb(t: Structure, k: number, rand: () => number): Structure {
  const m = t.lattice!.matrix;
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const mode = k % 6;
  // 0: small jitter, 1: 0.3 Å jitter, 2: strain one axis, 3: swap two species, 4: delete an atom, 5: shuffled + shifted.
  const strain = mode === 2 ? 1 + 0.3 * rand() : 1;
  const lattice = new Lattice([m[0].map((x) => x * strain), m[1], m[2]] as Vec3[]);
  let sites = t.sites.map((site) => ({ el: majorSpecies(site), f: fracOf(site, t.lattice!) as Vec3 }));
  const sigma = mode === 1 ? 0.3 : 0.05;
  const shift: Vec3 = mode === 5 ? [rand(), rand(), rand()] : [0, 0, 0];
  sites = sites.map((s) => {
    const cart = lattice.fracToCart(s.f).map((x) => x + (sigma * gauss()) / Math.sqrt(3)) as Vec3;
    const f = lattice.cartToFrac(cart).map((x, a) => x + shift[a]) as Vec3;
    return { el: s.el, f: f.map((x) => x - Math.floor(x)) as Vec3 };
  });
  if (mode === 3 && sites.length > 1) {
    const i = Math.floor(rand() * sites.length),
      j = Math.floor(rand() * sites.length);
    [sites[i].el, sites[j].el] = [sites[j].el, sites[i].el];
  }
  if (mode === 4 && sites.length > 1) sites.splice(Math.floor(rand() * sites.length), 1);
  for (let i = sites.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [sites[i], sites[j]] = [sites[j], sites[i]];
  }
  return {
    name: 'p',
    lattice,
    sites: sites.map((s) => ({ species: { [s.el]: 1 }, xyz: lattice.fracToCart(s.f), frac: s.f })),
  };
}

function writeBatch(dir: string, n: number, tag: string): { truth: string; pred: string } {
  const folder = join(GOLDEN, 'csp_visible', 'truth');
  const files = readdirSync(folder).map((name) => ({ name, text: readFileSync(join(folder, name), 'utf8') }));
  const truths = setFromFolder('truth', folder, files).filter((t) => !t.id.startsWith('gate-'));
  const truthLines: string[] = [],
    predLines: string[] = [];
  for (let k = 0; k < n; k++) {
    const t = truths[k % truths.length];
    const id = `b${String(k).padStart(5, '0')}-${t.id}`;
    truthLines.push(JSON.stringify({ id, structure: asDict(t.structure) }));
    predLines.push(JSON.stringify({ id, structure: asDict(perturb(t.structure, k, rng(7919 * k + 1))) }));
  }
  const truth = join(dir, `truth-${tag}.jsonl`),
    pred = join(dir, `pred-${tag}.jsonl`);
  writeFileSync(truth, truthLines.join('\n') + '\n');
  writeFileSync(pred, predLines.join('\n') + '\n');
  return { truth, pred };
}

function benchBatch(dir: string): Record<string, unknown> {
  const all = writeBatch(dir, PAIRS, 'all');
  const full = runOurs(['gen', 'csp', '--pred', all.pred, '--truth', all.truth], dir, dir);
  const doc = full.doc as { match_rate: number; rmse: number | null; valid_fraction: number };
  const out: Record<string, unknown> = {
    pairs: PAIRS,
    structlab_ms: round(full.ms),
    structlab_ms_per_pair: round(full.ms / PAIRS, 3),
    match_rate: doc.match_rate,
    rmse: doc.rmse,
    valid_fraction: doc.valid_fraction,
  };
  if (!hasPymatgen) return out;
  const sub = writeBatch(dir, SUBSET, 'subset');
  const t = interleaved(['gen', 'csp', '--pred', sub.pred, '--truth', sub.truth], dir, dir, 1);
  const refPerPair = t.refMs! / SUBSET;
  return {
    ...out,
    subset_pairs: SUBSET,
    subset_structlab_ms: round(t.oursMs),
    subset_pymatgen_ms: round(t.refMs!),
    subset_speedup: round(t.refMs! / t.oursMs),
    pymatgen_ms_per_pair: round(refPerPair, 3),
    per_pair_speedup_vs_full_batch: round(refPerPair / (full.ms / PAIRS)),
    subset_structlab_vs_pymatgen: compareGenOutput(t.ours, t.ref, 10),
  };
}

const build = spawnSync('node', [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('node scripts/build-cli.mjs failed');
const dir = mkdtempSync(join(tmpdir(), 'structlab-gen-bench-'));
try {
  const results: Record<string, unknown> = {
    pymatgen: hasPymatgen ? 'Debian python3-pymatgen (/usr/bin/python3), bench/generations_reference.py' : 'not installed',
  };
  if (!process.argv.includes('--batch-only')) results.visible = benchVisible(dir);
  if (!process.argv.includes('--visible-only')) results.batch = benchBatch(dir);
  console.log(JSON.stringify({ generations: results }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
