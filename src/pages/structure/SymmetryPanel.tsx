/**
 * The Symmetry panel: space group, the cell switch, the Wyckoff table of the cell shown (its own site numbers; hover:
 * the orbit in 3D), the operations, the symmetrized CIF.
 */
import { latticeOf } from '../../core/structure/packed.ts';
import {
  type CellChoice,
  downloadSymmetrizedCif,
  setCell,
  setHoverRow,
  setPanelOpen,
  shownWyckoffTable,
  useCrystallography,
} from '../../state/crystallography.ts';
import { fixed, fracText } from '../../ui/format.ts';

export const CELL_LABELS: Record<CellChoice, string> = {
  read: 'as read',
  primitive: 'primitive (standardized)',
  conventional: 'conventional (standardized)',
  niggli: 'Niggli-reduced',
};

/** Rows drawn at most; a larger table says how many it leaves out. */
const MAX_ROWS = 300;

const siteList = (sites: number[]) =>
  sites.length <= 4 ? sites.map((k) => k + 1).join(', ') : `${sites[0] + 1}, ${sites[1] + 1}, … (${sites.length})`;

export function SymmetryPanel() {
  const open = useCrystallography((s) => s.open.symmetry);
  const structure = useCrystallography((s) => s.structure);
  const sym = useCrystallography((s) => s.symmetry);
  const busy = useCrystallography((s) => s.busy.symmetry);
  const error = useCrystallography((s) => s.error.symmetry);
  const cell = useCrystallography((s) => s.cell);
  const hoverRow = useCrystallography((s) => s.hoverRow);
  const table = useCrystallography(shownWyckoffTable);
  if (!structure) return null;
  const shownCell = cell === 'read' || !sym ? structure : sym.cells[cell];
  const lattice = latticeOf(shownCell);
  const lp = lattice?.parameters;
  return (
    <details className="xtal" data-testid="symmetry-panel" open={open} onToggle={(e) => setPanelOpen('symmetry', e.currentTarget.open)}>
      <summary>Symmetry</summary>
      {busy && <p className="hint">{busy}…</p>}
      {error && <p className="xtal-error">{error}</p>}
      {sym && (
        <>
          <p data-testid="sym-group">
            <b>
              {sym.international} ({sym.number})
            </b>{' '}
            · Hall {sym.hall} · point group {sym.pointGroup} · {sym.crystalSystem}
          </p>
          <p className="hint" data-testid="sym-tolerances">
            spglib 2.0 search at symprec {sym.symprec} Å,{' '}
            {sym.angleTolerance < 0 ? "spglib's default angle check (lengths only)" : `angle tolerance ${sym.angleTolerance}°`}
          </p>
          <label>
            Cell shown
            <select data-testid="cell-choice" value={cell} onChange={(e) => setCell(e.target.value as CellChoice)}>
              {(Object.keys(CELL_LABELS) as CellChoice[]).map((c) => (
                <option key={c} value={c}>
                  {CELL_LABELS[c]}
                </option>
              ))}
            </select>
          </label>
          {lp && (
            <p className="xtal-cell" data-testid="cell-lattice">
              {shownCell.natoms} sites · a, b, c = {[lp.a, lp.b, lp.c].map((x) => fixed(x)).join(', ')} Å · α, β, γ ={' '}
              {[lp.alpha, lp.beta, lp.gamma].map((x) => fixed(x, 3)).join(', ')}°
            </p>
          )}
          {!table && (
            <p className="hint" data-testid="wyckoff-unavailable">
              The symmetry search on the {cell} cell failed at this symprec: no Wyckoff table for it.
            </p>
          )}
          {table && (
            <table className="xtal-table" data-testid="wyckoff-table" data-cell={cell} onMouseLeave={() => setHoverRow(null)}>
              <thead>
                <tr>
                  <th>Sites</th>
                  <th>Species</th>
                  <th>Wyckoff</th>
                  <th>Site sym.</th>
                  <th>x, y, z</th>
                </tr>
              </thead>
              <tbody>
                {table.rows.slice(0, MAX_ROWS).map((row, r) => (
                  <tr
                    key={r}
                    data-row={r}
                    className={r === hoverRow ? 'hover' : ''}
                    onMouseEnter={() => setHoverRow(r)}
                    title="The orbit is highlighted in the view"
                  >
                    <td data-sites={row.sites.join(' ')}>{siteList(row.sites)}</td>
                    <td>{row.species}</td>
                    <td data-testid="wyckoff">
                      {row.multiplicity}
                      {row.wyckoff}
                    </td>
                    <td data-testid="site-symmetry">{row.siteSymmetry}</td>
                    <td>{row.frac.map((x) => fracText(x, 4)).join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {table && table.rows.length > MAX_ROWS && (
            <p className="hint">
              First {MAX_ROWS} of {table.rows.length} orbits shown.
            </p>
          )}
          <details>
            <summary>{sym.operations.length} operations (input cell)</summary>
            <pre className="xtal-ops" data-testid="operations">
              {sym.operations.map((o, k) => `${k + 1}. ${o}`).join('\n')}
            </pre>
          </details>
          <button type="button" data-testid="symmetrized-cif" onClick={() => void downloadSymmetrizedCif()}>
            Symmetrized CIF
          </button>
        </>
      )}
    </details>
  );
}
