/**
 * The Local environment panel: `structlab env`'s coordination numbers (CrystalNN by default, or every atom within a
 * cutoff) per element and per site with the neighbours and their CrystalNN weights, as atom colours and polyhedra in
 * the view, bond lengths per element pair as histograms and the RDF, for the structure as read.
 */
import { Fragment, useMemo, useState } from 'react';
import uPlot from 'uplot';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import type { PackedStructure } from '../../core/structure/packed.ts';
import type { EnvironmentSite, EnvironmentView } from '../../core/tasks/crystallography/lab.ts';
import {
  type EnvironmentMethod,
  overlayEnvironmentOf,
  setColorByCn,
  setCutoff,
  setEnvMethod,
  setEnvPolyhedra,
  setPanelOpen,
  useCrystallography,
} from '../../state/crystallography.ts';
import { pickAtom, useSession } from '../../state/session.ts';
import { DISPLACEMENT_RAMP, rampColorsBySite, rampGradient } from '../../viewer/colors.ts';
import { fixed } from '../../ui/format.ts';
import { Plot } from '../../ui/Plot.tsx';
import { FilePick } from '../../ui/FilePick.tsx';

const RDF_LABELS = ['g(r)'];
/** The x readouts: a distance for bond lengths and g(r), an angle for bond angles. */
const R_LABEL = 'r (Å)';
const ANGLE_LABEL = 'angle (°)';
const PAIR_COLORS = ['#1f5fd6', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

/** The coordination range the colours span. */
function cnRange(cn: readonly number[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const c of cn) {
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  return [lo, hi];
}

/** What made the numbers, as the panel says. */
const methodText = (env: Pick<EnvironmentView, 'method' | 'cutoff'>): string =>
  env.method === 'crystalnn' ? 'CrystalNN (pymatgen 2022.11 defaults)' : `all neighbours within ${env.cutoff} Å`;
/** The coordination numbers' name in the colour keys (the panel's and the view's legend). */
const cnName = (env: Pick<EnvironmentView, 'method' | 'cutoff'>): string =>
  env.method === 'crystalnn' ? 'CrystalNN CN' : `CN within ${env.cutoff} Å`;

/** The coordination colours and what their key says. */
interface CoordinationColoring {
  colors: Float32Array;
  coordination: number[];
  /** "CrystalNN CN" or "CN within R Å". */
  label: string;
}

/**
 * Per drawn atom, the colour of its site's coordination number, for the viewer's atomColors, with the coordination
 * numbers and their name for the view's legend; null while the atoms keep their element colours.
 */
export function useCoordinationColors(display: DisplayData | null): CoordinationColoring | null {
  const env = useCrystallography((s) => (s.open.env && s.colorByCn ? s.environment : null));
  return useMemo(() => {
    if (!env || !display || display.site.length !== display.natoms) return null;
    const colors = rampColorsBySite(display.site, env.coordination, cnRange(env.coordination));
    return colors && { colors, coordination: env.coordination, label: cnName(env) };
  }, [env, display]);
}

/** The key of the coordination colours: the method's CN name, then the ramp between the smallest and largest CN. */
export function CoordinationRamp({ coordination, label, testId }: { coordination: readonly number[]; label: string; testId?: string }) {
  const [lo, hi] = cnRange(coordination);
  return (
    <div className="xtal-ramp" data-testid={testId}>
      {label}: {lo} <span style={{ background: rampGradient(DISPLACEMENT_RAMP) }} /> {hi}
    </div>
  );
}

/** Sites of one element with one CN and one motif, listed together (a structure of 100+ sites stays a short table). */
interface SiteGroup {
  key: string;
  element: string;
  cn: number;
  /** The motif's name (CrystalNN), else null. */
  motif: string | null;
  sites: number[];
  /** The smallest and largest CN probability (CrystalNN) and motif order parameter over the sites, else null. */
  probability: [number, number] | null;
  motifValue: [number, number] | null;
  /** The elements of the chosen neighbours, e.g. "O6" (each distinct one of the sites, in order of appearance). */
  shells: string[];
}

/** The chosen neighbours' elements with their counts, alphabetically: "O6", "Fe2 O4". */
function shellText(site: EnvironmentSite, elementOf: (k: number) => string): string {
  const counts = new Map<string, number>();
  for (const nb of site.neighbors.slice(0, site.cn)) counts.set(elementOf(nb.index), (counts.get(elementOf(nb.index)) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([el, n]) => `${el}${n}`)
    .join(' ');
}

const widen = (range: [number, number] | null, x: number | null | undefined): [number, number] | null =>
  x === null || x === undefined ? range : [Math.min(range?.[0] ?? x, x), Math.max(range?.[1] ?? x, x)];

function siteGroups(env: EnvironmentView, elementOf: (k: number) => string): SiteGroup[] {
  const groups = new Map<string, SiteGroup>();
  env.sites.forEach((site, k) => {
    const element = elementOf(k);
    const motif = site.motif?.motif ?? null;
    const key = `${element} ${site.cn} ${motif ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, element, cn: site.cn, motif, sites: [], probability: null, motifValue: null, shells: [] }));
    g.sites.push(k);
    const shell = shellText(site, elementOf);
    if (!g.shells.includes(shell)) g.shells.push(shell);
    g.probability = widen(g.probability, site.cnProbability);
    g.motifValue = widen(g.motifValue, site.motif?.value);
  });
  const order = (a: SiteGroup, b: SiteGroup) => (a.element < b.element ? -1 : a.element > b.element ? 1 : a.cn - b.cn);
  return [...groups.values()].sort((a, b) => order(a, b) || (a.motif ?? '').localeCompare(b.motif ?? ''));
}

/** A value, or the range over a group, at 2 decimals; a dash where there is none. */
const rangeText = (r: [number, number] | null): string =>
  !r ? '—' : fixed(r[0], 2) === fixed(r[1], 2) ? fixed(r[0], 2) : `${fixed(r[0], 2)}–${fixed(r[1], 2)}`;

const motifText = (motif: string | null, value: [number, number] | null): string => (motif ? `${motif} ${rangeText(value)}` : '—');

export function EnvironmentPanel() {
  const open = useCrystallography((s) => s.open.env);
  const structure = useCrystallography((s) => s.structure);
  const busy = useCrystallography((s) => s.busy.env);
  const error = useCrystallography((s) => s.error.env);
  const method = useCrystallography((s) => s.envMethod);
  const cutoff = useCrystallography((s) => s.cutoff);
  const env = useCrystallography((s) => s.environment);
  const env2 = useCrystallography((s) => s.environment2);
  const colorByCn = useCrystallography((s) => s.colorByCn);
  const envPolyhedra = useCrystallography((s) => s.envPolyhedra);
  const showPolyhedra = useSession((s) => s.settings.showPolyhedra);
  // Triangles of the polyhedra in the structure's scene (what the view uploads), for the tests and the hint below.
  const triangles = useSession((s) => s.display?.polyElement.length ?? 0);
  const [text, setText] = useState(String(cutoff));
  const summary = useMemo(() => {
    if (!env || !structure) return [];
    const byElement = new Map<string, Map<number, number>>();
    env.coordination.forEach((c, k) => {
      const el = structure.elements[structure.major[k]];
      const m = byElement.get(el) ?? new Map<number, number>();
      m.set(c, (m.get(c) ?? 0) + 1);
      byElement.set(el, m);
    });
    return [...byElement].map(([el, m]) => ({ el, cns: [...m].sort((a, b) => a[0] - b[0]) }));
  }, [env, structure]);
  // Overlaid histograms share bins from 0: the longer of the two ranges is shown.
  const nBondBins = Math.max(env?.bondHistogram.counts[0]?.length ?? 0, env2?.view.bondHistogram.counts[0]?.length ?? 0);
  const bondX = useMemo(() => (env ? Array.from({ length: nBondBins }, (_, k) => k * env.bondHistogram.bin) : []), [env, nBondBins]);
  const angleX = useMemo(() => (env ? (env.angles.counts[0] ?? []).map((_, k) => k) : []), [env]);
  // With a second structure: its g(r), and both structures' bond lengths and angles summed over pairs and centres.
  const overlay = useMemo(() => {
    if (!env) return null;
    const sum = (rows: number[][], n: number) => rows.reduce((acc, r) => acc.map((v, k) => v + (r[k] ?? 0)), new Array<number>(n).fill(0));
    const labels = env2 ? ['shown', env2.name] : RDF_LABELS;
    return {
      labels,
      rdf: env2 && env2.view.rdf.g.length === env.rdf.g.length ? [env.rdf.g, env2.view.rdf.g] : [env.rdf.g],
      bonds: env2 ? [sum(env.bondHistogram.counts, nBondBins), sum(env2.view.bondHistogram.counts, nBondBins)] : null,
      angles: env2 ? [sum(env.angles.counts, angleX.length), sum(env2.view.angles.counts, angleX.length)] : null,
    };
  }, [env, env2, angleX, nBondBins]);
  if (!structure) return null;
  const commit = () => {
    if (Number(text) !== cutoff) setCutoff(Number(text));
  };
  return (
    <details className="xtal" data-testid="env-panel" open={open} onToggle={(e) => setPanelOpen('env', e.currentTarget.open)}>
      <summary>Local environment</summary>
      <div className="xtal-controls">
        <label>
          neighbours
          <select data-testid="env-method" value={method} onChange={(e) => setEnvMethod(e.target.value as EnvironmentMethod)}>
            <option value="crystalnn">CrystalNN</option>
            <option value="cutoff">cutoff</option>
          </select>
        </label>
        {method === 'cutoff' && (
          <label>
            cutoff (Å)
            <input
              data-testid="env-cutoff"
              className="xtal-number"
              value={text}
              onChange={(e) => setText(e.target.value)}
              onBlur={commit}
              onKeyDown={(e) => {
                if (e.key === 'Enter') commit();
              }}
            />
          </label>
        )}
        <label className="check">
          <input type="checkbox" data-testid="env-color-by-cn" checked={colorByCn} onChange={(e) => setColorByCn(e.target.checked)} />
          colour atoms by coordination
        </label>
        <label className="check" title="Polyhedra around the cation-like sites (neighbours more electronegative on average)">
          <input
            type="checkbox"
            data-testid="env-polyhedra"
            data-triangles={triangles}
            checked={envPolyhedra && showPolyhedra}
            onChange={(e) => setEnvPolyhedra(e.target.checked)}
          />
          polyhedra from these neighbours
        </label>
      </div>
      {busy && <p className="hint">{busy}…</p>}
      {error && <p className="xtal-error">{error}</p>}
      {env && (
        <>
          <p className="hint" data-testid="env-method-text">
            neighbours: {methodText(env)}
          </p>
          {colorByCn && <CoordinationRamp coordination={env.coordination} label={cnName(env)} />}
          <table className="xtal-table" data-testid="env-coordination">
            <thead>
              <tr>
                <th>Element</th>
                <th>coordination (sites)</th>
              </tr>
            </thead>
            <tbody>
              {summary.map(({ el, cns }) => (
                <tr key={el}>
                  <td>{el}</td>
                  <td>{cns.map(([c, n]) => `${c} (${n})`).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <SiteTable env={env} structure={structure} />
          <EnvPlot
            testId="env-bonds"
            title={`bond lengths (${fixed(env.bondHistogram.bin, 2)} Å bins)`}
            x={bondX}
            ys={env.bondHistogram.counts}
            labels={env.bondHistogram.pairs}
            bars
          />
          {env.angles.centers.length > 0 && (
            <EnvPlot
              testId="env-angles"
              title="bond angles at each centre element (1° bins)"
              x={angleX}
              xLabel={ANGLE_LABEL}
              ys={env.angles.counts}
              labels={env.angles.centers}
              bars
            />
          )}
          {overlay?.bonds && (
            <EnvPlot testId="env-bonds-overlay" title="bond lengths, all pairs" x={bondX} ys={overlay.bonds} labels={overlay.labels} bars />
          )}
          {overlay?.angles && (
            <EnvPlot
              testId="env-angles-overlay"
              title="bond angles, all centres"
              x={angleX}
              xLabel={ANGLE_LABEL}
              ys={overlay.angles}
              labels={overlay.labels}
              bars
            />
          )}
          {overlay && (
            <EnvPlot
              testId="env-rdf"
              title="g(r)"
              x={env.rdf.r}
              ys={overlay.rdf}
              labels={overlay.rdf.length > 1 ? overlay.labels : RDF_LABELS}
            />
          )}
          <label className="file-button" title="Overlay a second structure's bond lengths, bond angles and g(r), same neighbours">
            Overlay a structure file…
            <FilePick data-testid="env-overlay-file" onFiles={(files) => void overlayEnvironmentOf(files[0])} />
          </label>
          {env2 && (
            <p className="hint" data-testid="env-overlay-name">
              overlaid: {env2.name} (mean coordination{' '}
              {(env2.view.coordination.reduce((a, b) => a + b, 0) / env2.view.coordination.length).toFixed(2)})
            </p>
          )}
        </>
      )}
    </details>
  );
}

/**
 * The sites grouped by element, CN and motif (a row each, with the count and the neighbours' elements), each group
 * opening to its sites: CN, its probability, the motif, and under them the neighbours with distance (Å) and CrystalNN
 * weight, those beyond the chosen CN greyed. A site's name selects its atom in the view, as a pick there does.
 */
function SiteTable({ env, structure }: { env: EnvironmentView; structure: PackedStructure }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // Site k is atom k of the structure's scene (its first cell); the Symmetry panel's other cells have other sites.
  const pickable = useCrystallography((s) => s.cellDisplay === null);
  const elementOf = (k: number) => structure.elements[structure.major[k]];
  const nameOf = (k: number) => structure.labels?.[k] || `${elementOf(k)}${k + 1}`;
  const groups = useMemo(() => siteGroups(env, (k) => structure.elements[structure.major[k]]), [env, structure]);
  const toggle = (key: string) =>
    setExpanded((now) => {
      const next = new Set(now);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  return (
    <>
      <div className="xtal-scroll" data-testid="env-sites-scroll">
        <table className="xtal-table xtal-sites" data-testid="env-sites">
          <thead>
            <tr>
              <th>sites</th>
              <th>CN</th>
              <th title="probability of this CN (CrystalNN's cn_weights)">p</th>
              <th title="most likely motif of this CN and its order parameter (1: ideal)">motif</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <Fragment key={g.key}>
                <tr className="xtal-group" data-testid="env-group" data-element={g.element} data-cn={g.cn}>
                  <td>
                    <button type="button" aria-expanded={expanded.has(g.key)} onClick={() => toggle(g.key)}>
                      {expanded.has(g.key) ? '▾' : '▸'} {g.element} ×{g.sites.length}
                    </button>{' '}
                    <span className="hint">{g.shells.join(', ')}</span>
                  </td>
                  <td>{g.cn}</td>
                  <td>{rangeText(g.probability)}</td>
                  <td data-testid="env-group-motif">{motifText(g.motif, g.motifValue)}</td>
                </tr>
                {expanded.has(g.key) &&
                  g.sites.map((k) => {
                    const site = env.sites[k];
                    return (
                      <Fragment key={k}>
                        <tr data-testid="env-site" data-site={k}>
                          <td>
                            {pickable ? (
                              <button type="button" title="select this atom in the view" onClick={() => pickAtom(k)}>
                                {nameOf(k)}
                              </button>
                            ) : (
                              nameOf(k)
                            )}
                          </td>
                          <td>{site.cn}</td>
                          <td>{site.cnProbability === null ? '—' : fixed(site.cnProbability, 2)}</td>
                          <td>{site.motif ? `${site.motif.motif} ${fixed(site.motif.value, 2)}` : '—'}</td>
                        </tr>
                        <tr data-testid="env-site-neighbours" data-site={k}>
                          <td colSpan={4} className="xtal-neighbours">
                            {site.neighbors.map((nb, m) => (
                              <span key={m} className={m < site.cn ? undefined : 'beyond'}>
                                {nameOf(nb.index)} {fixed(nb.distance, 3)}
                                {nb.weight !== null && ` ${fixed(nb.weight, 3)}`}
                              </span>
                            ))}
                          </td>
                        </tr>
                      </Fragment>
                    );
                  })}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint">
        Under each site: its neighbours, distance (Å){env.method === 'crystalnn' && ' and CrystalNN weight; greyed: weighed beyond the CN'}.
      </p>
    </>
  );
}

/** A histogram or g(r) in a Plot (src/ui/Plot.tsx): it widens with the panel and opens large. */
function EnvPlot({
  testId,
  title,
  x,
  xLabel = R_LABEL,
  ys,
  labels,
  bars = false,
}: {
  testId: string;
  title: string;
  x: number[];
  /** The x readout's name and unit (uPlot's legend shows it beside the value under the pointer): a distance unless told. */
  xLabel?: string;
  ys: number[][];
  labels: string[];
  bars?: boolean;
}) {
  const data = useMemo(() => [x, ...ys] as uPlot.AlignedData, [x, ys]);
  const series = useMemo(
    (): uPlot.Series[] =>
      labels.map((label, k) => ({
        label,
        stroke: PAIR_COLORS[k % PAIR_COLORS.length],
        width: 1,
        ...(bars ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
      })),
    [labels, bars],
  );
  if (x.length === 0) return null;
  return <Plot title={title} testId={testId} data={data} series={series} xLabel={xLabel} height={150} legend={labels.length > 1} />;
}
