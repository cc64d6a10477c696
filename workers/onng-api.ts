/** The O-NNG analysis worker's interface, shared by the worker and its client (types only). */
import type { UpstreamFile } from '../src/core/tasks/onng/upstream.ts';
import type { AnalysisOptions, OnngAnalysis } from '../src/core/tasks/onng/lab/analysis.ts';
import type { Result } from './result.ts';

export type { Result };

export interface OnngWorkerApi {
  /** Analyses a per_problem_outcomes.csv text; progress names each stage. */
  analyse(text: string, fileName: string, options: AnalysisOptions, onProgress?: (stage: string) => void): Promise<Result<OnngAnalysis>>;
  /** Analyses a results folder in the upstream layout plus verdict files given apart (statistics.json-like). */
  analyseUpstream(
    files: UpstreamFile[],
    verdicts: UpstreamFile[],
    folderName: string,
    options: AnalysisOptions,
    problemNames: Record<number, string> | undefined,
    onProgress?: (stage: string) => void,
  ): Promise<Result<OnngAnalysis>>;
}
