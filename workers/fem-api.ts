/** The FEM worker's interface (3D frame solves, model-output checks), shared by worker and client. */
import type { FrameModel } from '../src/core/tasks/fembench/lab/frame-model.ts';
import type { BucklingMode } from '../src/core/tasks/fembench/lab/buckling-modes.ts';
import type { OutputsReport } from '../src/core/tasks/fembench/lab/model-outputs.ts';
import type { Result } from './result.ts';

export type { Result };

export interface LinearSolution {
  /** 6n displacements [UX UY UZ RX RY RZ] per node. */
  u: number[];
  /** 6n reactions (non-zero on fixed DOFs only). */
  r: number[];
  ms: number;
}

export interface BucklingSolution {
  modes: BucklingMode[];
  note: string | null;
  ms: number;
}

export interface InputText {
  name: string;
  text: string;
}

export interface FemWorkerApi {
  /** MSA_3D_linear_elastic on the model (the FEM-Bench reference). */
  linearSolve(model: FrameModel): Promise<Result<LinearSolution>>;
  /** MSA_3D_elastic_critical_load for mode 1, then up to `count` modes in all. */
  buckling(model: FrameModel, count: number): Promise<Result<BucklingSolution>>;
  /** A model's outputs against the reference on the task's cases; progress after each case. */
  checkOutputs(
    taskId: string | null,
    cases: InputText,
    outputs: InputText,
    onProgress?: (done: number, total: number) => void,
  ): Promise<Result<OutputsReport>>;
}
