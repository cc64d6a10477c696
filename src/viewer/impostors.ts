/**
 * Sphere and cylinder impostors: one instanced draw call each, whatever the atom count.
 * Spheres are camera-facing quads ray-cast in the fragment shader, writing true depth so they
 * intersect bonds, polyhedra and each other correctly. Bonds are 8-sided instanced tubes
 * (half-bonds, each coloured by its own end).
 */
import * as THREE from 'three';

const sphereVertex = /* glsl */ `
uniform float uRadiusScale;
attribute vec3 instanceCenter;
attribute float instanceRadius;
attribute vec3 instanceColor;
varying vec3 vCenter;
varying vec3 vPos;
varying float vRadius;
varying vec3 vColor;
void main() {
  vec4 c = modelViewMatrix * vec4(instanceCenter, 1.0);
  float r = instanceRadius * uRadiusScale;
  vec3 p;
  if (projectionMatrix[2][3] != 0.0) {
    // Perspective: a quad perpendicular to the eye→centre ray, sized to the tangent cone's section
    // through the centre (r·d/√(d²−r²)), so it just covers the silhouette.
    float d = length(c.xyz);
    vec3 toEye = -c.xyz / d; // basis (right, up, toEye) is right-handed, so the quad faces the eye
    vec3 right = normalize(cross(abs(toEye.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0), toEye));
    vec3 up = cross(toEye, right);
    float s = r * d / sqrt(max(d * d - r * r, 1e-6));
    p = c.xyz + (right * position.x + up * position.y) * min(s, 4.0 * r);
  } else {
    p = c.xyz + vec3(position.xy * r, 0.0);
  }
  vCenter = c.xyz;
  vPos = p;
  vRadius = r;
  vColor = instanceColor;
  gl_Position = projectionMatrix * vec4(p, 1.0);
}`;

const sphereFragment = /* glsl */ `
uniform mat4 projectionMatrix;
uniform float uOpacity;
varying vec3 vCenter;
varying vec3 vPos;
varying float vRadius;
varying vec3 vColor;
void main() {
  bool ortho = projectionMatrix[2][3] == 0.0;
  vec3 ro = ortho ? vec3(vPos.xy, 0.0) : vec3(0.0);
  vec3 rd = ortho ? vec3(0.0, 0.0, -1.0) : normalize(vPos);
  vec3 oc = ro - vCenter;
  float b = dot(oc, rd);
  float h = b * b - (dot(oc, oc) - vRadius * vRadius);
  if (h < 0.0) discard;
  vec3 hit = ro + (-b - sqrt(h)) * rd;
  vec3 n = normalize(hit - vCenter);
  vec3 l = normalize(vec3(0.35, 0.45, 1.0));
  float diffuse = max(dot(n, l), 0.0);
  float specular = pow(max(dot(reflect(-l, n), -rd), 0.0), 40.0);
  vec4 clip = projectionMatrix * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
  gl_FragColor = vec4(vColor * (0.32 + 0.68 * diffuse) + 0.22 * specular, uOpacity);
}`;

export interface SphereBuffers {
  centers: Float32Array;
  radii: Float32Array;
  colors: Float32Array;
  count: number;
}

export function makeSphereMesh(b: SphereBuffers, opacity = 1): THREE.Mesh {
  const geometry = new THREE.InstancedBufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]), 3));
  geometry.setIndex([0, 1, 2, 0, 2, 3]);
  geometry.setAttribute('instanceCenter', new THREE.InstancedBufferAttribute(b.centers, 3));
  geometry.setAttribute('instanceRadius', new THREE.InstancedBufferAttribute(b.radii, 1));
  geometry.setAttribute('instanceColor', new THREE.InstancedBufferAttribute(b.colors, 3));
  geometry.instanceCount = b.count;
  // Bounds are computed by the caller's scene bounds; disable culling instead of a per-frame box.
  const material = new THREE.ShaderMaterial({
    vertexShader: sphereVertex,
    fragmentShader: sphereFragment,
    uniforms: { uRadiusScale: { value: 1 }, uOpacity: { value: opacity } },
    transparent: opacity < 1,
    depthWrite: opacity >= 1,
  });
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;
  return mesh;
}

const tubeVertex = /* glsl */ `
uniform float uRadius;
attribute vec3 instanceStart;
attribute vec3 instanceEnd;
attribute vec3 instanceColor;
varying vec3 vNormal;
varying vec3 vColor;
void main() {
  vec3 axis = instanceEnd - instanceStart;
  float len = length(axis);
  vec3 z = axis / max(len, 1e-6);
  vec3 ref = abs(z.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 x = normalize(cross(ref, z));
  vec3 y = cross(z, x);
  vec3 world = instanceStart + (x * position.x + y * position.y) * uRadius + z * position.z * len;
  vNormal = normalize(normalMatrix * (x * position.x + y * position.y));
  vColor = instanceColor;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(world, 1.0);
}`;

const tubeFragment = /* glsl */ `
varying vec3 vNormal;
varying vec3 vColor;
void main() {
  vec3 n = normalize(vNormal);
  vec3 l = normalize(vec3(0.35, 0.45, 1.0));
  gl_FragColor = vec4(vColor * (0.35 + 0.65 * abs(dot(n, l))), 1.0);
}`;

/** A unit tube: radius 1 around +z from z=0 to z=1, `sides` facets, no caps (the atoms cover the ends). */
function unitTube(sides = 8): { positions: Float32Array; index: number[] } {
  const positions = new Float32Array(sides * 2 * 3);
  const index: number[] = [];
  for (let k = 0; k < sides; k++) {
    const a = (2 * Math.PI * k) / sides;
    positions.set([Math.cos(a), Math.sin(a), 0, Math.cos(a), Math.sin(a), 1], 6 * k);
    const n = (k + 1) % sides;
    index.push(2 * k, 2 * n, 2 * k + 1, 2 * k + 1, 2 * n, 2 * n + 1);
  }
  return { positions, index };
}

export interface TubeBuffers {
  starts: Float32Array;
  ends: Float32Array;
  colors: Float32Array;
  count: number;
}

export function makeTubeMesh(b: TubeBuffers, radius: number): THREE.Mesh {
  const geometry = new THREE.InstancedBufferGeometry();
  const tube = unitTube();
  geometry.setAttribute('position', new THREE.BufferAttribute(tube.positions, 3));
  geometry.setIndex(tube.index);
  geometry.setAttribute('instanceStart', new THREE.InstancedBufferAttribute(b.starts, 3));
  geometry.setAttribute('instanceEnd', new THREE.InstancedBufferAttribute(b.ends, 3));
  geometry.setAttribute('instanceColor', new THREE.InstancedBufferAttribute(b.colors, 3));
  geometry.instanceCount = b.count;
  const material = new THREE.ShaderMaterial({
    vertexShader: tubeVertex,
    fragmentShader: tubeFragment,
    uniforms: { uRadius: { value: radius } },
    side: THREE.DoubleSide,
  });
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;
  return mesh;
}

export function disposeMesh(mesh: THREE.Object3D | null | undefined): void {
  mesh?.traverse((o) => {
    const m = o as THREE.Mesh;
    m.geometry?.dispose();
    const mat = m.material as THREE.Material | THREE.Material[] | undefined;
    if (Array.isArray(mat)) mat.forEach((x) => x.dispose());
    else mat?.dispose();
    const tex = (mat as THREE.SpriteMaterial | undefined)?.map;
    tex?.dispose();
  });
}
