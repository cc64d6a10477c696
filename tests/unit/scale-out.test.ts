/**
 * docs/scale-out without a scheduler: the Slurm array script is run in a shell loop for every SLURM_ARRAY_TASK_ID
 * (a C2NP split, and an AtomWorld batch with BATCH=atomworld), then the merge script, and the Kubernetes manifest's
 * container script for every JOB_COMPLETION_INDEX, all against the real CLI (bin/structlab.mjs); each must give the
 * unsharded report and rows. Every option they pass must be one the command's --help documents, and the snippet
 * the document quotes must be the script's own lines. tests/slurm/ runs the same scripts on a real Slurm.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { c2npSplitOptions, writeAtomworldBatch, writeC2npSplit } from '../scale-out-data.ts';

const DOCS = join(REPO_ROOT, 'docs');
const slurm = readFileSync(join(DOCS, 'scale-out', 'slurm-array.sh'), 'utf8');
const slurmMerge = readFileSync(join(DOCS, 'scale-out', 'slurm-merge.sh'), 'utf8');
const manifest = readFileSync(join(DOCS, 'scale-out', 'k8s-indexed-job.yaml'), 'utf8');
const STRUCTLAB = `${process.execPath} ${join(REPO_ROOT, 'bin', 'structlab.mjs')}`;

/** The container's shell script: the block scalar after `args:` / `- |`. */
function manifestScript(): string {
  const lines = manifest.split('\n');
  const start = lines.findIndex((l) => /^\s*- \|\s*$/.test(l));
  expect(start).toBeGreaterThan(0);
  const indent = /^\s*/.exec(lines[start + 1])![0].length;
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.trim() !== '' && /^\s*/.exec(l)![0].length < indent) break;
    body.push(l.slice(indent));
  }
  return body.join('\n');
}

const dir = mkdtempSync(join(tmpdir(), 'scale-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sh(shell: string, script: string, env: Record<string, string>) {
  const r = spawnSync(shell, ['-c', script], { encoding: 'utf8', cwd: dir, env: { ...process.env, ...env }, timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

const sortedRows = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('docs/scale-out', () => {
  const data = join(dir, 'c2np');
  writeC2npSplit(data);
  const unsharded = (async () => {
    const rows = join(dir, 'whole.rows.jsonl');
    const r = await structlabInProcess(['c2np', 'eval', ...c2npSplitOptions(data), '--workers', '0', '--rows', rows]);
    expect(r.code, r.stderr).toBe(0);
    return { report: `${r.stdout}`, rows: sortedRows(rows) };
  })();

  it('the Slurm array script, run for every SLURM_ARRAY_TASK_ID, and the merge script give the unsharded report and rows', async () => {
    const out = join(dir, 'slurm-eval');
    const N = 3;
    for (let i = 0; i < N; i++)
      sh('bash', slurm, {
        STRUCTLAB,
        DATA: data,
        OUT: out,
        SLURM_ARRAY_TASK_ID: String(i),
        SLURM_ARRAY_TASK_COUNT: String(N),
        SLURM_CPUS_PER_TASK: '1',
      });
    expect(
      readdirSync(out)
        .filter((f) => f.startsWith('partial.'))
        .sort(),
    ).toEqual([0, 1, 2].map((i) => `partial.${i}.json`));
    sh('bash', slurmMerge, { STRUCTLAB, DATA: data, OUT: out });
    const whole = await unsharded;
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(whole.report);
    expect(sortedRows(join(out, 'rows.jsonl'))).toEqual(whole.rows);
  }, 120_000);

  it('BATCH=atomworld: the array script over an AtomWorld batch, then the merge script, give the unsharded report', async () => {
    const data = join(dir, 'atomworld');
    writeAtomworldBatch(data, 40);
    const out = join(data, 'eval');
    for (let i = 0; i < 3; i++)
      sh('bash', slurm, {
        STRUCTLAB,
        BATCH: 'atomworld',
        DATA: data,
        SLURM_ARRAY_TASK_ID: String(i),
        SLURM_ARRAY_TASK_COUNT: '3',
        SLURM_CPUS_PER_TASK: '1',
      });
    sh('bash', slurmMerge, { STRUCTLAB, DATA: data });
    const whole = await structlabInProcess(['atomworld', 'eval', join(data, 'cases.jsonl'), join(data, 'answers.jsonl'), '--workers', '0']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(JSON.parse(whole.stdout).cases).toHaveLength(40);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(whole.stdout);
    expect(readdirSync(out).filter((f) => f.startsWith('rows'))).toEqual([]);
  }, 120_000);

  it('an unknown BATCH stops the task with a sentence and exit status 2', () => {
    const r = spawnSync('bash', ['-c', slurm], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, STRUCTLAB, BATCH: 'fem', DATA: join(dir, 'none'), SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '1' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("BATCH is c2np or atomworld, not 'fem'");
  });

  it('the Kubernetes Indexed Job script, run for every JOB_COMPLETION_INDEX, merges to the unsharded report', async () => {
    const script = manifestScript();
    expect(script).toMatch(/\$JOB_COMPLETION_INDEX/);
    const shards = Number(/name: SHARDS, value: '(\d+)'/.exec(manifest)?.[1]);
    expect(Number(/completions: (\d+)/.exec(manifest)?.[1])).toBe(shards);
    // Fewer shards than the manifest's (each is a process); the script takes the count from $SHARDS.
    const root = join(dir, 'k8s');
    mkdirSync(root);
    const k8sData = join(root, 'c2np');
    writeC2npSplit(k8sData);
    expect(shards).toBeGreaterThan(1);
    for (let i = 0; i < 3; i++) sh('sh', script, { STRUCTLAB, DATA: k8sData, SHARDS: '3', WORKERS: '0', JOB_COMPLETION_INDEX: String(i) });
    sh('bash', slurmMerge, { STRUCTLAB, DATA: k8sData });
    const whole = await unsharded;
    // Same data under another path: the reports agree once the folder names in row ids agree (they are relative).
    expect(readFileSync(join(k8sData, 'eval', 'report.json'), 'utf8')).toBe(whole.report);
    expect(sortedRows(join(k8sData, 'eval', 'rows.jsonl'))).toEqual(whole.rows);
  }, 180_000);

  it('every option the scripts pass exists in the real CLI, and the document quotes the script verbatim', async () => {
    // Each command line of the scripts (comments and #SBATCH directives are not passed to structlab), with the
    // subcommand it runs.
    const commandLines = (text: string) =>
      text
        .split('\n')
        .filter((l) => !l.trim().startsWith('#'))
        .join('\n')
        .replace(/\\\n/g, ' ')
        .split('\n')
        .filter((l) => /^\s*("\$\{STRUCTLAB\[@\]\}"|\$\{STRUCTLAB:-structlab\}) /.test(l));
    const checked = new Set<string>();
    for (const line of [...commandLines(slurm), ...commandLines(manifestScript())]) {
      const command = /(c2np eval|atomworld eval|merge)/.exec(line)?.[1];
      expect(command, line).toBeTruthy();
      checked.add(command!);
      const help = (await structlabInProcess([...command!.split(' '), '--help'])).stdout;
      const flags = [...line.matchAll(/(?<=\s)--[a-z][a-z-]*/g)].map((m) => m[0]);
      expect(flags.length, line).toBeGreaterThan(1);
      for (const flag of flags) expect(help, `${command} ${flag}`).toContain(flag);
    }
    expect([...checked].sort()).toEqual(['atomworld eval', 'c2np eval']);
    expect(slurmMerge).toMatch(/"\$\{STRUCTLAB\[@\]\}" merge /);
    const doc = readFileSync(join(DOCS, 'scale-out.md'), 'utf8');
    const quoted = /The shard command of `slurm-array.sh`:\n\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(quoted).toBeTruthy();
    expect(slurm).toContain(quoted!);
  });
});
