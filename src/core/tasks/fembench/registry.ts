/** Every FEM-Bench reference task by id (33 when complete). */
import { FEM_TASKS } from './fem/index.ts';
import { MSA_TASKS } from './msa/index.ts';
import type { FemTask } from './types.ts';

export const FEM_BENCH_TASKS: readonly FemTask[] = [...FEM_TASKS, ...MSA_TASKS];

export function femTask(id: string): FemTask | undefined {
  return FEM_BENCH_TASKS.find((t) => t.id === id);
}
