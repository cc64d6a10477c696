/**
 * Batch AtomWorld evaluation: one verdict per case (atomworld.md §6, the benchmark's exception →
 * "Unknown"), and the per-action summary the paper reports (success rate, mean max_dist over
 * successful cases, error counts).
 */
import { evaluateAtomworldAnswer } from './evaluate.ts';

export interface AtomworldJob {
  id: string;
  action: string;
  targetCif: string;
  /** The raw model answer (null when the answers file has no row for the case). */
  answer: string | null;
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

/** Judges one case; an exception inside the evaluator is the benchmark's "Unknown" error class. */
export function judgeAtomworldJob(job: AtomworldJob): AtomworldCaseVerdict {
  const base = { id: job.id, action: job.action };
  if (job.answer === null) return { ...base, correct: false, wrong_type: 'OutputFormatError', rmsd: null, max_dist: null };
  try {
    const e = evaluateAtomworldAnswer(job.targetCif, job.answer);
    return { ...base, correct: e.correct, wrong_type: e.wrongType, rmsd: e.rmsd, max_dist: e.maxDist };
  } catch {
    return { ...base, correct: false, wrong_type: 'Unknown', rmsd: null, max_dist: null };
  }
}

/** Per-action summary, actions in order of first appearance. */
export function summariseAtomworld(verdicts: readonly AtomworldCaseVerdict[]): Record<string, AtomworldActionSummary> {
  const out: Record<string, AtomworldActionSummary> = {};
  const maxDists: Record<string, number[]> = {};
  for (const v of verdicts) {
    const s = (out[v.action] ??= { n: 0, success_rate: 0, mean_max_dist: null, errors: {} });
    s.n++;
    if (v.correct) {
      s.success_rate++;
      if (v.max_dist !== null) (maxDists[v.action] ??= []).push(v.max_dist);
    } else {
      const type = v.wrong_type ?? 'Unknown';
      s.errors[type] = (s.errors[type] ?? 0) + 1;
    }
  }
  for (const [action, s] of Object.entries(out)) {
    s.success_rate /= s.n;
    const d = maxDists[action];
    s.mean_max_dist = d && d.length ? d.reduce((a, b) => a + b, 0) / d.length : null;
  }
  return out;
}
