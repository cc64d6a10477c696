/**
 * pymatgen `Structure.as_dict()` / `Molecule.as_dict()` JSON, one dict or an array of them.
 * Fractional `abc` is authoritative for periodic sites (as in pymatgen's `from_dict`);
 * Cartesian `xyz` for molecules.
 */
import type { Vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type SpeciesMap, type Structure, makeSiteFromCart, makeSiteFromFrac } from '../structure/structure.ts';
import { elementBySymbol, parseElementSymbol } from '../structure/elements.ts';
import { type FormatModule, ParseError, type ParseOutput } from './types.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function isVec3(v: unknown): v is Vec3 {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** 1-based line of a character offset, for JSON syntax errors. */
function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(message);
    const lineMatch = /line (\d+)/.exec(message);
    const line = pos ? lineOfOffset(text, Number(pos[1])) : lineMatch ? Number(lineMatch[1]) : undefined;
    throw new ParseError(`The file is not valid JSON (${message.replace(/^JSON\.parse: /, '')}).`, line);
  }
}

/** `{"element": "Fe", "occu": 1, "oxidation_state": 3}` entries → species and oxidation maps. */
function readSpecies(site: Json, where: string): { species: SpeciesMap; oxidation?: Record<string, number> } {
  const list = site.species;
  if (!Array.isArray(list) || list.length === 0) throw new ParseError(`${where} has no "species" list.`);
  const species: SpeciesMap = {};
  const oxidation: Record<string, number> = {};
  for (const entry of list) {
    if (!isObject(entry) || typeof entry.element !== 'string') {
      throw new ParseError(`${where} has a species entry without an "element".`);
    }
    const parsed = elementBySymbol(entry.element) ? { symbol: elementBySymbol(entry.element)!.symbol, oxidation: undefined }
      : parseElementSymbol(entry.element);
    const symbol = parsed ? elementBySymbol(parsed.symbol)?.symbol : undefined;
    if (!symbol) throw new ParseError(`${where}: "${entry.element}" is not an element symbol.`);
    const occu = entry.occu === undefined ? 1 : entry.occu;
    if (typeof occu !== 'number' || !Number.isFinite(occu)) throw new ParseError(`${where}: the occupancy of ${symbol} is not a number.`);
    species[symbol] = (species[symbol] ?? 0) + occu;
    const ox = typeof entry.oxidation_state === 'number' ? entry.oxidation_state : parsed?.oxidation;
    if (typeof ox === 'number' && Number.isFinite(ox)) oxidation[symbol] = ox;
  }
  return Object.keys(oxidation).length > 0 ? { species, oxidation } : { species };
}

function readStructure(d: unknown, index: number, many: boolean): Structure {
  const what = many ? `Structure ${index + 1}` : 'The structure';
  if (!isObject(d)) throw new ParseError(`${what} is not a JSON object.`);
  const cls = d['@class'];
  if (cls !== undefined && cls !== 'Structure' && cls !== 'Molecule' && cls !== 'IStructure' && cls !== 'IMolecule') {
    throw new ParseError(`${what} is a pymatgen ${String(cls)}, not a Structure or Molecule.`);
  }
  if (!Array.isArray(d.sites)) throw new ParseError(`${what} has no "sites" list.`);

  let lattice: Lattice | null = null;
  const periodic = cls === 'Structure' || cls === 'IStructure' || (cls === undefined && d.lattice !== undefined);
  if (periodic) {
    const lat = d.lattice;
    const matrix = isObject(lat) ? lat.matrix : undefined;
    if (!Array.isArray(matrix) || matrix.length !== 3 || !matrix.every(isVec3)) {
      throw new ParseError(`${what} has no 3x3 "lattice.matrix".`);
    }
    lattice = new Lattice(matrix as Vec3[]);
    try { lattice.inverseMatrix; } catch { throw new ParseError(`${what}: the lattice vectors do not span a 3D cell.`); }
  }

  const sites: Site[] = d.sites.map((raw, i): Site => {
    const where = `${what}, site ${i + 1}`;
    if (!isObject(raw)) throw new ParseError(`${where} is not a JSON object.`);
    const { species, oxidation } = readSpecies(raw, where);
    const extra: Partial<Site> = {};
    if (typeof raw.label === 'string') extra.label = raw.label;
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
  return { structures: list.map((d, i) => readStructure(d, i, list.length > 1)), warnings: [] };
}

/** pymatgen's default site label: `Fe`, or `Fe:0.500, Ni:0.500` for a mixed site. */
function defaultLabel(site: Site): string {
  const entries = Object.entries(site.species);
  if (entries.length === 1 && entries[0][1] === 1) return entries[0][0];
  return entries.map(([el, occ]) => `${el}:${occ.toFixed(3)}`).join(', ');
}

function siteDict(site: Site, lattice: Lattice | null): Json {
  const species = Object.entries(site.species).map(([element, occu]) => {
    const ox = site.oxidation?.[element];
    return ox === undefined ? { element, occu } : { element, oxidation_state: ox, occu };
  });
  const out: Json = { species };
  if (lattice) out.abc = site.frac ?? lattice.cartToFrac(site.xyz);
  out.xyz = site.xyz;
  out.label = site.label ?? defaultLabel(site);
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
      a: p.a, b: p.b, c: p.c, alpha: p.alpha, beta: p.beta, gamma: p.gamma, volume: lattice.volume,
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
