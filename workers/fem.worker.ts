/** The FEM worker: frame solves with the FEM-Bench reference and model-output checks, off the UI thread. */
import * as Comlink from 'comlink';
import { bucklingFrameBanded, linearFrameBanded } from '../src/core/tasks/fembench/msa/frame-banded.ts';
import { femTask } from '../src/core/tasks/fembench/registry.ts';
import { FemTaskError } from '../src/core/tasks/fembench/types.ts';
import { bucklingModes, LINEAR_TASK } from '../src/core/tasks/fembench/lab/buckling-modes.ts';
import { taskInputs, validateModel, type FrameModel } from '../src/core/tasks/fembench/lab/frame-model.ts';
import { compareOutputs, parseCasesDoc, parseOutputsDoc } from '../src/core/tasks/fembench/lab/model-outputs.ts';
import type { FemWorkerApi, InputText } from './fem-api.ts';
import { attempt, errorText } from './result.ts';

/** Solver errors as the page shows them: the reference's own sentence, with its Python class for context. */
function femErrorText(e: unknown): string {
  if (e instanceof FemTaskError) {
    if (e.type === 'KeyError' && e.message === "'I_rho'")
      return 'The buckling analysis needs I_rho (polar moment of inertia) on every element.';
    return `${e.message} (${e.type})`;
  }
  return errorText(e);
}

const solve = <T>(fn: () => T) => attempt(fn, (_message, e) => femErrorText(e));

/** Above this many DOFs the solves use the banded solvers (the dense reference computes cond₂ by SVD: O(n³)). */
const DENSE_MAX_DOFS = 600;
const frameElements = (m: FrameModel) => m.elements.map((e) => ({ ...e, local_z: e.local_z ?? null }));
const flagsOf = (m: FrameModel) => new Map(Object.entries(m.boundary_conditions).map(([k, v]) => [Number(k), v] as const));
const loadsOf = (m: FrameModel) => new Map(Object.entries(m.nodal_loads).map(([k, v]) => [Number(k), v] as const));

const api: FemWorkerApi = {
  async linearSolve(model: FrameModel) {
    return solve(() => {
      const invalid = validateModel(model);
      if (invalid) throw new Error(invalid);
      const t0 = performance.now();
      if (6 * model.node_coords.length > DENSE_MAX_DOFS) {
        // Large frames: the banded Cholesky path (same equations, no dense condition number).
        const { u, r } = linearFrameBanded(model.node_coords, frameElements(model), flagsOf(model), loadsOf(model));
        return { u: Array.from(u), r: Array.from(r), ms: performance.now() - t0 };
      }
      const [u, r] = femTask(LINEAR_TASK)!.run(taskInputs(model)) as [number[], number[]];
      return { u, r, ms: performance.now() - t0 };
    });
  },
  async buckling(model: FrameModel, count: number) {
    return solve(() => {
      const invalid = validateModel(model);
      if (invalid) throw new Error(invalid);
      const t0 = performance.now();
      if (6 * model.node_coords.length > DENSE_MAX_DOFS) {
        const b = bucklingFrameBanded(model.node_coords, frameElements(model), flagsOf(model), loadsOf(model));
        return {
          modes: [{ lambda: b.lambda, mode: Array.from(b.mode) }],
          note: `Large frame (over ${DENSE_MAX_DOFS} DOFs): mode 1 by the banded Lanczos solver.`,
          ms: performance.now() - t0,
        };
      }
      const { modes, note } = bucklingModes(model, count);
      return { modes, note, ms: performance.now() - t0 };
    });
  },
  async checkOutputs(taskId: string | null, cases: InputText, outputs: InputText, onProgress) {
    return solve(() => {
      const c = parseCasesDoc(cases.text, cases.name);
      const o = parseOutputsDoc(outputs.text, outputs.name);
      const id = taskId || o.taskId || c.taskId;
      if (!id) throw new Error('Choose the task: neither file names it (task_id).');
      const report = compareOutputs(id, c.cases, o);
      onProgress?.(c.cases.length, c.cases.length);
      return report;
    });
  },
};

Comlink.expose(api);
