// The lint gate of `npm test` (run with --max-warnings 0, so a warning fails it too). Flat config, ESLint 10.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'lib/', '.cli-build/', 'coverage/', 'bench/results/', 'test-results/']),
  js.configs.recommended,
  // Syntax-only rules: the type-aware set builds the whole program first (as long again as tsc) on a 2-core machine.
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter kept for its position or a binding dropped from a rest spread.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A destructuring whose names are reassigned in part (niggli's A..Y) stays one `let`.
      'prefer-const': ['error', { destructuring: 'all' }],
    },
  },
  {
    // react-hooks 7 `recommended`: the rules of hooks, exhaustive deps, and the React Compiler's checks of
    // render purity (refs read in render, setState in effects, impure calls, components made in render),
    // which decide whether a memoised subtree really stays unchanged.
    files: ['**/*.tsx', 'src/state/**', 'src/viewer/**'],
    extends: [reactHooks.configs.flat.recommended],
    rules: { 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // three.js objects (cameras, meshes, controls) are mutable by design and driven from effects and useFrame;
    // `immutability` guards the React Compiler's memoisation, which this build does not use.
    files: ['src/viewer/**'],
    rules: { 'react-hooks/immutability': 'off' },
  },
  {
    files: ['src/main.tsx', 'src/app/**', 'src/pages/**', 'src/viewer/**', 'src/state/**', 'src/browser/**'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['workers/**'], languageOptions: { globals: globals.worker } },
  {
    files: ['src/cli/**', 'src/node/**', 'scripts/**', 'bench/**', 'tests/**', 'bin/**', 'examples/**', '*.config.*'],
    languageOptions: { globals: globals.node },
  },
  // The render bench runs functions inside the page (Playwright's evaluate).
  { files: ['bench/render/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
