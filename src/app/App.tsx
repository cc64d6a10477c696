/** The lab shell: starts the session (URL `?synthetic=N`, saved session, or the default dataset) and lays out the page. */
import { useEffect } from 'react';
import { loadSynthetic, restoreSession } from '../state/session.ts';
import { frameStats, installTestHooks } from '../viewer/controller.ts';
import { StructurePage, loadDefaultDataset } from '../pages/structure/StructurePage.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';

let started = false;

async function start(): Promise<void> {
  if (started) return; // React StrictMode runs effects twice in development
  started = true;
  installTestHooks();
  const params = new URLSearchParams(window.location.search);
  // Benchmarks: wait for the GPU after every frame (also the first), so timings are real.
  if (params.has('syncframes')) frameStats.syncFrames = true;
  const synthetic = Number(params.get('synthetic'));
  if (params.has('synthetic') && Number.isFinite(synthetic) && synthetic > 0) {
    loadSynthetic(Math.min(synthetic, 5_000_000));
    return;
  }
  if (params.has('fresh') || !(await restoreSession())) await loadDefaultDataset();
}

export function App() {
  useEffect(() => { void start(); }, []);
  return (
    <ErrorBoundary label="lab">
      <StructurePage />
    </ErrorBoundary>
  );
}
