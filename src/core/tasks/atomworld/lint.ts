/**
 * Prompt lint for AtomWorld cases: flags cases whose prompt contradicts the target the benchmark
 * scores against, reads two ways, or asks for nothing (see README.md here, "Lint codes").
 *
 * Found in the data: delete_below "Including itself and atoms with the same z" (the target keeps
 * them); insert_between / move_towards whose raw in-cell segment is not the nearest-image bond;
 * rotate_around neighbours found through a periodic image whose in-cell copy swings far away;
 * insert_between distances printed with 2 decimals; move_towards overshooting the target atom;
 * Cartesian values in a cell whose ASE and pymatgen frames differ; and prompt numbers that disagree
 * with the case's parameters.
 */
import { type Mat3, type Vec3, inverse, norm, sub, vecMat } from '../../math/mat3.ts';
import { Lattice } from '../../structure/lattice.ts';
import type { Structure } from '../../structure/structure.ts';
import { majorSpecies } from '../../structure/structure.ts';
import { applyAtomworldActionWithTrace, minimumImageDistance, readAtomworldCif } from './actions.ts';
import { aseCellFromParameters, aseWrap3 } from './ase-frame.ts';
import { pow } from '../../math/libm.ts';

export type LintSeverity = 'contradiction' | 'ambiguity' | 'no-op' | 'rounding';

export interface LintIssue {
  code: string;
  severity: LintSeverity;
  message: string;
}

export interface LintCase {
  id?: string;
  action: string;
  params: Record<string, unknown>;
  prompt: string;
  before_cif?: string;
  after_cif?: string;
}

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;

/** Half a unit in the last printed decimal place of a number as written (0.91 → 0.005). */
function printedHalfUlp(text: string): number {
  if (/[eE]/.test(text)) {
    const [mant, exp] = text.toLowerCase().split('e');
    return printedHalfUlp(mant) * pow(10, Number(exp));
  }
  const dot = text.indexOf('.');
  const decimals = dot < 0 ? 0 : text.length - dot - 1;
  return 0.5 * pow(10, -decimals);
}

const numbersIn = (text: string): string[] => text.match(new RegExp(NUMBER, 'g')) ?? [];

/** Prompt numbers vs parameters: index/symbol equality and numbers within the printed precision. */
function checkPromptParams(c: LintCase, issues: LintIssue[]): void {
  const p = c.params;
  const mismatch = (what: string, prompt: string, param: unknown) =>
    issues.push({
      code: 'prompt_params_mismatch',
      severity: 'contradiction',
      message: `the prompt's ${what} is ${prompt} but the case's parameter is ${JSON.stringify(param)}`,
    });
  const checkIndex = (label: string, text: string | undefined, param: unknown) => {
    if (text !== undefined && param !== undefined && Number(text) !== param) mismatch(label, text, param);
  };
  const checkNumber = (label: string, text: string | undefined, param: unknown) => {
    if (text === undefined || typeof param !== 'number') return;
    // 1e-9 relative slack for full-precision reprs.
    if (Math.abs(Number(text) - param) > printedHalfUlp(text) * (1 + 1e-9) + 1e-12 * Math.abs(param)) mismatch(label, text, param);
  };
  const checkVector = (label: string, text: string | undefined, param: unknown) => {
    if (text === undefined || !Array.isArray(param)) return;
    const parts = numbersIn(text);
    if (parts.length !== 3) {
      mismatch(label, `[${text}]`, param);
      return;
    }
    parts.forEach((t, k) => checkNumber(`${label} component ${k}`, t, param[k]));
  };
  const pr = c.prompt;
  let m: RegExpExecArray | null;
  switch (c.action) {
    case 'change':
      if ((m = /index (\d+) into ([A-Z][a-z]?)/.exec(pr))) {
        checkIndex('index', m[1], p.index);
        if (m[2] !== p.symbol) mismatch('symbol', m[2], p.symbol);
      }
      break;
    case 'remove':
      if ((m = /index (\d+)/.exec(pr))) checkIndex('index', m[1], p.index);
      break;
    case 'add':
      if ((m = /Add one ([A-Z][a-z]?) atom at the Cartesian coordinate \[([^\]]*)\]/.exec(pr))) {
        if (m[1] !== p.symbol) mismatch('symbol', m[1], p.symbol);
        checkVector('position', m[2], p.position_cart);
      }
      break;
    case 'swap':
      if ((m = /indices (\d+) and (\d+)/.exec(pr))) {
        checkIndex('first index', m[1], p.index1);
        checkIndex('second index', m[2], p.index2);
      }
      break;
    case 'delete_below':
      if ((m = /at index (\d+)/.exec(pr))) checkIndex('index', m[1], p.index);
      if (/Including itself/i.test(pr) && p.include_self === false) mismatch('"Including itself"', 'set', false);
      if (/Excluding itself/i.test(pr) && p.include_self === true) mismatch('"Excluding itself"', 'set', true);
      break;
    case 'move':
      if ((m = /index (\d+) by \[([^\]]*)\]/.exec(pr))) {
        checkIndex('index', m[1], p.index);
        checkVector('displacement', m[2], p.d_pos_cart);
      }
      break;
    case 'move_towards':
      if ((m = new RegExp(String.raw`index (\d+) towards the atom at index (\d+) by (${NUMBER})`).exec(pr))) {
        checkIndex('first index', m[1], p.index1);
        checkIndex('second index', m[2], p.index2);
        checkNumber('distance', m[3], p.distance);
      }
      break;
    case 'rotate_around':
      if (
        (m = new RegExp(
          String.raw`within (${NUMBER}) angstrom of the center atom at index (\d+) by (${NUMBER}) degree around the axis \[([^\]]*)\]`,
        ).exec(pr))
      ) {
        checkNumber('radius', m[1], p.radius);
        checkIndex('index', m[2], p.index);
        checkNumber('angle', m[3], p.angle_deg);
        checkVector('axis', m[4], p.axis);
      }
      break;
    case 'super_cell':
      if ((m = /size (\d+)\s*(?:by|[x×*X])\s*(\d+)\s*(?:by|[x×*X])\s*(\d+)/.exec(pr)) && Array.isArray(p.size)) {
        if ([m[1], m[2], m[3]].some((t, k) => Number(t) !== (p.size as unknown[])[k])) mismatch('size', `${m[1]}x${m[2]}x${m[3]}`, p.size);
      }
      break;
    case 'insert_between':
      if ((m = /(?:Insert|Insert a) ([A-Z][a-z]?)\b.*?indices (\d+) and (\d+)/.exec(pr))) {
        if (m[1] !== p.symbol) mismatch('symbol', m[1], p.symbol);
        checkIndex('first index', m[2], p.index1);
        checkIndex('second index', m[3], p.index2);
      }
      if (/of the way from/.test(pr)) {
        issues.push({
          code: 'insert_between_fraction_wording',
          severity: 'contradiction',
          message: 'the prompt says "… of the way from" (a fraction) but gives a distance in Å',
        });
      }
      break;
  }
}

/** BEFORE positions as the benchmark reads them: wrapped fractions times the ASE cell. */
function asePositions(s: Structure, cell: Mat3): Vec3[] {
  return s.sites.map((site) => vecMat(aseWrap3(site.frac ?? s.lattice!.cartToFrac(site.xyz)), cell));
}

/** Checks that need the BEFORE structure (geometry of the benchmark's reading). */
function checkGeometry(c: LintCase, before: Structure, issues: LintIssue[]): void {
  const p = c.params;
  const cell: Mat3 = aseCellFromParameters(before.lattice!.parameters);
  const inv = inverse(cell);
  const positions = asePositions(before, cell);
  const symbols = before.sites.map(majorSpecies);
  const idx = (name: string): number | undefined => {
    const v = p[name];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < positions.length ? v : undefined;
  };
  const rawVsNearest = (i: number, j: number, what: string) => {
    const raw = norm(sub(positions[j], positions[i]));
    const nearest = minimumImageDistance(positions[i], positions[j], cell, inv);
    if (raw - nearest > 1e-6) {
      issues.push({
        code: `${c.action}_raw_segment`,
        severity: 'ambiguity',
        message:
          `atoms ${i} and ${j} are ${nearest.toFixed(3)} Å apart through the cell boundary but ${raw.toFixed(3)} Å apart inside ` +
          `the cell; the target ${what} along the in-cell segment`,
      });
    }
    return raw;
  };

  // Cartesian values are read in ASE's frame, which the prompt never names; pymatgen's differs for this cell.
  if (['add', 'move', 'rotate_around', 'delete_below'].includes(c.action)) {
    const pm = before.lattice!.parameters;
    const pym = Lattice.fromParameters(pm.a, pm.b, pm.c, pm.alpha, pm.beta, pm.gamma).matrix;
    const differs = pym.some((row, r) => row.some((x, k) => Math.abs(x - cell[r][k]) > 1e-6));
    if (differs) {
      issues.push({
        code: 'cartesian_frame_unstated',
        severity: 'ambiguity',
        message: "the Cartesian frame is not stated; for this cell ASE's (a along x, used by the target) and pymatgen's (c along z) differ",
      });
    }
  }

  switch (c.action) {
    case 'change': {
      const i = idx('index');
      if (i !== undefined && symbols[i] === p.symbol)
        issues.push({
          code: 'change_same_element',
          severity: 'no-op',
          message: `atom ${i} is already ${symbols[i]}; the target equals the input`,
        });
      break;
    }
    case 'swap': {
      const i = idx('index1'),
        j = idx('index2');
      if (i !== undefined && j !== undefined && symbols[i] === symbols[j])
        issues.push({
          code: 'swap_same_element',
          severity: 'no-op',
          message: `atoms ${i} and ${j} are both ${symbols[i]}; the swap changes nothing`,
        });
      break;
    }
    case 'delete_below': {
      const i = idx('index');
      if (i === undefined) break;
      const z = positions[i][2];
      const below = positions.filter((x) => x[2] < z).length;
      const sameZ = positions.filter((x, k) => k !== i && x[2] === z).length;
      if (below === 0)
        issues.push({ code: 'delete_below_nothing', severity: 'no-op', message: `no atom lies below atom ${i}; nothing is deleted` });
      if (/Including itself/i.test(c.prompt)) {
        issues.push({
          code: 'delete_below_including_itself',
          severity: 'contradiction',
          message:
            'the prompt says "Including itself and atoms with the same z coordinate" but the target keeps atom ' +
            `${i}${sameZ ? ` and the ${sameZ} other atom(s) at its z` : ''} (include_self has no effect)`,
        });
      }
      break;
    }
    case 'insert_between': {
      const i = idx('index1'),
        j = idx('index2');
      if (i === undefined || j === undefined) break;
      const raw = rawVsNearest(i, j, 'inserts');
      const m =
        new RegExp(String.raw`that are (${NUMBER})\s*(?:Å|angstrom)`).exec(c.prompt) ??
        new RegExp(String.raw`must be (${NUMBER}) angstrom`).exec(c.prompt);
      if (m && typeof p.distance_ratio === 'number') {
        const exact = p.distance_ratio * raw;
        const printed = Number(m[1]);
        if (Math.abs(printed - exact) > printedHalfUlp(m[1]) * (1 + 1e-9) + 1e-9) {
          issues.push({
            code: 'prompt_params_mismatch',
            severity: 'contradiction',
            message: `the prompt's distance ${m[1]} Å is not the target's ${exact.toFixed(6)} Å (ratio ${p.distance_ratio})`,
          });
        } else if (printed !== exact) {
          issues.push({
            code: 'insert_between_rounded_distance',
            severity: 'rounding',
            message:
              `the prompt rounds the distance to ${m[1]} Å; the target uses ${exact} Å (off by ` +
              `${Math.abs(printed - exact).toExponential(2)} Å)`,
          });
        }
      }
      break;
    }
    case 'move_towards': {
      const i = idx('index1'),
        j = idx('index2');
      if (i === undefined || j === undefined) break;
      const raw = rawVsNearest(i, j, 'moves');
      if (typeof p.distance === 'number' && p.distance > raw) {
        issues.push({
          code: 'move_towards_overshoot',
          severity: 'ambiguity',
          message: `moving ${p.distance} Å towards an atom ${raw.toFixed(3)} Å away passes it; the target overshoots`,
        });
      }
      break;
    }
    case 'rotate_around': {
      const centre = idx('index');
      if (centre === undefined || typeof p.radius !== 'number') break;
      let selected = 0;
      const far: number[] = [];
      positions.forEach((x, k) => {
        if (k === centre) return;
        if (minimumImageDistance(positions[centre], x, cell, inv) < (p.radius as number)) {
          selected++;
          if (!(norm(sub(x, positions[centre])) < (p.radius as number))) far.push(k);
        }
      });
      if (selected === 0)
        issues.push({
          code: 'rotate_no_neighbour',
          severity: 'no-op',
          message: `no atom lies within ${p.radius} Å of atom ${centre}; nothing rotates`,
        });
      if (far.length) {
        issues.push({
          code: 'rotate_periodic_neighbour',
          severity: 'ambiguity',
          message:
            `atom(s) ${far.join(', ')} are within the radius only through a periodic image; the target rotates their in-cell ` +
            'copies, which swing far from the centre',
        });
      }
      break;
    }
  }
}

/** Lints one case. Geometry checks run when `before_cif` is present and readable. */
export function lintAtomworldCase(c: LintCase): LintIssue[] {
  const issues: LintIssue[] = [];
  checkPromptParams(c, issues);
  if (c.before_cif) {
    let before: Structure | undefined;
    try {
      before = readAtomworldCif(c.before_cif);
    } catch (e) {
      issues.push({
        code: 'before_unreadable',
        severity: 'contradiction',
        message: `the BEFORE CIF cannot be read: ${(e as Error).message}`,
      });
    }
    if (before?.lattice) {
      checkGeometry(c, before, issues);
      if (c.after_cif) checkTargetCount(c, before, issues);
    }
  }
  return issues;
}

/** The target's atom count against the engine's: a different count means the case follows other rules. */
function checkTargetCount(c: LintCase, before: Structure, issues: LintIssue[]): void {
  let expected: number;
  let target: number;
  try {
    expected = applyAtomworldActionWithTrace(before, c.action, c.params).after.sites.length;
    target = readAtomworldCif(c.after_cif!).sites.length;
  } catch {
    return; // bad parameters are reported by the apply path, not here
  }
  if (expected !== target) {
    issues.push({
      code: 'target_atom_count',
      severity: 'contradiction',
      message: `the target holds ${target} atoms but the action as specified gives ${expected}`,
    });
  }
}
