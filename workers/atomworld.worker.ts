/** The AtomWorld worker: judges model answers as the benchmark does, lints the cases and prepares drawings. */
import { XRD_COMPARE_DEFAULTS, comparePatterns, comparisonTransferables } from '../src/core/analysis/xrd-compare.ts';
import * as Comlink from 'comlink';
import { buildDisplay, type DisplayData } from '../src/core/analysis/display-scene.ts';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { type MatcherOptions, prepareMatch } from '../src/core/match/structure-matcher.ts';
import { reducedFormula } from '../src/core/structure/composition.ts';
import { packStructure } from '../src/core/structure/packed.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { applyAtomworldActionWithTrace, readAtomworldCif } from '../src/core/tasks/atomworld/actions.ts';
import { judgeAtomworldJob } from '../src/core/tasks/atomworld/batch.ts';
import { ATOMWORLD_MATCHER, evaluateAtomworldAnswer } from '../src/core/tasks/atomworld/evaluate.ts';
import { type LintIssue, lintAtomworldCase } from '../src/core/tasks/atomworld/lint.ts';
import { buildDemoCases } from '../src/core/tasks/atomworld/lab/demo.ts';
import { type AtomworldCase, type CaseRow, readAtomworldInputs } from '../src/core/tasks/atomworld/lab/inputs.ts';
import { aseFrameOf, inAseFrame, overlayGeometry } from '../src/core/tasks/atomworld/lab/overlay.ts';
import type { AtomworldWorkerApi, CompareView, LoadedBatch, MatcherTolerances, OverlayView } from './atomworld-api.ts';
import { attempt, errorText } from './result.ts';

let cases: AtomworldCase[] = [];
const rows = new Map<number, CaseRow>();

function displayOf(s: Structure): DisplayData {
  return buildDisplay(packStructure(inAseFrame(s)), { boundaryImages: false, bonds: true });
}

function batchInfo(source: string, warnings: string[]): LoadedBatch {
  rows.clear();
  return {
    source,
    count: cases.length,
    ids: cases.map((c) => c.id),
    actions: cases.map((c) => c.action),
    warnings,
    hasOfficial: cases.some((c) => c.official !== null),
  };
}

function lintOf(c: AtomworldCase): LintIssue[] {
  if (!c.params) return [];
  try {
    return lintAtomworldCase({
      id: c.id,
      action: c.action,
      params: c.params,
      prompt: c.prompt,
      before_cif: c.beforeCif ?? undefined,
      after_cif: c.targetCif,
    });
  } catch (e) {
    return [{ code: 'lint_failed', severity: 'contradiction', message: `the lint could not run: ${errorText(e)}` }];
  }
}

function judge(index: number): CaseRow {
  const c = cases[index];
  const verdict = judgeAtomworldJob({ id: c.id, action: c.action, targetCif: c.targetCif, answer: c.answer });
  const row: CaseRow = { ...verdict, index, lint: lintOf(c).map((l) => l.code), official: c.official };
  rows.set(index, row);
  return row;
}

/** Overlay of answer on target: the matcher's mapping, else a same-element assignment in the target's cell. */
function overlayOf(
  target: Structure,
  answer: Structure,
  options: MatcherOptions,
  exact: { a: number; b: number; distance: number }[] | null,
): OverlayView {
  const n = target.sites.length;
  const lengthScale = Math.cbrt(target.lattice!.volume / n);
  const tolerance = (options.stol ?? 0.3) * lengthScale;
  const base = { lengthScale, tolerance };
  if (exact) {
    const geometry = overlayGeometry(target, answer, exact, tolerance);
    const byTarget = new Map(exact.map((p) => [`${p.a}/${p.b}`, p.distance * lengthScale]));
    for (const p of geometry.pairs) p.matcherDistance = byTarget.get(`${p.a}/${p.b}`);
    // The matcher measures in the average of two lattice bases that may differ by up to ltol / angle_tol;
    // the drawing uses the target's cell, so the drawn lengths can differ from the matcher's.
    const drawnMax = Math.max(...geometry.pairs.map((p) => p.distance));
    const matcherMax = Math.max(...geometry.pairs.map((p) => p.matcherDistance ?? 0));
    const differs = Math.abs(drawnMax - matcherMax) > 1e-3 * Math.max(1, matcherMax);
    return {
      ...geometry,
      ...base,
      source: 'matcher',
      note: `pairs: the matcher's mapping behind rms / max_dist, mean shift removed; colours are the matcher's distances${
        differs
          ? '. The matcher aligned the answer through another lattice basis (lengths within ltol, angles within angle_tol), so the ' +
            `drawn offsets (largest ${drawnMax.toFixed(2)} Å) differ from its distances (largest ${matcherMax.toFixed(2)} Å)`
          : ''
      }`,
    };
  }
  // Equal counts: every atom paired, far pairs shown as such; otherwise far pairs are missing / extra atoms.
  const sameCount = n === answer.sites.length;
  return {
    ...overlayGeometry(target, answer, null, sameCount ? Infinity : tolerance),
    ...base,
    source: 'assignment',
    note: sameCount
      ? "no matcher mapping within stol; atoms of the same element are paired by the smallest total distance in the target's cell " +
        '(no shift)'
      : 'the counts differ; atoms of the same element are paired by the smallest total distance, pairs beyond ' +
        `${tolerance.toFixed(2)} Å left unpaired`,
  };
}

const api: AtomworldWorkerApi = {
  async load(casesFile, answersFile) {
    try {
      const read = readAtomworldInputs(casesFile, answersFile);
      if (read.cases.length === 0) return { ok: false, error: `${casesFile.path} holds no cases.` };
      cases = read.cases;
      return { ok: true, value: batchInfo(answersFile ? `${casesFile.path} + ${answersFile.path}` : casesFile.path, read.warnings) };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async loadDemo(cifText, fileName) {
    try {
      await initMoyo(); // the dataset reader expands symmetry with it
      cases = buildDemoCases(cifText, fileName);
      return {
        ok: true,
        value: batchInfo(`demo from ${fileName}`, [
          `Demo: ${cases.length} cases derived from ${fileName} (2×1×1 supercell) with the action engine; the answers are right, ` +
            'unchanged, with a wrong index, without tags or with a broken CIF.',
        ]),
      };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async evaluate(start, count) {
    try {
      await initMoyo(); // CIFs with symmetry operations are expanded through it
      const out: CaseRow[] = [];
      for (let i = start; i < Math.min(cases.length, start + count); i++) out.push(judge(i));
      return { ok: true, value: out };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async xrdCompare(index) {
    const c = cases[index];
    if (!c) return { ok: false, error: `There is no case ${index + 1} in the loaded batch.` };
    const r = await attempt(
      async () => {
        await initMoyo();
        const { target, answer } = evaluateAtomworldAnswer(c.targetCif, c.answer ?? '');
        if (!answer) throw new Error('its answer holds no readable structure');
        return comparePatterns(answer, target, XRD_COMPARE_DEFAULTS);
      },
      (m) => `Case ${c.id}: ${m}`,
    );
    return r.ok ? Comlink.transfer(r, comparisonTransferables(r.value)) : r;
  },

  async caseView(index) {
    const c = cases[index];
    if (!c) return { ok: false, error: `There is no case ${index + 1} in the loaded batch.` };
    try {
      await initMoyo();
      const row = rows.get(index) ?? judge(index);
      const lint = lintOf(c);
      let evaluation;
      try {
        evaluation = evaluateAtomworldAnswer(c.targetCif, c.answer ?? '');
      } catch (e) {
        return { ok: false, error: `Case ${c.id}: the target CIF cannot be read (${errorText(e)}).` };
      }
      const { target, answer } = evaluation;
      let before: DisplayData | null = null,
        beforeError: string | null = null,
        trace = null,
        traceError: string | null = null;
      if (c.beforeCif) {
        try {
          const b = readAtomworldCif(c.beforeCif);
          before = displayOf(b);
          if (c.params) {
            try {
              trace = applyAtomworldActionWithTrace(b, c.action, c.params).trace;
            } catch (e) {
              traceError = `The action cannot be drawn: ${errorText(e)}`;
            }
          } else traceError = 'The case has no parameters, so the action is not drawn.';
        } catch (e) {
          beforeError = `The BEFORE CIF cannot be read: ${errorText(e)}`;
        }
      } else beforeError = 'The case has no BEFORE structure (before_cif).';
      const formatError = evaluation.wrongType === 'OutputFormatError' || evaluation.wrongType === 'CIFParsingError';
      const answerError =
        c.answer === null ? 'No answer was given for this case.' : formatError ? `${evaluation.wrongType}: ${evaluation.reason}` : null;
      return {
        ok: true,
        value: {
          id: c.id,
          action: c.action,
          prompt: c.prompt,
          params: c.params,
          row,
          reason: evaluation.reason,
          lint,
          before,
          beforeError,
          target: displayOf(target),
          answer: answer ? displayOf(answer) : null,
          answerText: c.answer ?? '',
          answerError,
          overlay: answer ? overlayOf(target, answer, ATOMWORLD_MATCHER, evaluation.mapping?.pairs ?? null) : null,
          trace,
          traceError,
          targetCell: aseFrameOf(target).cell,
        },
      };
    } catch (e) {
      return { ok: false, error: `Case ${c.id}: ${errorText(e)}` };
    }
  },

  async compare(fileA, fileB, tolerances: MatcherTolerances) {
    try {
      await initMoyo();
      for (const [name, v, lo, hi] of [
        ['ltol', tolerances.ltol, 0, 5],
        ['stol', tolerances.stol, 0, 5],
        ['angle_tol', tolerances.angleTol, 0, 90],
      ] as const) {
        if (!(Number.isFinite(v) && v > lo && v <= hi))
          return { ok: false, error: `${name} must be a number above ${lo} and at most ${hi}; got ${v}.` };
      }
      const read = (f: typeof fileA): Structure => {
        const parsed = parseStructureFile(f.text, f.path);
        if (!parsed.ok) throw new Error(`Could not read ${f.path}${parsed.line ? ` (line ${parsed.line})` : ''}: ${parsed.error}`);
        const s = parsed.structures[0];
        if (!s.lattice) throw new Error(`${f.path} has no unit cell; the matcher compares periodic structures.`);
        if (s.sites.length === 0) throw new Error(`${f.path} has no atoms.`);
        return s;
      };
      const a = read(fileA),
        b = read(fileB);
      const options: MatcherOptions = {
        ltol: tolerances.ltol,
        stol: tolerances.stol,
        angleTol: tolerances.angleTol,
        primitiveCell: tolerances.primitiveCell,
      };
      const match = prepareMatch(a, b, options);
      const fit = match.fit();
      // The rms pass gets a LIMITS.matchWork budget of its own, as a separate get_rms_dist call would.
      match.resetWork();
      const rms = fit ? match.rmsDist() : null;
      const exact = fit ? match.bestMapping() : null;
      const view: CompareView = {
        nameA: fileA.path,
        nameB: fileB.path,
        natomsA: a.sites.length,
        natomsB: b.sites.length,
        formulaA: reducedFormula(a),
        formulaB: reducedFormula(b),
        fit,
        rms: rms?.rms ?? null,
        maxDist: rms?.maxDist ?? null,
        tolerances,
        a: displayOf(a),
        b: displayOf(b),
        overlay: overlayOf(a, b, options, exact?.pairs ?? null),
      };
      return { ok: true, value: view };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },
};

Comlink.expose(api);
