/**
 * The trajectory worker: a big multi-frame file arrives as its File (a structured clone, not a copy of its text), is
 * indexed in chunks (src/core/io/frame-index.ts) and each frame is read when shown (Blob.slice → the ordinary reader
 * → packed → scene). It holds the index and the last few frames, so its memory follows the frame, not the file.
 */
import * as Comlink from 'comlink';
import { buildDisplay, type DisplayData, type DisplayOptions, displayTransferables } from '../src/core/analysis/display-scene.ts';
import {
  type FrameIndex,
  type IndexedFrame,
  frameFormatFor,
  indexFrames,
  indexSeries,
  naturalCompare,
  readFrame,
} from '../src/core/io/frame-index.ts';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { ParseError } from '../src/core/io/types.ts';
import { checkLimit, formatBytes, LIMITS } from '../src/core/limits.ts';
import { latticeOf, packStructure, type PackedStructure, unpackStructure } from '../src/core/structure/packed.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import type { Formulas } from './io-api.ts';
import { attempt, couldNotRead, errorText } from './result.ts';
import { formulasOf, symmetrySummary } from './structure-summary.ts';
import type { FrameSeries, TrajectoryInfo, TrajectoryWorkerApi } from './trajectory-api.ts';
import type { Result } from './result.ts';
import { frameMetrics, frameSpaceGroup } from '../src/core/analysis/frame-metrics.ts';
import { frameAgainstReference } from '../src/core/match/frame-reference.ts';

/** Frames kept parsed: the shown one and its neighbours when stepping back and forth. */
const CACHED_FRAMES = 4;

interface Source {
  name: string;
  frames: number;
  /** Frame k as a structure (read from the Blob or its own file). */
  read(k: number): Promise<Structure>;
  /** Frame k packed, with its per-site columns and values (the metrics pass and the series). */
  packed(k: number): Promise<PackedStructure>;
}

let source: Source | null = null;
const cache = new Map<number, { p: PackedStructure; formulas: Formulas }>();
let framesRead = 0;

function reset(next: Source): void {
  source = next;
  cache.clear();
  framesRead = 0;
}

/** A file or files indexed as a trajectory: frames read on demand, packed when the metrics pass reads them. */
function openIndexed(name: string, index: FrameIndex, read: (k: number) => Promise<Structure>): TrajectoryInfo {
  reset({ name, frames: index.frames.length, read, packed: async (k) => packStructure(await read(k)) });
  return { name, format: index.format, frames: index.frames.length, bytes: index.bytes, series: indexSeries(index) };
}

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/**
 * Reads every frame once (not through the cache: the shown frames stay) and collects `values` of each into series;
 * a series missing from some frame is dropped (NaN: no such value). Awaits between frames, so frame requests interleave.
 */
function overFrames(
  what: string,
  onProgress: ((stage: string) => void) | undefined,
  values: (p: PackedStructure) => { name: string; value: number | null }[],
): Promise<Result<FrameSeries[]>> {
  return attempt(async () => {
    const at = source;
    if (!at) throw new Error('No trajectory is open.');
    const n = at.frames;
    const series = new Map<string, (number | null)[]>();
    for (let k = 0; k < n; k++) {
      if (k % 10 === 0) await onProgress?.(`${what}: frame ${k + 1} of ${n}`);
      // Another trajectory opened meanwhile (the client has dropped this answer): stop instead of reading on.
      if (source !== at) throw new Error(`${at.name} was closed.`);
      const row = values(await at.packed(k));
      for (const { name, value } of row) {
        let column = series.get(name);
        if (!column && k === 0) series.set(name, (column = []));
        if (column && column.length === k) column.push(value);
      }
    }
    return [...series].filter(([, v]) => v.length === n).map(([name, v]) => ({ name, values: v }));
  });
}

/** The scene of the frame the player asks for next, built ahead (one; for the options it was built with). */
let prepared: { k: number; key: string; source: Source | null; display: DisplayData } | null = null;

async function prepare(k: number, options: Partial<DisplayOptions>, key: string): Promise<void> {
  try {
    const at = source;
    const { p } = await frameOf(k);
    if (source === at) prepared = { k, key, source: at, display: buildDisplay(p, options) };
  } catch {
    // The frame's own request reports its error.
  }
}

/** The io worker's sentence for a file it could not read, naming the line of a ParseError. */
function readError(name: string, e: unknown): Error {
  return new Error(couldNotRead(name, e instanceof Error ? e.message : String(e), e instanceof ParseError ? e.line : undefined));
}

async function frameOf(k: number): Promise<{ p: PackedStructure; formulas: Formulas }> {
  if (!source) throw new Error('No trajectory is open.');
  if (!Number.isInteger(k) || k < 0 || k >= source.frames) throw new Error(`There is no frame ${k + 1}.`);
  const hit = cache.get(k);
  if (hit) {
    cache.delete(k);
    cache.set(k, hit);
    return hit;
  }
  const s = await source.read(k);
  framesRead++;
  const entry = { p: packStructure(s), formulas: formulasOf(s) };
  cache.set(k, entry);
  for (const key of cache.keys()) if (cache.size > CACHED_FRAMES) cache.delete(key);
  return entry;
}

const api: TrajectoryWorkerApi = {
  open: (file, name, onProgress) =>
    attempt(async () => {
      const format = frameFormatFor(name);
      if (!format) throw new Error(`${name} is not a multi-frame format the lab streams (XYZ, extended XYZ)`);
      // The CIF reader needs moyo; frames of other formats may too (a POSCAR-like XDATCAR header does not).
      await initMoyo();
      const mb = formatBytes(file.size);
      await onProgress?.(`indexing ${name} (${mb})`);
      let index: FrameIndex;
      try {
        index = await indexFrames(
          (s, e) =>
            file
              .slice(s, e)
              .arrayBuffer()
              .then((b) => new Uint8Array(b)),
          file.size,
          format,
          {
            onProgress: (done) => onProgress?.(`indexing ${name}: ${formatBytes(done)} of ${mb}`),
          },
        );
      } catch (e) {
        throw readError(name, e);
      }
      const headerText = index.header ? await file.slice(index.header.offset, index.header.offset + index.header.length).text() : '';
      return openIndexed(name, index, async (k) => {
        const f: IndexedFrame = index.frames[k];
        const text = headerText + (await file.slice(f.offset, f.offset + f.length).text());
        try {
          return readFrame(text, name, index, k);
        } catch (e) {
          throw readError(name, e);
        }
      });
    }),

  openFiles: (files, onProgress) =>
    attempt(async () => {
      checkLimit('trajectoryFrames', 'The folder', files.length, 'files');
      await initMoyo();
      const sorted = [...files].sort((a, b) => naturalCompare(a.name, b.name));
      const parse = async (f: File): Promise<Structure> => {
        checkLimit('inputBytes', f.name, f.size, 'bytes');
        const r = parseStructureFile(await f.text(), f.name);
        if (!r.ok) throw readError(f.name, new ParseError(r.error, r.line));
        return { ...r.structures[0], name: f.name };
      };
      const frames: IndexedFrame[] = [];
      let offset = 0;
      for (const [k, f] of sorted.entries()) {
        if (k % 50 === 0) await onProgress?.(`reading frame ${k + 1} of ${sorted.length}`);
        // Each file is read once here for its values (energy=, volume); its structure is read again when shown.
        const s = await parse(f);
        const values = Object.entries(s.properties ?? {}).filter(
          (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
        );
        frames.push({
          offset,
          length: f.size,
          line: 1,
          atoms: s.sites.length,
          values,
          volume: latticeOf(packStructure(s))?.volume ?? null,
        });
        checkLimit('atoms', f.name, s.sites.length, 'atoms', LIMITS.atoms);
        offset += f.size;
      }
      const index: FrameIndex = { format: 'files', bytes: offset, header: null, frames };
      const name = `${sorted.length} files (${sorted[0]?.name ?? ''} … ${sorted.at(-1)?.name ?? ''})`;
      return openIndexed(name, index, (k) => parse(sorted[k]));
    }),

  openStructures: (frames, name) =>
    attempt(async () => {
      checkLimit('trajectoryFrames', name, frames.length, 'frames');
      // Frames the session already read (its own parser, within its limits); a copy, not the file again.
      reset({ name, frames: frames.length, read: async (k) => unpackStructure(frames[k]), packed: async (k) => frames[k] });
      return frames.length;
    }),

  metrics: (onProgress) =>
    overFrames('per-frame metrics', onProgress, (p) =>
      frameMetrics(p).map((m) => ({ name: m.unit ? `${m.name} (${m.unit})` : m.name, value: m.value })),
    ),

  series: (request, onProgress) =>
    attempt(async () => {
      await initMoyo();
      if (request.kind === 'spacegroup') {
        const { symprec } = request;
        return unwrap(
          await overFrames(`space group at symprec ${symprec}`, onProgress, (p) => {
            const sg = frameSpaceGroup(p, symprec);
            return [{ name: `space group number (symprec ${symprec})`, value: sg?.number ?? null }];
          }),
        );
      }
      const r = parseStructureFile(request.text, request.name);
      if (!r.ok) throw readError(request.name, new ParseError(r.error, r.line));
      const reference = r.structures[0];
      if (!reference.lattice) throw new Error(`${request.name} is not a periodic structure: the matcher compares crystals`);
      return unwrap(
        await overFrames(`matching against ${request.name}`, onProgress, (p) => {
          const m = frameAgainstReference(p, reference);
          if (!m) return [];
          return [
            { name: `RMSD to ${request.name} (normalised)`, value: m.rms },
            { name: `matches ${request.name} (1 yes, 0 no)`, value: m.match ? 1 : 0 },
          ];
        }),
      );
    }),

  async frame(k, options, symprec, next) {
    try {
      const { p, formulas } = await frameOf(k);
      const key = JSON.stringify(options);
      const ready = prepared?.k === k && prepared.key === key && prepared.source === source ? prepared.display : null;
      prepared = null;
      const display = ready ?? buildDisplay(p, options);
      const symmetry =
        symprec === null
          ? null
          : p.natoms > LIMITS.frameSymmetrySites
            ? {
                spacegroup: null,
                note:
                  `No space group: a streamed frame of ${p.natoms.toLocaleString('en')} sites is not searched as it is shown ` +
                  `(over ${LIMITS.frameSymmetrySites.toLocaleString('en')}); ` +
                  'Space group per frame in the Trajectory panel searches every frame.',
              }
            : await symmetrySummary(unpackStructure(p), symprec);
      const value = { structure: p, formulas, display, symmetry, stats: { cachedFrames: cache.size, framesRead } };
      // While the page draws this frame, the next one is read and its scene built (playing: the two overlap).
      if (next !== null) setTimeout(() => void prepare(next, options, key), 0);
      // The cached frame is copied; the scene's buffers are handed over. Transfer marks the Result itself.
      return Comlink.transfer({ ok: true, value }, displayTransferables(display));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },
};

Comlink.expose(api);
