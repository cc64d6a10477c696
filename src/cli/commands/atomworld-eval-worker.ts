/**
 * Worker thread of `structlab atomworld eval`: judges one case per message and answers with its verdict.
 * The main thread gives each case a time budget and ends (then replaces) a thread that overruns it, so a
 * case that would run for minutes costs only its own verdict ("Timeout"; src/cli/pool.ts, `isolate`).
 */
import { adoptCommandLimits } from '../threads.ts';
import { servePool } from '../pool.ts';
import { initMoyoNodeLazily } from '../../node/moyo.ts';
import { judgeAtomworldJob } from '../../core/tasks/atomworld/batch.ts';

/** A two-atom case judged once before the thread reports ready, so start-up work is not charged to a case's budget. */
const WARM_UP_CIF = `data_warm
_cell_length_a 4
_cell_length_b 4
_cell_length_c 4
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'P 1'
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Na1 Na 0 0 0
Cl1 Cl 0.5 0.5 0.5
`;

adoptCommandLimits();
initMoyoNodeLazily();
judgeAtomworldJob({ id: 'warm-up', action: 'warm-up', targetCif: WARM_UP_CIF, answer: `<cif>\n${WARM_UP_CIF}</cif>` });
servePool(judgeAtomworldJob);
