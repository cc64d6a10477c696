/**
 * The page's built-in demo, so it never opens empty: AtomWorld-style cases derived from a StructLab
 * dataset with the core action engine (a 2×1×1 supercell as BEFORE), each with a model "answer" that
 * is either right or wrong in a way models really are wrong (unchanged input, wrong index, no tags,
 * a broken CIF). Needs moyo initialised (the dataset reader expands symmetry).
 */
import { parseStructureFile } from '../../../io/registry.ts';
import { applyAtomworldAction, applyAtomworldActionToCif } from '../actions.ts';
import { writeAseCif } from '../ase-frame.ts';
import type { AtomworldCase } from './inputs.ts';

const tagged = (cif: string) => `Here is the modified structure.\n<cif>\n${cif}\n</cif>`;

interface DemoSpec {
  action: string;
  params: Record<string, unknown>;
  prompt: string;
  /** right: the target itself; unchanged: the BEFORE; wrong-params: the action with other parameters; no-tags; broken-cif. */
  answer: 'right' | 'unchanged' | 'no-tags' | 'broken-cif' | { wrongParams: Record<string, unknown> };
}

const SPECS: DemoSpec[] = [
  {
    action: 'move',
    params: { index: 2, d_pos_cart: [0.4, 0.3, 0] },
    prompt: 'Move the atom at index 2 by [0.4, 0.3, 0] Å (Cartesian) in the cif file.',
    answer: 'right',
  },
  {
    action: 'rotate_around',
    params: { index: 1, radius: 2.2, angle_deg: 45, axis: [0, 0, 1] },
    prompt:
      'Rotate all surrounding atoms within 2.2 angstrom of the center atom at index 1 by 45 degree around the axis [0 0 1] in ' +
      'the cif file.',
    answer: 'unchanged',
  },
  {
    action: 'insert_between',
    params: { index1: 0, index2: 1, symbol: 'Ca', distance_ratio: 0.5 },
    prompt: 'Insert Ca halfway between atoms at indices 0 and 1 in the cif file.',
    answer: 'right',
  },
  {
    action: 'delete_below',
    params: { index: 0, include_self: false },
    prompt: 'Delete all atoms whose z coordinate is below that of the atom at index 0 in the cif file.',
    answer: { wrongParams: { index: 1, include_self: false } },
  },
  { action: 'super_cell', params: { size: [1, 1, 2] }, prompt: 'Make a 1x1x2 supercell of the cif file.', answer: 'right' },
  { action: 'remove', params: { index: 3 }, prompt: 'Remove the atom at index 3 in the cif file.', answer: { wrongParams: { index: 1 } } },
  {
    action: 'swap',
    params: { index1: 0, index2: 1 },
    prompt: 'Swap the spatial positions of atoms at indices 0 and 1 in the cif file.',
    answer: 'no-tags',
  },
  {
    action: 'change',
    params: { index: 2, symbol: 'F' },
    prompt: 'Change the atom at index 2 into F in the cif file.',
    answer: 'broken-cif',
  },
];

export function buildDemoCases(cifText: string, fileName: string): AtomworldCase[] {
  const parsed = parseStructureFile(cifText, fileName);
  if (!parsed.ok) throw new Error(`Could not read ${fileName}: ${parsed.error}`);
  const cell = parsed.structures[0];
  if (!cell.lattice) throw new Error(`${fileName} has no unit cell`);
  const before = applyAtomworldAction({ ...cell, name: fileName.replace(/\.[^.]+$/, '') }, 'super_cell', { size: [2, 1, 1] });
  const beforeCif = writeAseCif(before);
  return SPECS.map((spec, k) => {
    const targetCif = applyAtomworldActionToCif(beforeCif, spec.action, spec.params).cif;
    let answer: string;
    if (spec.answer === 'right') answer = tagged(targetCif);
    else if (spec.answer === 'unchanged') answer = tagged(beforeCif);
    else if (spec.answer === 'no-tags') answer = 'I swapped the two atoms; the structure is otherwise unchanged.';
    else if (spec.answer === 'broken-cif') answer = tagged(targetCif.replace(/_cell_length_a\s+\S+/, '_cell_length_a   about-four'));
    else answer = tagged(applyAtomworldActionToCif(beforeCif, spec.action, spec.answer.wrongParams).cif);
    return {
      id: `demo-${k + 1}-${spec.action}`,
      action: spec.action,
      params: spec.params,
      prompt: spec.prompt,
      beforeCif,
      targetCif,
      answer,
      official: null,
      model: 'demo',
    };
  });
}
