/** The static FEM-Bench task id list (what the lab's picker shows without loading a solver) is the registry's. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEM_BENCH_TASKS } from '../../src/core/tasks/fembench/registry.ts';
import { FEM_BENCH_TASK_IDS } from '../../src/core/tasks/fembench/task-ids.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

describe('FEM-Bench task ids', () => {
  it('the static list is the registry’s ids, in order, 33 without repeats', () => {
    expect([...FEM_BENCH_TASK_IDS]).toEqual(FEM_BENCH_TASKS.map((t) => t.id));
    expect(new Set(FEM_BENCH_TASK_IDS).size).toBe(33);
  });

  it('the FEM page imports no solver registry (its task picker uses the static list)', () => {
    const dir = join(REPO_ROOT, 'src', 'pages', 'fem');
    const files = readdirSync(dir).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/fembench\/(registry|fem\/index|msa\/index)\.ts/);
  });
});
