import type { FormatModule } from '../types.ts';
import { parseCif } from './reader.ts';
import { writeCif } from './writer.ts';

/** Crystallographic Information File (CIF 1.1, and CIF 2.0 files that keep to the 1.1 subset). */
export const cifFormat: FormatModule = {
  id: 'cif',
  extensions: ['.cif', '.mcif'],
  sniff(text: string): boolean {
    // A data block header or a CIF tag near the start is enough; comments may come first.
    const head = text.slice(0, 4096);
    return /^\s*data_\S*/im.test(head) || /^\s*_(cell_length_a|atom_site_|symmetry_|space_group)/im.test(head);
  },
  parse: parseCif,
  write: writeCif,
};
