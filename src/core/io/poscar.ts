import { type FormatModule, ParseError } from './types.ts';

export const poscarFormat: FormatModule = {
  id: 'poscar',
  extensions: ['.vasp', '.poscar', 'POSCAR', 'CONTCAR'],
  sniff: () => false,
  parse: () => { throw new ParseError('POSCAR reader not available yet'); },
  write: () => { throw new Error('POSCAR writer not available yet'); },
};
