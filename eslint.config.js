// The lint gate of `npm test` (run with --max-warnings 0). Flat config, ESLint 10.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'lib/', '.cli-build/', 'node_modules/', 'coverage/', 'bench/results/', 'test-results/'] },
  js.configs.recommended,
  // Syntax-only rules: the type-aware set costs a full program build per run on this 2-core machine.
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept for its position or to drop it from a rest spread.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A destructuring whose names are reassigned in part (niggli's A..Y) stays one `let`.
      'prefer-const': ['error', { destructuring: 'all' }],
    },
  },
  {
    // The React Compiler rules of react-hooks 7 `recommended` too: they flag render-time impurity and
    // ref/state misuse that breaks memoisation, which is what the viewers rely on. Warnings fail the gate.
    files: ['**/*.tsx', 'src/state/**/*.ts', 'src/viewer/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['src/main.tsx', 'src/app/**', 'src/pages/**', 'src/viewer/**', 'src/state/**', 'src/browser/**'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['workers/**'], languageOptions: { globals: globals.worker } },
  {
    files: ['src/cli/**', 'src/node/**', 'scripts/**', 'bench/**', 'tests/**', 'bin/**', '*.config.*', 'vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    // The e2e tests run code in the page through Playwright's evaluate(): browser globals there too.
    files: ['tests/e2e/**', 'bench/render/**', 'scripts/screenshot.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
