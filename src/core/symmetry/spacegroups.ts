/**
 * Declared-symmetry lookup: Hermann–Mauguin symbol → Hall number, Hall symbol → operations,
 * International Tables number → operations of the default setting.
 * The tables come from moyo (530 Hall entries); the Hall-symbol parser is independent of them,
 * so Hall symbols that are not in the table still work.
 */
import type { Mat3, Vec3 } from '../math/mat3.ts';
import { moyo } from './moyo.ts';
import { printable } from '../limits.ts';
import { type SymOp, closeGroup, composeOps, invertOp, normalizeOp, parseSymop } from './symop.ts';

export interface HallEntry {
  hallNumber: number;
  number: number;
  setting: string;
  hallSymbol: string;
  hmShort: string;
  hmFull: string;
}

let entries: HallEntry[] | null = null;

/** All 530 Hall entries from moyo, loaded once. */
export function hallEntries(): HallEntry[] {
  if (!entries) {
    const m = moyo();
    const out: HallEntry[] = [];
    for (let h = 1; h <= 530; h++) {
      const e = m.hall_symbol_entry(h);
      out.push({
        hallNumber: e.hall_number,
        number: e.number,
        setting: e.setting,
        hallSymbol: e.hall_symbol,
        hmShort: e.hm_short,
        hmFull: e.hm_full,
      });
    }
    entries = out;
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Hall symbol parser (Hall 1981; International Tables Vol. B, §1.4 "Hall symbols").

type Axis = 'x' | 'y' | 'z' | "'" | '"' | '*';

const CENTERING: Record<string, Vec3[]> = {
  P: [],
  A: [[0, 1 / 2, 1 / 2]],
  B: [[1 / 2, 0, 1 / 2]],
  C: [[1 / 2, 1 / 2, 0]],
  I: [[1 / 2, 1 / 2, 1 / 2]],
  R: [
    [2 / 3, 1 / 3, 1 / 3],
    [1 / 3, 2 / 3, 2 / 3],
  ],
  S: [
    [1 / 3, 1 / 3, 2 / 3],
    [2 / 3, 2 / 3, 1 / 3],
  ],
  T: [
    [1 / 3, 2 / 3, 1 / 3],
    [2 / 3, 1 / 3, 2 / 3],
  ],
  F: [
    [0, 1 / 2, 1 / 2],
    [1 / 2, 0, 1 / 2],
    [1 / 2, 1 / 2, 0],
  ],
};

const TRANSLATION_SYMBOL: Record<string, Vec3> = {
  a: [1 / 2, 0, 0],
  b: [0, 1 / 2, 0],
  c: [0, 0, 1 / 2],
  n: [1 / 2, 1 / 2, 1 / 2],
  u: [1 / 4, 0, 0],
  v: [0, 1 / 4, 0],
  w: [0, 0, 1 / 4],
  d: [1 / 4, 1 / 4, 1 / 4],
};

/** Proper rotations about the principal axes, rows = new coordinates (ITB Table A1.4.2.4). */
const PRINCIPAL: Record<'x' | 'y' | 'z', Record<number, Mat3>> = {
  x: {
    1: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    2: [
      [1, 0, 0],
      [0, -1, 0],
      [0, 0, -1],
    ],
    3: [
      [1, 0, 0],
      [0, 0, -1],
      [0, 1, -1],
    ],
    4: [
      [1, 0, 0],
      [0, 0, -1],
      [0, 1, 0],
    ],
    6: [
      [1, 0, 0],
      [0, 1, -1],
      [0, 1, 0],
    ],
  },
  y: {
    1: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    2: [
      [-1, 0, 0],
      [0, 1, 0],
      [0, 0, -1],
    ],
    3: [
      [-1, 0, 1],
      [0, 1, 0],
      [-1, 0, 0],
    ],
    4: [
      [0, 0, 1],
      [0, 1, 0],
      [-1, 0, 0],
    ],
    6: [
      [0, 0, 1],
      [0, 1, 0],
      [-1, 0, 1],
    ],
  },
  z: {
    1: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    2: [
      [-1, 0, 0],
      [0, -1, 0],
      [0, 0, 1],
    ],
    3: [
      [0, -1, 0],
      [1, -1, 0],
      [0, 0, 1],
    ],
    4: [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    6: [
      [1, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
  },
};

/** Two-fold rotations about face diagonals: ' (b−c, c−a, a−b) and " (b+c, c+a, a+b) for the preceding axis x, y, z. */
const DIAGONAL: Record<"'" | '"', Record<'x' | 'y' | 'z', Mat3>> = {
  "'": {
    x: [
      [-1, 0, 0],
      [0, 0, -1],
      [0, -1, 0],
    ],
    y: [
      [0, 0, -1],
      [0, -1, 0],
      [-1, 0, 0],
    ],
    z: [
      [0, -1, 0],
      [-1, 0, 0],
      [0, 0, -1],
    ],
  },
  '"': {
    x: [
      [-1, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ],
    y: [
      [0, 0, 1],
      [0, -1, 0],
      [1, 0, 0],
    ],
    z: [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, -1],
    ],
  },
};

/** Three-fold rotation about a+b+c. */
const BODY_DIAGONAL_3: Mat3 = [
  [0, 0, 1],
  [1, 0, 0],
  [0, 1, 0],
];

const AXIS_VECTOR: Record<'x' | 'y' | 'z', Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

const neg = (m: Mat3): Mat3 => m.map((r) => r.map((x) => (x === 0 ? 0 : -x))) as Mat3;

/** Parses a change-of-basis operator in parentheses: "(0 0 1)" (twelfths) or "(x,y,z+1/4)". */
function parseChangeOfBasis(text: string): SymOp {
  const inner = text.trim();
  if (/^-?\d+\s+-?\d+\s+-?\d+$/.test(inner)) {
    const v = inner.split(/\s+/).map((x) => Number(x) / 12) as Vec3;
    return {
      rot: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      trans: v,
    };
  }
  return parseSymop(inner);
}

/**
 * Operations of the group given by a Hall symbol (all operations of the conventional cell,
 * centring translations included, translations in [0, 1)). Throws Error on a malformed symbol.
 */
export function operationsFromHall(hall: string): SymOp[] {
  let s = hall.trim().replace(/_/g, ' ');
  let cob: SymOp | null = null;
  // A trailing "(change of basis)": found with lastIndexOf, not a regex that rescans from every '('.
  if (s.endsWith(')')) {
    const open = s.lastIndexOf('(');
    const inner = open >= 0 ? s.slice(open + 1, -1) : '';
    if (open >= 0 && !inner.includes(')')) {
      cob = parseChangeOfBasis(inner);
      s = s.slice(0, open).trim();
    }
  }
  // Lattice symbol: optional '-', one letter; may be glued to the first matrix symbol ("-P2ybc").
  const lat = /^(-?)([PABCIRSTF])/i.exec(s);
  if (!lat) throw new Error(`Hall symbol '${printable(hall)}': missing lattice symbol`);
  const centrosymmetric = lat[1] === '-';
  const latticeLetter = lat[2].toUpperCase();
  const rest = s.slice(lat[0].length).trim();
  const tokens = rest === '' ? [] : rest.split(/\s+/);
  if (tokens.length > 4) throw new Error(`Hall symbol '${printable(hall)}': too many rotation symbols`);

  const generators: SymOp[] = [];
  for (const t of CENTERING[latticeLetter])
    generators.push({
      rot: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      trans: [...t] as Vec3,
    });
  if (centrosymmetric) generators.push({ rot: neg(PRINCIPAL.z[1]), trans: [0, 0, 0] });

  let prevOrder = 0;
  let prevAxis: 'x' | 'y' | 'z' | null = null;
  tokens.forEach((tok, index) => {
    const m = /^(-?)([12346])([1-5]?)([xyz'"*]?)([1-5]?)([abcnuvwd]*)$/.exec(tok.replace(/=/g, '"'));
    if (!m) throw new Error(`Hall symbol '${printable(hall)}': cannot read rotation '${printable(tok)}'`);
    const improper = m[1] === '-';
    const order = Number(m[2]);
    let axis = (m[4] || '') as Axis | '';
    const screw = Number(m[3] || m[5] || 0);
    // Default axes: first z; second (2-fold) x after 2 or 4, a−b (') after 3 or 6; third (3-fold) body diagonal.
    if (axis === '') {
      if (index === 0) axis = 'z';
      else if (index === 1 && order === 2) {
        if (prevOrder === 2 || prevOrder === 4) axis = 'x';
        else if (prevOrder === 3 || prevOrder === 6) axis = "'";
      } else if (index === 2 && order === 3) axis = '*';
      if (axis === '' && order !== 1) throw new Error(`Hall symbol '${printable(hall)}': axis of '${printable(tok)}' cannot be inferred`);
      if (axis === '') axis = 'z';
    }
    let rot: Mat3;
    let refAxis: 'x' | 'y' | 'z' = 'z';
    if (axis === 'x' || axis === 'y' || axis === 'z') {
      rot = PRINCIPAL[axis][order];
      refAxis = axis;
    } else if (axis === "'" || axis === '"') {
      if (order !== 2) throw new Error(`Hall symbol '${printable(hall)}': diagonal axis needs a 2-fold rotation in '${printable(tok)}'`);
      rot = DIAGONAL[axis][prevAxis ?? 'z'];
    } else {
      if (order !== 3)
        throw new Error(`Hall symbol '${printable(hall)}': body-diagonal axis needs a 3-fold rotation in '${printable(tok)}'`);
      rot = BODY_DIAGONAL_3;
    }
    if (!rot) throw new Error(`Hall symbol '${printable(hall)}': unknown rotation '${printable(tok)}'`);
    if (improper) rot = neg(rot);
    const trans: Vec3 = [0, 0, 0];
    if (screw) {
      if (!(axis === 'x' || axis === 'y' || axis === 'z'))
        throw new Error(`Hall symbol '${printable(hall)}': screw on a diagonal axis in '${printable(tok)}'`);
      const v = AXIS_VECTOR[axis];
      for (let i = 0; i < 3; i++) trans[i] += (v[i] * screw) / order;
    }
    for (const ch of m[6]) {
      const v = TRANSLATION_SYMBOL[ch];
      for (let i = 0; i < 3; i++) trans[i] += v[i];
    }
    generators.push({ rot, trans });
    prevOrder = order;
    if (axis === 'x' || axis === 'y' || axis === 'z') prevAxis = refAxis;
  });

  let ops = closeGroup(generators);
  if (cob) {
    // The change of basis V moves the origin: every operation S becomes V S V⁻¹.
    const inv = invertOp(cob);
    ops = ops.map((op) => normalizeOp(composeOps(composeOps(cob!, op), inv)));
  }
  return sortOps(ops);
}

/** Identity first, then a stable order (rotation part, then translation). */
function sortOps(ops: SymOp[]): SymOp[] {
  const key = (o: SymOp) => o.rot.flat().join(',') + '|' + o.trans.map((t) => t.toFixed(6)).join(',');
  const idKey = '1,0,0,0,1,0,0,0,1|0.000000,0.000000,0.000000';
  return [...ops].sort((a, b) => {
    const ka = key(a),
      kb = key(b);
    if (ka === idKey) return -1;
    if (kb === idKey) return 1;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** Operations of a moyo Hall number (1..530), from moyo itself. */
export function operationsFromHallNumber(hallNumber: number): SymOp[] {
  const e = hallEntries()[hallNumber - 1];
  if (!e) throw new Error(`Hall number ${hallNumber} is out of range 1..530`);
  const ops = moyo().operations_from_number(e.number, { type: 'HallNumber', value: hallNumber }, false);
  // moyo-wasm flattens rotation matrices column by column (checked: row-major reading breaks group closure).
  return ops.map((o) =>
    normalizeOp({
      rot: [
        [o.rotation[0], o.rotation[3], o.rotation[6]],
        [o.rotation[1], o.rotation[4], o.rotation[7]],
        [o.rotation[2], o.rotation[5], o.rotation[8]],
      ],
      trans: [o.translation[0], o.translation[1], o.translation[2]],
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Hermann–Mauguin symbols.

/** Canonical form for comparison: no spaces/underscores, subscripts joined ("2_1" → "21"), lower-case setting suffix. */
export function normalizeHM(symbol: string): string {
  let s = symbol.trim();
  if ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('"') && s.endsWith('"'))) s = s.slice(1, -1);
  // Subscripts written with braces or underscores: 2_1, 2_{1}, 2{1}.
  s = s.replace(/_\{?(\d)\}?/g, '$1').replace(/\{(\d)\}/g, '$1');
  s = s.replace(/[\s_]/g, '');
  // Unicode minus / overbar variants.
  s = s.replace(/[\u2212\u2013]/g, '-');
  return s;
}

interface HMIndexEntry {
  hallNumber: number;
}

let hmIndex: Map<string, HMIndexEntry> | null = null;

function addKey(index: Map<string, HMIndexEntry>, key: string, hallNumber: number): void {
  if (!index.has(key)) index.set(key, { hallNumber });
}

/** Settings suffixes that mean "origin choice"/"axes" and that people write after a colon. */
function buildHMIndex(): Map<string, HMIndexEntry> {
  const index = new Map<string, HMIndexEntry>();
  const all = hallEntries();
  // Exact settings first (full symbol with ":setting" and short symbol with ":setting").
  for (const e of all) {
    const full = normalizeHM(e.hmFull);
    const short = normalizeHM(e.hmShort);
    if (e.setting) {
      const suffix = e.setting;
      addKey(index, `${full}:${suffix}`, e.hallNumber);
      // Origin choices, rhombohedral axes and monoclinic cell choices are attached to the short
      // (number-level) symbol too: Fd-3m:2, R-3m:H, C2/c:-b2, P21/c:c1.
      addKey(index, `${short}:${suffix}`, e.hallNumber);
    }
  }
  // The standard symbol of the number with a setting suffix ("C m c m :ba-c" → C c m m).
  const standard = new Map<number, HallEntry>();
  for (const e of all) if (!standard.has(e.number)) standard.set(e.number, e);
  for (const e of all) {
    if (!e.setting) continue;
    const std = standard.get(e.number)!;
    addKey(index, `${normalizeHM(std.hmShort)}:${e.setting}`, e.hallNumber);
    addKey(index, `${normalizeHM(std.hmFull)}:${e.setting}`, e.hallNumber);
  }
  // Plain symbols: the first entry (moyo/spglib order) wins, i.e. origin choice 1, hexagonal axes,
  // unique axis b, cell choice 1.
  for (const e of all) {
    addKey(index, normalizeHM(e.hmFull), e.hallNumber);
  }
  for (const e of all) {
    // Monoclinic short symbols in moyo are the number's standard symbol ("P 2_1/c"), the same for every
    // setting; the first entry is unique axis b, cell choice 1, as in ITA.
    addKey(index, normalizeHM(e.hmShort), e.hallNumber);
  }
  // Monoclinic full symbols without their "1"s ("P 1 21/n 1" → "P 21/n"): the first setting with that
  // symbol wins, so unique axis b comes before c and a.
  for (const e of all) {
    const parts = e.hmFull.trim().split(/\s+/);
    if (parts.length === 4 && parts.slice(1).filter((x) => x === '1').length === 2) {
      addKey(
        index,
        normalizeHM(
          parts[0] +
            parts
              .slice(1)
              .filter((x) => x !== '1')
              .join(''),
        ),
        e.hallNumber,
      );
    }
  }
  return index;
}

function hmIndexMap(): Map<string, HMIndexEntry> {
  if (!hmIndex) hmIndex = buildHMIndex();
  return hmIndex;
}

export interface HMLookup {
  /** moyo Hall number, or null for a centred variant outside the table (then use `hallSymbol`). */
  hallNumber: number | null;
  hallSymbol: string;
  /** International Tables number; null when a non-standard centring makes it unknown here. */
  number: number | null;
  /** Set when the symbol was read in a tolerant way (old notation, missing bar...). */
  note?: string;
}

/** Variants of a normalised H-M symbol that old or sloppy files use. */
function hmVariants(s: string): { key: string; note?: string }[] {
  const out: { key: string; note?: string }[] = [{ key: s }];
  // Setting suffixes written without a colon or with words: "Fd-3mS", "Fd-3m Z", "R-3mH", "R3R".
  const suffix = /^(.*?)(?::?(origin)?choice)?:?([12HRSZhrsz])$/.exec(s);
  if (suffix && !s.includes(':')) {
    const map: Record<string, string> = { S: '1', Z: '2', s: '1', z: '2', h: 'H', r: 'R' };
    const suf = map[suffix[3]] ?? suffix[3];
    if (/^[A-Za-z]/.test(suffix[1]) && suffix[1].length >= 2) out.push({ key: `${suffix[1]}:${suf}` });
  }
  if (s.includes(':')) {
    const [base, setting] = s.split(':');
    const map: Record<string, string> = { S: '1', Z: '2', s: '1', z: '2', h: 'H', r: 'R' };
    if (map[setting]) out.push({ key: `${base}:${map[setting]}` });
  }
  // Lower-case lattice letter ("p21/c").
  if (/^[pabcifr]/.test(s)) out.push({ key: s[0].toUpperCase() + s.slice(1) });
  // Old cubic notation without the bar on 3: Pm3m, Fd3m, Ia3d, Pa3.
  const cubic = /^([PFI])([^:]*?[a-z])3(m|c|n|d)?(:.*)?$/.exec(s);
  if (cubic && !s.includes('-3'))
    out.push({ key: `${cubic[1]}${cubic[2]}-3${cubic[3] ?? ''}${cubic[4] ?? ''}`, note: 'old cubic notation (3 for -3)' });
  // The 'e' glide was written as 'a' or 'b' before 2002 (Cmca → Cmce, Ccca → Ccce, Abma → Aema).
  if (/[ab]/.test(s.slice(1))) {
    for (const glide of ['a', 'b']) {
      const body = s.slice(1);
      for (let i = 0; i < body.length; i++) {
        if (body[i] === glide) out.push({ key: s[0] + body.slice(0, i) + 'e' + body.slice(i + 1), note: 'old glide symbol (a/b for e)' });
      }
    }
  }
  return out;
}

/**
 * Looks up a Hermann–Mauguin symbol ("P 21/c", "P 1 21/c 1", "P2_1/c", "Fd-3m:2", "R -3 m :H", "P b c a").
 * Returns null when no setting matches.
 */
export function lookupHM(symbol: string): HMLookup | null {
  const s = normalizeHM(symbol);
  if (!s) return null;
  const index = hmIndexMap();
  const all = hallEntries();
  for (const v of hmVariants(s)) {
    const hit = index.get(v.key);
    if (hit) {
      const e = all[hit.hallNumber - 1];
      return { hallNumber: hit.hallNumber, hallSymbol: e.hallSymbol, number: e.number, ...(v.note ? { note: v.note } : {}) };
    }
  }
  // A centring letter in front of a primitive symbol ("A -1", "B 21"): the primitive group's Hall
  // symbol with that lattice letter. The type is only known here for the triclinic groups.
  const centred = /^([ABCIFR])(.+)$/.exec(s);
  if (centred) {
    const p = lookupHM(`P${centred[2]}`);
    if (p && p.hallNumber !== null) {
      const hallSymbol = p.hallSymbol.replace(/^(-?)P/, `$1${centred[1]}`);
      return { hallNumber: null, hallSymbol, number: p.number !== null && p.number <= 2 ? p.number : null, note: 'non-standard centring' };
    }
  }
  return null;
}

/** Normalised Hall symbol for table comparison. */
const normalizeHall = (h: string): string =>
  h
    .trim()
    .replace(/_/g, ' ')
    .replace(/=/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/^(-?[A-Za-z])(?=\S)/, '$1 ')
    .toUpperCase();

/** The Hall number whose symbol matches (ignoring spacing/case), or null for symbols outside the table. */
export function lookupHall(hall: string): number | null {
  const n = normalizeHall(hall);
  for (const e of hallEntries()) if (normalizeHall(e.hallSymbol) === n) return e.hallNumber;
  return null;
}

/** The default (first, as spglib) Hall number of an International Tables number, or null out of range. */
export function defaultHallNumber(itNumber: number): number | null {
  if (!Number.isInteger(itNumber) || itNumber < 1 || itNumber > 230) return null;
  const e = hallEntries().find((x) => x.number === itNumber);
  return e ? e.hallNumber : null;
}

/** Default-setting operations for an International Tables number (1..230). */
export function operationsFromITNumber(itNumber: number): SymOp[] {
  const h = defaultHallNumber(itNumber);
  if (h === null) throw new Error(`space-group number ${itNumber} is out of range 1..230`);
  return operationsFromHallNumber(h);
}
