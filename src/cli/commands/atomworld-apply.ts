/** `structlab atomworld apply BEFORE.cif --action NAME --params JSON`: the benchmark's ground truth as CIF. */
import { ParseError } from '../../core/io/types.ts';
import {
  ATOMWORLD_ACTIONS,
  AtomworldActionError,
  applyAtomworldActionWithTrace,
  readAtomworldCif,
} from '../../core/tasks/atomworld/actions.ts';
import { writeAseCif } from '../../core/tasks/atomworld/ase-frame.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { readInputText } from '../io.ts';

export const ATOMWORLD_APPLY_HELP = `usage: structlab atomworld apply BEFORE.cif --action NAME --params JSON

Applies one AtomWorld (AtomMotor-2K) action as the benchmark's ground truth does and prints the
AFTER structure as CIF (ASE's layout: data_image0, P 1, per-element labels) on stdout.
  --action NAME   ${ATOMWORLD_ACTIONS.join(', ')}
  --params JSON   the action's parameters, as in the golden cases, e.g. '{"index": 2, "symbol": "Bi"}'
                  change {index, symbol}; remove {index}; add {symbol, position_cart | position_frac};
                  insert_between {index1, index2, symbol, distance_ratio | distance_from_index1};
                  swap {index1, index2}; delete_below {index, include_self (ignored, as the benchmark)};
                  move {index, d_pos_cart}; move_towards {index1, index2, distance};
                  rotate_around {index, radius, angle_deg, axis}; super_cell {size: [n1, n2, n3]}
Conventions: 0-based indices in CIF order; Cartesian values in ASE's frame (a along x, b in the
xy-plane); raw in-cell vectors for insert_between and move_towards (no minimum image).
BEFORE may be '-' for standard input.
`;

export function runAtomworldApply(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'action', kind: 'string' },
    { name: 'params', kind: 'string' },
  ]);
  if (positionals.length !== 1) throw new CliError('atomworld apply takes one BEFORE.cif (see structlab atomworld apply --help)');
  const path = positionals[0];
  const name = path === '-' ? 'stdin' : path;
  if (typeof options.action !== 'string') throw new CliError(`atomworld apply needs --action (one of ${ATOMWORLD_ACTIONS.join(', ')})`);
  let params: unknown = {};
  if (typeof options.params === 'string') {
    try {
      params = JSON.parse(options.params);
    } catch {
      throw new CliError(`--params is not valid JSON: ${options.params}`);
    }
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new CliError('--params must be a JSON object such as \'{"index": 0}\'');
  const text = readInputText(path);
  let before;
  try {
    const warnings: string[] = [];
    before = readAtomworldCif(text, warnings);
    for (const w of warnings) warn(`warning: ${name}: ${w}`);
  } catch (e) {
    if (e instanceof ParseError) throw new CliError(`${name}${e.line ? ` line ${e.line}` : ''}: ${e.message.replace(/\.\s*$/, '')}`);
    throw e;
  }
  if (!before.lattice) throw new CliError(`${name} has no unit cell; AtomWorld actions need a periodic structure`);
  try {
    // The CLI adds the final newline itself.
    return writeAseCif(applyAtomworldActionWithTrace(before, options.action, params as Record<string, unknown>).after).replace(/\n$/, '');
  } catch (e) {
    if (e instanceof AtomworldActionError) throw new CliError(`${name}: ${e.message}`);
    throw e;
  }
}
