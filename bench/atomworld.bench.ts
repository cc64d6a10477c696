/**
 * AtomWorld / StructureMatcher benchmarks (issue 4, "Performance"), against pymatgen 2022.11 where
 * Debian's python3-pymatgen is installed (/usr/bin/python3).
 *  - match: a golden target (gen-change-011, 10 atoms) made into 50-, 200- and 1,000-atom supercells,
 *    each against a permuted, jittered (≤ 0.02 Å), shifted and re-based copy; matcherFit and
 *    matcherRmsDist with AtomWorld's settings (primitive_cell=False, stol=0.5), medians in-process;
 *    pymatgen timed inside Python (no interpreter start).
 *  - batch: 2,500 (target, answer) cases generated from generated_cases.jsonl + eval_oracle.jsonl
 *    (exact targets, unchanged inputs, the oracle's wrong-index and rewritten answers, jitter, CIF
 *    formatting variants; repeats with shuffled atom rows and fresh jitter), timed as whole processes:
 *    `structlab atomworld eval` from the CLI bundle, and bench/atomworld_reference.py. Verdicts compared.
 *  - oracle_437: `structlab atomworld eval` on the 437 oracle pairs against the reference, interleaved (issue 13's row), and
 *    again with one core kept busy (other_core_busy; issue 27).
 *  - supercells: the same on 42 answers to 24–240-site supercells of corpus crystals (issue 27: every input).
 * Prints JSON. Run via `npm run bench` or
 * `npx tsx bench/atomworld.bench.ts [--cases N] [--match-only|--batch-only|--oracle-only|--supercells-only]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { matcherFit, matcherRmsDist } from '../src/core/match/structure-matcher.ts';
import { type Mat3, type Vec3, inverse, matMul, vecMat } from '../src/core/math/mat3.ts';
import { Lattice } from '../src/core/structure/lattice.ts';
import { type Structure, fracOf, majorSpecies, makeSiteFromFrac } from '../src/core/structure/structure.ts';
import { ATOMWORLD_MATCHER } from '../src/core/tasks/atomworld/evaluate.ts';
import { parseCifStrict } from '../src/core/tasks/atomworld/strict-cif.ts';
import { mulberry32 } from '../src/core/math/random.ts';
import { busyCore, median, timeMedian } from './stats.ts';
import { overrideLimits } from '../src/core/limits.ts';
import { CORPUS_FILES, REFERENCE } from '../scripts/support/paths.ts';

const ROOT = join(import.meta.dirname, '..');
const GOLDEN = join(REFERENCE, 'golden', 'atomworld');
const PYTHON = '/usr/bin/python3';
const REFERENCE_SCRIPT = join(import.meta.dirname, 'atomworld_reference.py');
const casesArg = process.argv.indexOf('--cases');
const BATCH_SIZE = casesArg > 0 ? Number(process.argv[casesArg + 1]) : 2500;

const rng = mulberry32;

function shuffle<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- golden JSONL rows, shaped by the Python reference
const readJsonl = (name: string): Record<string, any>[] =>
  readFileSync(join(GOLDEN, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const hasPymatgen = spawnSync(PYTHON, ['-c', 'import pymatgen.analysis.structure_matcher'], { stdio: 'ignore' }).status === 0;
const round = (x: number, digits = 1) => +x.toFixed(digits);

// ---------------------------------------------------------------------------------------------
// match: supercell pairs
// ---------------------------------------------------------------------------------------------

function supercell(s: Structure, n: Vec3): Structure {
  const m = s.lattice!.matrix;
  const lattice = new Lattice([m[0].map((x) => x * n[0]), m[1].map((x) => x * n[1]), m[2].map((x) => x * n[2])]);
  const sites = [];
  for (const site of s.sites) {
    const f = fracOf(site, s.lattice!);
    for (let i = 0; i < n[0]; i++)
      for (let j = 0; j < n[1]; j++)
        for (let k = 0; k < n[2]; k++) {
          sites.push(makeSiteFromFrac(lattice, [(f[0] + i) / n[0], (f[1] + j) / n[1], (f[2] + k) / n[2]], { ...site.species }));
        }
  }
  return { name: `${s.name}_${n.join('x')}`, lattice, sites };
}

/**
 * The same crystal as another file would give it: lattice basis changed by a unimodular matrix, origin shifted, sites shuffled and
 * jittered.
 */
function disguisedCopy(s: Structure, seed: number, jitterAngstrom = 0.02): Structure {
  const rand = rng(seed);
  const basis: Mat3 = [
    [1, 1, 0],
    [0, 1, 0],
    [0, 1, 1],
  ]; // det 1
  const lattice = new Lattice(matMul(basis, s.lattice!.matrix));
  const toNew = inverse(basis);
  const shift: Vec3 = [rand(), rand(), rand()];
  const sites = shuffle([...s.sites], rand).map((site) => {
    const cart = site.xyz.map((x) => x + ((2 * rand() - 1) * jitterAngstrom) / Math.sqrt(3)) as Vec3;
    const f = vecMat(s.lattice!.cartToFrac(cart), toNew);
    const wrapped = f.map((x, a) => {
      const y = x + shift[a];
      return y - Math.floor(y);
    }) as Vec3;
    return makeSiteFromFrac(lattice, wrapped, { ...site.species });
  });
  return { name: `${s.name}_copy`, lattice, sites };
}

const forPython = (s: Structure) => ({
  lattice: s.lattice!.matrix,
  species: s.sites.map((site) => majorSpecies(site)),
  frac: s.sites.map((site) => fracOf(site, s.lattice!)),
});

function benchMatch(): Record<string, unknown> {
  // get_rms_dist of the 1,000-atom pair needs ~2e9 site-pair evaluations, past the default budget the CLI
  // refuses at: the bench measures that work on purpose, as `structlab --limit matchWork=…` would.
  overrideLimits({ matchWork: 1e11 });
  const base = readJsonl('generated_cases.jsonl').find((c) => c.id === 'gen-change-011')!;
  const unit = parseCifStrict(base.after_cif);
  // [label, supercell, our repeats, our warm-up calls (JIT), pymatgen repeats]: get_rms_dist scans every lattice
  // mapping and translation, which at 1,000 atoms takes seconds in both implementations.
  const sizes: [string, Vec3, number, number, number][] = [
    ['50', [1, 1, 5], 15, 5, 5],
    ['200', [1, 4, 5], 7, 3, 3],
    ['1000', [5, 5, 4], 1, 0, 1],
  ];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report's free-form JSON
  const out: Record<string, any> = {};
  const pairs = [];
  for (const [label, n, repeats, warmup, pyRepeats] of sizes) {
    const a = supercell(unit, n);
    const b = disguisedCopy(a, 7 + a.sites.length);
    const fit = timeMedian(() => matcherFit(a, b, ATOMWORLD_MATCHER), repeats, warmup);
    const rms = timeMedian(() => matcherRmsDist(a, b, ATOMWORLD_MATCHER), repeats, warmup);
    out[`atoms_${label}`] = {
      atoms: a.sites.length,
      fit_ms: round(fit.ms, 2),
      rms_dist_ms: round(rms.ms, 2),
      fit: fit.result,
      rms: rms.result?.rms ?? null,
      max_dist: rms.result?.maxDist ?? null,
    };
    pairs.push({ label, repeats: pyRepeats, a: forPython(a), b: forPython(b) });
  }
  if (hasPymatgen) {
    const dir = mkdtempSync(join(tmpdir(), 'structlab-atomworld-match-'));
    try {
      writeFileSync(join(dir, 'pairs.json'), JSON.stringify(pairs));
      const r = spawnSync(PYTHON, [REFERENCE_SCRIPT, 'match', join(dir, 'pairs.json')], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (r.status !== 0) {
        out.pymatgen = { error: r.stderr.trim().split('\n').pop() };
      } else {
        const py = JSON.parse(r.stdout) as Record<
          string,
          { fit_ms: number; rms_dist_ms: number; fit: boolean; rms: number | null; max_dist: number | null }
        >;
        for (const [label, p] of Object.entries(py)) {
          const ours = out[`atoms_${label}`];
          ours.pymatgen = p;
          ours.fit_speedup = round(p.fit_ms / ours.fit_ms);
          ours.rms_dist_speedup = round(p.rms_dist_ms / ours.rms_dist_ms);
          ours.same_verdict = p.fit === ours.fit;
          ours.rms_abs_diff = p.rms !== null && ours.rms !== null ? Math.abs(p.rms - ours.rms) : null;
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// batch: 2,500 generated (target, answer) cases
// ---------------------------------------------------------------------------------------------

const NUMBER = /^-?\d+(\.\d*)?([eE][-+]?\d+)?$/;
/** An `_atom_site` row as the golden CIFs write it: symbol, label, multiplicity, x, y, z, occupancy. */
const atomRow = (line: string): string[] | null => {
  const t = line.trim().split(/\s+/);
  return t.length === 7 && /^[A-Z][a-z]?$/.test(t[0]) && NUMBER.test(t[3]) && NUMBER.test(t[4]) && NUMBER.test(t[5]) ? t : null;
};

/** Rewrites the atom rows of a CIF; `edit` gets the rows (token arrays) in file order and returns new ones. */
function editAtomRows(cif: string, edit: (rows: string[][]) => string[][]): string {
  const lines = cif.split('\n');
  const at = lines.flatMap((l, i) => (atomRow(l) ? [i] : []));
  const rows = edit(at.map((i) => atomRow(lines[i])!));
  const kept = new Set(at.slice(0, rows.length));
  const out: string[] = [];
  let r = 0;
  lines.forEach((line, i) => {
    if (!at.includes(i)) out.push(line);
    else if (kept.has(i)) out.push(`  ${rows[r++].join('  ')}`);
  });
  return out.join('\n');
}

const jitterRows = (amplitude: number, rand: () => number) => (rows: string[][]) =>
  rows.map((t) => t.map((x, k) => (k >= 3 && k <= 5 ? (Number(x) + (2 * rand() - 1) * amplitude).toFixed(8) : x)));
const roundRows = (digits: number) => (rows: string[][]) =>
  rows.map((t) => t.map((x, k) => (k >= 3 && k <= 5 ? Number(x).toFixed(digits) : x)));
const wrap = (cif: string) => `<cif>\n${cif}\n</cif>`;

interface BatchCase {
  id: string;
  action: string;
  target: string;
  answer: string;
  kind: string;
}

/** One case per (template, round): rounds after the first shuffle the answer's atom rows and draw fresh jitter. */
function generateBatch(size: number): BatchCase[] {
  const generated = readJsonl('generated_cases.jsonl');
  const oracle = readJsonl('eval_oracle.jsonl');
  type Template = { kind: string; action: string; target: string; answer: (rand: () => number) => string | null };
  const templates: Template[] = [];
  generated.forEach((c, k) => {
    const t = { action: c.action as string, target: c.after_cif as string };
    templates.push({ ...t, kind: 'exact_target', answer: () => c.after_cif });
    templates.push({ ...t, kind: 'unchanged_input', answer: () => c.before_cif });
    templates.push({ ...t, kind: 'jitter_0.002', answer: (rand) => editAtomRows(c.after_cif, jitterRows(0.002, rand)) });
    templates.push({ ...t, kind: 'jitter_0.03', answer: (rand) => editAtomRows(c.after_cif, jitterRows(0.03, rand)) });
    templates.push({ ...t, kind: 'rounded_4dp', answer: () => editAtomRows(c.after_cif, roundRows(4)) });
    templates.push({
      ...t,
      kind: 'truncated_rows',
      answer: () => editAtomRows(c.after_cif, (rows) => rows.slice(0, Math.max(1, rows.length - 1))),
    });
    if (k % 3 === 0) {
      templates.push({
        ...t,
        kind: 'prose_and_decoy_block',
        answer: () => `Here is the input again:\n${wrap(c.before_cif)}\nAnd the result:\n${wrap(c.after_cif)}\nDone.`,
      });
    } else if (k % 3 === 1) {
      templates.push({ ...t, kind: 'markdown_fence_inside_tags', answer: () => `<cif>\n\`\`\`cif\n${c.after_cif}\n\`\`\`\n</cif>` });
    } else {
      templates.push({ ...t, kind: 'no_tags', answer: () => `\`\`\`cif\n${c.after_cif}\n\`\`\`` });
    }
  });
  for (const o of oracle) {
    templates.push({ kind: `oracle:${o.candidate}`, action: o.action, target: o.target_cif, answer: () => o.candidate_cif });
  }
  const cases: BatchCase[] = [];
  for (let k = 0; k < size; k++) {
    const t = templates[k % templates.length];
    const roundNo = Math.floor(k / templates.length);
    const rand = rng(1000 + k);
    let answer = t.answer(rand)!;
    const isWrapped = t.kind === 'prose_and_decoy_block' || t.kind === 'markdown_fence_inside_tags' || t.kind === 'no_tags';
    if (roundNo > 0 && !isWrapped) answer = editAtomRows(answer, (rows) => shuffle(rows, rand));
    cases.push({
      id: `bench-${String(k).padStart(4, '0')}`,
      action: t.action,
      target: t.target,
      kind: t.kind,
      answer: isWrapped ? answer : wrap(answer),
    });
  }
  return cases;
}

interface Verdict {
  id: string;
  correct: boolean;
  wrong_type: string | null;
  rmsd: number | null;
  max_dist: number | null;
}

/** Runs `structlab atomworld eval` from the bundle (never the tsx fallback) as one process; returns wall ms and verdicts. */
function runStructlab(casesPath: string, answersPath: string, outPath: string): { ms: number; verdicts: Verdict[] } {
  const bundle = join(ROOT, '.cli-build', 'structlab.mjs');
  const script = `import { main } from ${JSON.stringify(bundle)};
import { writeFileSync } from 'node:fs';
let out = '';
process.exitCode = await main(['atomworld', 'eval', ${JSON.stringify(casesPath)}, ${JSON.stringify(answersPath)}], {
  stdout: (t) => { out += t; },
  stderr: (t) => process.stderr.write(t),
});
writeFileSync(${JSON.stringify(outPath)}, out);`;
  // A file, not `node -e`: worker threads inherit the flags, and --input-type breaks their start.
  const runner = join(dirname(outPath), 'run-structlab.mjs');
  writeFileSync(runner, script);
  const t0 = performance.now();
  const r = spawnSync('node', [runner], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`structlab atomworld eval failed (${r.status}): ${r.stderr.trim()}`);
  return { ms, verdicts: JSON.parse(readFileSync(outPath, 'utf8')).cases };
}

function runPymatgen(casesPath: string, answersPath: string, outPath: string): { ms: number; verdicts: Verdict[] } {
  const t0 = performance.now();
  const r = spawnSync(PYTHON, [REFERENCE_SCRIPT, 'batch', casesPath, answersPath, outPath], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`atomworld_reference.py failed (${r.status}): ${r.stderr.trim().split('\n').pop()}`);
  return { ms, verdicts: JSON.parse(readFileSync(outPath, 'utf8')) };
}

/** The CLI bundle from the current sources (runStructlab imports it directly, never the tsx fallback). */
function buildCli(): void {
  const build = spawnSync('node', [join(ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('node scripts/build-cli.mjs failed');
}

function benchBatch(): Record<string, unknown> {
  buildCli();
  const cases = generateBatch(BATCH_SIZE);
  const dir = mkdtempSync(join(tmpdir(), 'structlab-atomworld-batch-'));
  const casesPath = join(dir, 'cases.jsonl'),
    answersPath = join(dir, 'answers.jsonl');
  try {
    writeFileSync(casesPath, cases.map((c) => JSON.stringify({ id: c.id, action: c.action, after_cif: c.target })).join('\n') + '\n');
    writeFileSync(answersPath, cases.map((c) => JSON.stringify({ id: c.id, answer: c.answer })).join('\n') + '\n');
    const runs = [0, 1, 2].map(() => runStructlab(casesPath, answersPath, join(dir, 'structlab.json')));
    const ours = runs[runs.length - 1].verdicts;
    const structlabMs = median(runs.map((r) => r.ms));
    const classes: Record<string, number> = {};
    for (const v of ours) classes[v.wrong_type ?? 'correct'] = (classes[v.wrong_type ?? 'correct'] ?? 0) + 1;
    const out: Record<string, unknown> = {
      cases: cases.length,
      structlab_eval_process_ms: round(structlabMs),
      structlab_runs_ms: runs.map((r) => round(r.ms)),
      verdict_classes: classes,
    };
    if (!hasPymatgen) return out;
    const py = runPymatgen(casesPath, answersPath, join(dir, 'pymatgen.json'));
    return {
      ...out,
      pymatgen_process_ms: round(py.ms),
      speedup: round(py.ms / structlabMs),
      ...compareVerdicts(ours, py.verdicts, new Map(cases.map((c) => [c.id, c.kind]))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Verdicts of StructLab against pymatgen's: disagreements (first 50 shown) and the largest rmsd / max_dist differences. */
function compareVerdicts(ours: Verdict[], theirs: Verdict[], kindOf: Map<string, string>) {
  const byId = new Map(theirs.map((v) => [v.id, v]));
  const disagreements = [];
  let maxRmsDiff = 0,
    maxMaxDistDiff = 0;
  {
    for (const v of ours) {
      const p = byId.get(v.id);
      if (!p || p.correct !== v.correct || p.wrong_type !== v.wrong_type) {
        disagreements.push({
          id: v.id,
          kind: kindOf.get(v.id),
          structlab: [v.correct, v.wrong_type, v.rmsd],
          pymatgen: p ? [p.correct, p.wrong_type, p.rmsd] : null,
        });
      } else if (v.correct && p.rmsd !== null && v.rmsd !== null) {
        maxRmsDiff = Math.max(maxRmsDiff, Math.abs(p.rmsd - v.rmsd));
        maxMaxDistDiff = Math.max(maxMaxDistDiff, Math.abs(p.max_dist! - v.max_dist!));
      }
    }
  }
  return {
    verdict_disagreements: disagreements.length,
    disagreements: disagreements.slice(0, 50),
    max_abs_rmsd_diff: maxRmsDiff,
    max_abs_max_dist_diff: maxMaxDistDiff,
  };
}

/**
 * Issue 13's row: `structlab atomworld eval` on the 437 oracle pairs of eval_oracle.jsonl (each target against its
 * candidate answer) and the pymatgen reference on the same files, both whole processes (`processesSideBySide`).
 */
function benchOracle(): Record<string, unknown> {
  buildCli();
  const oracle = readJsonl('eval_oracle.jsonl');
  const dir = mkdtempSync(join(tmpdir(), 'structlab-atomworld-oracle-'));
  const casesPath = join(dir, 'cases.jsonl'),
    answersPath = join(dir, 'answers.jsonl');
  try {
    const ids = oracle.map((o, k) => `${o.case_id}#${k}`);
    writeFileSync(
      casesPath,
      oracle.map((o, k) => JSON.stringify({ id: ids[k], action: o.action, after_cif: o.target_cif })).join('\n') + '\n',
    );
    writeFileSync(answersPath, oracle.map((o, k) => JSON.stringify({ id: ids[k], answer: wrap(o.candidate_cif) })).join('\n') + '\n');
    const kindOf = new Map(oracle.map((o, k) => [ids[k], `oracle:${o.candidate}`]));
    return { pairs: oracle.length, ...processesSideBySide(casesPath, answersPath, dir, kindOf) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 27's "every input, not only the benchmark's": answers to larger cells. bench/atomworld_reference.py
 * `supercells` writes 2×2×2 and 3×2×2 supercells (24–240 sites here) of the corpus's small ordered COD crystals as
 * targets, and as answers copies jittered by 0.05 Å, with one site moved by 1.2 Å, or with their sites shuffled;
 * then both whole processes side by side (`processesSideBySide`). Needs pymatgen (it writes the inputs).
 */
function benchSupercells(): Record<string, unknown> {
  if (!hasPymatgen) return { skipped: 'pymatgen not installed (it writes the inputs)' };
  buildCli();
  const dir = mkdtempSync(join(tmpdir(), 'structlab-atomworld-supercells-'));
  const casesPath = join(dir, 'cases.jsonl'),
    answersPath = join(dir, 'answers.jsonl');
  try {
    const made = spawnSync(PYTHON, [REFERENCE_SCRIPT, 'supercells', CORPUS_FILES, casesPath, answersPath], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`atomworld_reference.py supercells failed: ${made.stderr.trim().split('\n').pop()}`);
    const cases = readFileSync(casesPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; action: string; after_cif: string });
    const kindOf = new Map(cases.map((c) => [c.id, `supercell:${c.action}`]));
    const sites = cases.map((c) => parseCifStrict(c.after_cif).sites.length);
    return {
      pairs: cases.length,
      sites: `${Math.min(...sites)}–${Math.max(...sites)}`,
      ...processesSideBySide(casesPath, answersPath, dir, kindOf),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `structlab atomworld eval` and the pymatgen reference on the same files, both whole processes, interleaved
 * `ORACLE_REPEATS` times; medians, the ratio, and the verdicts compared. Then `other_core_busy`: the same, interleaved
 * `ORACLE_BUSY_REPEATS` times, with one core kept busy meanwhile (issue 27: the ratio must hold on a loaded machine).
 */
const ORACLE_REPEATS = 5;
const ORACLE_BUSY_REPEATS = 3;
function processesSideBySide(casesPath: string, answersPath: string, dir: string, kindOf: Map<string, string>): Record<string, unknown> {
  const interleaved = (repeats: number) => {
    const ours: { ms: number; verdicts: Verdict[] }[] = [],
      theirs: { ms: number; verdicts: Verdict[] }[] = [];
    for (let r = 0; r < repeats; r++) {
      ours.push(runStructlab(casesPath, answersPath, join(dir, 'structlab.json')));
      if (hasPymatgen) theirs.push(runPymatgen(casesPath, answersPath, join(dir, 'pymatgen.json')));
    }
    const oursMs = median(ours.map((r) => r.ms));
    const row: Record<string, unknown> = { structlab_process_ms: round(oursMs) };
    if (!hasPymatgen) return row;
    const theirsMs = median(theirs.map((r) => r.ms));
    return {
      ...row,
      pymatgen_process_ms: round(theirsMs),
      speedup: round(theirsMs / oursMs),
      ...compareVerdicts(ours.at(-1)!.verdicts, theirs.at(-1)!.verdicts, kindOf),
    };
  };
  const idle = interleaved(ORACLE_REPEATS);
  const busy = busyCore();
  let loaded: Record<string, unknown>;
  try {
    loaded = interleaved(ORACLE_BUSY_REPEATS);
  } finally {
    busy.stop();
  }
  return { ...idle, other_core_busy: loaded };
}

/** `--write-batch DIR`: only write DIR/cases.jsonl and DIR/answers.jsonl (for profiling `structlab atomworld eval`). */
const writeBatchArg = process.argv.indexOf('--write-batch');
if (writeBatchArg > 0) {
  const dir = process.argv[writeBatchArg + 1];
  const cases = generateBatch(BATCH_SIZE);
  writeFileSync(
    join(dir, 'cases.jsonl'),
    cases.map((c) => JSON.stringify({ id: c.id, action: c.action, after_cif: c.target })).join('\n') + '\n',
  );
  writeFileSync(join(dir, 'answers.jsonl'), cases.map((c) => JSON.stringify({ id: c.id, answer: c.answer })).join('\n') + '\n');
  process.exit(0);
}
const onlyBatch = process.argv.includes('--batch-only');
const onlyMatch = process.argv.includes('--match-only');
const onlyOracle = process.argv.includes('--oracle-only');
const onlySupercells = process.argv.includes('--supercells-only');
const results: Record<string, unknown> = {
  pymatgen: hasPymatgen ? 'Debian python3-pymatgen (/usr/bin/python3)' : 'not installed; StructLab figures only',
};
const only = onlyBatch || onlyMatch || onlyOracle || onlySupercells;
if (!only || onlyMatch) results.match = benchMatch();
if (!only || onlyBatch) results.batch = benchBatch();
if (!only || onlyOracle) results.oracle_437 = benchOracle();
if (!only || onlySupercells) results.supercells = benchSupercells();
console.log(JSON.stringify({ atomworld: results }, null, 2));
