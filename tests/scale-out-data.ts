/**
 * Batches on "shared storage" for the scale-out tests (tests/unit/scale-out.test.ts runs docs/scale-out's scripts in
 * a shell loop, tests/slurm/ on a real Slurm): a C2NP split in the folder layout the scripts read, and an AtomWorld
 * batch of cases and answers.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE } from '../scripts/support/paths.ts';

type Particle = { symbols: string[]; coords: number[][] };
const xyz = (p: Particle) => `${p.symbols.length}\n\n${p.symbols.map((s, i) => `${s} ${p.coords[i].join(' ')}`).join('\n')}\n`;

/**
 * The golden C2NP metric cases (tests/reference/golden/c2np) as root/predictions and root/ground_truth, `copies`
 * times over (copy c under material folder Mat, Mat1, …): 11 × copies rows. Returns the row count.
 */
export function writeC2npSplit(root: string, copies = 1): number {
  const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8')) as {
    cases: { pred: Particle; gt: Particle }[];
  };
  for (let c = 0; c < copies; c++)
    golden.cases.forEach((pair, k) => {
      const rel = join(c === 0 ? 'Mat' : `Mat${c}`, `R${6 + (k % 3)}`, 'xyz', `rot_${k}.xyz`);
      for (const [side, p] of [
        ['predictions', pair.pred],
        ['ground_truth', pair.gt],
      ] as const) {
        mkdirSync(join(root, side, rel, '..'), { recursive: true });
        writeFileSync(join(root, side, rel), xyz(p));
      }
    });
  return golden.cases.length * copies;
}

/** The `--pred` and `--truth` options of `c2np eval` on a split that writeC2npSplit wrote under `root`. */
export const c2npSplitOptions = (root: string): string[] => ['--pred', join(root, 'predictions'), '--truth', join(root, 'ground_truth')];

/**
 * AtomWorld's 437 oracle pairs (tests/reference/golden/atomworld/eval_oracle.jsonl) as root/cases.jsonl (the target
 * as after_cif) and root/answers.jsonl (the candidate inside <cif> tags), the first `limit` of them. Returns the count.
 */
export function writeAtomworldBatch(root: string, limit = Infinity): number {
  const oracle = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'eval_oracle.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, limit)
    .map((l) => JSON.parse(l) as { case_id: string; action: string; target_cif: string; candidate_cif: string });
  const id = (k: number) => `${oracle[k].case_id}#${k}`;
  mkdirSync(root, { recursive: true });
  const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(join(root, 'cases.jsonl'), lines(oracle.map((o, k) => ({ id: id(k), action: o.action, after_cif: o.target_cif }))));
  writeFileSync(join(root, 'answers.jsonl'), lines(oracle.map((o, k) => ({ id: id(k), answer: `<cif>\n${o.candidate_cif}\n</cif>` }))));
  return oracle.length;
}
