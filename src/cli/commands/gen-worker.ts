/** Worker thread of `structlab gen csp` and `gen eval`: runs the tasks of gen-tasks.ts on the inputs handed over once. */
import { workerData } from 'node:worker_threads';
import { initMoyoNodeLazily } from '../../node/moyo.ts';
import { servePool } from '../pool.ts';
import { adoptCommandLimits } from '../threads.ts';
import { type GenWork, genTaskRunner } from './gen-tasks.ts';

adoptCommandLimits();
// Space groups (--space-groups) need moyo in this thread too; compiled on first use only.
initMoyoNodeLazily();
servePool(genTaskRunner(workerData as GenWork));
