/**
 * The line a page shows while its worker is busy (role=status, so screen readers hear it): a spinner, what is being
 * done, optionally a bar of done/total, optionally a Cancel button. The e2e tests wait for `testId` to disappear.
 */
import type { ReactNode } from 'react';

export function Progress({
  testId,
  className = 'progress',
  spinner = true,
  bar,
  onCancel,
  cancelTestId,
  children,
}: {
  testId: string;
  className?: string;
  spinner?: boolean;
  /** Work done of total; the bar's test id is `${testId}-bar`. */
  bar?: { done: number; total: number } | null;
  /** Shown as a Cancel button when given. */
  onCancel?: () => void;
  cancelTestId?: string;
  /** What is being done (the spinner comes before it). */
  children: ReactNode;
}) {
  return (
    <div className={className} data-testid={testId} role="status">
      {spinner && <span className="spinner" />} {children}
      {bar && (
        <>
          <progress max={bar.total} value={bar.done} data-testid={`${testId}-bar`} />
          <span>
            {bar.done} / {bar.total}
          </span>
        </>
      )}
      {onCancel && (
        <button type="button" data-testid={cancelTestId} onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
