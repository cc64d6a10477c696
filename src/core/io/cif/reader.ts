import { ParseError, type ParseOutput } from '../types.ts';

export function parseCif(_text: string): ParseOutput {
  throw new ParseError('CIF reader not implemented yet');
}
