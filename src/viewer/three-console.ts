/**
 * three's console output, less one warning the lab cannot avoid: three r183 deprecated THREE.Clock in favour of
 * THREE.Timer and warns when one is made (three/src/core/Clock.js), and @react-three/fiber 9 still makes one for every
 * Canvas (pmndrs/react-three-fiber, packages/fiber/src/core/store.ts: `clock: new THREE.Clock()`), so each page with
 * a 3D view warned. Only that message is dropped; everything else three reports reaches the console as before
 * (three/src/utils.js: with a console function set, three hands it every log, warn and error).
 */
import { setConsoleFunction } from 'three';

const CLOCK_DEPRECATED = 'THREE.Clock: This module has been deprecated. Please use THREE.Timer instead.';

setConsoleFunction((type: 'log' | 'warn' | 'error', message: string, ...params: unknown[]) => {
  if (type === 'warn' && message === CLOCK_DEPRECATED) return;
  console[type](message, ...params);
});
