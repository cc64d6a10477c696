/** A three object owned by a component: made when its dependencies change, disposed once its successor is drawn. */
import { useThree } from '@react-three/fiber';
import { useEffect, useState } from 'react';
import type * as THREE from 'three';
import { disposeMesh } from './impostors.ts';

/** Hands a three object to the scene and disposes of it when replaced (also for overlays passed as children). */
export function useDisposable<T extends THREE.Object3D>(make: () => T, deps: readonly unknown[]): T {
  // Made during render when a dependency changed, kept in state (React's "storing information from previous renders",
  // react.dev/reference/react/useState): useMemo would need its dependency list written out at the call.
  const [made, setMade] = useState(() => ({ obj: make(), deps }));
  let current = made;
  if (deps.length !== made.deps.length || deps.some((d, i) => !Object.is(d, made.deps[i]))) {
    current = { obj: make(), deps };
    setMade(current);
  }
  const obj = current.obj;
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    invalidate();
    return () => {
      // Disposed a little later, once the next object has been drawn: its material takes the same shader program first,
      // so three keeps the program instead of deleting it and compiling it again for every trajectory frame (a compile
      // costs hundreds of ms in SwiftShader; three.js src/renderers/webgl/WebGLPrograms.js releaseProgram).
      setTimeout(() => disposeMesh(obj), 1000);
      invalidate();
    };
  }, [obj, invalidate]);
  return obj;
}
