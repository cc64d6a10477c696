/**
 * The FEM-Bench page's store: the frame being edited and its results, the 2D/1D view settings and the
 * model-output report. Frame solves and output checks run in workers/fem.worker.ts; cancel terminates it.
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import examplesJson from '../../datasets/fem/frames.json';
import type { FrameModel } from '../core/tasks/fembench/lab/frame-model.ts';
import type { BarSpec } from '../core/tasks/fembench/lab/one-d-view.ts';
import type { RectangleSpec } from '../core/tasks/fembench/lab/mesh2d-view.ts';
import type { OutputsReport } from '../core/tasks/fembench/lab/model-outputs.ts';
import type { BucklingSolution, FemWorkerApi, InputText, LinearSolution, Result } from '../../workers/fem-api.ts';
import { readTextFile } from '../browser/read-file.ts';
import { errorText, type Status, WorkerClient } from './worker-client.ts';

export const FRAME_EXAMPLES = (examplesJson as unknown as { examples: FrameModel[] }).examples;

export type FemTab = 'frame' | '2d' | '1d' | 'outputs';

export interface FemState {
  tab: FemTab;
  model: FrameModel;
  /** Bumped when a new model is loaded (the camera refits). */
  fitToken: number;
  linear: LinearSolution | null;
  buckling: BucklingSolution | null;
  /** What the 3D view shows. */
  show: 'model' | 'deformed' | 'mode';
  modeIndex: number;
  playing: boolean;
  scale: number | null;
  showAxes: boolean;
  rect: RectangleSpec;
  ruleN: number;
  /** Node moved by the user in the 2D view (index → [x, y]). */
  movedNodes: Record<number, [number, number]>;
  shapeElement: number;
  shapeIndex: number;
  bar: BarSpec;
  outputsCases: InputText | null;
  outputsFile: InputText | null;
  outputsTask: string | null;
  report: OutputsReport | null;
  busy: string | null;
  error: string | null;
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

export const useFem = create<FemState>(() => ({
  tab: 'frame',
  model: clone(FRAME_EXAMPLES[0]),
  fitToken: 0,
  linear: null,
  buckling: null,
  show: 'model',
  modeIndex: 0,
  playing: false,
  scale: null,
  showAxes: false,
  rect: { kind: 'Q8', nx: 3, ny: 2, xl: 0, yl: 0, xh: 3, yh: 2 },
  ruleN: 4,
  movedNodes: {},
  shapeElement: 0,
  shapeIndex: 0,
  bar: { xMin: 0, xMax: 3, nElements: 3, E: 1e11, A: 1e-3, bodyForce: [1000], uLeft: 0, tipLoad: 0 },
  outputsCases: null,
  outputsFile: null,
  outputsTask: null,
  report: null,
  busy: null,
  error: null,
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<FemWorkerApi>(
  () => new Worker(new URL('../../workers/fem.worker.ts', import.meta.url), { type: 'module', name: 'structlab-fem' }),
);
const setStatus = (patch: Status) => useFem.setState(patch);
const request = async <T>(busy: string, call: (w: Comlink.Remote<FemWorkerApi>) => Promise<Result<T>>, done: (value: T) => void) => {
  const r = await client.request(call, { status: setStatus, busy });
  if (r?.ok) done(r.value);
};

export function cancel(): void {
  client.cancel();
  useFem.setState({ busy: null, error: 'Cancelled.' });
}

export const setTab = (tab: FemTab) => useFem.setState({ tab, error: null });

export function loadExample(id: string): void {
  const ex = FRAME_EXAMPLES.find((e) => e.id === id);
  if (!ex) return;
  useFem.setState((s) => ({
    model: clone(ex),
    linear: null,
    buckling: null,
    show: 'model',
    playing: false,
    scale: null,
    error: null,
    fitToken: s.fitToken + 1,
  }));
}

/** Any edit invalidates the results computed for the previous model. */
export function editModel(change: (m: FrameModel) => void): void {
  const m = clone(useFem.getState().model);
  change(m);
  useFem.setState({ model: m, linear: null, buckling: null, show: 'model', playing: false, error: null });
}

export function runLinear(): Promise<void> {
  const model = useFem.getState().model;
  return request(
    'linear solve',
    (w) => w.linearSolve(model),
    (linear) => useFem.setState({ linear, show: 'deformed', playing: false }),
  );
}

export function runBuckling(count = 3): Promise<void> {
  const model = useFem.getState().model;
  return request(
    'buckling analysis',
    (w) => w.buckling(model, count),
    (buckling) => useFem.setState({ buckling, show: 'mode', modeIndex: 0, playing: true }),
  );
}

export async function setOutputsFile(role: 'cases' | 'outputs', file: File): Promise<void> {
  try {
    const input = { name: file.name, text: await readTextFile(file) };
    useFem.setState(role === 'cases' ? { outputsCases: input, report: null } : { outputsFile: input, report: null });
    await checkOutputs();
  } catch (e) {
    useFem.setState({ error: errorText(e) });
  }
}

export function checkOutputs(): Promise<void> {
  const { outputsCases, outputsFile, outputsTask } = useFem.getState();
  if (!outputsCases || !outputsFile) return Promise.resolve();
  return request(
    'checking the outputs',
    (w) => w.checkOutputs(outputsTask, outputsCases, outputsFile),
    (report) => useFem.setState({ report }),
  );
}
