import { type FormatModule, ParseError } from './types.ts';

export const pymatgenJsonFormat: FormatModule = {
  id: 'pymatgen-json',
  extensions: ['.json'],
  sniff: () => false,
  parse: () => { throw new ParseError('pymatgen JSON reader not available yet'); },
  write: () => { throw new Error('pymatgen JSON writer not available yet'); },
};
