/** A 3D view in its panel (`.view`): the viewer, its caption below, then whatever else the page lays over it (legends, colour bars). */
import type { ReactNode } from 'react';
import { StructureViewer, type ViewerProps } from '../viewer/StructureViewer.tsx';

export function ViewerPanel({
  panelTestId,
  caption,
  captionTestId,
  after,
  ...viewer
}: ViewerProps & { panelTestId: string; caption: ReactNode; captionTestId?: string; after?: ReactNode }) {
  return (
    <div className="view" data-testid={panelTestId}>
      <StructureViewer {...viewer} />
      <span className="view-caption" data-testid={captionTestId}>
        {caption}
      </span>
      {after}
    </div>
  );
}
