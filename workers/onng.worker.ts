/** The O-NNG results worker: parses and analyses an outcomes CSV (10,200 rows) off the page's thread. */
import * as Comlink from 'comlink';
import { analyseOutcomesText } from '../src/pages/onng/analysis.ts';
import type { AnalysisResult, OnngWorkerApi } from './onng-api.ts';

const api: OnngWorkerApi = {
  async analyse(text, fileName, options, onProgress): Promise<AnalysisResult> {
    try {
      return { ok: true, analysis: analyseOutcomesText(text, onProgress, options) };
    } catch (e) {
      return { ok: false, error: `${fileName}: ${e instanceof Error ? e.message : String(e)}` };
    }
  },
};

Comlink.expose(api);
