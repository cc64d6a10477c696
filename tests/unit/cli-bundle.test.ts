/**
 * When bin/structlab.mjs runs the CLI bundle and when it compiles the sources instead (bin/cli-bundle.mjs): the
 * bundle is current while no source file it was built from (the list the build writes) is newer than it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleIsFresh, CLI_INPUTS, CLI_ROOT } from '../../bin/cli-bundle.mjs';

describe('bundleIsFresh', () => {
  let root = '';
  const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
    mkdirSync(join(root, 'src', 'core'), { recursive: true });
    mkdirSync(join(root, '.cli-build'));
    for (const f of ['src/cli.ts', 'src/core/a.ts', 'src/page.tsx', '.cli-build/structlab.mjs']) writeFileSync(join(root, f), '');
    writeFileSync(join(root, CLI_INPUTS), JSON.stringify(['src/cli.ts', 'src/core/a.ts']));
    for (const f of ['src/cli.ts', 'src/core/a.ts', 'src/page.tsx']) at(f, 1_000);
    at('.cli-build/structlab.mjs', 2_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is current while every input is older than the bundle; a file it was not built from does not count', () => {
    expect(bundleIsFresh(root)).toBe(true);
    at('src/page.tsx', 3_000);
    expect(bundleIsFresh(root)).toBe(true);
  });

  it('is stale once an input is as new as the bundle or newer, or gone', () => {
    at('src/core/a.ts', 2_000);
    expect(bundleIsFresh(root)).toBe(false);
    at('src/core/a.ts', 1_000);
    rmSync(join(root, 'src/core/a.ts'));
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('is stale without the bundle, without the input list, or with an empty or damaged one', () => {
    rmSync(join(root, CLI_INPUTS));
    expect(bundleIsFresh(root)).toBe(false);
    for (const list of ['[]', '{"src/cli.ts": 1}', 'not json']) {
      writeFileSync(join(root, CLI_INPUTS), list);
      expect(bundleIsFresh(root), list).toBe(false);
    }
    writeFileSync(join(root, CLI_INPUTS), JSON.stringify(['src/cli.ts']));
    expect(bundleIsFresh(root)).toBe(true);
    rmSync(join(root, '.cli-build/structlab.mjs'));
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('is current where there are no sources (the installed package)', () => {
    rmSync(join(root, 'src'), { recursive: true });
    rmSync(join(root, '.cli-build'), { recursive: true });
    expect(bundleIsFresh(root)).toBe(true);
  });

  it("this checkout's list names the CLI's sources and none of the UI's", () => {
    const inputs = JSON.parse(readFileSync(join(CLI_ROOT, CLI_INPUTS), 'utf8')) as string[];
    expect(inputs).toContain('src/cli/main.ts');
    expect(inputs).toContain('src/core/limits.ts');
    expect(inputs.filter((p) => /^src\/(pages|ui|viewer|state)\//.test(p))).toEqual([]);
  });
});
