/**
 * AtomWorld's single-answer evaluation (AtomWorldBench src/evaluation/evaluator.py): extraction of the last <cif>…</cif>,
 * a pymatgen-strict parse, the atom-count/composition gate, StructureMatcher.fit(target, answer)
 * with primitive_cell=False and stol=0.5, then get_rms_dist for the metrics.
 */
import { ParseError } from '../../io/types.ts';
import { type BestMapping, type MatcherOptions, matcherFitAndBestMapping } from '../../match/structure-matcher.ts';
import type { Structure } from '../../structure/structure.ts';
import { parseCifStrict } from './strict-cif.ts';

export type AtomworldWrongType = 'OutputFormatError' | 'CIFParsingError' | 'AtomCountMismatch' | 'StructureMismatch';

export interface AtomworldEvaluation {
  correct: boolean;
  wrongType: AtomworldWrongType | null;
  rmsd: number | null;
  maxDist: number | null;
  /** Human sentence on why the answer failed (null when correct). */
  reason: string | null;
  /** The CIF text found between the tags (null without tags). */
  answerCif: string | null;
  target: Structure;
  answer: Structure | null;
  /** The smallest-rms site mapping (target site → answer site) for the overlay; null unless correct. */
  mapping: BestMapping | null;
}

/** AtomWorld's matcher settings: primitive_cell=False, stol=0.5, everything else pymatgen's default. */
export const ATOMWORLD_MATCHER: MatcherOptions = { primitiveCell: false, stol: 0.5 };

/** The text between the last `<cif>` and the last `</cif>` (Python rfind + slice), stripped; null when a tag is missing. */
export function extractLastCif(answerText: string): string | null {
  const start = answerText.lastIndexOf('<cif>');
  const end = answerText.lastIndexOf('</cif>');
  if (start < 0 || end < 0) return null;
  return answerText.slice(start + '<cif>'.length, end).trim();
}

/** pymatgen `composition.as_dict()`: species string (with oxidation state) → summed occupancy. */
export function compositionDict(s: Structure): Map<string, number> {
  const out = new Map<string, number>();
  // Indexed: per site of every CIF a batch reads, mostly before V8 optimises it (each step of for…of allocated).
  const sites = s.sites;
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i];
    for (const el in site.species) {
      const occ = site.species[el];
      const ox = site.oxidation?.[el];
      const key = ox === undefined || ox === 0 ? el : `${el}${ox}`;
      out.set(key, (out.get(key) ?? 0) + occ);
    }
  }
  return out;
}

/**
 * The evaluator's gate before it matches: the same number of sites and the same `composition.as_dict()` (within
 * 1e-9). `composition` is asked only when the counts agree.
 */
export const countAndCompositionAgree = (a: JudgedSide, b: JudgedSide): boolean =>
  a.sites === b.sites && sameComposition(a.composition(), b.composition());

function sameComposition(ca: Map<string, number>, cb: Map<string, number>): boolean {
  if (ca.size !== cb.size) return false;
  // Sums of the same occupancies in another order may differ in the last bits.
  for (const [k, v] of ca) if (!cb.has(k) || Math.abs(cb.get(k)! - v) > 1e-9) return false;
  return true;
}

/** Throws ParseError when the target itself cannot be read (the benchmark's targets always can). */
export const evaluateAtomworldAnswer = (targetCif: string, answerText: string): AtomworldEvaluation =>
  evaluateAgainstTarget(parseCifStrict(targetCif), answerText);

/**
 * `evaluateAtomworldAnswer` against a target already read with `parseCifStrict` (a batch reads each distinct
 * target once); `target` is only read, never changed. `readCif` reads the answer's CIF: `parseCifStrict`, or a batch's
 * copy that keeps what it read (the structures it returns are then shared, and only read).
 */
export function evaluateAgainstTarget(
  target: Structure,
  answerText: string,
  readCif: (cif: string) => Structure = parseCifStrict,
): AtomworldEvaluation {
  const side = (structure: Structure): JudgedSide & { structure: Structure } => ({ ...structureSide(structure), structure });
  const j = judgeAnswer(
    side(target),
    answerText,
    (cif) => side(readCif(cif)),
    (t, a) => matcherFitAndBestMapping(t.structure, a.structure, ATOMWORLD_MATCHER),
  );
  return { ...j, target, answer: j.answer?.structure ?? null };
}

/** One structure as the evaluator compares it: its site count and `composition.as_dict()`. */
export interface JudgedSide {
  sites: number;
  composition(): Map<string, number>;
}

/** `s` as the evaluator compares it (its composition computed when asked). */
export const structureSide = (s: Structure): JudgedSide => ({ sites: s.sites.length, composition: () => compositionDict(s) });

/** The evaluator's verdict on an answer, with the answer's side (null when it has none). */
export type AtomworldJudgement<S> = Omit<AtomworldEvaluation, 'target' | 'answer'> & { answer: S | null };

/**
 * The evaluator's steps on sides of any kind: the structures themselves (`evaluateAgainstTarget`), or what another
 * thread read of them (the CLI's batch, batch.ts). `readCif` reads the answer's CIF (a ParseError is the answer's
 * CIFParsingError); `match` is StructureMatcher's fit and, when it passes, get_rms_dist's mapping.
 */
export function judgeAnswer<S extends JudgedSide>(
  target: S,
  answerText: string,
  readCif: (cif: string) => S,
  match: (target: S, answer: S) => { fit: boolean; mapping: BestMapping | null },
): AtomworldJudgement<S> {
  const base = { answer: null, rmsd: null, maxDist: null, mapping: null, correct: false } as const;
  const answerCif = extractLastCif(answerText);
  if (answerCif === null) {
    return { ...base, wrongType: 'OutputFormatError', reason: 'the answer has no <cif>…</cif> block', answerCif };
  }
  let answer: S;
  try {
    answer = readCif(answerCif);
  } catch (e) {
    if (!(e instanceof ParseError) && !(e instanceof Error)) throw e;
    const line = e instanceof ParseError && e.line ? ` (line ${e.line} of the CIF block)` : '';
    return { ...base, wrongType: 'CIFParsingError', reason: `the CIF cannot be parsed: ${e.message}${line}`, answerCif };
  }
  return { ...judgeReadAnswer(target, answer, match), answer, answerCif };
}

/** The evaluator's verdict once both CIFs are read: the count/composition gate, then the match. */
export type AtomworldReadJudgement = Omit<AtomworldJudgement<JudgedSide>, 'answer' | 'answerCif'>;

/** `judgeAnswer`'s steps after the answer's CIF is read (a batch whose CIFs were read ahead starts here). */
export function judgeReadAnswer<S extends JudgedSide>(
  target: S,
  answer: S,
  match: (target: S, answer: S) => { fit: boolean; mapping: BestMapping | null },
): AtomworldReadJudgement {
  const base = { rmsd: null, maxDist: null, mapping: null, correct: false } as const;
  if (!countAndCompositionAgree(target, answer)) {
    return {
      ...base,
      wrongType: 'AtomCountMismatch',
      reason: `the answer has ${answer.sites} sites, the target ${target.sites}, or their compositions differ`,
    };
  }
  const { fit, mapping } = match(target, answer);
  if (!fit) {
    return { ...base, wrongType: 'StructureMismatch', reason: 'no lattice/translation/assignment brings every site within stol = 0.5' };
  }
  return {
    ...base,
    correct: mapping !== null,
    mapping,
    wrongType: mapping ? null : 'StructureMismatch',
    rmsd: mapping?.rms ?? null,
    maxDist: mapping?.maxDist ?? null,
    reason: mapping ? null : 'get_rms_dist found no match',
  };
}
