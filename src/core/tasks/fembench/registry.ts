/**
 * Every FEM-Bench reference task by id (33), each called as the benchmark's Python would call
 * `f(**inputs)`: an input key that is not a parameter, or a missing required parameter, is Python's
 * TypeError with Python's wording (the reference functions are elejeune11/FEM-bench tasks/<task_id>.py).
 */
import { femDict } from './codec.ts';
import { FEM_TASKS } from './fem/index.ts';
import { MSA_TASKS } from './msa/index.ts';
import { FEM_BENCH_TASK_IDS } from './task-ids.ts';
import { FemTaskError, type FemTask, type FemValue } from './types.ts';

/** Parameters with a default (golden `signature.params`); every other parameter is required. */
const OPTIONAL: Record<string, readonly string[]> = {
  FEM_1D_linear_elastic_CC0_H0_T0: ['neumann_bc_list', 'n_gauss'],
  FEM_1D_local_elastic_stiffness_CC0_H3_T1: ['n_gauss'],
  MSA_3D_transformation_matrix_CC0_H0_T0: ['reference_vector'],
};

/** The parameter names of a task, in order, from its signature line "(a, b: type, c=default) -> …". */
export function parameterNames(task: Pick<FemTask, 'signature'>): string[] {
  const open = task.signature.indexOf('(');
  let depth = 0;
  let end = open;
  for (let i = open; i < task.signature.length; i++) {
    const ch = task.signature[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  const names: string[] = [];
  depth = 0;
  let start = open + 1;
  for (let i = open + 1; i <= end; i++) {
    const ch = task.signature[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && i !== end) depth--;
    if ((ch === ',' && depth === 0) || i === end) {
      const name = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(task.signature.slice(start, i));
      if (name) names.push(name[1]);
      start = i + 1;
    }
  }
  return names;
}

function quoteList(names: string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length <= 1) return q.join('');
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

/**
 * Binds keyword inputs to the task's parameters as CPython 3.11 does: the first unexpected keyword
 * (in input order) is reported before missing arguments. Returns a prototype-free record.
 */
export function bindInputs(
  id: string,
  params: readonly string[],
  optional: readonly string[],
  inputs: Record<string, FemValue>,
): Record<string, FemValue> {
  const known = new Set(params);
  const bound = femDict();
  for (const key of Object.keys(inputs)) {
    if (!known.has(key)) throw new FemTaskError('TypeError', `${id}() got an unexpected keyword argument '${key}'`);
    bound[key] = inputs[key];
  }
  const missing = params.filter((p) => !optional.includes(p) && !Object.hasOwn(bound, p));
  if (missing.length > 0) {
    throw new FemTaskError(
      'TypeError',
      `${id}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${quoteList(missing)}`,
    );
  }
  return bound;
}

function bound(task: FemTask): FemTask {
  const params = parameterNames(task);
  const optional = OPTIONAL[task.id] ?? [];
  const run = task.run;
  return { ...task, run: (inputs) => run(bindInputs(task.id, params, optional, inputs)) };
}

/** The tasks in the order of the static id list (task-ids.ts), which must name every task exactly once. */
function inListedOrder(tasks: readonly FemTask[]): FemTask[] {
  const byId = new Map(tasks.map((t) => [t.id, t] as const));
  const unlisted = tasks.filter((t) => !(FEM_BENCH_TASK_IDS as readonly string[]).includes(t.id)).map((t) => t.id);
  if (unlisted.length > 0 || byId.size !== tasks.length)
    throw new Error(`FEM-Bench tasks missing from task-ids.ts or repeated: ${unlisted.join(', ')}`);
  return FEM_BENCH_TASK_IDS.map((id) => {
    const task = byId.get(id);
    if (!task) throw new Error(`task-ids.ts lists ${id}, which has no implementation`);
    return task;
  });
}

export const FEM_BENCH_TASKS: readonly FemTask[] = inListedOrder([...FEM_TASKS, ...MSA_TASKS]).map(bound);

const BY_ID = new Map(FEM_BENCH_TASKS.map((t) => [t.id, t] as const));

export function femTask(id: string): FemTask | undefined {
  return BY_ID.get(id);
}
