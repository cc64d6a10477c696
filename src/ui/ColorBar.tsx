/**
 * The colour bar drawn over a 3D view (Compare, AtomWorld, Nanoparticle, FEM-Bench, Generations): a caption, the
 * ramp as a CSS gradient with its two end values on either side, and optional keys below. One component with its
 * own stylesheet, imported here: Compare's and AtomWorld's bars used to borrow the Nanoparticle page's classes,
 * whose stylesheet only loads with that page, and lost their gradient and the space between their end values.
 */
import type { ReactNode } from 'react';
import { rampGradient, type Rgb } from '../viewer/colors.ts';
import './colorbar.css';

export interface ColorBarProps {
  /** What the colours measure, with the unit (one line above the bar). */
  caption: ReactNode;
  ramp: readonly Rgb[];
  /** The end values: each one number, as text (the caption says what the ends mean). */
  min: string;
  max: string;
  testId: string;
  /** The max end's test id (tests read the scale's top). */
  maxTestId?: string;
  /** Keys under the bar (swatches for marked atoms, counts). */
  children?: ReactNode;
  keysTestId?: string;
  /** Extra data attributes callers set on the bar (e.g. data-source). */
  dataSource?: string;
}

export function ColorBar({ caption, ramp, min, max, testId, maxTestId, children, keysTestId, dataSource }: ColorBarProps) {
  return (
    <div className="colorbar" data-testid={testId} data-colorbar="" data-source={dataSource}>
      <div className="colorbar-caption">{caption}</div>
      <div className="colorbar-scale">
        <span className="colorbar-end" data-colorbar-end="min">
          {min}
        </span>
        <span className="colorbar-ramp" data-colorbar-ramp="" style={{ backgroundImage: rampGradient(ramp) }} />
        <span className="colorbar-end" data-colorbar-end="max" data-testid={maxTestId}>
          {max}
        </span>
      </div>
      {children && (
        <div className="colorbar-keys" data-testid={keysTestId}>
          {children}
        </div>
      )}
    </div>
  );
}
