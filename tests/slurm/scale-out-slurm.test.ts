/**
 * docs/scale-out on a real Slurm (`npm run test:slurm`, which starts a one-node cluster and sets SLURM_CONF):
 * `sbatch --array` runs slurm-array.sh over a C2NP split and over an AtomWorld batch, `--dependency=afterok` runs
 * slurm-merge.sh, and the merged report (and C2NP rows) must equal the unsharded run byte for byte. In each array
 * one task's first attempt leaves damaged outputs and hangs until `scontrol requeue` kills it (killed-once.sh):
 * the requeued attempt must repair them, and the merge must wait for it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';
import { structlab } from '../cli-runner.ts';
import { c2npSplitOptions, writeAtomworldBatch, writeC2npSplit } from '../scale-out-data.ts';

const SLURM_CONF = process.env.SLURM_CONF;
const STRUCTLAB = `${process.execPath} ${join(REPO_ROOT, 'bin', 'structlab.mjs')}`;
const SHARD_SCRIPT = join(REPO_ROOT, 'docs', 'scale-out', 'slurm-array.sh');
const MERGE_SCRIPT = join(REPO_ROOT, 'docs', 'scale-out', 'slurm-merge.sh');
const KILLED_ONCE = join(REPO_ROOT, 'tests', 'slurm', 'killed-once.sh');
const SHARDS = 4;
const KILLED_TASK = 1;

const dir = mkdtempSync(join(tmpdir(), 'structlab-slurm-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Slurm client command against the test cluster; a non-zero exit fails the test with its standard error. */
function slurm(command: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, SLURM_CONF, ...env }, timeout: 30_000 });
  expect(r.status, `${command} ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface JobRecord {
  id: string;
  state: string;
  reason: string;
  restarts: number;
  start: string;
  end: string;
}

/** `scontrol show job -o`: one record per array task (pending tasks may share one record). */
function jobRecords(jobId: string): JobRecord[] {
  return slurm('scontrol', ['show', 'job', '-o', jobId])
    .split('\n')
    .filter((l) => l.startsWith('JobId='))
    .map((l) => {
      const field = (name: string) => new RegExp(`(?:^|\\s)${name}=(\\S*)`).exec(l)?.[1] ?? '';
      const task = field('ArrayTaskId');
      return {
        id: task ? `${field('ArrayJobId')}_${task}` : field('JobId'),
        state: field('JobState'),
        reason: field('Reason'),
        restarts: Number(field('Restarts')),
        start: field('StartTime'),
        end: field('EndTime'),
      };
    });
}

async function waitFor(what: string, ready: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const ENDED_BADLY = /^(FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$/;

/**
 * Submits the array (SHARDS tasks, one CPU each) and the merge as a user would, kills task KILLED_TASK's first
 * attempt with `scontrol requeue` once it has written its damage, and waits for the merge to finish.
 */
async function runOnSlurm(batch: 'c2np' | 'atomworld', data: string) {
  const out = join(data, 'eval');
  const logs = join(data, 'logs');
  mkdirSync(logs, { recursive: true });
  const killedMark = join(data, 'killed-attempt-hangs');
  const submitted = Date.now();
  const shardJob = slurm(
    'sbatch',
    ['--parsable', `--array=0-${SHARDS - 1}`, '--cpus-per-task=1', '--mem=1G', '--time=10', `--chdir=${logs}`, SHARD_SCRIPT],
    {
      BATCH: batch,
      DATA: data,
      OUT: out,
      STRUCTLAB: `bash ${KILLED_ONCE}`,
      REAL_STRUCTLAB: STRUCTLAB,
      KILLED_TASK: String(KILLED_TASK),
      KILLED_MARK: killedMark,
    },
  )
    .trim()
    .split(';')[0];
  const mergeJob = slurm(
    'sbatch',
    ['--parsable', `--dependency=afterok:${shardJob}`, '--mem=1G', '--time=10', `--chdir=${logs}`, MERGE_SCRIPT],
    { DATA: data, OUT: out, STRUCTLAB },
  )
    .trim()
    .split(';')[0];

  const killed = `${shardJob}_${KILLED_TASK}`;
  await waitFor(`the first attempt of task ${killed} to hang`, () => existsSync(killedMark), 120_000);
  slurm('scontrol', ['requeue', killed]);
  await waitFor(`task ${killed} to be pending again`, () => jobRecords(killed)[0]?.state === 'PENDING', 30_000);
  // Slurm holds a requeued job for two minutes (its BeginTime); an operator releases it at once.
  slurm('scontrol', ['update', `JobId=${killed}`, 'StartTime=now']);
  await waitFor(
    `merge job ${mergeJob}`,
    () => {
      const [merge] = jobRecords(mergeJob);
      if (ENDED_BADLY.test(merge.state) || merge.reason === 'DependencyNeverSatisfied') {
        const logText = readdirSync(logs)
          .map((f) => `--- ${f}\n${readFileSync(join(logs, f), 'utf8')}`)
          .join('\n');
        throw new Error(`merge job ${mergeJob} is ${merge.state} (${merge.reason})\n${logText}`);
      }
      return merge.state === 'COMPLETED';
    },
    300_000,
  );
  const tasks = jobRecords(shardJob);
  const [merge] = jobRecords(mergeJob);
  return { out, tasks, merge, killed, seconds: (Date.now() - submitted) / 1000 };
}

/** Every task completed once, but the killed one, which completed on its second attempt; then the merge. */
function expectTasksAndOrder(run: Awaited<ReturnType<typeof runOnSlurm>>): void {
  expect(run.tasks.map((t) => t.id).sort()).toEqual(Array.from({ length: SHARDS }, (_, i) => `${run.tasks[0].id.split('_')[0]}_${i}`));
  for (const task of run.tasks) {
    expect(task.state, task.id).toBe('COMPLETED');
    expect(task.restarts, task.id).toBe(task.id === run.killed ? 1 : 0);
    // afterok: the merge started only once every task (the requeued one included) had ended. Times are to the second.
    expect(run.merge.start >= task.end, `${run.merge.start} ≥ ${task.end}`).toBe(true);
  }
  expect(readdirSync(run.out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

const rowsOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe.sequential('docs/scale-out on a real Slurm', () => {
  it('runs against a cluster that answers (npm run test:slurm starts it)', () => {
    expect(SLURM_CONF, 'SLURM_CONF: run these tests with `npm run test:slurm`').toBeTruthy();
    expect(slurm('sinfo', ['-h', '-N', '-o', '%T']).trim()).toBe('idle');
  });

  it('a C2NP split: sbatch --array, a requeued task, afterok merge = the unsharded report and rows', async () => {
    const data = join(dir, 'c2np');
    expect(writeC2npSplit(data, 4)).toBe(44);
    const wholeRows = join(dir, 'c2np-whole.rows.jsonl');
    const started = Date.now();
    const whole = structlab(['c2np', 'eval', ...c2npSplitOptions(data), '--rows', wholeRows]);
    const wholeSeconds = (Date.now() - started) / 1000;
    expect(whole.code, whole.stderr).toBe(0);

    const run = await runOnSlurm('c2np', data);
    expectTasksAndOrder(run);
    expect(readFileSync(join(run.out, 'report.json'), 'utf8')).toBe(whole.stdout);
    expect(rowsOf(join(run.out, 'rows.jsonl'))).toEqual(rowsOf(wholeRows));
    console.log(
      JSON.stringify({ batch: 'c2np', rows: 44, shards: SHARDS, unsharded_s: wholeSeconds, slurm_submit_to_merged_s: run.seconds }),
    );
  }, 420_000);

  it('an AtomWorld batch: sbatch --array, a requeued task, afterok merge = the unsharded report', async () => {
    const data = join(dir, 'atomworld');
    expect(writeAtomworldBatch(data)).toBe(437);
    const started = Date.now();
    const whole = structlab(['atomworld', 'eval', join(data, 'cases.jsonl'), join(data, 'answers.jsonl')]);
    const wholeSeconds = (Date.now() - started) / 1000;
    expect(whole.code, whole.stderr).toBe(0);

    const run = await runOnSlurm('atomworld', data);
    expectTasksAndOrder(run);
    expect(readFileSync(join(run.out, 'report.json'), 'utf8')).toBe(whole.stdout);
    expect(existsSync(join(run.out, 'rows.jsonl'))).toBe(false);
    console.log(
      JSON.stringify({ batch: 'atomworld', cases: 437, shards: SHARDS, unsharded_s: wholeSeconds, slurm_submit_to_merged_s: run.seconds }),
    );
  }, 420_000);
});
