/** The Generations worker: reads the sets, runs the CSP and de novo metrics of src/core/tasks/generations, prepares one sample's detail. */
import { XRD_COMPARE_DEFAULTS, comparePatterns, comparisonTransferables } from '../src/core/analysis/xrd-compare.ts';
import * as Comlink from 'comlink';
import { buildDisplay } from '../src/core/analysis/display-scene.ts';
import { FORMATS } from '../src/core/io/registry.ts';
import { type Vec3, vecMat } from '../src/core/math/mat3.ts';
import { type MatcherOptions, matcherBestMapping } from '../src/core/match/structure-matcher.ts';
import { formula, reducedFormula } from '../src/core/structure/composition.ts';
import { packStructure } from '../src/core/structure/packed.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { analyzeSymmetry } from '../src/core/symmetry/analyze.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { aseFrameOf, inAseFrame, overlayGeometry } from '../src/core/tasks/atomworld/lab/overlay.ts';
import { CSP_MATCHER_OPTIONS, cspMetrics } from '../src/core/tasks/generations/csp.ts';
import { evaluateDenovo, pymatgenDensity } from '../src/core/tasks/generations/denovo.ts';
import { scaleCompositionFingerprint } from '../src/core/tasks/generations/coverage.ts';
import { type CoverageFingerprint, coverageFingerprint } from '../src/core/tasks/generations/fingerprints.ts';
import { principalPlane, projectOnPlane } from '../src/core/analysis/pca.ts';
import { demoPredictions } from '../src/core/tasks/generations/demo.ts';
import { explainMatch } from '../src/core/tasks/generations/explain.ts';
import {
  type GenItem,
  GenInputError,
  chemeleonSets,
  energiesFor,
  pairCsp,
  parseEnergies,
  setFromCsv,
  setFromFolder,
  setFromPt,
  ptEvalsOf,
  setFromSetFile,
  setFromZip,
} from '../src/core/tasks/generations/inputs.ts';
import { type HullPlotInput, hullPlotData } from '../src/core/analysis/hull-plot.ts';
import { type PDEntry, PhaseDiagram, PhaseDiagramError } from '../src/core/analysis/phase-diagram.ts';
import { hullRows, parseHullReference, parseTotalEnergies } from '../src/core/tasks/generations/hull-inputs.ts';
import { closePairs, minPairDistance } from '../src/core/tasks/generations/validity.ts';
import type {
  FingerprintMap,
  FingerprintPlane,
  GenerationsWorkerApi,
  GenRun,
  HullView,
  InputFile,
  SampleOverlay,
  SampleView,
  SetRole,
  StructureSide,
} from './generations-api.ts';
import { attempt, errorText } from './result.ts';

const LABELS: Record<SetRole, string> = { pred: 'prediction', truth: 'truth', reference: 'reference', test: 'truth' };

const sets = new Map<SetRole, GenItem[]>();
/** The truths the prediction file carries (a .pt's input_data_batch, Chemeleon's ref_structure); null when it has none. */
let ownTruths: GenItem[] | null = null;
let energies: Map<string, unknown> | null = null;
let energiesName = '';
/** `gen eval --energies E --hull-reference R`'s inputs, as read. */
let totals: { name: string; entries: Map<string, unknown> } | null = null;
let hullReference: { name: string; entries: PDEntry[]; where: string[] } | null = null;
/** The last de novo run's hull: the reference's phase diagram and each prediction's total energy (null: none). */
let lastHull: { pd: PhaseDiagram; energies: (number | null)[] } | null = null;
/** The last run and, per per_sample row, the prediction and its counterpart. */
let last: { run: GenRun; pairs: { pred: GenItem; other: GenItem | null; role: StructureSide['role'] | null }[] } | null = null;

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * One set from the files picked for it. A folder's files are named by their path below the picked folder (its name
 * is their first part), as `structlab gen` names a folder's files, so ids are unique wherever names repeat; loose
 * files (or folders dropped together) keep their own paths.
 */
function readSet(role: SetRole, files: InputFile[], folder: string): { items: GenItem[]; own: GenItem[] | null } {
  // Chemeleon's results.csv as predictions holds their truths too (`gen csp --pred results.csv`).
  if (role === 'pred' && files.length === 1 && /\.csv$/i.test(files[0].path)) {
    const both = chemeleonSets(baseName(files[0].path), files[0].text);
    if (both) return { items: both.preds, own: both.truths };
  }
  return { items: readSetItems(role, files, folder), own: null };
}

/** One set file, or the files of a folder. */
function readSetItems(role: SetRole, files: InputFile[], folder: string): GenItem[] {
  const label = LABELS[role];
  if (files.length === 1) {
    const whole = setFromSetFile(label, baseName(files[0].path), files[0].text);
    if (whole) return whole;
  }
  const inFolder = files.every((f) => f.path.startsWith(`${folder}/`));
  return setFromFolder(
    label,
    folder,
    files.map((f) =>
      inFolder || !f.path.includes('/')
        ? { name: inFolder ? f.path.slice(folder.length + 1) : f.path, text: f.text }
        : { name: f.path, text: f.text, where: f.path },
    ),
  );
}

const isPtName = (name: string): boolean => /.\.pt$/i.test(name);

/** A .pt's own truths, or null when its input_data_batch is not a dict of tensors (then a truth set is needed). */
function ptTruths(name: string, data: Uint8Array): GenItem[] | null {
  try {
    return setFromPt(LABELS.truth, name, data);
  } catch (e) {
    if (e instanceof GenInputError) return null;
    throw e;
  }
}

/** The own truths of a prediction set (and its predictions per truth), as the page shows them. */
function ownOf(role: SetRole, preds: readonly GenItem[]): { ownTruths?: number; samples?: number } {
  if (role !== 'pred' || !ownTruths || ownTruths.length === 0) return {};
  const samples = preds.length / ownTruths.length;
  return { ownTruths: ownTruths.length, ...(preds.some((p) => p.pt) ? {} : { samples }) };
}

/** Calls `progress` at most every 100 ms (and at the end): each report is a message, and renews the client's budget. */
function throttled(progress: (done: number, total: number) => void): (done: number, total: number) => void {
  let lastReport = -Infinity;
  return (done, total) => {
    const now = performance.now();
    if (done !== total && now - lastReport < 100) return;
    lastReport = now;
    void progress(done, total);
  };
}

function need(role: SetRole, what: string): GenItem[] {
  const items = sets.get(role);
  if (!items) throw new GenInputError(`load ${what} first`);
  return items;
}

function sideOf(item: GenItem, role: StructureSide['role']): StructureSide {
  const s = item.structure;
  const framed = inAseFrame(s);
  const display = buildDisplay(packStructure(framed), { boundaryImages: false, bonds: true });
  const frame = aseFrameOf(s);
  const p = s.lattice!.parameters;
  const symmetry = (() => {
    try {
      return analyzeSymmetry(s);
    } catch {
      return null;
    }
  })();
  const drawn = (i: number): Vec3 => [display.positions[3 * i], display.positions[3 * i + 1], display.positions[3 * i + 2]];
  return {
    role,
    id: item.id,
    where: item.where,
    display,
    cell: frame.cell,
    lattice: { a: p.a, b: p.b, c: p.c, alpha: p.alpha, beta: p.beta, gamma: p.gamma },
    volume: Math.abs(s.lattice!.volume),
    density: pymatgenDensity(s),
    formula: formula(s),
    reducedFormula: reducedFormula(s),
    nsites: s.sites.length,
    spaceGroup: symmetry ? `${symmetry.symbol} (${symmetry.number})` : null,
    minDistance: minPairDistance(s),
    closePairs: closePairs(s).map((c) => {
      const from = drawn(c.i);
      const v = vecMat(c.frac, frame.cell);
      return { i: c.i, j: c.j, distance: c.distance, from, to: [from[0] + v[0], from[1] + v[1], from[2] + v[2]] };
    }),
    structure: s,
  };
}

/** The prediction over its counterpart: the matcher's mapping when there is one, else AtomWorld's same-element assignment. */
function overlayOf(target: Structure, answer: Structure, options: MatcherOptions): SampleOverlay {
  const lengthScale = Math.cbrt(Math.abs(target.lattice!.volume) / target.sites.length);
  const tolerance = (options.stol ?? 0.3) * lengthScale;
  const mapping = (() => {
    try {
      return matcherBestMapping(target, answer, options);
    } catch {
      return null; // a work limit or a degenerate cell: drawn without the matcher's mapping
    }
  })();
  if (mapping) {
    const geometry = overlayGeometry(target, answer, mapping.pairs, tolerance);
    const byPair = new Map(mapping.pairs.map((p) => [`${p.a}/${p.b}`, p.distance * lengthScale]));
    for (const p of geometry.pairs) p.matcherDistance = byPair.get(`${p.a}/${p.b}`);
    return { ...geometry, source: 'matcher', lengthScale, tolerance };
  }
  const sameCount = target.sites.length === answer.sites.length;
  return { ...overlayGeometry(target, answer, null, sameCount ? Infinity : tolerance), source: 'assignment', lengthScale, tolerance };
}

/**
 * Energies above hull from total energies and the reference entries (hull-inputs.ts, as `gen eval`), when both are
 * loaded; undefined otherwise. Not with ready-made energies above hull, as the CLI refuses both.
 */
function hullOf(predictions: readonly GenItem[]) {
  if (!totals || !hullReference) return undefined;
  if (energies) throw new GenInputError('energies above hull are given ready-made and from total energies; drop one of them');
  const byId = energiesFor(totals.name, totals.entries, predictions);
  const rows = hullRows(hullReference.name, hullReference, predictions, byId);
  const where = hullReference.where;
  const pd = new PhaseDiagram(hullReference.entries, (i) => where[i]);
  return { rows, totals: byId, pd, eAboveHull: new Map(predictions.map((p, i) => [p.id, rows[i].e_above_hull])) };
}

/** The row with `decomposition` placed right after `e_above_hull`. */
function withDecomposition<T extends object>(row: T, decomposition: Record<string, number> | null): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = v;
    if (k === 'e_above_hull') out.decomposition = decomposition;
  }
  return out as T;
}

/** Element → amount of a structure (its sites in order). */
function compositionOf(s: Structure): Map<string, number> {
  const c = new Map<string, number>();
  for (const site of s.sites) for (const [el, occ] of Object.entries(site.species)) c.set(el, (c.get(el) ?? 0) + occ);
  return c;
}

/** Generated crystals drawn on one hull plot at most (the selected one always among them): a plot stays readable and light. */
const HULL_PLOT_SAMPLES = 2000;

/** The hull plot of sample `index`'s chemical system with the predictions of it that have an energy; null without a hull. */
function hullView(index: number): HullView | null {
  if (!last || last.run.mode !== 'denovo' || !lastHull) return null;
  const { pd, energies: totalsOf } = lastHull;
  const elements = [...compositionOf(last.pairs[index].pred.structure).keys()].sort();
  if (elements.length < 2 || elements.length > 3)
    return { why: `The sample has ${elements.length} element${elements.length === 1 ? '' : 's'}; hull plots are drawn for 2 or 3.` };
  const rows = last.run.result.per_sample;
  const samples: HullPlotInput[] = [];
  let omitted = 0;
  last.pairs.forEach((pair, i) => {
    const energy = totalsOf[i];
    const e = rows[i].e_above_hull;
    if (energy === null || e === null) return;
    const composition = compositionOf(pair.pred.structure);
    if (![...composition.keys()].every((el) => elements.includes(el))) return;
    if (samples.length >= HULL_PLOT_SAMPLES - 1 && i !== index) omitted++;
    else samples.push({ index: i, label: `${reducedFormula(pair.pred.structure)} (${pair.pred.id})`, composition, energy, eAboveHull: e });
  });
  try {
    return { plot: hullPlotData(pd, elements, samples), omitted };
  } catch (e) {
    if (e instanceof PhaseDiagramError) return { why: `No hull plot: ${e.message}.` };
    throw e;
  }
}

function allFinite(row: ArrayLike<number>): boolean {
  for (let d = 0; d < row.length; d++) if (!Number.isFinite(row[d])) return false;
  return true;
}

/** One kind's plane, fitted on every finite fingerprint of the truths and predictions; the others are not drawn (null). */
function planeOf(predictions: (ArrayLike<number> | null)[], truth: (ArrayLike<number> | null)[]): FingerprintPlane {
  const drawn = (row: ArrayLike<number> | null) => (row && allFinite(row) ? row : null);
  const p = predictions.map(drawn),
    t = truth.map(drawn);
  const plane = principalPlane([...t, ...p].filter((r) => r !== null));
  const at = (row: ArrayLike<number> | null) => (row ? projectOnPlane(plane, row) : null);
  return { explained: plane.explained, predictions: p.map(at), truth: t.map(at) };
}

/** The run's 2D map: structure fingerprints as they are, composition ones scaled as compute_cov compares them (NaN → 0). */
function fingerprintMap(
  fps: { predictions: CoverageFingerprint[]; truth: CoverageFingerprint[] },
  truth: readonly GenItem[],
): FingerprintMap {
  const comp = (f: CoverageFingerprint) => (f.comp ? scaleCompositionFingerprint(f.comp) : null);
  return {
    structure: planeOf(
      fps.predictions.map((f) => f.struct),
      fps.truth.map((f) => f.struct),
    ),
    composition: planeOf(fps.predictions.map(comp), fps.truth.map(comp)),
    truthIds: truth.map((t) => t.id),
  };
}

const api: GenerationsWorkerApi = {
  loadSet: (role, files, folder) =>
    attempt(async () => {
      if (files.length === 0) {
        sets.delete(role);
        if (role === 'pred') ownTruths = null;
        return null;
      }
      await initMoyo(); // CIFs with symmetry operations are expanded through it
      const { items, own } = readSet(role, files, folder);
      sets.set(role, items);
      if (role === 'pred') ownTruths = own;
      const source = files.length === 1 ? files[0].path : folder;
      return { role, source, count: items.length, ...ownOf(role, items) };
    }),

  loadZip: (role, name, bytes) =>
    attempt(async () => {
      await initMoyo();
      const data = new Uint8Array(bytes);
      const items = isPtName(name) ? setFromPt(LABELS[role], baseName(name), data) : setFromZip(LABELS[role], baseName(name), data);
      // A .pt whose input_data_batch is a dict of tensors holds its truths (compute_metrics.py without --gt_file).
      const own = role === 'pred' && isPtName(name) ? ptTruths(baseName(name), data) : null;
      sets.set(role, items);
      if (role === 'pred') ownTruths = own;
      return { role, source: name, count: items.length, ...ownOf(role, items) };
    }),

  loadDemoPredictions: (truthCsv, name) =>
    attempt(async () => {
      await initMoyo();
      const items = demoPredictions(setFromCsv(LABELS.truth, name, truthCsv));
      sets.set('pred', items);
      ownTruths = null;
      return { role: 'pred', source: `demo predictions from ${name}`, count: items.length };
    }),

  loadEnergies: (file) =>
    attempt(() => {
      if (!file) {
        energies = null;
        return 0;
      }
      const map = parseEnergies(file.path, file.text);
      energies = map;
      energiesName = file.path;
      return map.size;
    }),

  loadHullInput: (kind, file) =>
    attempt(() => {
      if (kind === 'energies') {
        totals = file ? { name: file.path, entries: parseTotalEnergies(file.path, file.text) } : null;
        return totals?.entries.size ?? 0;
      }
      hullReference = file ? { name: file.path, ...parseHullReference(file.path, file.text) } : null;
      return hullReference?.entries.length ?? 0;
    }),

  runCsp: (options, progress) =>
    attempt(async () => {
      await initMoyo();
      const truths = sets.get('truth') ?? ownTruths ?? need('truth', 'the truths');
      const groups = pairCsp(need('pred', 'the predictions'), truths, options.nSamples);
      const matcherErrors: string[] = [];
      const result = cspMetrics(groups, {
        convention: options.convention,
        smact: options.smact,
        tolerances: options.tolerances,
        spaceGroups: options.spaceGroups,
        onProgress: throttled(progress),
        onMatcherError: (e, id, k) => matcherErrors.push(`${id}${options.nSamples > 1 ? `__${k}` : ''}: ${errorText(e)}`),
      });
      const run: GenRun = { mode: 'csp', result, matcherErrors };
      last = { run, pairs: groups.flatMap((g) => g.samples.map((s) => ({ pred: s.pred, other: g.truth, role: 'truth' as const }))) };
      return run;
    }),

  runDenovo: (options, progress) =>
    attempt(async () => {
      await initMoyo();
      // Eval 0 of a .pt with a num_evals dimension, as `gen eval` (and compute_metrics.py's gen task) reads it.
      const predictions = ptEvalsOf(need('pred', 'the predictions'), 0);
      const hull = hullOf(predictions);
      const energyOf = hull ? hull.eAboveHull : energies ? energiesFor(energiesName, energies, predictions) : undefined;
      const matcherErrors: string[] = [];
      const report = throttled(progress);
      const { coverage, ...rest } = options;
      const truth = sets.get('test');
      if (coverage && !truth) throw new GenInputError('coverage compares the predictions with a test set: load the test set first');
      // Fingerprints first (a progress step each), then the comparisons; `gen eval` counts them last, with the same numbers.
      const fingerprinting = coverage ? predictions.length + truth!.length : 0;
      const total = fingerprinting + predictions.length;
      let done = 0;
      const fingerprintsOf = (items: readonly GenItem[]) =>
        items.map((item) => {
          const fp = coverageFingerprint(item.structure);
          report(++done, total);
          return fp;
        });
      const fingerprints = coverage ? { predictions: fingerprintsOf(predictions), truth: fingerprintsOf(truth!) } : undefined;
      // Each sample's counterpart as an item, not looked up by id (ids may repeat in a de novo set): the duplicate first.
      const duplicates = new Map<number, GenItem>();
      const matches = new Map<number, GenItem>();
      const result = evaluateDenovo(
        { predictions, reference: sets.get('reference'), truth, energies: energyOf, ...(fingerprints ? { fingerprints } : {}) },
        {
          ...rest,
          ...(coverage ? { coverage } : {}),
          onMatcherError: (e, id, other) => matcherErrors.push(`${id} vs ${other}: ${errorText(e)}`),
          onCounterpart: (i, role, other) => (role === 'duplicate_of' ? duplicates : matches).set(i, other),
        },
        (p) => report(fingerprinting + p.done, total),
      );
      const pairs = predictions.map((pred, i) => {
        const duplicate = duplicates.get(i);
        if (duplicate) return { pred, other: duplicate, role: 'duplicate_of' as const };
        const match = matches.get(i) ?? null;
        return { pred, other: match, role: match ? ('reference_match' as const) : null };
      });
      // Each row's decomposition after its e_above_hull, as `gen eval --energies --hull-reference` prints it.
      if (hull) result.per_sample = result.per_sample.map((row, i) => withDecomposition(row, hull.rows[i].decomposition));
      const run: GenRun = { mode: 'denovo', result, matcherErrors, ...(fingerprints ? { map: fingerprintMap(fingerprints, truth!) } : {}) };
      last = { run, pairs };
      lastHull = hull ? { pd: hull.pd, energies: predictions.map((p) => hull.totals.get(p.id) ?? null) } : null;
      return run;
    }),

  thumbnail: (index) =>
    attempt(() => {
      const pair = last?.pairs[index];
      if (!pair) throw new Error(`There is no sample ${index + 1} in the last run.`);
      return buildDisplay(packStructure(inAseFrame(pair.pred.structure)), { boundaryImages: false, bonds: false });
    }),

  exportSample: (index, side, format) =>
    attempt(
      () => {
        const pair = last?.pairs[index];
        if (!pair) throw new Error(`there is no sample ${index + 1} in the last run`);
        const item = side === 'prediction' ? pair.pred : pair.other;
        const role = side === 'prediction' ? 'prediction' : pair.role;
        if (!item || !role) throw new Error('it has no counterpart to export');
        const writer = FORMATS.find((f) => f.id === format);
        if (!writer) throw new Error(`there is no format "${format}"`);
        // Its own file-name ending (.cif, .vasp, .xyz, .extxyz, .json); the role tells a CSP pair's two same-id files apart.
        const ending = writer.extensions.find((e) => e.startsWith('.'))!;
        return { fileName: `${item.id.replace(/[\\/:*?"<>|\s]+/g, '_')}-${role}${ending}`, text: writer.write(item.structure) };
      },
      (m) => `Sample ${index + 1}: ${m}`,
    ),

  async xrdCompare(index) {
    const r = await attempt(
      () => {
        const pair = last?.pairs[index];
        if (!pair) throw new Error(`there is no sample ${index + 1} in the last run`);
        if (!pair.other) throw new Error('it has no counterpart to compare with');
        return comparePatterns(pair.pred.structure, pair.other.structure, XRD_COMPARE_DEFAULTS);
      },
      (m) => `Sample ${index + 1}: ${m}`,
    );
    return r.ok ? Comlink.transfer(r, comparisonTransferables(r.value)) : r;
  },

  sampleView: (index) =>
    attempt(
      async () => {
        if (!last) throw new Error('Run the metrics first.');
        const pair = last.pairs[index];
        if (!pair) throw new Error(`There is no sample ${index + 1} in the last run.`);
        await initMoyo();
        const { run } = last;
        const prediction = sideOf(pair.pred, 'prediction');
        const other = pair.other && pair.role ? sideOf(pair.other, pair.role) : null;
        // The overlay's matcher: CSP's tolerances, or pymatgen's defaults (MatterGen's ordered matcher) for de novo.
        const overlay = pair.other
          ? overlayOf(pair.other.structure, pair.pred.structure, run.mode === 'csp' ? CSP_MATCHER_OPTIONS : {})
          : null;
        const row = run.result.per_sample[index];
        // Why no match: for CSP pairs the matcher saw and rejected (or failed on), with CSP's tolerances.
        const rejected = run.mode === 'csp' && 'reason' in row && (row.reason === 'no_match' || row.reason === 'matcher_error');
        const explain = rejected && pair.other ? explainMatch(pair.pred.structure, pair.other.structure, CSP_MATCHER_OPTIONS) : null;
        const view: SampleView = { mode: run.mode, index, row, prediction, other, overlay, explain, hull: hullView(index) };
        return view;
      },
      (m) => `Sample ${index + 1}: ${m}`,
    ),
};

Comlink.expose(api);
