/**
 * One generated sample, periodic, beside its truth (CSP), the structure it duplicates or its reference match:
 * both cells with linked cameras, the overlay after the matcher's mapping (lines coloured by distance,
 * unmatched sites marked), the too-close pairs with their distances, and the facts of both side by side.
 * Everything comes in one SampleView built by workers/generations.worker.ts.
 */
import { useEffect, useMemo } from 'react';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import { compareSampleXrd, downloadSample, setSampleFormat, useGenerations } from '../../state/generations.ts';
import { XrdComparison } from '../../ui/XrdComparison.tsx';
import { WRITTEN_FORMATS } from '../../core/analysis/structure-export.ts';
import { DEFAULT_SETTINGS, type ViewSettings } from '../../viewer/view-settings.ts';
import { linkCameras, ViewerController } from '../../viewer/controller.ts';
import { atomRadii } from '../../viewer/StructureViewer.tsx';
import { ViewerPanel } from '../../ui/ViewerPanel.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import { DISPLACEMENT_RAMP, elementColor, toHex, type Rgb } from '../../viewer/colors.ts';
import { ColorBar } from '../../ui/ColorBar.tsx';
import { Halos } from '../../viewer/Halos.tsx';
import { makeSphereMesh } from '../../viewer/impostors.ts';
import { Lines, TextLabels } from '../../viewer/Lines.tsx';
import { finiteDisplay, overlayTargetDisplay } from '../../viewer/particle-display.ts';
import type {
  ClosePairView,
  DenovoSample,
  FormatId,
  HullView,
  SampleOverlay,
  SampleView,
  StructureSide,
} from '../../../workers/generations-api.ts';
import { fmt } from '../../ui/format.ts';
import { HullPlot } from './HullPlot.tsx';
import { CLOSE_COLOR, ROLE_TEXT, closeLabel, closePairDrawing, factRows, overlayDrawing } from './detail-model.ts';
import { WhyNoMatch } from './WhyNoMatch.tsx';
import { isCovered } from './fingerprint-map-model.ts';
import './gen-detail.css';

const VIEW_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showPolyhedra: false };
const OVERLAY_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showBonds: false, showPolyhedra: false };

export const predictionViewer = new ViewerController('gen-prediction');
export const otherViewer = new ViewerController('gen-other');
export const overlayViewer = new ViewerController('gen-overlay');

const MARK = {
  beyond: [0.95, 0.55, 0.1] as Rgb,
  unmatchedPrediction: [0.85, 0.1, 0.85] as Rgb,
  unmatchedOther: [0.9, 0.1, 0.1] as Rgb,
};
const CLOSE_HEX = toHex(CLOSE_COLOR);

export function SampleDetail({ view }: { view: SampleView }) {
  useEffect(() => linkCameras([predictionViewer, otherViewer, overlayViewer]), []);
  const other = view.other;
  return (
    <div className="gen-detail" data-testid="gen-detail" data-index={view.index}>
      <div className={other ? 'gen-views' : 'gen-views gen-views-1'}>
        <ViewerPanel
          panelTestId="gen-viewer-prediction-panel"
          controller={predictionViewer}
          testId="gen-viewer-prediction"
          display={view.prediction.display}
          settings={VIEW_SETTINGS}
          fitKey={view}
          caption={<>prediction · {view.prediction.id}</>}
        >
          <CloseDrawing pairs={view.prediction.closePairs} display={view.prediction.display} />
        </ViewerPanel>
        {other && (
          <ViewerPanel
            panelTestId="gen-viewer-other-panel"
            controller={otherViewer}
            testId="gen-viewer-other"
            display={other.display}
            settings={VIEW_SETTINGS}
            fitKey={view}
            caption={
              <>
                {ROLE_TEXT[other.role]} · {other.id}
              </>
            }
            captionTestId="gen-other-caption"
          />
        )}
        {other && view.overlay && <OverlayView overlay={view.overlay} fitKey={view} otherRole={other.role} />}
      </div>
      <div className="gen-detail-info">
        <Facts prediction={view.prediction} other={other} />
        <SampleExport other={other} />
        <ClosePairs side={view.prediction} />
        <NearestTest view={view} />
        {view.explain && <WhyNoMatch explanation={view.explain} />}
        {view.hull && <HullSection view={view} hull={view.hull} />}
      </div>
    </div>
  );
}

/** With coverage: the sample's distances to the nearest test structure and whether COV-P counts it, or why it has no fingerprint. */
function NearestTest({ view }: { view: SampleView }) {
  const coverage = useGenerations((s) => (s.run?.mode === 'denovo' ? s.run.result.coverage : undefined));
  const row = view.row as DenovoSample;
  if (view.mode !== 'denovo' || !coverage || row.struc_precision_dist === undefined) return null;
  if (row.fingerprint_error || row.struc_precision_dist === null)
    return (
      <p className="gen-nearest-test" data-testid="gen-fingerprint-error">
        No coverage fingerprint: {row.fingerprint_error ?? 'none was made'} (counted as not covered in COV-P).
      </p>
    );
  const covered = isCovered(row, coverage.struc_cutoff, coverage.comp_cutoff);
  return (
    <p className="gen-nearest-test" data-testid="gen-nearest-test" data-covered={covered}>
      Nearest test structure: structure fingerprint {fmt(row.struc_precision_dist)} (≤ {coverage.struc_cutoff}), composition{' '}
      {fmt(row.comp_precision_dist)} (≤ {coverage.comp_cutoff}): {covered ? 'within both cutoffs (covered)' : 'not covered'}.
    </p>
  );
}

/** "Li2O × 0.6667 + Li2O2 × 0.3333": the phases the sample's composition decomposes into on the hull, with their fractions. */
const decompositionText = (d: Record<string, number>): string =>
  Object.entries(d)
    .map(([formula, amount]) => `${formula} × ${fmt(amount)}`)
    .join(' + ');

/** The sample's energy above hull, its decomposition and the hull plot of its chemical system. */
function HullSection({ view, hull }: { view: SampleView; hull: HullView }) {
  const row = view.row as { e_above_hull?: number | null; decomposition?: Record<string, number> | null };
  return (
    <div className="gen-hull" data-testid="gen-hull">
      <p data-testid="gen-hull-decomposition">
        E_hull {fmt(row.e_above_hull ?? null)} eV/atom
        {row.decomposition ? ` · decomposes into ${decompositionText(row.decomposition)}` : ' · no energy for this sample'}
      </p>
      <HullPlot hull={hull} selected={view.index} />
    </div>
  );
}

/** The prediction and its counterpart as files, in any format the lab writes. */
function SampleExport({ other }: { other: StructureSide | null }) {
  const format = useGenerations((s) => s.sampleFormat);
  return (
    <div className="gen-sample-export" data-testid="gen-sample-export">
      <select
        aria-label="structure file format"
        data-testid="gen-sample-format"
        value={format}
        onChange={(e) => setSampleFormat(e.target.value as FormatId)}
      >
        {WRITTEN_FORMATS.map((f) => (
          <option key={f.id} value={f.id}>
            {f.label}
          </option>
        ))}
      </select>
      <button type="button" data-testid="gen-download-prediction" onClick={() => void downloadSample('prediction')}>
        Download prediction
      </button>
      {other && (
        <button type="button" data-testid="gen-download-other" onClick={() => void downloadSample('other')}>
          Download {ROLE_TEXT[other.role]}
        </button>
      )}
      {other && (
        <button type="button" data-testid="gen-xrd-compare" onClick={() => void compareSampleXrd()}>
          Compare powder patterns
        </button>
      )}
      {other && <SampleXrd otherLabel={ROLE_TEXT[other.role]} />}
    </div>
  );
}

/** The prediction's powder pattern over its counterpart's, with the similarity scores of `structlab xrd-compare`. */
function SampleXrd({ otherLabel }: { otherLabel: string }) {
  const selected = useGenerations((s) => s.selected);
  const xrd = useGenerations((s) => s.xrd);
  const labels = useMemo((): [string, string] => ['prediction', otherLabel], [otherLabel]);
  if (!xrd || xrd.index !== selected) return null;
  return <XrdComparison comparison={xrd.comparison} labels={labels} testId="gen-xrd" />;
}

/** The too-close pairs of the prediction: red segments to the nearest image, distances as sprites (in the PNG export). */
function CloseDrawing({ pairs, display }: { pairs: readonly ClosePairView[]; display: DisplayData }) {
  const d = useMemo(() => closePairDrawing(pairs), [pairs]);
  const height = useMemo(() => {
    const c = display.cell;
    const longest = c ? Math.max(Math.hypot(c[0], c[1], c[2]), Math.hypot(c[3], c[4], c[5]), Math.hypot(c[6], c[7], c[8])) : 5;
    return Math.max(0.35, 0.06 * longest);
  }, [display]);
  if (pairs.length === 0) return null;
  return (
    <>
      <Lines points={d.points} colors={d.colors} />
      <Halos centers={d.ends} color={CLOSE_COLOR} radius={0.3} opacity={0.5} />
      <TextLabels labels={d.labels} color={CLOSE_HEX} height={height} />
    </>
  );
}

/** The counterpart's atoms solid, the prediction's translucent beside their partners, lines coloured by distance. */
function OverlayView({ overlay, fitKey, otherRole }: { overlay: SampleOverlay; fitKey: unknown; otherRole: StructureSide['role'] }) {
  const display = useMemo(() => overlayTargetDisplay(overlay), [overlay]);
  const d = useMemo(() => overlayDrawing(overlay), [overlay]);
  return (
    <ViewerPanel
      panelTestId="gen-viewer-overlay-panel"
      controller={overlayViewer}
      testId="gen-viewer-overlay"
      display={display}
      settings={OVERLAY_SETTINGS}
      fitKey={fitKey}
      caption={<>{ROLE_TEXT[otherRole]} (solid) + prediction (translucent) after the mapping</>}
      after={
        <ColorBar
          caption={`${ROLE_TEXT[otherRole]} site → predicted site, Å, up to stol (${
            overlay.source === 'matcher' ? "the matcher's mapping" : 'no mapping within stol: same-element pairs of least distance'
          })`}
          ramp={DISPLACEMENT_RAMP}
          min="0"
          max={overlay.tolerance.toFixed(2)}
          testId="gen-overlay-legend"
          keysTestId="gen-overlay-counts"
          dataSource={overlay.source}
        >
          <span>{overlay.pairs.length} pairs</span>
          <span>
            <i className="swatch ring" style={{ borderColor: toHex(MARK.beyond) }} /> beyond stol {d.beyond.length}
          </span>
          <span>
            <i className="swatch ring" style={{ borderColor: toHex(MARK.unmatchedPrediction) }} /> unmatched predicted{' '}
            {d.unmatchedPrediction.length}
          </span>
          <span>
            <i className="swatch ring" style={{ borderColor: toHex(MARK.unmatchedOther) }} /> unmatched {ROLE_TEXT[otherRole]}{' '}
            {d.unmatchedOther.length}
          </span>
        </ColorBar>
      }
    >
      <PredictionGhost overlay={overlay} elements={display.elements} />
      {d.points.length > 0 && <Lines points={d.points} colors={d.colors} />}
      <Halos centers={d.unmatchedOther} color={MARK.unmatchedOther} radius={0.85} />
      <Halos centers={d.unmatchedPrediction} color={MARK.unmatchedPrediction} radius={0.85} />
      <Halos centers={d.beyond} color={MARK.beyond} radius={0.75} opacity={0.35} />
    </ViewerPanel>
  );
}

/** The prediction's atoms, translucent and a little larger, where the overlay put them. */
function PredictionGhost({ overlay, elements }: { overlay: SampleOverlay; elements: string[] }) {
  const mesh = useDisposable(() => {
    const n = overlay.answerSymbols.length;
    const positions = Float32Array.from(overlay.answerCart.flat());
    const d = finiteDisplay(
      elements,
      Uint16Array.from(overlay.answerSymbols, (e) => elements.indexOf(e)),
      positions,
    );
    const radii = atomRadii(d, OVERLAY_SETTINGS);
    const colors = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) colors.set(elementColor(overlay.answerSymbols[i], OVERLAY_SETTINGS.colorScheme), 3 * i);
    const m = makeSphereMesh({ centers: positions, radii: radii.map((r) => r * 1.1), colors, count: n }, 0.35);
    m.renderOrder = 3;
    return m;
  }, [overlay, elements]);
  return <primitive object={mesh} />;
}

function Facts({ prediction, other }: { prediction: StructureSide; other: StructureSide | null }) {
  const rows = useMemo(() => factRows(prediction, other), [prediction, other]);
  return (
    <table className="gen-facts" data-testid="gen-facts">
      <thead>
        <tr>
          <th />
          <th>prediction</th>
          {other && <th>{ROLE_TEXT[other.role]}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} data-fact={r.label} className={r.differs ? 'differs' : ''}>
            <th>{r.label}</th>
            <td>{r.prediction}</td>
            {other && <td>{r.other}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const symbolOf = (side: StructureSide, site: number): string => side.display.elements[side.display.element[site]];

function ClosePairs({ side }: { side: StructureSide }) {
  if (side.closePairs.length === 0) return null;
  return (
    <div className="gen-close" data-testid="gen-close-pairs">
      <h3>
        <i className="swatch" style={{ background: CLOSE_HEX }} /> Sites closer than 0.5 Å (atoms_too_close)
      </h3>
      <ul>
        {side.closePairs.map((p) => (
          <li key={`${p.i}/${p.j}`} data-testid="gen-close-pair" data-distance={p.distance}>
            sites {p.i} ({symbolOf(side, p.i)}) and {p.j} ({symbolOf(side, p.j)}): {closeLabel(p.distance)}
          </li>
        ))}
      </ul>
    </div>
  );
}
