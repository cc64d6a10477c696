/**
 * C2NP teaching view: carve a nanoparticle from a crystal and watch the crystal → particle transition.
 * Carving, coordination, hull and histograms run in workers/c2np.worker.ts; this page draws them.
 */
import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import * as THREE from 'three';
import type uPlot from 'uplot';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import { DEFAULT_SETTINGS, type ViewSettings } from '../../viewer/view-settings.ts';
import {
  type ColorMode,
  loadCrystal,
  setColorMode,
  setRadius,
  setRadiusFor,
  setRotation,
  setShowHull,
  setShowSphere,
  useNanoparticle,
} from '../../state/nanoparticle.ts';
import { openOneContainer, readTextFile } from '../../browser/read-file.ts';
import { StructureViewer } from '../../viewer/StructureViewer.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import { elementColor, rampColor, toHex, toRgb, type Rgb } from '../../viewer/colors.ts';
import { finiteDisplay } from '../../viewer/particle-display.ts';
import { DATASETS, DEFAULT_DATASET, datasetText, isDataset } from '../../state/datasets.ts';
import { type CrystalInfo, MAX_RADIUS, MIN_RADIUS, type ParticleView, type Split } from '../../../workers/c2np-api.ts';
import { Plot } from '../../ui/Plot.tsx';
import { ColorBar } from '../../ui/ColorBar.tsx';
import { PanelResizer } from '../../ui/PanelResizer.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { TextLabels, type TextLabel } from '../../viewer/Lines.tsx';
import './nanoparticle.css';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { RecordButton } from '../../ui/RecordDialog.tsx';
import { linkCameras, mainViewer, ViewerController } from '../../viewer/controller.ts';
import { radiusSeries } from '../../state/nanoparticle-movie.ts';
import { ViewerPanel } from '../../ui/ViewerPanel.tsx';
import { WulffMesh } from '../../viewer/WulffMesh.tsx';
import { SITE_CLASSES } from '../../core/tasks/c2np/size-series.ts';
import { ShapeControls, WulffLegend, familyColors } from './ShapeControls.tsx';
import { CompareControls, SeriesControls, SeriesPlots } from './SizeSeries.tsx';
import { sizeSeriesMovie } from './series-movie.ts';
import { CLASS_COLORS } from '../../state/nanoparticle-shapes.ts';

/** The growth movie: the size series once computed, else (for the sphere) the C2NP radius series. */
const RECORD_SOURCES = {
  growth: () => sizeSeriesMovie() ?? (useNanoparticle.getState().shape === 'sphere' ? radiusSeries() : null),
};
/** The side-by-side view's camera follows the main one's (linkCameras), and the other way round. */
const compareViewer = new ViewerController('np-compare');
const VIEW_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showBonds: false, showCell: false, showPolyhedra: false };
const SPLITS: Split[] = ['train', 'ID', 'OOD'];

/** Coordination colour ramp: few bonds (surface) red → orange → blue at the bulk coordination (interior). */
const RAMP: Rgb[] = [
  [0.84, 0.15, 0.11],
  [0.98, 0.7, 0.2],
  [0.2, 0.42, 0.86],
];
const UNBONDED: Rgb = [0.62, 0.62, 0.62];
const particleDisplay = (p: ParticleView): DisplayData => finiteDisplay(p.elements, p.element, p.positions);

const CLASS_RGB: Rgb[] = SITE_CLASSES.map((c) => toRgb(CLASS_COLORS[c]));

/** The colours of the chosen mode: element (null), coordination, or site class (shapes only; else element). */
function atomColors(p: ParticleView | null, crystal: CrystalInfo | null, mode: ColorMode): Float32Array | null {
  if (!p || !crystal) return null;
  if (mode === 'coordination') return coordinationColors(p, crystal.bulkCoordination);
  if (mode === 'site' && p.siteClass) {
    const colors = new Float32Array(3 * p.natoms);
    for (let i = 0; i < p.natoms; i++) colors.set(CLASS_RGB[p.siteClass[i]], 3 * i);
    return colors;
  }
  return null;
}

function coordinationColors(p: ParticleView, bulk: Record<string, number>): Float32Array {
  const colors = new Float32Array(3 * p.natoms);
  for (let i = 0; i < p.natoms; i++) {
    const full = bulk[p.elements[p.element[i]]];
    // An element with no bonds in the bulk (e.g. Cs in CsCaH3 under this rule) can't lose any: neutral grey.
    colors.set(full > 0 ? rampColor(RAMP, p.coordination[i] / full) : UNBONDED, 3 * i);
  }
  return colors;
}

export function NanoparticlePage() {
  // Not the busy line nor the R-series ticks: those re-render <Progress /> only, never the viewer.
  const s = useNanoparticle(
    useShallow((st) => ({
      colorMode: st.colorMode,
      crystal: st.crystal,
      fitToken: st.fitToken,
      particle: st.particle,
      showHull: st.showHull,
      showSphere: st.showSphere,
      showWulff: st.showWulff,
      compare: st.compare,
      compareParticle: st.compareParticle,
    })),
  );
  const side = s.compare !== 'off';
  useEffect(() => (side ? linkCameras([mainViewer, compareViewer]) : undefined), [side]);
  // The view beside fits its particle and the link moves both cameras there; a larger particle in the main view refits.
  useEffect(() => {
    const main = useNanoparticle.getState().particle;
    if (!s.compareParticle || !main || main.natoms <= s.compareParticle.natoms) return;
    let live = true;
    void compareViewer.nextFrame().then(() => live && mainViewer.resetView());
    return () => {
      live = false;
    };
  }, [s.compareParticle]);
  useEffect(() => {
    if (!useNanoparticle.getState().dataset) void datasetText(DEFAULT_DATASET).then((text) => loadCrystal(DEFAULT_DATASET, text));
  }, []);
  const display = useMemo(() => (s.particle ? particleDisplay(s.particle) : null), [s.particle]);
  const colors = useMemo(() => atomColors(s.particle, s.crystal, s.colorMode), [s.particle, s.crystal, s.colorMode]);
  // Linked cameras share one space: the particle beside is moved onto the main one's centre (ASE's clusters sit at the
  // origin, spheres and Wulff particles at the supercell's centre). Rounded, so a member with the same centre keeps it.
  const shiftKey =
    s.compareParticle && s.particle ? s.particle.center.map((x, k) => (x - s.compareParticle!.center[k]).toFixed(6)).join(',') : '';
  const compared = useMemo(() => {
    const c = s.compareParticle;
    if (!c) return null;
    const shift = shiftKey ? shiftKey.split(',').map(Number) : [0, 0, 0];
    const positions = c.positions.slice();
    for (let i = 0; i < positions.length; i++) positions[i] += shift[i % 3];
    const wulff = c.wulff && { ...c.wulff, center: c.wulff.center.map((x, k) => x + shift[k]) as [number, number, number] };
    return { display: finiteDisplay(c.elements, c.element, positions), wulff };
  }, [s.compareParticle, shiftKey]);
  const compareColors = useMemo(() => atomColors(s.compareParticle, s.crystal, s.colorMode), [s.compareParticle, s.crystal, s.colorMode]);
  const sphere = s.particle?.shape === 'sphere';
  return (
    <div className="lab np-lab" data-testid="nanoparticle-page">
      <aside className="panel left">
        <Controls />
      </aside>
      <main className="np-main">
        <div className={side ? 'np-views np-side' : 'np-views'}>
          <div className="view" data-testid="np-view-main">
            <StructureViewer display={display} settings={VIEW_SETTINGS} fitKey={s.fitToken} atomColors={colors}>
              {s.particle && sphere && s.showSphere && <CarvingSphere center={s.particle.center} radius={s.particle.radius} />}
              {s.particle && s.showHull && s.particle.hull.length > 0 && <HullMesh particle={s.particle} />}
              {s.particle && s.showHull && <FacetMillerLabels particle={s.particle} />}
              {s.particle?.wulff && s.showWulff && <WulffMesh shape={s.particle.wulff} colors={familyColors} />}
            </StructureViewer>
            {display && <Legend />}
            {s.particle?.wulff && s.showWulff && <WulffLegend wulff={s.particle.wulff} />}
            <WorkProgress />
            {/* Movies: a rotation, or the growth series (FrameProviders: src/state/nanoparticle-movie.ts, ./series-movie.ts). */}
            <RecordButton controller={mainViewer} sources={RECORD_SOURCES} fileBase="structlab-particle" className="record-open-np" />
          </div>
          {side && (
            <ViewerPanel
              panelTestId="np-view-compare"
              controller={compareViewer}
              testId="np-viewer-compare"
              display={compared?.display ?? null}
              settings={VIEW_SETTINGS}
              fitKey={s.compareParticle}
              atomColors={compareColors}
              label="3D view of the particle beside it"
              caption={<CompareCaption particle={s.compareParticle} />}
              captionTestId="np-compare-caption"
            >
              {compared?.wulff && s.showWulff && <WulffMesh shape={compared.wulff} colors={familyColors} />}
            </ViewerPanel>
          )}
        </div>
      </main>
      <aside className="panel right">
        <Plots />
      </aside>
      <PanelResizer id="nanoparticle" defaultWidth={350} />
    </div>
  );
}

/** What the side-by-side view shows. */
function CompareCaption({ particle }: { particle: ParticleView | null }) {
  if (!particle) return <>…</>;
  const what = particle.shape === 'sphere' ? `sphere R = ${particle.radius.toFixed(2)} Å` : particle.shape;
  return (
    <>
      {what} · N = <span data-testid="np-compare-natoms">{particle.natoms}</span>
      {particle.magic ? ' (magic)' : ''} · surface {(100 * particle.surfaceFraction).toFixed(1)} %, mean CN{' '}
      {particle.meanCoordination.toFixed(2)}
    </>
  );
}

function WorkProgress() {
  const { busy, seriesProgress, sizeSeriesProgress } = useNanoparticle(
    useShallow((st) => ({ busy: st.busy, seriesProgress: st.seriesProgress, sizeSeriesProgress: st.sizeSeriesProgress })),
  );
  if (!busy && !seriesProgress && !sizeSeriesProgress) return null;
  const text = busy ?? (sizeSeriesProgress ? `size series ${sizeSeriesProgress}` : `R series ${seriesProgress}`);
  return <Progress testId="progress">{text}…</Progress>;
}

function Controls() {
  const s = useNanoparticle(
    useShallow((st) => ({
      colorMode: st.colorMode,
      crystal: st.crystal,
      dataset: st.dataset,
      error: st.error,
      particle: st.particle,
      radius: st.radius,
      rotation: st.rotation,
      showHull: st.showHull,
      showSphere: st.showSphere,
      split: st.split,
      shape: st.shape,
    })),
  );
  const p = s.particle;
  const sphere = s.shape === 'sphere';
  const setRadiusSet = s.crystal ? setRadiusFor(s.crystal, s.split, s.radius) : null;
  const maxRotation = s.crystal && setRadiusSet !== null ? s.crystal.rotationsPerRadius[setRadiusSet] : 0;
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    let text: string, opened: File;
    try {
      opened = await openOneContainer(file); // x.cif.gz as x.cif; an archive of one file as that file
      text = await readTextFile(opened);
    } catch (e) {
      useNanoparticle.setState({ error: (e as Error).message });
      return;
    }
    void loadCrystal(opened.name, text);
  };
  return (
    <section>
      <h2>Crystal → nanoparticle</h2>
      <label className="row">
        Crystal
        <select
          data-testid="np-crystal"
          value={isDataset(s.dataset) ? s.dataset : ''}
          onChange={(e) => void datasetText(e.target.value).then((text) => loadCrystal(e.target.value, text))}
        >
          {!isDataset(s.dataset) && <option value="">{s.dataset || '—'}</option>}
          {DATASETS.map((d) => (
            <option key={d.file} value={d.file}>
              {d.title}
            </option>
          ))}
        </select>
      </label>
      <label className="file-button">
        Open a cell…
        <input type="file" data-testid="np-file-input" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {s.crystal && (
        <p className="source">
          {s.crystal.formula} · bulk coordination{' '}
          {Object.entries(s.crystal.bulkCoordination)
            .map(([el, n]) => `${el} ${n}`)
            .join(', ')}
        </p>
      )}
      <ShapeControls />
      {sphere && (
        <>
          <label className="row">
            Radius R = {s.radius} Å
            <input
              type="range"
              data-testid="np-radius"
              min={MIN_RADIUS}
              max={MAX_RADIUS}
              step={1}
              value={s.radius}
              onChange={(e) => setRadius(Number(e.target.value))}
            />
          </label>
          <label className="row">
            Radius (Å, {MIN_RADIUS}–{MAX_RADIUS})
            <input
              type="number"
              data-testid="np-radius-input"
              min={MIN_RADIUS}
              max={MAX_RADIUS}
              step={0.5}
              defaultValue={s.radius}
              key={s.radius}
              onKeyDown={(e) => {
                if (e.key === 'Enter') setRadius(Number((e.target as HTMLInputElement).value));
              }}
            />
          </label>
        </>
      )}
      <p>
        Atoms:{' '}
        <span className="count" data-testid="np-natoms">
          {p ? p.natoms : '…'}
        </span>
      </p>
      {p && (
        <p className="hint" data-testid="np-surface">
          surface {p.surfaceAtoms} ({(100 * p.surfaceFraction).toFixed(1)} %), mean coordination {p.meanCoordination.toFixed(2)}
        </p>
      )}
      <p className="hint">
        {sphere
          ? 'C2NP convention: 20×20×20 supercell, centre ½(A1+A2+A3), strict |r − c| < R. '
          : s.shape === 'wulff'
            ? 'The crystal’s atoms inside the Wulff polyhedron scaled to the closed size nearest N (as ASE’s wulff_construction). '
            : 'ASE 3.22’s cluster builder with the crystal’s element and lattice constant; its strained bonds count within 1.2·a/√2. '}
        Coordination counts the first neighbour shell of the bulk crystal; a surface atom has fewer neighbours than its element has in the
        bulk.
      </p>
      <label className="row">
        Colour by
        <select data-testid="np-color" value={s.colorMode} onChange={(e) => setColorMode(e.target.value as ColorMode)}>
          <option value="element">element</option>
          <option value="coordination">coordination (surface vs bulk)</option>
          <option value="site" disabled={!p?.siteClass} title={p?.siteClass ? undefined : 'For the shapes and series members'}>
            site class (bulk, face, edge, vertex)
          </option>
        </select>
      </label>
      {sphere && (
        <label className="check">
          <input type="checkbox" data-testid="np-sphere" checked={s.showSphere} onChange={(e) => setShowSphere(e.target.checked)} /> carving
          sphere
        </label>
      )}
      <label className="check">
        <input type="checkbox" data-testid="np-hull" checked={s.showHull} onChange={(e) => setShowHull(e.target.checked)} /> convex hull
      </label>
      {s.showHull && s.particle && <FacetTable particle={s.particle} />}
      <SeriesControls />
      <CompareControls />
      {sphere && (
        <>
          <h3>Rotation (C2NP sets)</h3>
          <label className="row">
            Split
            <select data-testid="np-split" value={s.split} onChange={(e) => setRotation(e.target.value as Split, s.rotation)}>
              {SPLITS.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </label>
          <label className="row">
            Rotation (0 = as carved, 1–{maxRotation})
            <input
              type="number"
              data-testid="np-rotation"
              min={0}
              max={maxRotation}
              step={1}
              value={s.rotation}
              onChange={(e) => {
                const k = Number(e.target.value);
                if (!Number.isInteger(k) || k < 0 || k > maxRotation)
                  useNanoparticle.setState({ error: `The rotation must be a whole number from 0 to ${maxRotation}.` });
                else setRotation(s.split, k);
              }}
            />
          </label>
          {setRadiusSet !== null && (
            <p className="hint">
              Set of R = {setRadiusSet} Å ({s.split}); rotations turn about the file origin, as C2NP does.
            </p>
          )}
          {p?.quaternion && (
            <p className="hint" data-testid="np-quaternion">
              q = ({p.quaternion.map((v) => v.toFixed(4)).join(', ')})
            </p>
          )}
        </>
      )}
      {p && p.warnings.length > 0 && <p className="hint">{p.warnings.join('; ')}</p>}
      {s.error && <ErrorAlert message={s.error} testId="np-error" onDismiss={() => useNanoparticle.setState({ error: null })} />}
    </section>
  );
}

function Legend() {
  const { particle, crystal, colorMode } = useNanoparticle(
    useShallow((st) => ({ particle: st.particle, crystal: st.crystal, colorMode: st.colorMode })),
  );
  if (!particle) return null;
  if (colorMode === 'site' && particle.siteClass) {
    const present = new Set(particle.siteClass);
    return (
      <ul className="legend" data-testid="np-legend">
        {SITE_CLASSES.map((c, k) =>
          present.has(k) ? (
            <li key={c}>
              <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                <span className="swatch" style={{ background: CLASS_COLORS[c] }} />
                {c}
              </span>
            </li>
          ) : null,
        )}
      </ul>
    );
  }
  if (colorMode === 'coordination') {
    return (
      <ColorBar
        caption={`coordination / bulk coordination of the element: 0 surface, 1 bulk (${
          crystal
            ? Object.entries(crystal.bulkCoordination)
                .map(([el, n]) => `${el} ${n}`)
                .join(', ')
            : '…'
        })`}
        ramp={RAMP}
        min="0"
        max="1"
        testId="np-legend"
      >
        {crystal && Object.values(crystal.bulkCoordination).some((n) => n === 0) && <span>grey: elements with no bonds in the bulk</span>}
      </ColorBar>
    );
  }
  return (
    <ul className="legend" data-testid="np-legend">
      {particle.elements.map((el) => (
        <li key={el}>
          <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <span className="swatch" style={{ background: toHex(elementColor(el, VIEW_SETTINGS.colorScheme)) }} />
            {el}
          </span>
        </li>
      ))}
    </ul>
  );
}

const SERIES_SURFACE: uPlot.Series[] = [{ label: 'surface fraction', stroke: '#d62728', width: 2 }];
const SERIES_CN: uPlot.Series[] = [{ label: 'mean coordination', stroke: '#1f5fd6', width: 2 }];
const SERIES_HIST: uPlot.Series[] = [{ label: 'atoms', stroke: '#555', fill: 'rgba(31,95,214,.35)', width: 1 }];
const SERIES_RDF: uPlot.Series[] = [
  { label: 'particle', stroke: '#d62728', width: 1.5 },
  { label: 'bulk (R = 30 Å)', stroke: '#1f5fd6', width: 1.5, dash: [4, 3] },
];

const SERIES_DEBYE: uPlot.Series[] = [
  { label: 'particle (Debye)', stroke: '#d62728', width: 1.5 },
  { label: 'bulk crystal', stroke: '#1f5fd6', width: 1 },
];

/** The particle's powder pattern against the crystal's: peaks broaden as the particle shrinks. */
function DiffractionPlot() {
  const diffraction = useNanoparticle((st) => st.diffraction);
  const data = useMemo(
    () => (diffraction ? ([diffraction.twoTheta, diffraction.particle, diffraction.bulk] as unknown as uPlot.AlignedData) : null),
    [diffraction],
  );
  if (!diffraction || !data) return null;
  const { particlePeak, bulkPeak } = diffraction;
  return (
    <>
      <Plot title="Powder pattern, Cu Kα (2θ, °)" testId="np-plot-xrd" data={data} series={SERIES_DEBYE} xLabel="2θ (°)" />
      <p className="hint" data-testid="np-xrd-width" data-radius={diffraction.radius}>
        the bulk&apos;s strongest peak in the particle: {particlePeak.twoTheta.toFixed(2)}°, FWHM{' '}
        <span data-testid="np-xrd-fwhm">{particlePeak.fwhm.toFixed(2)}</span>°; bulk {bulkPeak.twoTheta.toFixed(2)}°
      </p>
    </>
  );
}

function Plots() {
  const { series, particle, seriesProgress } = useNanoparticle(
    useShallow((st) => ({ series: st.series, particle: st.particle, seriesProgress: st.seriesProgress })),
  );
  const seriesData = useMemo(
    () =>
      series
        ? {
            surface: [series.radii, series.surfaceFraction] as uPlot.AlignedData,
            cn: [series.radii, series.meanCoordination] as uPlot.AlignedData,
          }
        : null,
    [series],
  );
  const hist = useMemo(() => {
    if (!particle) return null;
    // Steps: each coordination number k is drawn as a flat bar from k − ½ to k + ½.
    const xs: number[] = [],
      ys: number[] = [];
    particle.coordinationHistogram.forEach((n, k) => {
      xs.push(k - 0.5, k + 0.5);
      ys.push(n, n);
    });
    return [xs, ys] as uPlot.AlignedData;
  }, [particle]);
  const rdf = useMemo(
    () => (particle ? ([particle.rdf.r, particle.rdf.particle, particle.rdf.bulk] as uPlot.AlignedData) : null),
    [particle],
  );
  return (
    <section data-testid="np-plots">
      <SeriesPlots />
      <h2>Crystal → particle</h2>
      {seriesData ? (
        <>
          <Plot
            title="C2NP spheres: surface-atom fraction vs R (Å)"
            testId="np-plot-surface"
            data={seriesData.surface}
            series={SERIES_SURFACE}
            xLabel="R (Å)"
          />
          <Plot
            title="C2NP spheres: mean coordination vs R (Å)"
            testId="np-plot-cn"
            data={seriesData.cn}
            series={SERIES_CN}
            xLabel="R (Å)"
          />
        </>
      ) : (
        <p className="hint">Computing R = 6 … 30 Å{seriesProgress ? ` (${seriesProgress})` : ''}…</p>
      )}
      {hist && (
        <Plot title="Coordination histogram (this particle)" testId="np-plot-hist" data={hist} series={SERIES_HIST} xLabel="coordination" />
      )}
      {rdf && (
        <Plot title="Pair-distance histogram (C2NP RDF), r in Å" testId="np-plot-rdf" data={rdf} series={SERIES_RDF} xLabel="r (Å)" />
      )}
      <DiffractionPlot />
    </section>
  );
}

function CarvingSphere({ center, radius }: { center: [number, number, number]; radius: number }) {
  const mesh = useDisposable(() => {
    const m = new THREE.Mesh(
      new THREE.SphereGeometry(radius, 48, 24),
      new THREE.MeshLambertMaterial({ color: 0x6fa8dc, transparent: true, opacity: 0.15, depthWrite: false, side: THREE.DoubleSide }),
    );
    m.position.set(center[0], center[1], center[2]);
    m.renderOrder = 6;
    return m;
  }, [center[0], center[1], center[2], radius]);
  return <primitive object={mesh} />;
}

/** Most facets labelled in 3D (the largest; the table lists every family). */
const FACET_LABELS_SHOWN = 14;

/** The Miller indices of the largest indexed facets at their centroids, a little outside the hull. */
function FacetMillerLabels({ particle }: { particle: ParticleView }) {
  const labels = useMemo((): TextLabel[] => {
    const c = particle.center;
    return particle.facets
      .filter((f) => f.label !== null)
      .slice(0, FACET_LABELS_SHOWN)
      .map((f) => {
        const d = [0, 1, 2].map((k) => f.centroid[k] - c[k]);
        const len = Math.hypot(d[0], d[1], d[2]) || 1;
        return { text: f.label!, position: [0, 1, 2].map((k) => f.centroid[k] + (1.2 * d[k]) / len) as [number, number, number] };
      });
  }, [particle]);
  return <TextLabels labels={labels} color="#1b6e1b" height={1.1} />;
}

/** The hull's facets by Miller family: share of the hull's area and number of facets, families of the largest faces first. */
function FacetTable({ particle }: { particle: ParticleView }) {
  const rows = useMemo(() => {
    const families = new Map<string, { share: number; count: number; largest: number }>();
    for (const f of particle.facets) {
      const key = f.family ?? 'unindexed';
      const row = families.get(key) ?? { share: 0, count: 0, largest: 0 };
      row.share += f.share;
      row.count++;
      row.largest = Math.max(row.largest, f.share);
      families.set(key, row);
    }
    // By the size of one face, not the family's sum: 48 small {3 2 1} facets are not the particle's main faces.
    return [...families].sort((a, b) => b[1].largest - a[1].largest);
  }, [particle]);
  if (rows.length === 0) return null;
  return (
    <table className="np-facets" data-testid="np-facets">
      <thead>
        <tr>
          <th title="Miller family of the hull's facets (planes of the crystal within 3° of the facet)">facets</th>
          <th>area</th>
          <th>n</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([family, row]) => (
          <tr key={family} data-testid="np-facet-row">
            <td>{family}</td>
            <td>{(100 * row.share).toFixed(1)} %</td>
            <td>{row.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HullMesh({ particle }: { particle: ParticleView }) {
  const group = useDisposable(() => {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(particle.positions.slice(), 3));
    geometry.setIndex(new THREE.BufferAttribute(particle.hull.slice(), 1));
    geometry.computeVertexNormals();
    const g = new THREE.Group();
    const faces = new THREE.Mesh(
      geometry,
      new THREE.MeshLambertMaterial({ color: 0x2ca02c, transparent: true, opacity: 0.2, depthWrite: false, side: THREE.DoubleSide }),
    );
    faces.renderOrder = 7;
    g.add(faces);
    g.add(
      new THREE.LineSegments(
        new THREE.WireframeGeometry(geometry),
        new THREE.LineBasicMaterial({ color: 0x1b6e1b, transparent: true, opacity: 0.5 }),
      ),
    );
    return g;
  }, [particle]);
  return <primitive object={group} />;
}
