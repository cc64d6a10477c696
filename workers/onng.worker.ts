/** The O-NNG results worker: parses and analyses an outcomes CSV (10,200 rows) or an upstream results folder off the page's thread. */
import * as Comlink from 'comlink';
import { analyseOutcomesText, analyseUpstreamFiles } from '../src/core/tasks/onng/lab/analysis.ts';
import type { OnngWorkerApi } from './onng-api.ts';
import { attempt } from './result.ts';

/** A failure names the file or folder it concerns. */
const about = (name: string) => (message: string) => `${name}: ${message}`;

const api: OnngWorkerApi = {
  analyse(text, fileName, options, onProgress) {
    return attempt(() => analyseOutcomesText(text, onProgress, options), about(fileName));
  },
  analyseUpstream(files, verdicts, folderName, options, problemNames, onProgress) {
    return attempt(() => analyseUpstreamFiles(files, verdicts, onProgress, options, problemNames), about(folderName));
  },
};

Comlink.expose(api);
