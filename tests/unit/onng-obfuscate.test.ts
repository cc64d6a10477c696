import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_NAME_POOL, SHORT_NAME_POOL, nlpaugTokenize } from '../../src/core/tasks/onng/augment.ts';
import {
  buildRawMapping,
  datasetFiles,
  deobfuscateText,
  obfuscateDataset,
  obfuscateIdentifiers,
  obfuscationLevel,
  renamableNames,
} from '../../src/core/tasks/onng/obfuscate.ts';
import { ONNG_FIXTURES, loadOnngSet } from '../onng-fixtures.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

// The fixture problem set written for this project (tests/reference/onng/README.md); its obfuscated_1..5 are the
// port's stored outputs. The published O-NNG sets are checked by `npm run test:reference`.
const DATASETS = join(ONNG_FIXTURES, 'dataset');
const read = (dir: string, file: string) => readFileSync(join(DATASETS, dir, file), 'utf8');

describe('O-NNG obfuscation', () => {
  const original = loadOnngSet(DATASETS);

  it('has the character pools of the spec and the fixture’s 35 renamable names, code-point sorted', () => {
    expect(LONG_NAME_POOL.length).toBe(113);
    expect(SHORT_NAME_POOL.length).toBe(103);
    const names = renamableNames(original);
    expect(names.length).toBe(35); // 23 header items and 12 problems, none reserved
    expect(names[0]).toBe('Tally'); // upper case sorts before lower case, as Python's sorted()
    expect(names).toContain("join_tick'");
  });

  it('tokenises like nlpaug (Python Unicode \\W split, apostrophe is its own token)', () => {
    expect(nlpaugTokenize("abαℕ_c'de fg")).toEqual(['abαℕ_c', "'", 'de', 'fg']);
  });

  it('computes P = λ^2.5 equal to CPython for every level', () => {
    // python3 -c "print([(0.2*k)**2.5 for k in range(1,6)])" (CPython 3.11.7)
    const expected = [0.01788854381999832, 0.10119288512538815, 0.2788548009269341, 0.5724334022399462, 1.0];
    expect([1, 2, 3, 4, 5].map((k) => obfuscationLevel(k).probability)).toEqual(expected);
  });

  for (const level of [1, 2, 3, 4, 5]) {
    it(`level ${level} reproduces the stored name_mapping.json and every dataset file byte for byte, deterministically`, () => {
      const result = obfuscateDataset(original, level);
      const golden = JSON.parse(read(`obfuscated_${level}`, 'name_mapping.json')) as Record<string, string>;
      expect(Object.fromEntries(result.mapping)).toEqual(golden);
      const files = datasetFiles(result);
      for (const file of ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json']) {
        expect(files[file] === read(`obfuscated_${level}`, file), `${file} differs`).toBe(true);
      }
      expect(datasetFiles(obfuscateDataset(original, level))).toEqual(files);
      // At λ = 1 (P = 1) every name, short ones included, is redrawn.
      if (level === 5) for (const [from, to] of result.mapping) expect(to, from).not.toBe(from);
    });
  }

  it('patches a declared name that a cascade changed (levels 2 and 3), as upstream re-reads the declarations', () => {
    // The patch step only acts where renaming a longer name's text lets a shorter rule apply inside it again.
    const patched = (level: number) => {
      const raw = buildRawMapping(renamableNames(original), obfuscationLevel(level));
      return [...obfuscateDataset(original, level).mapping].filter(([from, to]) => raw.get(from) !== to).map(([from]) => from);
    };
    expect([1, 2, 3, 4, 5].map(patched)).toEqual([[], ['tick_ne_nil'], ['lq_iff'], [], []]);
  });

  it('keeps a name with an apostrophe apart from its prefix (join_tick′ vs join_tick)', () => {
    const { mapping } = obfuscateDataset(original, 2);
    expect(mapping.get("join_tick'")).not.toBe(`${mapping.get('join_tick')}'`);
    expect(read('obfuscated_2', 'theorems.jsonl')).toContain(`theorem ${mapping.get("join_tick'")} (x y : ${mapping.get('Tally')})`);
  });

  for (const level of [1, 3, 5]) {
    it(`de-obfuscates every renamed statement and proof back to the original (level ${level})`, () => {
      const result = obfuscateDataset(original, level);
      result.dataset.problems.forEach((problem, i) => {
        expect(problem.statement).not.toBe(original.problems[i].statement);
        expect(deobfuscateText(problem.statement, result.mapping)).toBe(original.problems[i].statement);
        expect(deobfuscateText(problem.proof, result.mapping)).toBe(original.problems[i].proof);
      });
    });
  }

  it('renames FEM-Bench function and parameter names consistently, and restores them exactly', () => {
    const dir = join(REFERENCE, 'golden', 'fembench');
    const signatures = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map(
        (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { signature: { name: string; params: { name: string }[] } }).signature,
      );
    const identifiers = signatures.flatMap((s) => [s.name, ...s.params.map((p) => p.name)]);
    for (const level of [1, 5]) {
      const { mapping, inverse, rename, restore } = obfuscateIdentifiers(identifiers, level);
      expect(mapping.size).toBe(new Set(identifiers).size);
      expect(inverse.size).toBe(mapping.size); // one-to-one
      // At least one edit for every long name (nlpaug's minimum of one substitution, insertion and deletion).
      for (const [from, to] of mapping) if (from.length >= 4) expect(to).not.toBe(from);
      for (const s of signatures) {
        const text = `def ${s.name}(${s.params.map((p) => p.name).join(', ')}):\n    return ${s.params.map((p) => p.name).join(' + ')}`;
        const renamed = rename(text);
        expect(renamed).not.toMatch(new RegExp(`\\b${s.name}\\b`));
        expect(restore(renamed)).toBe(text);
      }
      expect(obfuscateIdentifiers(identifiers, level).mapping).toEqual(mapping); // deterministic per level
    }
  });

  it('renames AtomWorld action words in prompts and restores them', () => {
    const cases = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; prompt: string });
    const actions = [...new Set(cases.map((c) => c.action))];
    const { mapping, rename, restore } = obfuscateIdentifiers(actions, 4);
    for (const c of cases.slice(0, 40)) {
      const text = `action=${c.action}; ${c.prompt}`;
      expect(rename(text)).toContain(`action=${mapping.get(c.action)};`);
      expect(restore(rename(text))).toBe(text);
    }
  });
});
