/**
 * The containers a page's structure input opens (src/browser/read-file.ts): one file from a pick (Nanoparticle,
 * Compare, AtomWorld) and several in natural order (Compare's folders).
 */
import { gzipSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { filePath, openContainersInOrder, openOneContainer } from '../../src/browser/read-file.ts';

const CIF = 'data_x\n_cell_length_a 4\n';

describe('openOneContainer', () => {
  it('returns a plain file as the same File', async () => {
    const plain = new File([CIF], 'x.cif');
    expect(await openOneContainer(plain)).toBe(plain);
  });

  it('opens x.cif.gz as x.cif and an archive of one file as that file', async () => {
    const gz = await openOneContainer(new File([gzipSync(strToU8(CIF))], 'x.cif.gz'));
    expect([gz.name, await gz.text()]).toEqual(['x.cif', CIF]);
    const zip = zipSync({ 'dir/y.cif': strToU8(CIF), '__MACOSX/._y.cif': strToU8('x') });
    const one = await openOneContainer(new File([zip], 'one.zip'));
    expect([one.name, filePath(one), await one.text()]).toEqual(['y.cif', 'one.zip/dir/y.cif', CIF]);
  });

  it('refuses an archive of several files or of none with one sentence naming it', async () => {
    const two = new File([zipSync({ 'a.cif': strToU8(CIF), 'b.cif': strToU8(CIF) })], 'two.zip');
    await expect(openOneContainer(two)).rejects.toThrow(/^two\.zip holds 2 files, but this input takes one structure file\.$/);
    const none = new File([zipSync({ '.hidden.cif': strToU8(CIF) })], 'none.zip');
    await expect(openOneContainer(none)).rejects.toThrow(/^none\.zip holds no files, but this input takes one structure file\.$/);
  });
});

describe('openContainersInOrder', () => {
  it("gives each archive's files in natural order and passes plain files unchanged, in place", async () => {
    const zip = zipSync({ 'p/x10.cif': strToU8(CIF), 'p/x2.cif': strToU8(CIF), 'p/x1.cif': strToU8(CIF) });
    const plain = new File([CIF], 'z.cif');
    const files = await openContainersInOrder([plain, new File([zip], 'preds.zip'), new File([gzipSync(strToU8(CIF))], 'w.cif.gz')]);
    expect(files.map(filePath)).toEqual(['z.cif', 'preds.zip/p/x1.cif', 'preds.zip/p/x2.cif', 'preds.zip/p/x10.cif', 'w.cif']);
    expect(files[0]).toBe(plain);
  });
});
