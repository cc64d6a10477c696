import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The built lab's Content-Security-Policy: everything from its own origin, nothing from the network. Scripts
 * only from files (no inline script, no eval); 'wasm-unsafe-eval' lets the moyo space-group wasm
 * (@spglib/moyo-wasm) compile; workers are files of the app (or blob: URLs); connect-src 'self' covers the
 * wasm and dataset fetches. Styles come from the bundled CSS only: React and the plot and 3D libraries set
 * styles through the CSSOM (element.style), which CSP does not govern, so no 'unsafe-inline' is needed.
 * frame-ancestors is left out because a <meta> policy may not carry it (browsers warn and ignore it).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** Adds the policy to the built index.html as a <meta> (the dev server keeps React's inline refresh preamble). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'structlab-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        // An inline script in the built page would be blocked by the policy: fail the build instead.
        if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html)) throw new Error('the built index.html has an inline <script>, which the Content-Security-Policy blocks');
        return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  // The polyfill is a script in the entry chunk today; switched off so it can never become an inline one.
  build: { target: 'es2022', chunkSizeWarningLimit: 2000, modulePreload: { polyfill: false } },
  // The same policy as a header, which also covers the worker scripts (a worker takes its policy from its own response).
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
