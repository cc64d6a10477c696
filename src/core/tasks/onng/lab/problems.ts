/**
 * The O-NNG problem browser's pure model: the shipped NNG4 levels (Apache-2.0 metadata), the λ grid, the
 * renaming of statements into segments that remember their original names, and the exact upstream sets read
 * from a user's own O-NNG dataset folder (that repository has no licence, so none of it is shipped).
 */
import {
  obfuscateDataset,
  obfuscateIdentifiers,
  parseJsonl,
  type ChatMessage,
  type HeaderItem,
  type OnngDataset,
  type Problem,
} from '../obfuscate.ts';

export interface Nng4Level {
  world: string;
  world_title: string;
  level: number;
  file: string;
  title: string;
  statement: string;
  statement_name: string | null;
  onng_id: number | null;
  new_tactics: string[];
  new_hidden_tactics: string[];
  new_theorems: string[];
  new_definitions: string[];
  disabled_tactics: string[];
  disabled_theorems: string[];
}

/** Level k = 0…5 is λ = 0.2·k (k = 0: the original names). */
export const LEVELS = [0, 1, 2, 3, 4, 5] as const;
export const lambdaOf = (level: number) => Math.round(level * 2) / 10;

export interface WorldGroup {
  world: string;
  title: string;
  levels: Nng4Level[];
}

/** NNG4 levels grouped by world in game order; `onngOnly` keeps the levels that are O-NNG problems. */
export function groupByWorld(levels: Nng4Level[], onngOnly: boolean): WorldGroup[] {
  const groups: WorldGroup[] = [];
  for (const level of levels) {
    if (onngOnly && level.onng_id === null) continue;
    let group = groups.find((g) => g.world === level.world);
    if (!group) {
      group = { world: level.world, title: level.world_title, levels: [] };
      groups.push(group);
    }
    group.levels.push(level);
  }
  return groups;
}

/**
 * The identifiers the NNG4 metadata names: the levels' theorem names, the theorems and definitions they
 * introduce (namespace dropped) and the successor constructor that statements use. This is not O-NNG's
 * 99-name list (its header names, e.g. the instance and the `implication_*` problems, are not in NNG4).
 */
export function nng4Identifiers(levels: Nng4Level[]): string[] {
  const names = new Set<string>(['succ']);
  const identifier = /^[\p{L}_][\p{L}\p{N}_']*$/u;
  for (const level of levels) {
    if (level.statement_name) names.add(level.statement_name);
    for (const full of [...level.new_theorems, ...level.new_definitions]) {
      const short = full.split('.').pop()!;
      if (identifier.test(short)) names.add(short);
    }
  }
  return [...names];
}

/** The renaming at level k for the NNG4 names: core's consistent one-pass obfuscation (same RNG, seed k, λ). */
export function nng4Mapping(levels: Nng4Level[], level: number): Map<string, string> {
  if (level === 0) return new Map();
  return obfuscateIdentifiers(nng4Identifiers(levels), level).mapping;
}

export interface Segment {
  text: string;
  original?: string;
}

const IDENTIFIER_RUN = /[\p{L}\p{N}_']+/gu;

/** Splits text into identifier runs and the rest, renaming runs found in `mapping` (they keep their original). */
export function renameSegments(text: string, mapping: Map<string, string>): Segment[] {
  return splitRuns(text, (run) => {
    const renamed = mapping.get(run);
    return renamed !== undefined && renamed !== run ? { text: renamed, original: run } : null;
  });
}

/** Marks the identifier runs of obfuscated text that the inverse mapping knows (obfuscated → original). */
export function deobfuscatedSegments(text: string, inverse: Map<string, string>): Segment[] {
  return splitRuns(text, (run) => {
    const original = inverse.get(run);
    return original !== undefined && original !== run ? { text: run, original } : null;
  });
}

function splitRuns(text: string, mark: (run: string) => Segment | null): Segment[] {
  const out: Segment[] = [];
  let plain = '';
  let last = 0;
  for (const m of text.matchAll(IDENTIFIER_RUN)) {
    const segment = mark(m[0]);
    if (!segment) continue;
    plain += text.slice(last, m.index);
    if (plain) out.push({ text: plain });
    plain = '';
    out.push(segment);
    last = m.index! + m[0].length;
  }
  plain += text.slice(last);
  if (plain) out.push({ text: plain });
  return out;
}

// ---- The exact upstream sets, from a user's own O-NNG dataset folder ----

export interface ExactLevel {
  level: number;
  dataset: OnngDataset;
  /** original → obfuscated (empty at level 0). */
  mapping: Map<string, string>;
  inverse: Map<string, string>;
  /** 'file': read from obfuscated_k/; 'computed': the bit-exact port run on original/ in the browser. */
  source: 'file' | 'computed' | 'original';
}

export interface ExactSets {
  folder: string;
  levels: ExactLevel[];
}

export interface FolderFile {
  path: string;
  text: string;
}

function fileIn(files: FolderFile[], set: string, name: string): FolderFile | undefined {
  return files.find((f) => f.path.replace(/\\/g, '/').endsWith(`${set}/${name}`));
}

function inverseOf(mapping: Map<string, string>): Map<string, string> {
  return new Map([...mapping].map(([from, to]) => [to, from]));
}

/**
 * Reads an O-NNG dataset folder (its `original/` set, and any `obfuscated_K/` sets present). Levels the
 * folder lacks are computed from `original/` with the exact port (obfuscate.ts). Errors name the file.
 */
export function exactSetsFromFolder(files: FolderFile[]): ExactSets {
  const theorems = fileIn(files, 'original', 'theorems.jsonl');
  const header = fileIn(files, 'original', 'header_definitions.jsonl');
  if (!theorems || !header) {
    throw new Error(
      'This folder has no original/theorems.jsonl and original/header_definitions.jsonl: choose the O-NNG "dataset" folder (or ' +
        'the repository folder that contains it).',
    );
  }
  const folder = theorems.path.replace(/\\/g, '/').split('/')[0] ?? '';
  const queriesFile = fileIn(files, 'original', 'queries.jsonl');
  const original: OnngDataset = {
    header: parseJsonl<HeaderItem>(header.text, header.path),
    problems: parseJsonl<Problem>(theorems.text, theorems.path),
    ...(queriesFile ? { queries: parseJsonl<ChatMessage[]>(queriesFile.text, queriesFile.path) } : {}),
  };
  if (original.problems.length === 0) throw new Error(`${theorems.path} holds no problems.`);
  const levels: ExactLevel[] = [{ level: 0, dataset: original, mapping: new Map(), inverse: new Map(), source: 'original' }];
  for (let k = 1; k <= 5; k++) {
    const set = `obfuscated_${k}`;
    const t = fileIn(files, set, 'theorems.jsonl');
    const h = fileIn(files, set, 'header_definitions.jsonl');
    const m = fileIn(files, set, 'name_mapping.json');
    if (t && h && m) {
      let mappingObject: Record<string, string>;
      try {
        mappingObject = JSON.parse(m.text);
      } catch {
        throw new Error(`${m.path} is not valid JSON.`);
      }
      if (
        typeof mappingObject !== 'object' ||
        mappingObject === null ||
        Array.isArray(mappingObject) ||
        !Object.values(mappingObject).every((v) => typeof v === 'string')
      ) {
        throw new Error(`${m.path} must be one JSON object of original → obfuscated names (strings).`);
      }
      const q = fileIn(files, set, 'queries.jsonl');
      const mapping = new Map(Object.entries(mappingObject));
      levels.push({
        level: k,
        dataset: {
          header: parseJsonl<HeaderItem>(h.text, h.path),
          problems: parseJsonl<Problem>(t.text, t.path),
          ...(q ? { queries: parseJsonl<ChatMessage[]>(q.text, q.path) } : {}),
        },
        mapping,
        inverse: inverseOf(mapping),
        source: 'file',
      });
    } else {
      const result = obfuscateDataset(original, k);
      levels.push({ level: k, dataset: result.dataset, mapping: result.mapping, inverse: inverseOf(result.mapping), source: 'computed' });
    }
  }
  return { folder, levels };
}
