/**
 * Worker thread of `structlab atomworld eval`: judges one case per message and answers with its verdict.
 * The main thread gives each case a time budget and ends (then replaces) a thread that overruns it, so a
 * case that would run for minutes costs only its own verdict ("Timeout"; src/cli/pool.ts, `isolate`).
 * No case is judged before the first real one: a two-atom warm-up case trained the matcher's type feedback on
 * a cell too small for its position grid, and V8 then optimised the search of large cells worse (42 supercell
 * answers of 24–240 sites took 1.19× as long; the 437 oracle pairs, small cells, the same).
 */
import { adoptCommandLimits } from '../threads.ts';
import { servePool } from '../pool.ts';
import { initMoyoNodeLazily } from '../../node/moyo.ts';
import { judgeAtomworldJob } from '../../core/tasks/atomworld/batch.ts';

adoptCommandLimits();
initMoyoNodeLazily();
servePool(judgeAtomworldJob);
