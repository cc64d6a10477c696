/** The lab shell: starts the session (URL `?synthetic=N`, saved session, or the default dataset) and lays out the page. */
import { useEffect, useState } from 'react';
import { loadSynthetic, restoreSession } from '../state/session.ts';
import { frameStats, installTestHooks } from '../viewer/controller.ts';
import { StructurePage, loadDefaultDataset } from '../pages/structure/StructurePage.tsx';
import { NanoparticlePage } from '../pages/nanoparticle/NanoparticlePage.tsx';
import { ComparePage } from '../pages/compare/ComparePage.tsx';
import { OnngPage } from '../pages/onng/OnngPage.tsx';
import { AtomworldPage } from '../pages/atomworld/AtomworldPage.tsx';
import { FemPage } from '../pages/fem/FemPage.tsx';
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

/** The lab's pages, chosen by the URL hash (`#/nanoparticle`); the structure page is the default. */
const PAGES = [
  { id: 'structure', title: 'Structure', Page: StructurePage },
  { id: 'nanoparticle', title: 'Nanoparticle', Page: NanoparticlePage },
  { id: 'compare', title: 'Compare (C2NP)', Page: ComparePage },
  { id: 'onng', title: 'O-NNG', Page: OnngPage },
  { id: 'atomworld', title: 'AtomWorld', Page: AtomworldPage },
  { id: 'fem', title: 'FEM-Bench', Page: FemPage },
] as const;
type PageId = (typeof PAGES)[number]['id'];

const pageFromHash = (): PageId => (PAGES.find((p) => window.location.hash === `#/${p.id}`)?.id ?? 'structure');

export function App() {
  const [page, setPage] = useState<PageId>(pageFromHash);
  useEffect(() => { void start(); }, []);
  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const { Page } = PAGES.find((p) => p.id === page)!;
  return (
    <>
      <nav className="page-tabs" aria-label="pages">
        {PAGES.map((p) => (
          <a key={p.id} href={`#/${p.id}`} data-testid={`tab-${p.id}`} className={p.id === page ? 'active' : ''}>{p.title}</a>
        ))}
      </nav>
      <ErrorBoundary label={page}>
        <Page />
      </ErrorBoundary>
    </>
  );
}
