import { type Dirent, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkLimit, inputBytesProblem } from '../../core/limits.ts';
import { gzippedName, isContainerName } from '../../core/io/archive.ts';
import { entryText } from '../../core/io/archive-entries.ts';
import { gunzip } from '../../core/io/gzip.ts';
import { ParseError } from '../../core/io/types.ts';
import {
  type GenItem,
  chemeleonSets,
  isGenFolderPath,
  setFromFolder,
  setFromPt,
  setFromSetFile,
  setFromZip,
} from '../../core/tasks/generations/inputs.ts';
import { CliError } from '../errors.ts';
import { readInputText } from '../io.ts';

/** The bytes of an archive or gzipped file, within LIMITS.inputBytes. */
function readContainerBytes(path: string, size: number): Uint8Array {
  const tooBig = inputBytesProblem(path, size);
  if (tooBig) throw new CliError(tooBig);
  try {
    return readFileSync(path);
  } catch (e) {
    throw new CliError(`${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * The structure files of a folder and its subfolders, as '/'-separated paths relative to it (the ids of
 * setFromFolder, as the lab's folder picker gives them); folders starting with '.' are skipped as the picker's
 * hidden files are, and the count is held to LIMITS.fileStructures before any file is read.
 */
function folderFiles(label: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(folder, dir), { withFileTypes: true });
    } catch {
      throw new CliError(`the ${label} folder ${join(folder, dir)} cannot be read`);
    }
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      // A link is followed to what it names, as statSync does; a folder link is not walked (it may loop).
      const kind = e.isSymbolicLink() ? statKind(join(folder, rel)) : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : null;
      if (kind === 'dir' && !e.isSymbolicLink() && !e.name.startsWith('.')) walk(rel);
      else if (kind === 'file' && isGenFolderPath(rel)) {
        out.push(rel);
        checkLimit('fileStructures', `The ${label} folder ${folder}`, out.length, 'structure files');
      }
    }
  };
  walk('');
  return out;
}

const statKind = (path: string): 'file' | 'dir' | null => {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : null;
  } catch {
    return null;
  }
};

/**
 * Reads one set (`label`: prediction, truth, reference) from a folder, an .extxyz/.xyz, .jsonl or MP-20-style
 * .csv file (or Chemeleon's results.csv), or a .zip, .tar, .tar.gz/.tgz or .gz of any of these (by the ending);
 * every failure is a sentence naming the file (GenInputError or CliError).
 */
export function readGenSet(label: string, path: string): GenItem[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`${label} path ${path} does not exist`);
  }
  if (st.isDirectory()) {
    const folder = path.replace(/[\\/]+$/, '');
    const files = folderFiles(label, folder).map((name) => ({ name, text: readInputText(join(folder, name)) }));
    return setFromFolder(label, folder, files);
  }
  // A CDVAE/DiffCSP result file is a zip too, read as tensors (pt-crystals.ts).
  if (/\.pt$/i.test(path)) return setFromPt(label, path, readContainerBytes(path, st.size));
  if (isContainerName(path)) return setFromZip(label, path, readContainerBytes(path, st.size));
  const set = /\.(extxyz|xyz|jsonl|csv)$/i.test(path) ? setFromSetFile(label, path, readInputText(path)) : null;
  if (set) return set;
  throw new CliError(
    `${label} ${path} is not a folder, an .extxyz/.xyz, .jsonl or .csv file, a .zip, .tar, .tar.gz/.tgz or .gz of one of these, ` +
      'or a CDVAE/DiffCSP .pt result file',
  );
}

/**
 * `gen csp`'s sets: the predictions as readGenSet reads them and the truths from `truth`, or, without it, from the
 * prediction file when it holds both (Chemeleon's results.csv, also gzipped). `samples`: the predictions per truth
 * such a file holds (null for other inputs).
 */
export function readCspSets(pred: string, truth: string | undefined): { preds: GenItem[]; truths: GenItem[]; samples: number | null } {
  const inner = gzippedName(pred) ?? pred;
  if (/\.csv$/i.test(inner) && statKind(pred) === 'file') {
    const text = gzippedName(pred) !== null ? setTextOfGzip(pred) : readInputText(pred);
    const sets = chemeleonSets(pred, text);
    if (sets) return { preds: sets.preds, truths: truth === undefined ? sets.truths : readGenSet('truth', truth), samples: sets.samples };
  }
  // A .pt whose input_data_batch is a dict of tensors holds its truths (compute_metrics.py without --gt_file).
  if (truth === undefined && /\.pt$/i.test(pred) && statKind(pred) === 'file')
    return { preds: readGenSet('prediction', pred), truths: readGenSet('truth', pred), samples: null };
  if (truth === undefined)
    throw new CliError(
      `gen csp needs --truth (a folder or set file of true structures), unless --pred holds both (Chemeleon's results.csv)`,
    );
  return { preds: readGenSet('prediction', pred), truths: readGenSet('truth', truth), samples: null };
}

/** The text of a gzipped file, inflated within LIMITS.inputBytes. */
function setTextOfGzip(path: string): string {
  const bytes = readContainerBytes(path, statSync(path).size);
  try {
    return entryText(gunzip(bytes, path));
  } catch (e) {
    if (e instanceof ParseError) throw new CliError(e.message.replace(/\.\s*$/, ''));
    throw e;
  }
}
