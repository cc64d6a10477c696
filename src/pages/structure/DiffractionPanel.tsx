/**
 * The Diffraction panel: the powder pattern of `structlab xrd` as sticks and broadened (Gaussian, FWHM slider), the
 * hkl families of the peak under the pointer, the wavelength choice and the strongest peaks as a table.
 */
import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import type { XrdPattern, XrdPeak } from '../../core/analysis/xrd.ts';
import { compareXrdWith, profileTwoTheta, setFwhm, setPanelOpen, setWavelength, useCrystallography } from '../../state/crystallography.ts';
import { XrdComparison } from '../../ui/XrdComparison.tsx';
import { Plot } from '../../ui/Plot.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { fixed } from '../../ui/format.ts';

/** Peaks listed in the table, strongest first. */
const TOP_PEAKS = 10;
/** The pointer picks the nearest peak within this many pixels. */
const HOVER_PX = 8;

const familyText = (p: XrdPeak) => p.hkls.map((f) => `(${f.hkl.join(' ')})×${f.multiplicity}`).join(' ');

/** Strongest first; equal intensities by 2θ. */
const strongestPeaks = (peaks: readonly XrdPeak[], n: number): XrdPeak[] =>
  [...peaks].sort((a, b) => b.intensity - a.intensity || a.twoTheta - b.twoTheta).slice(0, n);

export function DiffractionPanel() {
  const open = useCrystallography((s) => s.open.xrd);
  const structure = useCrystallography((s) => s.structure);
  const busy = useCrystallography((s) => s.busy.xrd);
  const error = useCrystallography((s) => s.error.xrd);
  const wavelength = useCrystallography((s) => s.wavelength);
  const fwhm = useCrystallography((s) => s.fwhm);
  const pattern = useCrystallography((s) => s.pattern);
  const profile = useCrystallography((s) => s.profile);
  const named = wavelength === 'CuKa' || wavelength === 'MoKa';
  const [custom, setCustom] = useState(named ? '1.5406' : wavelength);
  if (!structure) return null;
  return (
    <details className="xtal" data-testid="xrd-panel" open={open} onToggle={(e) => setPanelOpen('xrd', e.currentTarget.open)}>
      <summary>Diffraction (powder XRD)</summary>
      <div className="xtal-controls">
        <label>
          λ
          <select
            data-testid="xrd-wavelength"
            value={named ? wavelength : 'custom'}
            onChange={(e) => setWavelength(e.target.value === 'custom' ? custom : e.target.value)}
          >
            <option value="CuKa">Cu Kα (1.54184 Å)</option>
            <option value="MoKa">Mo Kα (0.71073 Å)</option>
            <option value="custom">other (Å)</option>
          </select>
        </label>
        {!named && (
          <input
            aria-label="wavelength in Å"
            data-testid="xrd-lambda"
            className="xtal-number"
            value={custom}
            onChange={(e) => setCustom(e.target.value)}
            onBlur={() => custom !== wavelength && setWavelength(custom)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') setWavelength(custom);
            }}
          />
        )}
        <label title="Full width at half maximum of the Gaussian broadening">
          FWHM {fixed(fwhm, 2)}°
          <input
            data-testid="xrd-fwhm"
            type="range"
            min={0.02}
            max={2}
            step={0.02}
            value={fwhm}
            onChange={(e) => setFwhm(Number(e.target.value))}
          />
        </label>
      </div>
      {busy && <p className="hint">{busy}…</p>}
      {error && <p className="xtal-error">{error}</p>}
      {pattern && (
        <>
          <XrdPlot pattern={pattern} profile={profile} />
          <table className="xtal-table" data-testid="xrd-peaks">
            <thead>
              <tr>
                <th>2θ (°)</th>
                <th>I</th>
                <th>d (Å)</th>
                <th>hkl × multiplicity</th>
              </tr>
            </thead>
            <tbody>
              {strongestPeaks(pattern.peaks, TOP_PEAKS).map((p) => (
                <tr key={p.twoTheta}>
                  <td>{fixed(p.twoTheta, 3)}</td>
                  <td>{fixed(p.intensity, 2)}</td>
                  <td>{fixed(p.dHkl, 4)}</td>
                  <td>{familyText(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="hint">
            {pattern.peaks.length} peaks, 2θ {pattern.twoThetaRange.join('–')}° at λ = {pattern.lambda} Å (pymatgen XRDCalculator)
          </p>
          <SecondPattern />
        </>
      )}
    </details>
  );
}

/** A second structure's pattern over the shown one's, with `structlab xrd-compare`'s scores (e.g. a prediction vs its truth). */
function SecondPattern() {
  const xrdComparison = useCrystallography((s) => s.xrdComparison);
  const labels = useMemo((): [string, string] => ['shown', xrdComparison?.name ?? 'second'], [xrdComparison]);
  return (
    <div className="xtal-controls">
      <label className="file-button" title="Overlay another structure's powder pattern and score their similarity">
        Compare with a structure file…
        <FilePick data-testid="xrd-compare-file" onFiles={(files) => void compareXrdWith(files[0])} />
      </label>
      {xrdComparison && <XrdComparison comparison={xrdComparison.comparison} labels={labels} testId="xrd-compare" />}
    </div>
  );
}

const XRD_SERIES: uPlot.Series[] = [{ label: 'broadened', stroke: '#d62728', width: 1 }];
// A lone "I" turned upright by uPlot read as a stray dash beside the axis: the label is spelled out.
const XRD_AXES: uPlot.Axis[] = [{ label: '2θ (°)' }, { label: 'intensity', size: 40, labelSize: 20 }];
const HOVER_HINT = 'Point at a peak for its hkl.';

/**
 * The sticks (drawn on uPlot's canvas by a draw hook, no DOM per peak) over the broadened profile, in a Plot that
 * widens with the panel and opens large.
 */
function XrdPlot({ pattern, profile }: { pattern: XrdPattern; profile: Float64Array | null }) {
  const data = useMemo(() => {
    const n = profile?.length ?? 0;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    let max = 0;
    for (let m = 0; m < n; m++) if (profile![m] > max) max = profile![m];
    for (let m = 0; m < n; m++) {
      x[m] = profileTwoTheta(m);
      y[m] = max > 0 ? (100 * profile![m]) / max : 0;
    }
    return [x, y] as unknown as uPlot.AlignedData;
  }, [profile]);
  const scales = useMemo(
    (): uPlot.Scales => ({ x: { time: false, range: [pattern.twoThetaRange[0], pattern.twoThetaRange[1]] }, y: { range: [0, 105] } }),
    [pattern],
  );
  const hooks = useMemo((): uPlot.Hooks.Arrays => {
    const drawSticks = (u: uPlot) => {
      const ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = '#1f5fd6';
      ctx.lineWidth = Math.max(1, uPlot.pxRatio);
      ctx.beginPath();
      const base = u.valToPos(0, 'y', true);
      for (const p of pattern.peaks) {
        const px = u.valToPos(p.twoTheta, 'x', true);
        ctx.moveTo(px, base);
        ctx.lineTo(px, u.valToPos(p.intensity, 'y', true));
      }
      ctx.stroke();
      ctx.restore();
    };
    return { draw: [drawSticks] };
  }, [pattern]);
  const readout = useMemo(
    () => ({
      testId: 'xrd-hover',
      initial: HOVER_HINT,
      text: (u: uPlot) => {
        const left = u.cursor.left ?? -1;
        let best: XrdPeak | null = null;
        let bestPx = HOVER_PX;
        if (left >= 0)
          for (const p of pattern.peaks) {
            const d = Math.abs(u.valToPos(p.twoTheta, 'x') - left);
            if (d <= bestPx) {
              bestPx = d;
              best = p;
            }
          }
        return best
          ? `2θ ${fixed(best.twoTheta, 3)}° · I ${fixed(best.intensity, 2)} · d ${fixed(best.dHkl, 4)} Å · ${familyText(best)}`
          : null;
      },
    }),
    [pattern],
  );
  return (
    <Plot
      title="Powder pattern: peaks (blue) and broadened (red)"
      testId="xrd-plot"
      data={data}
      series={XRD_SERIES}
      xLabel="2θ (°)"
      axes={XRD_AXES}
      scales={scales}
      height={180}
      legend={false}
      hooks={hooks}
      readout={readout}
    />
  );
}
