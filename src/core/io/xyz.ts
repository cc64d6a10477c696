import { type FormatModule, ParseError } from './types.ts';

export const xyzFormat: FormatModule = {
  id: 'xyz',
  extensions: ['.xyz'],
  sniff: () => false,
  parse: () => { throw new ParseError('XYZ reader not available yet'); },
  write: () => { throw new Error('XYZ writer not available yet'); },
};

export const extxyzFormat: FormatModule = {
  id: 'extxyz',
  extensions: ['.extxyz', '.xyz'],
  sniff: () => false,
  parse: () => { throw new ParseError('Extended XYZ reader not available yet'); },
  write: () => { throw new Error('Extended XYZ writer not available yet'); },
};
