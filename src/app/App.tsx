/** The lab shell: starts the session (URL `?synthetic=N`, saved session, or the default dataset) and lays out the page. */
import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { loadSynthetic, restoreSession, useSession } from '../state/session.ts';
import { loadDefaultDataset } from '../state/datasets.ts';
import { restoreFromLink } from '../state/structure-view.ts';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { ShortcutsOverlay } from '../ui/ShortcutsOverlay.tsx';
import { applyTheme, followTheme, nextTheme, storedTheme, type ThemeChoice } from './theme.ts';

let started = false;

async function start(): Promise<void> {
  if (started) return; // React StrictMode runs effects twice in development
  started = true;
  const params = new URLSearchParams(window.location.search);
  if (params.has('testhooks') || params.has('syncframes')) {
    // The viewer's module (and three) loads with the first 3D page; imported here only when a test or bench asks.
    void import('../viewer/controller.ts').then((viewer) => {
      // The end-to-end tests and the benchmarks ask for their hooks; a plain visit does not get them.
      if (params.has('testhooks')) viewer.installTestHooks();
      // Benchmarks: wait for the GPU after every frame (also the first), so timings are real.
      if (params.has('syncframes')) viewer.frameStats.syncFrames = true;
    });
  }
  const synthetic = Number(params.get('synthetic'));
  if (params.has('synthetic') && Number.isFinite(synthetic) && synthetic > 0) {
    loadSynthetic(Math.min(synthetic, 5_000_000));
    return;
  }
  // A link to a view (#/structure?dataset=…) wins over the saved session; one it refuses says why over the default.
  const linked = await restoreFromLink(window.location.hash);
  if (linked === true) return;
  if (linked === false || params.has('fresh') || !(await restoreSession())) await keepingError(loadDefaultDataset);
}

/** Runs `load`, keeping the error sentence shown before it (a load clears it when it succeeds). */
async function keepingError(load: () => Promise<unknown>): Promise<void> {
  const { error } = useSession.getState();
  await load();
  if (error && !useSession.getState().error) useSession.setState({ error });
}

/**
 * The lab's pages, chosen by the URL hash (`#/nanoparticle`); the structure page is the default. Each page is
 * its own chunk, fetched the first time it is shown, so the first view loads only its own page.
 */
const PAGES = [
  { id: 'structure', title: 'Structure', load: () => import('../pages/structure/StructurePage.tsx').then((m) => m.StructurePage) },
  {
    id: 'nanoparticle',
    title: 'Nanoparticle',
    load: () => import('../pages/nanoparticle/NanoparticlePage.tsx').then((m) => m.NanoparticlePage),
  },
  { id: 'compare', title: 'Compare (C2NP)', load: () => import('../pages/compare/ComparePage.tsx').then((m) => m.ComparePage) },
  { id: 'onng', title: 'O-NNG', load: () => import('../pages/onng/OnngPage.tsx').then((m) => m.OnngPage) },
  { id: 'atomworld', title: 'AtomWorld', load: () => import('../pages/atomworld/AtomworldPage.tsx').then((m) => m.AtomworldPage) },
  { id: 'fem', title: 'FEM-Bench', load: () => import('../pages/fem/FemPage.tsx').then((m) => m.FemPage) },
  {
    id: 'generations',
    title: 'Generations',
    load: () => import('../pages/generations/GenerationsPage.tsx').then((m) => m.GenerationsPage),
  },
] as const satisfies readonly { id: string; title: string; load: () => Promise<ComponentType> }[];
type PageId = (typeof PAGES)[number]['id'];

/** The page of the hash: `#/compare`, or `#/structure?…` (a link to a view). */
const pageFromHash = (): PageId => PAGES.find((p) => window.location.hash.split('?')[0] === `#/${p.id}`)?.id ?? 'structure';

/** A page's lazy component. React.lazy keeps a failed load (a chunk the network dropped) for good: a retry makes a new one. */
const lazyPage = (id: PageId): LazyExoticComponent<ComponentType> =>
  lazy(() =>
    PAGES.find((p) => p.id === id)!
      .load()
      .then((component) => ({ default: component })),
  );

const LAZY_PAGES = Object.fromEntries(PAGES.map((p) => [p.id, lazyPage(p.id)])) as Record<PageId, LazyExoticComponent<ComponentType>>;

/** Shown while a page's chunk is fetched (the first visit of each page). */
function PageLoading() {
  return (
    <div className="page-loading" role="status" data-testid="page-loading">
      Loading…
    </div>
  );
}

export function App() {
  const [page, setPage] = useState<PageId>(pageFromHash);
  const [pages, setPages] = useState(LAZY_PAGES);
  useEffect(() => {
    void start();
  }, []);
  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);
  useEffect(() => followTheme(() => theme), [theme]);
  const Page = pages[page];
  return (
    <>
      <nav className="page-tabs" aria-label="pages">
        {PAGES.map((p) => (
          <a key={p.id} href={`#/${p.id}`} data-testid={`tab-${p.id}`} className={p.id === page ? 'active' : ''}>
            {p.title}
          </a>
        ))}
        <button
          type="button"
          className="theme-toggle"
          data-testid="theme-toggle"
          data-theme-choice={theme}
          title="Theme: system, light or dark (remembered)"
          onClick={() => {
            const next = nextTheme(theme);
            applyTheme(next);
            setTheme(next);
          }}
        >
          {theme === 'system' ? 'Theme: system' : theme === 'dark' ? 'Theme: dark' : 'Theme: light'}
        </button>
      </nav>
      <ShortcutsOverlay />
      {/* Keyed by page: an error in one page stays with it and never shows under another tab. */}
      <ErrorBoundary key={page} label={page} onRetry={() => setPages((p) => ({ ...p, [page]: lazyPage(page) }))}>
        <Suspense fallback={<PageLoading />}>
          <Page />
        </Suspense>
      </ErrorBoundary>
    </>
  );
}
