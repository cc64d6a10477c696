/**
 * Colour the atoms by a per-atom property of the file (extended XYZ columns such as forces or charges, pymatgen JSON
 * `properties`, POSCAR selective dynamics): a scalar as it is, a vector by its length, on the displacement ramp over
 * the data's range or a chosen one (values outside take the ramp's ends), with a colour bar naming that range; a
 * categorical column (few whole-number values: flags, tags) in distinct colours with a legend. Size the atoms by a
 * property; the atom under the pointer shows its values.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  type PropertyCategories,
  propertyCategories,
  propertyLabel,
  propertyScalars,
  radiusFactorsBySite,
  valueRange,
} from '../../core/analysis/atom-properties.ts';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import type { PackedProperty, PackedStructure } from '../../core/structure/packed.ts';
import {
  setArrowScale,
  setArrows,
  setColorProperty,
  setColorRange,
  setSizeBy,
  useAtomColoring,
  useAtomHover,
} from '../../state/atom-coloring.ts';
import { Arrows } from '../../viewer/Arrows.tsx';
import { fmt } from '../../ui/format.ts';
import { useSession } from '../../state/session.ts';
import { useCrystallography } from '../../state/crystallography.ts';
import { CATEGORY_PALETTE, DISPLACEMENT_RAMP, categoryColorsBySite, rampColorsBySite, rampGradient, toHex } from '../../viewer/colors.ts';

/** The colour bar's gradient (the displacement ramp the colouring uses). */
const RAMP_STYLE = { background: rampGradient(DISPLACEMENT_RAMP) };

const activeStructure = (s: ReturnType<typeof useSession.getState>): PackedStructure | null =>
  s.synthetic ? null : (s.structures[s.activeStructure] ?? null);

interface ChosenProperty {
  label: string;
  values: Float64Array;
  /** The data's range. */
  range: [number, number];
  /** Its categories when it is categorical (a legend instead of the ramp). */
  categories: PropertyCategories | null;
}

const column = (structure: PackedStructure | null, name: string | null): PackedProperty | undefined =>
  name ? structure?.properties?.find((c) => c.name === name) : undefined;

/** The chosen column of the shown structure: its per-site values, their range and categories; null when none is chosen or it is gone. */
function useChosenProperty(): ChosenProperty | null {
  const structure = useSession(activeStructure);
  const chosen = useAtomColoring((s) => s.property);
  return useMemo(() => {
    const p = column(structure, chosen);
    if (!p) return null;
    const values = propertyScalars(p);
    return { label: propertyLabel(p), values, range: valueRange(values), categories: propertyCategories(p) };
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

/** Per drawn atom, the colour of its site's value or category (null: element colours), for the viewer's atomColors. */
export function usePropertyColors(display: DisplayData | null): Float32Array | null {
  const chosen = useChosenProperty();
  const range = useAtomColoring((s) => s.range);
  return useMemo(() => {
    if (!chosen || !display || display.site.length !== display.natoms) return null;
    if (chosen.categories) return categoryColorsBySite(display.site, chosen.categories.siteCategory);
    return rampColorsBySite(display.site, chosen.values, range ?? chosen.range);
  }, [chosen, display, range]);
}

/**
 * Per drawn atom, the radius factor of its site's value of the "size by" column (null: sizes by element), over that
 * column's range, or over the colour range when it is the coloured column.
 */
export function usePropertyRadiusFactors(display: DisplayData | null): Float32Array | null {
  const structure = useSession(activeStructure);
  const { sizeBy, property, range } = useAtomColoring(useShallow((s) => ({ sizeBy: s.sizeBy, property: s.property, range: s.range })));
  const colourRange = sizeBy === property ? range : null;
  return useMemo(() => {
    const p = column(structure, sizeBy);
    if (!p || !display || display.site.length !== display.natoms) return null;
    const values = propertyScalars(p);
    return radiusFactorsBySite(display.site, values, colourRange ?? valueRange(values));
  }, [structure, sizeBy, colourRange, display]);
}

/** The values of the atom under the pointer, beside the pointer (the viewer reports it; only this tip re-renders). */
export function AtomHoverTip() {
  const hover = useAtomHover((s) => s.hover);
  // The Symmetry panel's cell replaces the structure's atoms (no hover there; a hover from before names other atoms).
  const otherCell = useCrystallography((s) => s.cellDisplay !== null);
  const display = useSession((s) => s.display);
  const structure = useSession(activeStructure);
  if (!hover || otherCell || !display || hover.atom >= display.natoms) return null;
  const site = display.site[hover.atom];
  const el = display.elements[display.element[hover.atom]];
  return (
    // Sites numbered as the atom info numbers them (from 1, file order); data-atom: the drawn atom, for tests.
    <div
      className="atom-hover"
      data-testid="atom-hover"
      data-atom={hover.atom}
      role="tooltip"
      style={{ position: 'fixed', left: hover.x + 14, top: hover.y + 14, pointerEvents: 'none', zIndex: 10 }}
    >
      <b>
        {el} site {site + 1}
      </b>
      {hover.atom >= display.natoms - display.nimages ? ' · boundary image' : ''}
      {(structure?.properties ?? []).map((c) => (
        <div key={c.name} data-testid={`atom-hover-${c.name}`}>
          {c.name}: {Array.from(c.values.subarray(c.width * site, c.width * (site + 1)), (v) => fmt(v)).join(', ')}
        </div>
      ))}
    </div>
  );
}

/** A choice of the file's per-atom columns, or "element" (null). */
function PropertySelect(props: {
  label: string;
  testId: string;
  columns: readonly PackedProperty[];
  value: string | null;
  onChange: (name: string | null) => void;
}) {
  return (
    <label className="row">
      {props.label}
      <select data-testid={props.testId} value={props.value ?? ''} onChange={(e) => props.onChange(e.target.value || null)}>
        <option value="">element</option>
        {props.columns.map((c) => (
          <option key={c.name} value={c.name}>
            {propertyLabel(c)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * One end of the colour range: a number field that sets the range whenever its text reads as a number keeping lo < hi;
 * the text typed is kept while the field has the focus (a half-typed number is not overwritten), the range shown after.
 */
function RangeInput({ end, range, testId }: { end: 0 | 1; range: readonly [number, number]; testId: string }) {
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? String(range[end]);
  const valid = text === null || (Number.isFinite(Number(text)) && text.trim() !== '');
  return (
    <input
      type="number"
      data-testid={testId}
      aria-label={end === 0 ? 'colour range minimum' : 'colour range maximum'}
      aria-invalid={!valid}
      step="any"
      style={{ width: '7em' }}
      value={shown}
      onChange={(e) => {
        const v = Number(e.target.value);
        setText(e.target.value);
        if (e.target.value.trim() === '' || !Number.isFinite(v)) return;
        const next: [number, number] = end === 0 ? [v, range[1]] : [range[0], v];
        setColorRange(next);
      }}
      onBlur={() => setText(null)}
    />
  );
}

function ColorBar({ chosen }: { chosen: ChosenProperty }) {
  const chosenRange = useAtomColoring((s) => s.range);
  const range = chosenRange ?? chosen.range;
  const narrower = range[0] > chosen.range[0] || range[1] < chosen.range[1];
  return (
    <>
      <div className="xtal-ramp" data-testid="property-colorbar">
        <span data-testid="property-min">{range[0].toPrecision(4)}</span> <span style={RAMP_STYLE} />{' '}
        <span data-testid="property-max">{range[1].toPrecision(4)}</span> {chosen.label}
      </div>
      <div className="row" data-testid="property-range">
        range <RangeInput end={0} range={range} testId="property-range-min" /> –{' '}
        <RangeInput end={1} range={range} testId="property-range-max" />
        <button type="button" data-testid="property-range-reset" disabled={chosenRange === null} onClick={() => setColorRange(null)}>
          data range
        </button>
      </div>
      {narrower && (
        <p className="hint" data-testid="property-range-note">
          Narrower than the data ({chosen.range[0].toPrecision(4)} – {chosen.range[1].toPrecision(4)}): values outside take the end colours.
        </p>
      )}
    </>
  );
}

function CategoryLegend({ chosen, categories }: { chosen: ChosenProperty; categories: PropertyCategories }) {
  return (
    <div data-testid="property-legend">
      {chosen.label.replace(/^\|(.*)\|$/, '$1')}:
      <ul className="property-legend">
        {categories.labels.map((label, k) => (
          <li key={label} data-testid="property-category" data-value={label} data-count={categories.counts[k]}>
            <span
              style={{
                display: 'inline-block',
                width: '0.9em',
                height: '0.9em',
                marginRight: '0.4em',
                background: toHex(CATEGORY_PALETTE[k]),
              }}
            />
            {label} — {categories.counts[k]} {categories.counts[k] === 1 ? 'atom' : 'atoms'}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PropertyColoring() {
  const structure = useSession(activeStructure);
  const display = useSession((s) => s.display);
  const { property, arrows, arrowScale, sizeBy } = useAtomColoring(
    useShallow((s) => ({ property: s.property, arrows: s.arrows, arrowScale: s.arrowScale, sizeBy: s.sizeBy })),
  );
  const chosen = useChosenProperty();
  const arrowData = useArrowVectors(display);
  const isVector = !!property && structure?.properties?.some((c) => c.name === property && c.width === 3);
  const columns = structure?.properties ?? [];
  if (columns.length === 0) return null;
  return (
    <section data-testid="property-coloring">
      <PropertySelect label="Colour atoms by" testId="color-property" columns={columns} value={property} onChange={setColorProperty} />
      {chosen && (chosen.categories ? <CategoryLegend chosen={chosen} categories={chosen.categories} /> : <ColorBar chosen={chosen} />)}
      <PropertySelect label="Size atoms by" testId="size-property" columns={columns} value={sizeBy} onChange={setSizeBy} />
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
