/**
 * The Generations page's inputs without a browser: a picked .zip is read as bytes, after the same size check as
 * every file input (src/browser/read-file.ts), and is told from the other inputs by its name.
 */
import { describe, expect, it } from 'vitest';
import { InputSizeError, readBytesFile } from '../../src/browser/read-file.ts';
import { isZipName } from '../../src/state/generations.ts';

describe('Generations page inputs', () => {
  it('reads a zip as bytes; one over the limit is refused before a byte is read', async () => {
    const f = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'preds.zip');
    expect([...new Uint8Array(await readBytesFile(f))]).toEqual([0x50, 0x4b, 3, 4]);
    let reads = 0;
    const big = new File([new Uint8Array(8)], 'big.zip');
    big.arrayBuffer = () => {
      reads++;
      return Promise.resolve(new ArrayBuffer(0));
    };
    await expect(readBytesFile(big, 4)).rejects.toBeInstanceOf(InputSizeError);
    await expect(readBytesFile(big, 4)).rejects.toThrow(/big\.zip/);
    expect(reads).toBe(0);
  });

  it('tells a zip by its name', () => {
    expect(isZipName('preds.zip')).toBe(true);
    expect(isZipName('PREDS.ZIP')).toBe(true);
    expect(isZipName('.zip')).toBe(false);
    expect(isZipName('preds.zip.cif')).toBe(false);
    expect(isZipName('mp20.csv')).toBe(false);
  });
});
