/** Runs in every e2e test file (vite.config.ts setupFiles): whatever lab the file left open is closed after it. */
import { afterAll } from 'vitest';
import { closeOpenLabs } from './harness.ts';

afterAll(closeOpenLabs);
