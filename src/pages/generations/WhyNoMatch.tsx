/**
 * "Why no match" for one pair: the stage of the matcher that rejected it (composition; lattice within ltol /
 * angle_tol; sites within stol) with that stage's numbers, and the smallest tolerances at which it would match,
 * from src/core/tasks/generations/explain.ts.
 */
import type { MatchExplanation } from '../../core/tasks/generations/explain.ts';
import { stageNumbers, sweepText, whyHeadline } from './detail-model.ts';

const STAGES = ['composition', 'lattice', 'sites'] as const;

export function WhyNoMatch({ explanation: e }: { explanation: MatchExplanation }) {
  const head = whyHeadline(e);
  const rows = stageNumbers(e);
  const sweep = sweepText(e);
  const failed = STAGES.indexOf(e.stage as (typeof STAGES)[number]);
  const t = e.tolerances;
  return (
    <div className="gen-why" data-testid="gen-why" data-stage={e.stage} data-verdict={e.verdict}>
      <h3>Why no match</h3>
      <p className={`gen-verdict ${head.tone}`} data-testid="gen-why-headline">
        {head.text}
      </p>
      {e.stage !== 'error' && (
        <ul className="gen-stages">
          {STAGES.map((s, k) => (
            <li key={s} data-testid="gen-why-stage" data-stage={s} className={k === failed ? 'far' : failed < 0 || k < failed ? 'ok' : ''}>
              {k === failed ? '✗' : failed < 0 || k < failed ? '✓' : '·'} {s}
              {s === 'lattice' && ` (ltol ${t.ltol}, angle_tol ${t.angleTol}°)`}
              {s === 'sites' && ` (stol ${t.stol}, distances over (V/n)^⅓)`}
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <table data-testid="gen-why-numbers">
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th>{r.label}</th>
                <td className={r.fails ? 'fails' : ''}>{r.value}</td>
                <td className="hint">{r.needs ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sweep && (
        <p data-testid="gen-why-sweep" className={e.verdict === 'nearMiss' ? 'near' : ''}>
          {sweep}
        </p>
      )}
      <p className="hint" data-testid="gen-why-message">
        {e.message}
      </p>
    </div>
  );
}
