import type { Structure } from '../structure/structure.ts';

export type FormatId = 'cif' | 'poscar' | 'xyz' | 'extxyz' | 'pymatgen-json' | 'xdatcar' | 'jsonl';

/** A parse failure: a message and, where known, the 1-based line it refers to. */
export class ParseError extends Error {
  readonly line?: number;
  constructor(message: string, line?: number) {
    super(message);
    this.name = 'ParseError';
    this.line = line;
  }
}

export interface ParseOutput {
  structures: Structure[];
  /** Non-fatal problems, human sentences (e.g. "line 12: D exponent read as E"). */
  warnings: string[];
}

/** Every format module has the same face: metadata, sniffing, a pure parse and a pure write. */
export interface FormatModule {
  id: FormatId;
  /** Lower-case file-name endings (".cif") or whole base names ("POSCAR") it claims. */
  extensions: string[];
  /** Cheap content test used when the name says nothing. */
  sniff(text: string): boolean;
  /** Throws ParseError on bad input. */
  parse(text: string): ParseOutput;
  /** Serialises one structure; throws Error when the format cannot hold it (e.g. POSCAR without lattice). */
  write(structure: Structure): string;
}

export type ParseResult =
  ({ ok: true; format: FormatId } & ParseOutput) | { ok: false; format: FormatId | null; error: string; line?: number };
