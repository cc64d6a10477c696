/**
 * pymatgen `Structure.as_dict()` / `Molecule.as_dict()` JSON, one dict or an array of them.
 * Fractional `abc` is authoritative for periodic sites (as in pymatgen's `from_dict`);
 * Cartesian `xyz` for molecules.
 */
import type { Vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, fracOf, makeSiteFromCart, makeSiteFromFrac } from '../structure/structure.ts';
import { elementSymbolOf, parseElementSymbol } from '../structure/elements.ts';
import { speciesString } from '../structure/composition.ts';
import { type FormatModule, ParseError, type ParseOutput } from './types.ts';
import { labelProblem } from './common.ts';
import { LIMITS, limitSentence, printable, groupedNumber } from '../limits.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function isVec3(v: unknown): v is Vec3 {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** Three numbers, at least one of them ±Infinity (a literal such as 1e400 that JSON.parse overflowed). */
const isOverflowedVec3 = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number') && !v.every((x) => Number.isFinite(x));

/**
 * The 1-based line of the number literal that overflowed to ±Infinity, when all such literals of the
 * (valid) JSON text sit on one line; undefined otherwise, since the parsed value no longer says which.
 */
function overflowLine(text: string): number | undefined {
  const lines = new Set<number>();
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  // Lines counted as the scan moves on (not from the start for every hit: linear in the text).
  let line = 1;
  let counted = 0;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    if (m[0].startsWith('"') || Number.isFinite(Number(m[0]))) continue;
    for (; counted < m.index; counted++) if (text.charCodeAt(counted) === 10) line++;
    lines.add(line);
    if (lines.size > 1) return undefined;
  }
  return lines.size === 1 ? [...lines][0] : undefined;
}

/**
 * The first place where objects and arrays nest deeper than LIMITS.jsonDepth, found in one pass over the text
 * (brackets inside strings skipped) before JSON.parse builds anything: thousands of levels parse, but then overflow
 * the stack of every recursive walk (a writer, JSON.stringify) as "Maximum call stack size exceeded". With `perLine`
 * (JSON Lines) the depth starts again on each line. Returns the sentence and the 1-based line, or null.
 */
export function jsonDepthProblem(text: string, perLine = false): { message: string; line: number } | null {
  const limit = LIMITS.jsonDepth;
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      if (perLine) {
        depth = 0;
        inString = false;
      }
    } else if (inString) {
      if (c === 92)
        i++; // a backslash: the next character is escaped ("\"" does not end the string)
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit)
        return { message: `The JSON nests objects and arrays more than ${limit} levels deep; the limit is ${limit} levels.`, line };
    } else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return null;
}

/**
 * Objects, arrays and values a structure file may hold, counted on the text before JSON.parse builds
 * them: a pymatgen site needs about 6 containers and 14 values, so a file within LIMITS.fileAtoms fits.
 */
export function jsonSizeProblem(text: string): string | null {
  let containers = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) containers++;
    else if (c === 44) commas++;
  }
  const maxContainers = 8 * LIMITS.fileAtoms + 1000;
  const maxValues = 20 * LIMITS.fileAtoms + 1000;
  if (containers > maxContainers)
    return (
      `${limitSentence('The JSON file', containers, maxContainers, 'objects and arrays')} ` +
      `(${groupedNumber(LIMITS.fileAtoms)} atoms' worth).`
    );
  if (commas > maxValues)
    return `${limitSentence('The JSON file', commas, maxValues, 'values')} (${groupedNumber(LIMITS.fileAtoms)} atoms' worth).`;
  return null;
}

/**
 * Offset and description of the first JSON syntax error (JSON.parse messages differ between engines
 * and often omit the position). A small recursive-descent scan of the JSON grammar.
 */
export function findJsonError(text: string): { offset: number; problem: string } | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const fail = (problem: string): never => {
    throw { offset: i, problem };
  };
  const describeHere = () => (i >= text.length ? 'the text ends too early' : `unexpected "${printable(text[i])}"`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(describeHere());
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('a bad \\u escape');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('a bad escape in a string');
      } else if (text.charCodeAt(i) < 0x20) fail('a control character inside a string');
      i++;
    }
    if (i >= text.length) fail('a string that is not closed');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail(describeHere());
    i += m![0].length;
  };
  let depth = 0;
  const value = (): void => {
    ws();
    const c = text[i];
    if ((c === '{' || c === '[') && ++depth > LIMITS.jsonDepth) fail(`nesting deeper than ${LIMITS.jsonDepth} levels`);
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${describeHere()} where a property name was expected`);
        string();
        ws();
        if (text[i] !== ':') fail(`${describeHere()} where ":" was expected`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          depth--;
          return;
        }
        fail(`${describeHere()} where "," or "}" was expected`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          depth--;
          return;
        }
        fail(`${describeHere()} where "," or "]" was expected`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`${describeHere()} after the end of the JSON value`);
    return null;
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'offset' in e) return e as { offset: number; problem: string };
    throw e;
  }
}

function parseJsonText(text: string): unknown {
  const size = jsonSizeProblem(text);
  if (size) throw new ParseError(size, 1);
  const deep = jsonDepthProblem(text);
  if (deep) throw new ParseError(deep.message, deep.line);
  try {
    return JSON.parse(text);
  } catch (e) {
    const found = findJsonError(text);
    if (!found) throw new ParseError(`The file is not valid JSON (${printable(e instanceof Error ? e.message : String(e), 120)}).`);
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < found.offset; k++)
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    const column = found.offset - lineStart + 1;
    throw new ParseError(`The file is not valid JSON: ${found.problem} (column ${column}).`, line);
  }
}

/** How far below 0 or above 1 (summed) occupancies may go: pymatgen's Composition.amount_tolerance. */
const OCCUPANCY_TOLERANCE = 1e-8;

/** `{"element": "Fe", "occu": 1, "oxidation_state": 3}` entries → species and oxidation maps. */
function readSpecies(
  site: Json,
  where: string,
  line: () => number | undefined,
): { species: SpeciesMap; oxidation?: Record<string, number> } {
  const list = site.species;
  if (!Array.isArray(list) || list.length === 0) throw new ParseError(`${where} has no "species" list.`);
  const species: SpeciesMap = {};
  const oxidation: Record<string, number> = {};
  for (const entry of list) {
    if (!isObject(entry) || typeof entry.element !== 'string') {
      throw new ParseError(`${where} has a species entry without an "element".`);
    }
    const badElement = labelProblem(entry.element, 'element');
    if (badElement) throw new ParseError(`${where}: ${badElement}.`);
    const direct = elementSymbolOf(entry.element);
    const parsed = direct !== undefined ? { symbol: direct, oxidation: undefined } : parseElementSymbol(entry.element);
    const symbol = parsed?.symbol;
    if (!symbol) throw new ParseError(`${where}: "${printable(entry.element, 40)}" is not an element symbol.`);
    const occu = entry.occu === undefined ? 1 : entry.occu;
    if (occu === Infinity || occu === -Infinity)
      throw new ParseError(`${where}: the occupancy of ${symbol} is too large to represent.`, line());
    if (typeof occu !== 'number' || !Number.isFinite(occu)) throw new ParseError(`${where}: the occupancy of ${symbol} is not a number.`);
    // As pymatgen's Composition refuses it (pymatgen/core/composition.py, tolerance Composition.amount_tolerance).
    if (occu < -OCCUPANCY_TOLERANCE) throw new ParseError(`${where}: the occupancy of ${symbol} is negative (${occu}).`);
    species[symbol] = (species[symbol] ?? 0) + occu;
    const ox = typeof entry.oxidation_state === 'number' ? entry.oxidation_state : parsed?.oxidation;
    if (typeof ox === 'number' && Number.isFinite(ox)) oxidation[symbol] = ox;
  }
  // As pymatgen's Site refuses it: "Species occupancies sum to more than 1!" (pymatgen/core/sites.py).
  const total = Object.values(species).reduce((sum, x) => sum + x, 0);
  if (total > 1 + OCCUPANCY_TOLERANCE)
    throw new ParseError(
      `${where}: the occupancies sum to ${String(Number(total.toPrecision(6)))}; the occupancies of one site sum to at most 1.`,
    );
  return Object.keys(oxidation).length > 0 ? { species, oxidation } : { species };
}

/** One `as_dict()` dict as a structure; `many` names it "Structure index+1" in messages. Throws ParseError. */
export function readStructure(d: unknown, index: number, many: boolean, line: () => number | undefined): Structure {
  const what = many ? `Structure ${index + 1}` : 'The structure';
  if (!isObject(d)) throw new ParseError(`${what} is not a JSON object.`);
  const cls = d['@class'];
  if (cls !== undefined && cls !== 'Structure' && cls !== 'Molecule' && cls !== 'IStructure' && cls !== 'IMolecule') {
    throw new ParseError(`${what} is a pymatgen ${printable(String(cls), 40)}, not a Structure or Molecule.`);
  }
  if (!Array.isArray(d.sites)) throw new ParseError(`${what} has no "sites" list.`);
  // Checked before a Site is made for any of them.
  if (d.sites.length > LIMITS.atoms) throw new ParseError(`${limitSentence(what, d.sites.length, LIMITS.atoms, 'sites', 'atoms')}.`);

  let lattice: Lattice | null = null;
  const periodic = cls === 'Structure' || cls === 'IStructure' || (cls === undefined && d.lattice !== undefined);
  if (periodic) {
    const lat = d.lattice;
    const matrix = isObject(lat) ? lat.matrix : undefined;
    if (Array.isArray(matrix) && matrix.some(isOverflowedVec3)) {
      throw new ParseError(`${what}: "lattice.matrix" holds a value too large to represent.`, line());
    }
    if (!Array.isArray(matrix) || matrix.length !== 3 || !matrix.every(isVec3)) {
      throw new ParseError(`${what} has no 3x3 "lattice.matrix".`);
    }
    lattice = new Lattice(matrix as Vec3[]);
    try {
      void lattice.inverseMatrix;
    } catch {
      throw new ParseError(`${what}: the lattice vectors do not span a 3D cell.`);
    }
  }

  const sites: Site[] = d.sites.map((raw, i): Site => {
    const where = `${what}, site ${i + 1}`;
    if (!isObject(raw)) throw new ParseError(`${where} is not a JSON object.`);
    const { species, oxidation } = readSpecies(raw, where, line);
    for (const key of ['abc', 'xyz'] as const) {
      if (isOverflowedVec3(raw[key])) throw new ParseError(`${where}: "${key}" holds a value too large to represent.`, line());
    }
    const extra: Partial<Site> = {};
    if (typeof raw.label === 'string') {
      const badLabel = labelProblem(raw.label, 'label');
      if (badLabel) throw new ParseError(`${where}: ${badLabel}.`);
      extra.label = raw.label;
    }
    if (oxidation) extra.oxidation = oxidation;
    if (isObject(raw.properties) && Object.keys(raw.properties).length > 0) extra.properties = { ...raw.properties };
    if (lattice && isVec3(raw.abc)) return makeSiteFromFrac(lattice, raw.abc, species, extra);
    if (isVec3(raw.xyz)) return makeSiteFromCart(lattice, raw.xyz, species, extra);
    throw new ParseError(`${where} has no coordinates (${lattice ? '"abc" or ' : ''}"xyz").`);
  });

  const properties: Record<string, unknown> = isObject(d.properties) ? { ...d.properties } : {};
  if (typeof d.charge === 'number' && d.charge !== 0) properties.charge = d.charge;
  if (typeof d.spin_multiplicity === 'number') properties.spin_multiplicity = d.spin_multiplicity;
  if (isObject(d.lattice) && Array.isArray(d.lattice.pbc)) properties.pbc = d.lattice.pbc;
  const name = typeof properties.name === 'string' ? properties.name : `${lattice ? 'Structure' : 'Molecule'} ${index + 1}`;
  return { name, lattice, sites, properties };
}

export function parsePymatgenJson(text: string): ParseOutput {
  if (text.trim() === '') throw new ParseError('The JSON file is empty.', 1);
  const data = parseJsonText(text);
  const list = Array.isArray(data) ? data : [data];
  if (list.length === 0) throw new ParseError('The JSON array holds no structures.', 1);
  const line = () => overflowLine(text);
  return { structures: list.map((d, i) => readStructure(d, i, list.length > 1, line)), warnings: [] };
}

function siteDict(site: Site, lattice: Lattice | null): Json {
  const species = Object.entries(site.species).map(([element, occu]) => {
    const ox = site.oxidation?.[element];
    return ox === undefined ? { element, occu } : { element, oxidation_state: ox, occu };
  });
  const out: Json = { species };
  if (lattice) out.abc = fracOf(site, lattice);
  out.xyz = site.xyz;
  out.label = site.label ?? speciesString(site);
  out.properties = site.properties ?? {};
  return out;
}

/** `Structure.as_dict()` layout for periodic structures, `Molecule.as_dict()` for finite ones. */
export function structureToDict(structure: Structure): Json {
  const { lattice } = structure;
  const charge = typeof structure.properties?.charge === 'number' ? structure.properties.charge : 0;
  const properties = { ...(structure.properties ?? {}) };
  delete properties.charge;
  delete properties.pbc;
  if (!lattice) {
    delete properties.spin_multiplicity;
    const spin = structure.properties?.spin_multiplicity;
    return {
      '@module': 'pymatgen.core.structure',
      '@class': 'Molecule',
      charge,
      spin_multiplicity: typeof spin === 'number' ? spin : null,
      sites: structure.sites.map((s) => siteDict(s, null)),
      properties,
    };
  }
  const p = lattice.parameters;
  const pbc = structure.properties?.pbc;
  return {
    '@module': 'pymatgen.core.structure',
    '@class': 'Structure',
    charge,
    lattice: {
      matrix: lattice.matrix,
      pbc: Array.isArray(pbc) && pbc.length === 3 ? pbc : [true, true, true],
      a: p.a,
      b: p.b,
      c: p.c,
      alpha: p.alpha,
      beta: p.beta,
      gamma: p.gamma,
      volume: lattice.volume,
    },
    properties,
    sites: structure.sites.map((s) => siteDict(s, lattice)),
  };
}

export function writePymatgenJson(structure: Structure): string {
  // Non-finite numbers (only possible in free-form properties) become null, as JSON requires.
  const text = JSON.stringify(structureToDict(structure), null, 1);
  return text + '\n';
}

function sniffPymatgenJson(text: string): boolean {
  const head = text.trimStart().slice(0, 4096);
  return (head.startsWith('{') || head.startsWith('[')) && /"(@class|sites|lattice)"\s*:/.test(head);
}

export const pymatgenJsonFormat: FormatModule = {
  id: 'pymatgen-json',
  extensions: ['.json'],
  sniff: sniffPymatgenJson,
  parse: parsePymatgenJson,
  write: writePymatgenJson,
};
