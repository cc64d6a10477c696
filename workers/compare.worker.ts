/** The compare worker: scores C2NP predictions against ground truth and prepares pairs for drawing. */
import * as Comlink from 'comlink';
import type { Particle } from '../src/core/analysis/alignment.ts';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { BatchFormatError, pairFilesByName, parseC2npBatch, particleFromFile, type ForwardBatchRow } from '../src/core/tasks/c2np/batch.ts';
import { carveParticle } from '../src/core/tasks/c2np/carve.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { LIMITS } from '../src/core/limits.ts';
import { compareParticles, damagedCopy } from '../src/core/tasks/c2np/compare.ts';
import { forwardBatchRow, inverseBatchRow, inverseBatchSummary } from '../src/core/tasks/c2np/batch-eval.ts';
import type { BatchInfo, CompareWorkerApi, ForwardRow, InputFile, PairView, Result } from './compare-api.ts';
import { errorText } from './result.ts';

let batch: ForwardBatchRow[] = [];

function checkSize(p: Particle, name: string): void {
  if (p.symbols.length > LIMITS.particleAtoms) {
    throw new BatchFormatError(
      `${name} has ${p.symbols.length.toLocaleString('en')} atoms; the compare view takes at most ` +
        `${LIMITS.particleAtoms.toLocaleString('en')}.`,
    );
  }
}

function pairView(
  id: string,
  predName: string,
  pred: Particle,
  truthName: string,
  truth: Particle,
  radius: number | undefined,
  warnings: string[] = [],
): PairView {
  checkSize(pred, predName);
  checkSize(truth, truthName);
  const cmp = compareParticles(pred, truth, { radius });
  const elements = [...new Set([...truth.symbols, ...pred.symbols])];
  const arrays = (name: string, p: Particle) => ({
    name,
    natoms: p.symbols.length,
    element: Uint16Array.from(p.symbols, (s) => elements.indexOf(s)),
    positions: Float32Array.from(p.coords),
  });
  const predSpecies = new Set(pred.symbols),
    truthSpecies = new Set(truth.symbols);
  const onlyPred = [...predSpecies].filter((s) => !truthSpecies.has(s)),
    onlyTruth = [...truthSpecies].filter((s) => !predSpecies.has(s));
  if (onlyPred.length || onlyTruth.length) {
    const only = [
      onlyPred.length ? `only in the prediction: ${onlyPred.join(', ')}` : '',
      onlyTruth.length ? `only in the truth: ${onlyTruth.join(', ')}` : '',
    ];
    warnings.push(`The species differ: ${only.filter(Boolean).join('; ')}. Atoms of a species the other side lacks are never matched.`);
  }
  if (pred.symbols.length !== truth.symbols.length) {
    warnings.push(
      `The atom counts differ (${pred.symbols.length} predicted, ${truth.symbols.length} true): the benchmark's index-paired ` +
        'RMSD is undefined; the aligned comparison still applies.',
    );
  }
  return {
    id,
    elements,
    pred: { ...arrays(predName, pred), aligned: Float32Array.from(cmp.alignedCoords) },
    truth: arrays(truthName, truth),
    metrics: cmp.metrics,
    pairedDisplacement: cmp.pairedDisplacement && Float32Array.from(cmp.pairedDisplacement),
    alignedDisplacement: Float32Array.from(cmp.alignedDisplacement),
    missing: cmp.missing,
    extra: cmp.extra,
    hausdorffPair: cmp.hausdorffPair,
    matchTolerance: cmp.matchTolerance,
    warnings,
  };
}

function transferPair(v: PairView): Result<PairView> {
  const buffers = [
    v.pred.element,
    v.pred.positions,
    v.pred.aligned,
    v.truth.element,
    v.truth.positions,
    v.alignedDisplacement,
    v.missing,
    v.extra,
  ].map((a) => a.buffer as ArrayBuffer);
  if (v.pairedDisplacement) buffers.push(v.pairedDisplacement.buffer as ArrayBuffer);
  return Comlink.transfer({ ok: true, value: v }, buffers);
}

function particleOrThrow(file: InputFile): Particle {
  const p = particleFromFile(file.text, file.path);
  checkSize(p, file.path);
  return p;
}

const api: CompareWorkerApi = {
  async comparePair(pred, truth, radius) {
    try {
      await initMoyo(); // readers expand CIF symmetry with it
      return transferPair(
        pairView(
          `${pred.path} vs ${truth.path}`,
          pred.path,
          particleOrThrow(pred),
          truth.path,
          particleOrThrow(truth),
          radius ?? undefined,
        ),
      );
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async demoPair(cellText, cellName, radius) {
    try {
      await initMoyo(); // readers expand CIF symmetry with it
      const parsed = parseStructureFile(cellText, cellName);
      if (!parsed.ok) return { ok: false, error: `Could not read ${cellName}: ${parsed.error}` };
      const carved = carveParticle(parsed.structures[0], { radius, repeats: 20 });
      const truth: Particle = { symbols: carved.symbols, coords: Float64Array.from(carved.positions.flat()) };
      const pred = damagedCopy(truth, { noise: 0.08, remove: 3, strays: 2, seed: 1 });
      const warnings = [
        'Demo: the truth is carved from the crystal (C2NP convention); the "prediction" is a copy with 0.08 Å noise, 3 atoms ' +
          'deleted and 2 stray atoms added.',
      ];
      return transferPair(pairView(`demo R=${radius}`, 'damaged copy', pred, `${cellName} R=${radius}`, truth, radius, warnings));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async loadBatchJsonl(file) {
    try {
      await initMoyo(); // readers expand CIF symmetry with it
      const parsed = parseC2npBatch(file.text);
      if (parsed.kind === 'inverse') {
        batch = [];
        const rows = parsed.rows.map(inverseBatchRow);
        return {
          ok: true,
          value: { kind: 'inverse', count: rows.length, unpaired: [], inverse: { rows, summary: inverseBatchSummary(rows) } },
        };
      }
      parsed.rows.forEach((r) => {
        checkSize(r.pred, `${r.id} (pred)`);
        checkSize(r.truth, `${r.id} (truth)`);
      });
      batch = parsed.rows;
      return { ok: true, value: { kind: 'forward', count: batch.length, unpaired: [] } satisfies BatchInfo };
    } catch (e) {
      return { ok: false, error: `${file.path}: ${errorText(e)}` };
    }
  },

  async loadBatchFiles(preds, truths) {
    try {
      await initMoyo(); // readers expand CIF symmetry with it
      const { pairs, unpairedPreds, unpairedTruths } = pairFilesByName(preds, truths);
      if (pairs.length === 0)
        return {
          ok: false,
          error: `No prediction file has a ground-truth file of the same name (${preds.length} predictions, ${truths.length} truths).`,
        };
      batch = pairs.map(([p, t]) => ({ id: p.path, pred: particleOrThrow(p), truth: particleOrThrow(t) }));
      return {
        ok: true,
        value: { kind: 'forward', count: batch.length, unpaired: [...unpairedPreds, ...unpairedTruths].map((f) => f.path) },
      };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async runBatch(onProgress) {
    const rows: ForwardRow[] = [];
    for (let index = 0; index < batch.length; index++) {
      rows.push(forwardBatchRow(index, batch[index], errorText));
      await onProgress?.(index + 1, batch.length);
    }
    return { ok: true, value: rows };
  },

  async batchPair(index) {
    const r = batch[index];
    if (!r) return { ok: false, error: `There is no pair ${index + 1} in the loaded batch.` };
    try {
      return transferPair(pairView(r.id, `${r.id} (pred)`, r.pred, `${r.id} (truth)`, r.truth, r.radius));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },
};

Comlink.expose(api);
