import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/styles.css';

// The built lab caches itself for offline use (dist/sw.js, made by the structlab-offline plugin in vite.config.ts).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch(() => {
    // Without a service worker (a file:// page, a browser that refuses it) the lab still runs online.
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
