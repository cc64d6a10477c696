/** Worker thread of `structlab gen csp` and `gen eval`: runs the tasks of gen-tasks.ts on the inputs handed over once. */
import { workerData } from 'node:worker_threads';
import { servePool } from '../pool.ts';
import { adoptCommandLimits } from '../threads.ts';
import { type GenWork, genTaskRunner } from './gen-tasks.ts';

adoptCommandLimits();
servePool(genTaskRunner(workerData as GenWork));
