/**
 * droppedFiles (src/browser/read-file.ts): a dropped folder is walked to its files, in readEntries batches,
 * nested folders included, each file carrying its path inside the drop as the folder picker gives it.
 */
import { describe, expect, it } from 'vitest';
import { droppedFiles, filePath } from '../../src/browser/read-file.ts';

type Entry = { isFile: boolean; isDirectory: boolean; name: string } & Record<string, unknown>;

const fileEntry = (name: string, text: string): Entry => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok: (f: File) => void) => ok(new File([text], name)),
});

/** A folder whose reader hands its children out two at a time, then an empty batch (as browsers do). */
const folderEntry = (name: string, children: Entry[]): Entry => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader: () => {
    let at = 0;
    return {
      readEntries: (ok: (batch: Entry[]) => void) => {
        const batch = children.slice(at, at + 2);
        at += batch.length;
        ok(batch);
      },
    };
  },
});

const drop = (entries: Entry[], files: File[] = []) =>
  ({ items: entries.map((e) => ({ webkitGetAsEntry: () => e })), files }) as unknown as DataTransfer;

describe('droppedFiles', () => {
  it('walks a dropped folder, nested folders and batches included, keeping each path', async () => {
    const tree = folderEntry('pred', [
      fileEntry('a.cif', 'A'),
      fileEntry('b.cif', 'B'),
      folderEntry('more', [fileEntry('c.cif', 'C'), fileEntry('d.cif', 'D'), fileEntry('e.cif', 'E')]),
    ]);
    const files = await droppedFiles(drop([tree]));
    expect(files.map(filePath)).toEqual(['pred/a.cif', 'pred/b.cif', 'pred/more/c.cif', 'pred/more/d.cif', 'pred/more/e.cif']);
    expect(await Promise.all(files.map((f) => f.text()))).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('returns the dropped files themselves when no folder is among them', async () => {
    const plain = [new File(['x'], 'one.cif'), new File(['y'], 'two.cif')];
    const files = await droppedFiles(drop([fileEntry('one.cif', 'x'), fileEntry('two.cif', 'y')], plain));
    expect(files).toEqual(plain);
    expect(files.map(filePath)).toEqual(['one.cif', 'two.cif']);
  });

  it('keeps a file dropped beside a folder under its own name', async () => {
    const files = await droppedFiles(drop([fileEntry('truth.jsonl', '{}'), folderEntry('pred', [fileEntry('a.cif', 'A')])]));
    expect(files.map(filePath)).toEqual(['truth.jsonl', 'pred/a.cif']);
  });
});
