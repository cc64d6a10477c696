/** A page's error sentence with a button that dismisses it (the store clears its error). */
export function ErrorAlert({ message, testId, onDismiss }: { message: string; testId: string; onDismiss: () => void }) {
  return (
    <div className="error" role="alert" data-testid={testId}>
      {message}
      <button type="button" aria-label="dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
