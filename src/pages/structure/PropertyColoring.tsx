/**
 * Colour the atoms by a per-atom property of the file (extended XYZ columns such as forces or charges, pymatgen JSON
 * `properties`, POSCAR selective dynamics): a scalar as it is, a vector by its length, on the displacement ramp over
 * the data's range, with a colour bar naming that range.
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { propertyLabel, propertyScalars, valueRange } from '../../core/analysis/atom-properties.ts';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import type { PackedStructure } from '../../core/structure/packed.ts';
import { setArrowScale, setArrows, setColorProperty, useAtomColoring } from '../../state/atom-coloring.ts';
import { Arrows } from '../../viewer/Arrows.tsx';
import { useSession } from '../../state/session.ts';
import { DISPLACEMENT_RAMP, rampColorsBySite, rampGradient } from '../../viewer/colors.ts';

const activeStructure = (s: ReturnType<typeof useSession.getState>): PackedStructure | null =>
  s.synthetic ? null : (s.structures[s.activeStructure] ?? null);

/** The chosen column of the shown structure: its per-site values and their range; null when none is chosen or it is gone. */
function useChosenProperty(): { label: string; values: Float64Array; range: [number, number] } | null {
  const structure = useSession(activeStructure);
  const chosen = useAtomColoring((s) => s.property);
  return useMemo(() => {
    const p = chosen ? structure?.properties?.find((c) => c.name === chosen) : undefined;
    if (!p) return null;
    const values = propertyScalars(p);
    return { label: propertyLabel(p), values, range: valueRange(values) };
  }, [structure, chosen]);
}

/** The chosen vector column of the shown structure per drawn atom (images take their site's vector), when arrows are on. */
function useArrowVectors(display: DisplayData | null): { origins: Float32Array; vectors: Float64Array; drawn: number } | null {
  const structure = useSession(activeStructure);
  const { property, arrows } = useAtomColoring(useShallow((s) => ({ property: s.property, arrows: s.arrows })));
  return useMemo(() => {
    const p = property && arrows ? structure?.properties?.find((c) => c.name === property && c.width === 3) : undefined;
    if (!p || !display) return null;
    const vectors = new Float64Array(3 * display.natoms);
    let drawn = 0;
    for (let i = 0; i < display.natoms; i++) {
      const s = display.site[i];
      vectors.set(p.values.subarray(3 * s, 3 * s + 3), 3 * i);
      if (p.values[3 * s] !== 0 || p.values[3 * s + 1] !== 0 || p.values[3 * s + 2] !== 0) drawn++;
    }
    return { origins: display.positions, vectors, drawn };
  }, [structure, property, arrows, display]);
}

/** The chosen vector property as arrows at the drawn atoms (a viewer child). */
export function PropertyArrows({ display }: { display: DisplayData | null }) {
  const data = useArrowVectors(display);
  const scale = useAtomColoring((s) => s.arrowScale);
  return data ? <Arrows origins={data.origins} vectors={data.vectors} scale={scale} color="#e07000" /> : null;
}

/** Per drawn atom, the colour of its site's value (null: element colours), for the viewer's atomColors. */
export function usePropertyColors(display: DisplayData | null): Float32Array | null {
  const chosen = useChosenProperty();
  return useMemo(() => {
    if (!chosen || !display || display.site.length !== display.natoms) return null;
    return rampColorsBySite(display.site, chosen.values, chosen.range);
  }, [chosen, display]);
}

export function PropertyColoring() {
  const structure = useSession(activeStructure);
  const display = useSession((s) => s.display);
  const { property, arrows, arrowScale } = useAtomColoring(
    useShallow((s) => ({ property: s.property, arrows: s.arrows, arrowScale: s.arrowScale })),
  );
  const chosen = useChosenProperty();
  const arrowData = useArrowVectors(display);
  const isVector = !!property && structure?.properties?.some((c) => c.name === property && c.width === 3);
  const columns = structure?.properties ?? [];
  if (columns.length === 0) return null;
  return (
    <section data-testid="property-coloring">
      <label className="row">
        Colour atoms by
        <select data-testid="color-property" value={property ?? ''} onChange={(e) => setColorProperty(e.target.value || null)}>
          <option value="">element</option>
          {columns.map((c) => (
            <option key={c.name} value={c.name}>
              {propertyLabel(c)}
            </option>
          ))}
        </select>
      </label>
      {chosen && (
        <div className="xtal-ramp" data-testid="property-colorbar">
          <span data-testid="property-min">{chosen.range[0].toPrecision(4)}</span>{' '}
          <span style={{ background: rampGradient(DISPLACEMENT_RAMP) }} />{' '}
          <span data-testid="property-max">{chosen.range[1].toPrecision(4)}</span> {chosen.label}
        </div>
      )}
      {isVector && (
        <div className="row">
          <label className="check">
            <input type="checkbox" data-testid="property-arrows" checked={arrows} onChange={(e) => setArrows(e.target.checked)} /> arrows
          </label>
          <label title="Arrow length per unit of the property (Å)">
            × {arrowScale.toPrecision(2)}
            <input
              type="range"
              data-testid="property-arrow-scale"
              min={-2}
              max={1.3}
              step={0.05}
              value={Math.log10(arrowScale)}
              onChange={(e) => setArrowScale(10 ** Number(e.target.value))}
            />
          </label>
          {arrowData && <span data-testid="property-arrow-count">{arrowData.drawn} arrows</span>}
        </div>
      )}
    </section>
  );
}
