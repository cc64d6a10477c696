/**
 * JSON Lines of structures as frames: one pymatgen `Structure.as_dict()` (or `Molecule.as_dict()`) per line, read as
 * src/core/io/pymatgen-json.ts reads one dict; a line `{"id": …, "structure": {…}}` (the generations sets' rows,
 * src/core/tasks/generations/inputs.ts) is its structure. Blank lines are skipped; a bad line is refused by its number.
 */
import type { Structure } from '../structure/structure.ts';
import { LIMITS, limitSentence, printable } from '../limits.ts';
import { jsonDepthProblem, jsonSizeProblem, readStructure, structureToDict } from './pymatgen-json.ts';
import { type FormatModule, ParseError, type ParseOutput } from './types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseJsonlFrames(text: string): ParseOutput {
  const size = jsonSizeProblem(text);
  if (size) throw new ParseError(size, 1);
  const deep = jsonDepthProblem(text, true);
  if (deep) throw new ParseError(deep.message, deep.line);
  const structures: Structure[] = [];
  let atoms = 0;
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    lineNo++;
    if (lineNo > LIMITS.batchRows)
      throw new ParseError(`${limitSentence('The JSONL file', null, LIMITS.batchRows, 'lines', 'batchRows')}.`, lineNo);
    if (line.trim() === '') continue;
    let d: unknown;
    try {
      d = JSON.parse(line);
    } catch (e) {
      throw new ParseError(`The line is not valid JSON (${printable(e instanceof Error ? e.message : String(e), 120)}).`, lineNo);
    }
    if (isObject(d) && !('sites' in d) && isObject(d.structure)) d = d.structure;
    if (structures.length >= LIMITS.fileStructures)
      throw new ParseError(`${limitSentence('The JSONL file', null, LIMITS.fileStructures, 'structures', 'fileStructures')}.`, lineNo);
    let s: Structure;
    try {
      s = readStructure(d, structures.length, false, () => lineNo);
    } catch (e) {
      if (e instanceof ParseError) throw new ParseError(e.message, lineNo);
      throw e;
    }
    atoms += s.sites.length;
    if (atoms > LIMITS.fileAtoms)
      throw new ParseError(
        `${limitSentence('The JSONL file', atoms, LIMITS.fileAtoms, 'atoms in all its structures', 'fileAtoms')}.`,
        lineNo,
      );
    const named = typeof s.properties?.name === 'string';
    structures.push(named ? s : { ...s, name: `frame ${structures.length + 1}` });
  }
  if (structures.length === 0) throw new ParseError('The JSONL file holds no structure.', 1);
  return { structures, warnings: [] };
}

/** One structure as one line of `as_dict()` JSON. */
export function writeJsonlFrame(structure: Structure): string {
  return JSON.stringify(structureToDict(structure)) + '\n';
}

/** Content test: a first line that is a whole JSON object of a structure, and another object on the next line. */
function sniffJsonl(text: string): boolean {
  const lines = text.slice(0, 1 << 20).split(/\r?\n/, 3);
  const first = lines[0]?.trim() ?? '';
  return (
    lines.length >= 2 &&
    first.length > 2 &&
    first.startsWith('{') &&
    first.endsWith('}') &&
    /"(sites|structure)"\s*:/.test(first) &&
    (lines[1]?.trim() ?? '').startsWith('{')
  );
}

export const jsonlFramesFormat: FormatModule = {
  id: 'jsonl',
  extensions: ['.jsonl'],
  sniff: sniffJsonl,
  parse: parseJsonlFrames,
  write: writeJsonlFrame,
};
