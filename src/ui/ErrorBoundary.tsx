/** Keeps a rendering error in one part of the page from blanking the rest; offers a retry. */
import { Component, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  label: string;
  /** Called by "Try again" after the error is cleared (the parent re-renders, e.g. to fetch a page anew). */
  onRetry?: () => void;
}

export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(`${this.props.label} failed:`, error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="boundary-error" role="alert">
        <p>
          The {this.props.label} hit an error: {this.state.error.message}
        </p>
        <button
          type="button"
          onClick={() => {
            this.setState({ error: null });
            this.props.onRetry?.();
          }}
        >
          Try again
        </button>
      </div>
    );
  }
}
