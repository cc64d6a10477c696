/**
 * The containers people hand over, by the file name's ending: `.zip` (zip.ts), `.tar` (tar.ts), `.tar.gz`/`.tgz`
 * (gzip.ts, then tar.ts), and a single gzipped file `x.cif.gz` (gzip.ts; read as `x.cif`). Each reader checks its
 * sizes against src/core/limits.ts before and while inflating.
 */
import type { ArchiveEntry } from './archive-entries.ts';
import { gunzip } from './gzip.ts';
import { readTar } from './tar.ts';
import { readZip } from './zip.ts';

export type ArchiveKind = 'zip' | 'tar' | 'tgz';

/** The archive a file name ends in (`.zip`, `.tar`, `.tar.gz`, `.tgz`), or null. */
export function archiveKind(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip') && lower.length > 4) return 'zip';
  if (lower.endsWith('.tar') && lower.length > 4) return 'tar';
  if ((lower.endsWith('.tar.gz') && lower.length > 7) || (lower.endsWith('.tgz') && lower.length > 4)) return 'tgz';
  return null;
}

/** The name a single gzipped file stands for ("POSCAR.gz" → "POSCAR", "x.cif.gz" → "x.cif"); null for other names and `.tar.gz`. */
export function gzippedName(name: string): string | null {
  const lower = name.toLowerCase();
  if (!lower.endsWith('.gz') || lower.length <= 3 || archiveKind(name) !== null) return null;
  return name.slice(0, -3);
}

/** Whether a file name is an archive or a gzipped file: what is read as bytes rather than text. */
export const isContainerName = (name: string): boolean => archiveKind(name) !== null || gzippedName(name) !== null;

/**
 * The regular files of the archive `data` that `keep` accepts (by path), read as its name's ending says (a zip for
 * any other ending, as before tar was read). Throws ParseError for a damaged archive, LimitError past the limits.
 */
export function readArchive(data: Uint8Array, name: string, keep: (path: string) => boolean = () => true): ArchiveEntry[] {
  const kind = archiveKind(name);
  if (kind === 'tar') return readTar(data, name, keep);
  if (kind === 'tgz') return readTar(gunzip(data, name), name, keep);
  return readZip(data, name, keep);
}
