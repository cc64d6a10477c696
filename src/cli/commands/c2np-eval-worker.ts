/** Worker thread of `structlab c2np eval`: scores one chunk of rows per message (c2np-eval-task.ts). */
import { initMoyoNodeLazily } from '../../node/moyo.ts';
import { servePool } from '../pool.ts';
import { adoptCommandLimits } from '../threads.ts';
import { evaluateTask } from './c2np-eval-task.ts';

adoptCommandLimits();
initMoyoNodeLazily(); // structure readers expand CIF symmetry with it
servePool(evaluateTask);
