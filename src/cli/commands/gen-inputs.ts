import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inputBytesProblem } from '../../core/limits.ts';
import { type GenItem, isGenFolderFileName, setFromFolder, setFromSetFile, setFromZip } from '../../core/tasks/generations/inputs.ts';
import { CliError } from '../errors.ts';
import { readInputText } from '../io.ts';

/** The bytes of a zip file, within LIMITS.inputBytes. */
function readZipBytes(path: string, size: number): Uint8Array {
  const tooBig = inputBytesProblem(path, size);
  if (tooBig) throw new CliError(tooBig);
  try {
    return readFileSync(path);
  } catch (e) {
    throw new CliError(`${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/**
 * Reads one set (`label`: prediction, truth, reference) from a folder, an .extxyz/.xyz, .jsonl or MP-20-style
 * .csv file, or a .zip of any of these (by the ending); every failure is a sentence naming the file (GenInputError
 * or CliError).
 */
export function readGenSet(label: string, path: string): GenItem[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`${label} path ${path} does not exist`);
  }
  if (st.isDirectory()) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      throw new CliError(`the ${label} folder ${path} cannot be read`);
    }
    const files = names
      .filter((name) => isGenFolderFileName(name))
      .filter((name) => {
        try {
          return statSync(join(path, name)).isFile();
        } catch {
          return false;
        }
      })
      .map((name) => ({ name, text: readInputText(join(path, name)) }));
    return setFromFolder(label, path.replace(/[\\/]+$/, ''), files);
  }
  if (path.toLowerCase().endsWith('.zip')) return setFromZip(label, path, readZipBytes(path, st.size));
  const set = /\.(extxyz|xyz|jsonl|csv)$/i.test(path) ? setFromSetFile(label, path, readInputText(path)) : null;
  if (set) return set;
  throw new CliError(`${label} ${path} is not a folder, an .extxyz/.xyz, .jsonl or .csv file, or a .zip of one of these`);
}
