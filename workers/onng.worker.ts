/** The O-NNG results worker: parses and analyses an outcomes CSV (10,200 rows) or an upstream results folder off the page's thread. */
import * as Comlink from 'comlink';
import { analyseOutcomesText, analyseUpstreamFiles } from '../src/core/tasks/onng/lab/analysis.ts';
import type { AnalysisResult, OnngWorkerApi } from './onng-api.ts';

const failure = (name: string, e: unknown): AnalysisResult => ({ ok: false, error: `${name}: ${e instanceof Error ? e.message : String(e)}` });

const api: OnngWorkerApi = {
  async analyse(text, fileName, options, onProgress): Promise<AnalysisResult> {
    try {
      return { ok: true, analysis: analyseOutcomesText(text, onProgress, options) };
    } catch (e) {
      return failure(fileName, e);
    }
  },
  async analyseUpstream(files, verdicts, folderName, options, problemNames, onProgress): Promise<AnalysisResult> {
    try {
      return { ok: true, analysis: analyseUpstreamFiles(files, verdicts, onProgress, options, problemNames) };
    } catch (e) {
      return failure(folderName, e);
    }
  },
};

Comlink.expose(api);
