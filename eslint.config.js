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
    files: ['src/main.tsx', 'src/app/**', 'src/pages/**', 'src/ui/**', 'src/viewer/**', 'src/state/**', 'src/browser/**'],
    languageOptions: { globals: globals.browser },
  },
  { files: ['workers/**'], languageOptions: { globals: globals.worker } },
  {
    files: ['src/cli/**', 'src/node/**', 'scripts/**', 'bench/**', 'tests/**', 'bin/**', 'examples/**', '*.config.*'],
    languageOptions: { globals: globals.node },
  },
  {
    // Engine-independent bits: V8 versions differ in the last bit of these (Node 20: fdlibm; Chromium: LLVM libc,
    // glibc kernels), which flips knife-edge matches. src/core uses the fdlibm port in src/core/math/libm.ts.
    // sqrt, abs, floor, round, min, max are exact in IEEE 754; Math.hypot (V8 Torque) gives the same bits in Node 20
    // and Chromium (checked on 200,000 inputs). `a ** b` is Math.pow: only `x ** 2` (x * x in every V8) and `2 ** n`
    // (exact) stay; every other power goes through libm's pow.
    files: ['src/core/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'sin', message: 'Use sin from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'cos', message: 'Use cos from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'tan', message: 'Use tan from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'asin', message: 'Use asin from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'acos', message: 'Use acos from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'atan', message: 'Use atan from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'atan2', message: 'Use atan2 from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'sinh', message: 'Use sinh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'cosh', message: 'Use cosh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'tanh', message: 'Use tanh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'asinh', message: 'Use asinh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'acosh', message: 'Use acosh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'atanh', message: 'Use atanh from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'exp', message: 'Use exp from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'expm1', message: 'Use expm1 from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'log', message: 'Use log from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'log1p', message: 'Use log1p from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'log2', message: 'Use log2 from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'log10', message: 'Use log10 from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'cbrt', message: 'Use cbrt from src/core/math/libm.ts (same bits in every engine).' },
        { object: 'Math', property: 'pow', message: 'Use pow from src/core/math/libm.ts (same bits in every engine).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator='**']:not([right.value=2]):not([left.value=2]):not([left.bigint])",
          message: 'Use pow from src/core/math/libm.ts: Math.pow differs between JavaScript engines.',
        },
        { selector: "AssignmentExpression[operator='**=']", message: 'Use pow from src/core/math/libm.ts.' },
      ],
    },
  },
  // The render bench runs functions inside the page (Playwright's evaluate).
  { files: ['bench/render/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
