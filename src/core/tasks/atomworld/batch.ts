/**
 * Batch AtomWorld evaluation: one verdict per case (AtomWorldBench src/evaluation/evaluator.py: the benchmark's exception →
 * "Unknown"), and the per-action summary the paper reports (success rate, mean max_dist over
 * successful cases, error counts).
 */
import { LimitError, limitsRevision, quoted } from '../../limits.ts';
import type { Structure } from '../../structure/structure.ts';
import { type MatcherSide, matcherFitAndBestMapping, matcherSide, matcherSidesFitAndBestMapping } from '../../match/structure-matcher.ts';
import {
  ATOMWORLD_MATCHER,
  type JudgedSide,
  compositionDict,
  countAndCompositionAgree,
  extractLastCif,
  judgeAnswer,
  judgeReadAnswer,
  type AtomworldReadJudgement,
  structureSide,
} from './evaluate.ts';
import { parseCifStrict } from './strict-cif.ts';

/** The refusal of a cases file that gives one case id twice (`structlab atomworld eval` and the page alike). */
export const duplicateCaseSentence = (file: string, id: string, first: number, again: number): string =>
  `${file} line ${again}: case id ${quoted(id)} was already given on line ${first}; answers are paired with cases by id, ` +
  'so each id may appear once';

export interface AtomworldJob {
  id: string;
  action: string;
  targetCif: string;
  /** The raw model answer (null when the answers file has no row for the case). */
  answer: string | null;
  /** The target's and the answer's CIF as the thread that made the job read them (`readJobAhead`). */
  read?: { target: ReadAheadCif | null; answer: ReadAheadCif | null };
}

/**
 * A job whose CIFs were read ahead with all that judging them needs (`readJobAhead`): both read, and either their
 * counts or compositions differ or both cells are reduced for the matcher. It goes without the texts, which the
 * judging thread would not look at: they were two thirds of the time a thread spent taking a job off its message.
 */
export interface AtomworldReadJob {
  id: string;
  action: string;
  read: { target: ReadAheadCif; answer: ReadAheadCif };
}

/**
 * A job's CIF read ahead by the thread that made the job (the CLI's main thread, while a worker judges the jobs
 * before it): what the evaluator and the matcher need of it, in plain data that a message carries. `matcher` is there
 * when the pair gets as far as the matcher and the structure could be reduced; null (or absent, or no ReadAheadCif at
 * all) where reading or reducing failed, and the judging thread then reads the CIF itself, meeting the same error at
 * the same step. So a verdict never depends on which thread read what.
 */
export interface ReadAheadCif {
  sites: number;
  composition: Map<string, number>;
  matcher?: MatcherSide | null;
}

export interface AtomworldCaseVerdict {
  id: string;
  action: string;
  correct: boolean;
  wrong_type: string | null;
  rmsd: number | null;
  max_dist: number | null;
}

export interface AtomworldActionSummary {
  n: number;
  success_rate: number;
  mean_max_dist: number | null;
  errors: Record<string, number>;
}

/**
 * What was made of CIF texts already read (targets and answers alike), by text, oldest first: a batch often judges
 * several answers against one target (sampled answers per case, the oracle's candidates), and answers repeat (an
 * unchanged input, the same edit sampled twice: 299 distinct answers among the oracle's 437). Reading a CIF was a third
 * of judging a small case. Bounded in entries and in text held, and emptied when the limits change (a CIF read under
 * raised limits may be refused under others). What is kept is shared, and only read.
 */
class KeptByText<T> {
  private readonly kept = new Map<string, T>();
  private text = 0;
  private limits = -1;

  /** The value kept for `cif`, or `make`'s, then kept; what `make` throws is not kept (it fails again, alike). */
  get(cif: string, make: () => T): T {
    const limits = limitsRevision();
    if (limits !== this.limits) {
      this.kept.clear();
      this.text = 0;
      this.limits = limits;
    }
    const hit = this.kept.get(cif);
    if (hit !== undefined) return hit;
    const value = make();
    if (cif.length <= CIF_TEXT_KEPT / 4) {
      for (const old of this.kept.keys()) {
        if (this.kept.size < CIFS_KEPT && this.text + cif.length <= CIF_TEXT_KEPT) break;
        this.kept.delete(old);
        this.text -= old.length;
      }
      this.kept.set(cif, value);
      this.text += cif.length;
    }
    return value;
  }
}
const CIFS_KEPT = 64;
const CIF_TEXT_KEPT = 1 << 22;

/** The structures the judging thread read (`keptSide`). */
const readCifs = new KeptByText<Structure>();
const readCifKept = (cif: string): Structure => readCifs.get(cif, () => parseCifStrict(cif));

/** Judges one case; an exception inside the evaluator is the benchmark's "Unknown" error class. */
export function judgeAtomworldJob(job: AtomworldJob | AtomworldReadJob): AtomworldCaseVerdict {
  const base = { id: job.id, action: job.action };
  if (!('targetCif' in job))
    return judged(base, () => judgeReadAnswer(aheadSide(job.read.target, null), aheadSide(job.read.answer, null), matchSides));
  const answerText = job.answer;
  if (answerText === null) return { ...base, correct: false, wrong_type: 'OutputFormatError', rmsd: null, max_dist: null };
  const read = job.read;
  return judged(base, () => {
    const target = read?.target ? aheadSide(read.target, job.targetCif) : keptSide(job.targetCif);
    return judgeAnswer(target, answerText, (cif) => (read?.answer ? aheadSide(read.answer, cif) : keptSide(cif)), matchSides);
  });
}

/** A case's verdict from the evaluator's judgement of it. */
function judged(base: { id: string; action: string }, judge: () => AtomworldReadJudgement): AtomworldCaseVerdict {
  try {
    const e = judge();
    return { ...base, correct: e.correct, wrong_type: e.wrongType, rmsd: e.rmsd, max_dist: e.maxDist };
  } catch (e) {
    // A refusal of the resource policy is ours, not the benchmark's "Unknown": it gets its own class.
    return { ...base, correct: false, wrong_type: e instanceof LimitError ? 'ResourceLimit' : 'Unknown', rmsd: null, max_dist: null };
  }
}

const judgedSide = (read: ReadAheadCif): JudgedSide => ({ sites: read.sites, composition: () => read.composition });

/**
 * A side of a job's pair in the judging thread: read ahead (`ReadAheadCif`), or from the CIF here. `structure` is
 * null for a side of an AtomworldReadJob (no CIF), which has its matcher side whenever the pair is matched.
 */
interface BatchSide extends JudgedSide {
  matcher: MatcherSide | null;
  structure: (() => Structure) | null;
}

function keptSide(cif: string): BatchSide {
  const s = readCifKept(cif);
  return { ...structureSide(s), matcher: null, structure: () => s };
}

const aheadSide = (read: ReadAheadCif, cif: string | null): BatchSide => ({
  ...judgedSide(read),
  matcher: read.matcher ?? null,
  structure: cif === null ? null : () => readCifKept(cif),
});

const structureOf = (side: BatchSide): Structure => {
  if (!side.structure) throw new Error('a job read ahead reached the matcher without its reduced cells');
  return side.structure();
};

const matchSides = (target: BatchSide, answer: BatchSide) =>
  target.matcher && answer.matcher
    ? matcherSidesFitAndBestMapping(target.matcher, answer.matcher, ATOMWORLD_MATCHER)
    : matcherFitAndBestMapping(structureOf(target), structureOf(answer), ATOMWORLD_MATCHER);

/**
 * A CIF read ahead, and its structure until its matcher side is settled (`reduceAhead`): then only what is sent is
 * kept, and the structure, read moments before, is garbage while still young (kept, every structure read ahead was
 * copied by two young-generation collections and then held in the old one).
 */
interface AheadCif {
  read: ReadAheadCif;
  structure: Structure | null;
}

/** What the thread that reads ahead made of each CIF text; null where reading failed (the judging thread reads it). */
const aheadCifs = new KeptByText<AheadCif | null>();

function readAhead(cif: string): AheadCif | null {
  return aheadCifs.get(cif, () => {
    let structure: Structure;
    try {
      structure = parseCifStrict(cif);
    } catch {
      return null; // the judging thread reads it and reports the error
    }
    return { read: { sites: structure.sites.length, composition: compositionDict(structure) }, structure };
  });
}

function reduceAhead(side: AheadCif, what: string): void {
  if (side.read.matcher !== undefined || !side.structure) return;
  try {
    side.read.matcher = matcherSide(side.structure, ATOMWORLD_MATCHER, what);
  } catch {
    side.read.matcher = null; // the judging thread reduces it and reports the error
  }
  side.structure = null;
}

/** What the count and composition gate needs of a side, without the reduced cell it does not look at. */
const gateSide = (read: ReadAheadCif): ReadAheadCif => ({ sites: read.sites, composition: read.composition });

/**
 * Reads a job's CIFs ahead (`ReadAheadCif`), in the thread that makes the jobs while another judges earlier ones:
 * reading a CIF and reducing its cell was about half of judging a small case. What was read is kept by text
 * (KeptByText), so a target shared by several jobs is read and reduced once. Answers the job to send: an
 * AtomworldReadJob when all that judging needs was read, otherwise `job` with what was (`job.read`).
 */
export function readJobAhead(job: AtomworldJob): AtomworldJob | AtomworldReadJob {
  if (job.answer === null) return job; // judged without reading anything
  const target = readAhead(job.targetCif);
  const cif = extractLastCif(job.answer);
  const answer = cif === null ? null : readAhead(cif);
  const partly = (): AtomworldJob => {
    job.read = { target: target?.read ?? null, answer: answer?.read ?? null };
    return job;
  };
  if (!target || !answer) return partly();
  if (!countAndCompositionAgree(judgedSide(target.read), judgedSide(answer.read)))
    return { id: job.id, action: job.action, read: { target: gateSide(target.read), answer: gateSide(answer.read) } };
  reduceAhead(target, 'the first structure');
  reduceAhead(answer, 'the second structure');
  if (!target.read.matcher || !answer.read.matcher) return partly();
  return { id: job.id, action: job.action, read: { target: target.read, answer: answer.read } };
}

/**
 * Per-action summary, actions in order of first appearance. Action names and error classes come from
 * files, so the tallies are Maps and the result objects have no prototype: an action called "__proto__"
 * or "constructor" is a key like any other (JSON.stringify and Object.entries see it as an own key).
 */
export function summariseAtomworld(verdicts: readonly AtomworldCaseVerdict[]): Record<string, AtomworldActionSummary> {
  const byAction = new Map<string, { summary: AtomworldActionSummary; errors: Map<string, number>; maxDists: number[] }>();
  for (const v of verdicts) {
    let entry = byAction.get(v.action);
    if (!entry) {
      entry = { summary: { n: 0, success_rate: 0, mean_max_dist: null, errors: Object.create(null) }, errors: new Map(), maxDists: [] };
      byAction.set(v.action, entry);
    }
    entry.summary.n++;
    if (v.correct) {
      entry.summary.success_rate++;
      if (v.max_dist !== null) entry.maxDists.push(v.max_dist);
    } else {
      const type = v.wrong_type ?? 'Unknown';
      entry.errors.set(type, (entry.errors.get(type) ?? 0) + 1);
    }
  }
  const out: Record<string, AtomworldActionSummary> = Object.create(null);
  for (const [action, { summary, errors, maxDists }] of byAction) {
    summary.success_rate /= summary.n;
    summary.mean_max_dist = maxDists.length ? maxDists.reduce((a, b) => a + b, 0) / maxDists.length : null;
    for (const [type, k] of errors) summary.errors[type] = k;
    out[action] = summary;
  }
  return out;
}
