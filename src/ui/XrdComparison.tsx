/**
 * Two structures' powder patterns overlaid with their similarity (cosine, Pearson, WCC: `structlab xrd-compare`,
 * src/core/analysis/xrd-compare.ts): a prediction against its truth, an answer against its target, a second file
 * against the one shown. Used by the Structure page's Diffraction panel and the Generations sample view.
 */
import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { PatternComparison } from '../core/analysis/xrd-compare.ts';
import { Plot } from './Plot.tsx';

export function XrdComparison({ comparison, labels, testId }: { comparison: PatternComparison; labels: [string, string]; testId: string }) {
  const data = useMemo(
    () => [comparison.twoTheta, comparison.profiles[0], comparison.profiles[1]] as unknown as uPlot.AlignedData,
    [comparison],
  );
  const series = useMemo(
    (): uPlot.Series[] => [
      { label: labels[0], stroke: '#d62728', width: 1.5 },
      { label: labels[1], stroke: '#1f5fd6', width: 1.2, dash: [4, 3] },
    ],
    [labels],
  );
  const { cosine, pearson, wcc } = comparison.similarity;
  return (
    <div className="xrd-comparison" data-testid={testId}>
      <Plot title="Powder patterns (2θ, °)" testId={`${testId}-plot`} data={data} series={series} width={320} height={170} />
      <p className="hint">
        similarity: cosine <span data-testid={`${testId}-cosine`}>{cosine.toFixed(4)}</span>, Pearson{' '}
        <span data-testid={`${testId}-pearson`}>{pearson.toFixed(4)}</span>, WCC <span data-testid={`${testId}-wcc`}>{wcc.toFixed(4)}</span>
      </p>
    </div>
  );
}
