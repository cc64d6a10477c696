/** The Lattice planes panel: (hkl) typed in, d(hkl) listed (`structlab planes`), the planes drawn in the cell shown. */
import { useState } from 'react';
import { setHklText, setPanelOpen, useCrystallography } from '../../state/crystallography.ts';
import { fixed } from '../../ui/format.ts';

export function PlanesPanel() {
  const open = useCrystallography((s) => s.open.planes);
  const structure = useCrystallography((s) => s.structure);
  const busy = useCrystallography((s) => s.busy.planes);
  const error = useCrystallography((s) => s.error.planes);
  const hklText = useCrystallography((s) => s.hklText);
  const planes = useCrystallography((s) => s.planes);
  const [text, setText] = useState(hklText);
  if (!structure) return null;
  // Only a changed list recomputes (a blur alone must not shift the page under the pointer).
  const commit = () => {
    if (text !== hklText || !planes) setHklText(text);
  };
  return (
    <details className="xtal" data-testid="planes-panel" open={open} onToggle={(e) => setPanelOpen('planes', e.currentTarget.open)}>
      <summary>Lattice planes</summary>
      <label>
        (h k l); (h k l)…
        <input
          data-testid="planes-hkl"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
      </label>
      {busy && <p className="hint">{busy}…</p>}
      {error && <p className="xtal-error">{error}</p>}
      {planes && (
        <table className="xtal-table" data-testid="planes-table">
          <thead>
            <tr>
              <th>(h k l)</th>
              <th>d (Å)</th>
              <th>vertices</th>
            </tr>
          </thead>
          <tbody>
            {planes.map((p, k) => (
              <tr key={k}>
                <td>({p.hkl.join(' ')})</td>
                <td data-testid="plane-d">{fixed(p.d, 4)}</td>
                <td>{p.polygon.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
