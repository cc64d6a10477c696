/**
 * The Nanoparticle page's shape: C2NP's sphere (the default), a Wulff polyhedron from a table of surface energies (or a
 * Materials Project JSON/CSV), or ASE's icosahedron, decahedron, octahedron and cuboctahedron for a one-element fcc
 * crystal; and the Wulff legend drawn over the view. The particles are built in workers/c2np.worker.ts.
 */
import { useShallow } from 'zustand/react/shallow';
import { readTextFile } from '../../browser/read-file.ts';
import {
  applyEnergies,
  setEnergyRows,
  setShape,
  setShapeOption,
  setShapeSize,
  setShowWulff,
  useNanoparticle,
} from '../../state/nanoparticle.ts';
import { type Rgb, toHex, toRgb } from '../../viewer/colors.ts';
import type { ParticleShape, WulffView } from '../../../workers/c2np-api.ts';
import { type EnergyRow, SHAPES, coreSizeNote, energiesFromFile, rowsOf, sentence, sizeLabel } from '../../state/nanoparticle-shapes.ts';

/** A whole number typed into a field, or null while it is empty or not one. */
const wholeOf = (text: string): number | null => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);

export function ShapeControls() {
  const s = useNanoparticle(
    useShallow((st) => ({
      crystal: st.crystal,
      shape: st.shape,
      sizes: st.sizes,
      decahedronR: st.decahedronR,
      octahedronCutoff: st.octahedronCutoff,
      particle: st.particle,
    })),
  );
  const refusal = s.crystal?.aseRefusal ?? null;
  const size = s.sizes[s.shape];
  return (
    <>
      <label className="row">
        Shape
        <select data-testid="np-shape" value={s.shape} onChange={(e) => setShape(e.target.value as ParticleShape)}>
          {SHAPES.map((x) => (
            <option key={x.id} value={x.id} disabled={x.ase && refusal !== null} title={x.ase && refusal ? sentence(refusal) : undefined}>
              {x.label}
            </option>
          ))}
        </select>
      </label>
      {refusal && (
        <p className="hint" data-testid="np-ase-refusal">
          Icosahedra, decahedra, octahedra: {sentence(refusal)}
        </p>
      )}
      {s.shape !== 'sphere' && (
        <label className="row">
          {s.shape === 'wulff' ? 'Atoms (target N; Enter applies)' : `Size: ${sizeLabel(s.shape)}`}
          <input
            type="number"
            data-testid="np-shape-size"
            min={1}
            step={1}
            defaultValue={size}
            key={`${s.shape}-${size}`}
            onChange={(e) => {
              const n = wholeOf(e.target.value);
              // A shell or an edge atom more is cheap: applied as typed; a Wulff size on Enter or leaving the field.
              if (s.shape !== 'wulff' && n !== null && n !== size) setShapeSize(n);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') setShapeSize(Number((e.target as HTMLInputElement).value));
            }}
            onBlur={(e) => {
              const n = wholeOf(e.target.value);
              if (s.shape === 'wulff' && n !== null && n !== size) setShapeSize(n);
            }}
          />
        </label>
      )}
      {s.shape === 'decahedron' && (
        <WholeField
          label="Marks re-entrance r (0: Ino)"
          testId="np-decahedron-r"
          value={s.decahedronR}
          set={(decahedronR) => setShapeOption({ decahedronR })}
        />
      )}
      {s.shape === 'octahedron' && (
        <WholeField
          label="Corner cutoff (layers; 0: regular)"
          testId="np-octahedron-cutoff"
          value={s.octahedronCutoff}
          set={(octahedronCutoff) => setShapeOption({ octahedronCutoff })}
        />
      )}
      {s.shape !== 'sphere' && s.particle && s.particle.shape === s.shape && (
        <p className="hint" data-testid="np-shape-note">
          {coreSizeNote(s.shape, size)}
          {s.particle.magic ? ' · closed shell (magic number)' : ''}
          {s.shape === 'wulff' && s.particle.wulff ? ` · point group ${s.particle.wulff.pointGroup}` : ''}
        </p>
      )}
      {s.shape === 'wulff' && <EnergyTable />}
    </>
  );
}

function WholeField({ label, testId, value, set }: { label: string; testId: string; value: number; set: (n: number) => void }) {
  return (
    <label className="row">
      {label}
      <input
        type="number"
        data-testid={testId}
        min={0}
        step={1}
        value={value}
        onChange={(e) => {
          const n = wholeOf(e.target.value);
          if (n !== null) set(n);
        }}
      />
    </label>
  );
}

/** The (hkl) → γ table: edited in place, applied when a row is left or Enter is pressed, a row added, removed or loaded. */
function EnergyTable() {
  const { rows, error, showWulff, warnings } = useNanoparticle(
    useShallow((st) => ({ rows: st.energyRows, error: st.energiesError, showWulff: st.showWulff, warnings: st.particle?.wulff?.warnings })),
  );
  const edit = (k: number, patch: Partial<EnergyRow>) => setEnergyRows(rows.map((r, i) => (i === k ? { ...r, ...patch } : r)));
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    let text: string;
    try {
      text = await readTextFile(file);
    } catch (e) {
      useNanoparticle.setState({ energiesError: sentence((e as Error).message) });
      return;
    }
    const read = energiesFromFile(file.name, text);
    if ('error' in read) useNanoparticle.setState({ energiesError: read.error });
    else applyEnergies(rowsOf(read.energies));
  };
  return (
    <div className="np-energies">
      <table data-testid="np-energies">
        <thead>
          <tr>
            <th title="Miller indices of a plane family: 1 1 1, 1,1,1 or 111 (four for h k i l)">(hkl)</th>
            <th title="Surface energy, any unit (only the ratios shape the polyhedron)">γ</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r, k) => (
            <tr key={k} data-testid="np-energy-row">
              <td>
                <input
                  aria-label={`row ${k + 1} Miller indices`}
                  data-testid="np-energy-hkl"
                  value={r.hkl}
                  onChange={(e) => edit(k, { hkl: e.target.value })}
                  onBlur={() => applyEnergies()}
                  onKeyDown={(e) => e.key === 'Enter' && applyEnergies()}
                />
              </td>
              <td>
                <input
                  aria-label={`row ${k + 1} surface energy`}
                  data-testid="np-energy-value"
                  inputMode="decimal"
                  value={r.energy}
                  onChange={(e) => edit(k, { energy: e.target.value })}
                  onBlur={() => applyEnergies()}
                  onKeyDown={(e) => e.key === 'Enter' && applyEnergies()}
                />
              </td>
              <td>
                <button
                  type="button"
                  data-testid="np-energy-remove"
                  aria-label={`remove row ${k + 1}`}
                  title="Remove this family"
                  onClick={() => applyEnergies(rows.filter((_, i) => i !== k))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="np-energy-actions">
        <button type="button" data-testid="np-energy-add" onClick={() => setEnergyRows([...rows, { hkl: '', energy: '' }])}>
          Add a family
        </button>
        <label className="file-button" title='Materials Project surface-energy JSON, {"h,k,l": γ} JSON, or CSV rows h,k,l,γ'>
          Load JSON/CSV…
          <input type="file" accept=".json,.csv,.txt" data-testid="np-energies-file" onChange={(e) => void onFile(e.target.files?.[0])} />
        </label>
      </div>
      {error && (
        <p className="np-energies-error" role="alert" data-testid="np-energies-error">
          {error}
        </p>
      )}
      {warnings && warnings.length > 0 && <p className="hint">{warnings.map(sentence).join(' ')}</p>}
      <label className="check">
        <input type="checkbox" data-testid="np-wulff-show" checked={showWulff} onChange={(e) => setShowWulff(e.target.checked)} /> Wulff
        polyhedron and its legend
      </label>
    </div>
  );
}

/** The family colours of a Wulff shape (its faces and its legend): cool and distinct first, none of a metal's own hues. */
export const familyColors: readonly Rgb[] = ['#1f77b4', '#2ca02c', '#9467bd', '#d62728', '#17becf', '#e377c2', '#8c564b', '#bcbd22'].map(
  (hex) => toRgb(hex),
);

/** Over the view: each family's colour and its share of the polyhedron's area (pymatgen's area_fraction_dict). */
export function WulffLegend({ wulff }: { wulff: WulffView }) {
  return (
    <div className="np-wulff-legend" data-testid="np-wulff-legend">
      <div className="np-wulff-legend-title">Wulff facets (area)</div>
      <ul>
        {wulff.families.map((f, k) => (
          <li key={f.label} data-testid="np-wulff-family" data-family={f.label} className={f.onShape ? undefined : 'np-off-shape'}>
            <span className="swatch" style={{ background: toHex(familyColors[k % familyColors.length]) }} />
            <span>{f.label}</span>
            <span data-testid="np-wulff-fraction">{(100 * f.areaFraction).toFixed(1)} %</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
