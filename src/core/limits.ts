/**
 * The resource policy: every size, count and time budget that input can drive, in one place, used by
 * the CLI, the workers and the pages alike. Each number is sized so that any input it accepts finishes
 * on a 2-core, 24 GiB machine within seconds and well under 2 GB of memory; the README lists them.
 *
 * A refusal names the limit and, where an option raises it (the CLI's `--limit NAME=VALUE`, `--case-timeout`), that
 * option: `limitSentence` builds that sentence, so every refusal reads alike. Nothing is ever truncated silently.
 */

const DEFAULT_LIMITS = {
  /** Bytes of one input file or of standard input (CLI, workers and file pickers alike). */
  inputBytes: 256 * 1024 * 1024,
  /** Characters of one token (a number, a CIF word or a quoted string); CIF text fields are bounded by `inputBytes`. */
  tokenChars: 65_536,
  /** Characters of one number token; longer "numbers" are refused before they are converted. */
  numberChars: 256,
  /**
   * Characters of one element symbol or atom label (an XYZ species, a CIF label or type symbol, a pymatgen JSON "element" or
   * "label"): real ones are a few characters (`Fe1A`, `O2-`, `Ow_wat_12`); a 1 MB "symbol" is not one.
   */
  labelChars: 64,
  /**
   * Nesting depth of one JSON value (objects and arrays inside each other): a pymatgen `as_dict()` nests under 10 levels;
   * thousands of levels would overflow the stack of every recursive walk (writers, JSON.stringify), so they are refused first.
   */
  jsonDepth: 256,
  /** Atoms of one structure after symmetry expansion, and of one frame. */
  atoms: 200_000,
  /** Atoms of all structures (frames, blocks) of one file together; an empty frame counts as one. */
  fileAtoms: 1_000_000,
  /** Structures of one file (frames, CIF blocks with atoms, JSON entries): each costs its own bookkeeping and output. */
  fileStructures: 50_000,
  /**
   * Bytes of one trajectory the lab streams from its worker (indexed in chunks, frames read on demand, never held whole):
   * a 10,000-atom × 1,000-frame extended XYZ is about 600 MB.
   */
  trajectoryBytes: 2 * 1024 * 1024 * 1024,
  /** Frames of one streamed trajectory (its index holds a few numbers per frame); each frame is still held to `atoms`. */
  trajectoryFrames: 1_000_000,
  /**
   * Sites of a streamed trajectory frame whose space group is searched as it is shown (a step, a scrub): a frame of
   * 4,000 sites without symmetry takes seconds, which would stall every step; larger frames get theirs from the
   * player's "Space group per frame".
   */
  frameSymmetrySites: 2_000,
  /** Bytes of one header line of a streamed trajectory (an extended XYZ comment line), read whole while indexing. */
  trajectoryLineBytes: 1024 * 1024,
  /** Lines of one XYZ or POSCAR file (each costs about 50 bytes once split); enough for `fileAtoms` atoms and their frame headers. */
  textLines: 4_000_000,
  /** Words, tags and values of one CIF file (each costs about 60 bytes while parsing): 200,000 atoms of 20 columns and more. */
  cifTokens: 5_000_000,
  /**
   * Opcodes one pickle runs (a PyTorch .pt file's data.pkl; each value it builds costs ≤ 100 bytes): a CDVAE or DiffCSP
   * result file runs a few thousand, its arrays being raw storages beside the pickle.
   */
  pickleOps: 5_000_000,
  /**
   * Sites of a cell the space-group search is run on; above it `info` reports no space group. A supercell of 5,000
   * sites takes about a second; a cell that does not reduce is held by `symmetryWork` long before.
   */
  symmetrySites: 20_000,
  /** Space-group searches of one `info` run (a few ms each): structures past it get spacegroup null and a warning. */
  symmetrySearches: 1_000,
  /** Compositions the group checks of one CIF's distinct symmetry-operation lists need together (Σ n²; 192 operations: 36,864). */
  symmetryCompositions: 1e7,
  /** Distinct symmetry operations of a CIF, modulo lattice translations (the most any space group has is 48 × 4 = 192). */
  symmetryOperations: 192,
  /** Symmetry-operation lines a CIF may list before they are even parsed (duplicates included). */
  symmetryOperationLines: 10_000,
  /** Largest absolute Cartesian coordinate or cell length, Å: beyond it no real structure lies and float64 distances lose Å precision. */
  coordinateAbs: 1e6,
  /** Smallest cell volume per |a||b||c|: flatter cells are refused as degenerate (the sine-product of a cell with one angle of 0.06°). */
  cellFlatness: 1e-3,
  /** Atoms of each particle that C2NP metrics and the compare view accept, and that `structlab cluster` builds. */
  particleAtoms: 100_000,
  /**
   * Lattice sites one cluster build looks at (ase.cluster's block of unit cells before the facet cuts, and the lattice samples
   * of its layer-distance search): a 100,000-atom octahedron needs about 700,000.
   */
  clusterSites: 2_000_000,
  /** Members of one size series (`structlab series --sizes`, the Nanoparticle page): each is a particle built and analysed. */
  seriesSizes: 200,
  /** Surface-energy families of one Wulff shape (each expands to at most 48 planes). */
  surfaceFamilies: 100,
  /**
   * Frames of one movie the lab records (rendered, encoded and held in memory until saved): 2 minutes at 30 fps; a
   * 1920×1080 VP9 frame is tens of kB, so a whole movie stays within about 100 MB.
   */
  movieFrames: 3_600,
  /** Frames of one PNG sequence (each frame a whole PNG in the zip, up to a few MB at 1920×1080). */
  moviePngFrames: 1_000,
  /** Pixels of a movie frame's longer side (4K UHD). */
  movieSide: 3_840,
  /** Sites of each structure a structure match (match, AtomWorld evaluate) accepts: ~1,000 sites take seconds. */
  matchSites: 2_000,
  /** Lattice points one lattice-mapping search enumerates (a near-singular cell would need unboundedly many). */
  latticePoints: 1_000_000,
  /** Atoms written by one `c2np build`, all radii and rotated copies together (a full material of SrTiO3: ~7 million, 350 MB). */
  buildAtoms: 20_000_000,
  /** Work of one inverse (particle → crystal) search: grid cells and points its lookups look at, and translation comparisons (≈ 5 s). */
  inverseWork: 2e7,
  /**
   * Atom pairs one pair-distance histogram (RDF) or one frame's shortest-distance search looks at: a real particle of 100,000
   * atoms needs ≤ 3·10⁷; piled-up atoms need N²/2.
   */
  rdfPairs: 1e8,
  /**
   * Directed neighbour pairs one set of Voronoi cells (CrystalNN) looks at: every site's neighbours within the search
   * cutoff (7 Å: ≈ 130 per site in LiFePO4), ≈ 0.6 µs and 50 bytes each (a 14,336-site LiFePO4 supercell: 1.9·10⁶, 1.2 s).
   */
  localEnvPairs: 1e7,
  /** Site × reflection terms of one powder XRD pattern (≈ 2 ns each; a 1,000-site cell with Mo Kα needs ≈ 10⁹). */
  xrdTerms: 4e9,
  /** Rows (lines) of one JSONL or CSV batch input. */
  batchRows: 1_000_000,
  /**
   * Degrees of freedom of a dense FEM-Bench problem (K is dofs², solves and eigenproblems dofs³), and of the dense problem
   * of equal work cbrt(n·w²) for the frames' banded fast path. Set where a refused size takes about a minute or more: the
   * dense critical load of 1,296 DOFs ≈ 19 s CPU (2,000: ≈ 70 s); the fast path on a 2,700-element grid (5,400 free DOFs,
   * half-bandwidth 455: 1,040) ≈ 7 s whole process (2,000: ≈ 50 s). Grids of 540 and 1,015 elements: < 1 s.
   */
  femDofs: 2_000,
  /**
   * Elements of a FEM-Bench mesh or frame, and nodes or points of the tasks whose work is linear (partition, load vector,
   * shape-function batches).
   */
  femElements: 200_000,
  /** Nesting depth of one FEM-Bench input value (NumPy arrays have at most 64 dimensions). */
  femDepth: 64,
  /** Work of all cases of one FEM-Bench run or check together, in largest accepted cases (femDofs dense or femElements linear). */
  femRunWork: 2,
  /**
   * Atom visits of one space-group search's overlap checks (about 15 ns each: ≈ 8 s; 4,000 random sites need
   * 3e8); see ovlResetWork in src/core/symmetry/spglib/overlap.ts.
   */
  symmetryWork: 5e8,
  /** Site-pair evaluations of one structure match (about 10 ns each: ≈ 10 s); see spendMatchWork in src/core/match. */
  matchWork: 1e9,
  /** Time budget of one batch case (an AtomWorld answer, a metrics pair), ms; raised with --case-timeout. */
  caseMilliseconds: 10_000,
  /** Time budget of one job of a page's worker, ms: a job past it is ended with a message. */
  workerJobMilliseconds: 120_000,
};

export type LimitName = keyof typeof DEFAULT_LIMITS;

/** The limits in force: the defaults above unless this process raised some (overrideLimits). */
export const LIMITS: Readonly<Record<LimitName, number>> = { ...DEFAULT_LIMITS };

/** Thrown where input goes beyond the policy; callers turn it into their own one-sentence error. */
export class LimitError extends Error {
  readonly limit: LimitName;
  constructor(limit: LimitName, message: string) {
    super(message);
    this.name = 'LimitError';
    this.limit = limit;
  }
}

const count = (n: number): string => (Number.isInteger(n) ? groupedNumber(n) : String(n));

/** Limits that are facts, not budgets: no option raises them (no space group has more than 192 operations). */
const FIXED: ReadonlySet<LimitName> = new Set<LimitName>([
  'symmetryOperations',
  'numberChars',
  'labelChars',
  'jsonDepth',
  'tokenChars',
  'coordinateAbs',
  'cellFlatness',
]);

/** How the running front end tells a user to raise a limit (the CLI: "--limit atoms=N"); none by default. */
let raiseHint: (name: LimitName) => string | null = () => null;

/** Installs the front end's way of naming the option that raises a limit (the CLI does; pages do not). */
export function setLimitHint(hint: (name: LimitName) => string | null): void {
  raiseHint = hint;
}

/**
 * Raises (or lowers) budgets for this process, e.g. from the CLI's `--limit atoms=400000`: the caller accepts
 * the longer run. Throws a sentence for an unknown name, a fixed limit or a value that is not a positive number.
 */
export function overrideLimits(overrides: Readonly<Record<string, number>>): void {
  for (const [name, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name))
      throw new Error(
        `there is no limit called "${printable(name, 40)}" (limits: ${Object.keys(DEFAULT_LIMITS)
          .filter((n) => !FIXED.has(n as LimitName))
          .join(', ')})`,
      );
    if (FIXED.has(name as LimitName)) throw new Error(`the limit ${name} is fixed`);
    if (!(Number.isFinite(value) && value > 0)) throw new Error(`the limit ${name} must be a positive number, got ${value}`);
    (LIMITS as Record<LimitName, number>)[name as LimitName] = value;
    revision++;
  }
}

/** Every limit back to its default (the CLI does this after each command, for in-process callers). */
export function resetLimits(): void {
  Object.assign(LIMITS, DEFAULT_LIMITS);
  revision++;
}

let revision = 0;
/** Changes whenever a limit may have: what was computed under the limits of one revision holds for that revision only. */
export const limitsRevision = (): number => revision;

/** The budgets that differ from their defaults (to hand to worker threads). */
export function limitOverrides(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of Object.keys(DEFAULT_LIMITS) as LimitName[]) if (LIMITS[name] !== DEFAULT_LIMITS[name]) out[name] = LIMITS[name];
  return out;
}

/**
 * "WHAT has ACTUAL UNIT; the limit is LIMIT UNIT[ (raise it with OPTION)]" — the one shape of every refusal.
 * `actual` may be null when it is not known exactly (e.g. a stream still being read); `name` names the limit so the
 * front end can say how to raise it.
 */
export function limitSentence(what: string, actual: number | null, limit: number, unit: string, name?: LimitName): string {
  const has = actual === null ? `${what} is over the limit` : `${what} has ${count(actual)} ${unit}`;
  const hint = name && !FIXED.has(name) ? raiseHint(name) : null;
  return `${has}; the limit is ${count(limit)} ${unit}${hint ? ` (raise it with ${hint})` : ''}`;
}

/** Throws LimitError when `actual` > `limit`. */
export function checkLimit(name: LimitName, what: string, actual: number, unit: string, limit: number = LIMITS[name]): void {
  if (actual > limit) throw new LimitError(name, limitSentence(what, actual, limit, unit, name));
}

/**
 * A number as `toLocaleString('en')` writes it ("1,234,567"; other numbers as it writes them). An integer is
 * grouped here: the first toLocaleString of a process loads ICU's locale data, 20–30 ms that a message or a help
 * text built at start-up would add to every run.
 */
export function groupedNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}

/** Input bytes as a person reads them: "312 MiB", "48 KiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 20) return `${(bytes / 2 ** 20).toFixed(bytes >= 10 * 2 ** 20 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${bytes} bytes`;
}

/** The sentence for an input over `LIMITS.inputBytes` (files, standard input, dropped files, pasted text). */
export function inputBytesProblem(name: string, bytes: number, limit: number = LIMITS.inputBytes): string | null {
  return bytes > limit ? `${name} is ${formatBytes(bytes)}; the limit is ${formatBytes(limit)} per input` : null;
}

/** Characters of an input value a message quotes: enough to recognise it, never a whole 100,000-character value. */
export const EXCERPT_CHARS = 40;

/**
 * The one way a message quotes a value from input (an option, a token, a name from a file): in double quotes,
 * control characters escaped and cut at `max` characters with an ellipsis (printable below).
 */
export const quoted = (text: string, max = EXCERPT_CHARS): string => `"${printable(text, max)}"`;

/**
 * Text safe to echo into a terminal or a message: control characters (C0, DEL, C1, bidi overrides) become
 * \xNN / \u{NNNN} escapes, and text longer than `max` characters is cut with an ellipsis.
 */
export function printable(text: string, max = 80): string {
  let out = '';
  let n = 0;
  for (const ch of text) {
    if (n++ >= max) return `${out}…`;
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out;
}
