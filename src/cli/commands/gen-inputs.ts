import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type GenItem, isGenFolderFileName, setFromExtxyz, setFromFolder, setFromJsonl } from '../../core/tasks/generations/inputs.ts';
import { CliError } from '../errors.ts';
import { readInputText } from '../io.ts';

/**
 * Reads one set (`label`: prediction, truth, reference) from a folder, an .extxyz/.xyz file or a .jsonl
 * file; every failure is a sentence naming the file (GenInputError or CliError).
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
  const lower = path.toLowerCase();
  if (lower.endsWith('.extxyz') || lower.endsWith('.xyz')) return setFromExtxyz(label, path, readInputText(path));
  if (lower.endsWith('.jsonl')) return setFromJsonl(label, path, readInputText(path));
  throw new CliError(`${label} ${path} is not a folder, an .extxyz/.xyz file or a .jsonl file`);
}
