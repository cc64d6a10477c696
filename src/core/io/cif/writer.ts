import type { Structure } from '../../structure/structure.ts';

export function writeCif(_structure: Structure): string {
  throw new Error('CIF writer not implemented yet');
}
