/**
 * Sphere impostors and bond tubes: one draw call each, whatever the atom count.
 * Spheres are eye-facing quads ray-cast in the fragment shader, writing true depth so they
 * intersect bonds, polyhedra and each other correctly. Bonds are 8-sided tubes (half-bonds, each
 * coloured by its own end).
 */
import * as THREE from 'three';

/*
 * No instancing for spheres: software rasterisers (SwiftShader, used headless) pay a large fixed cost
 * per instance (100k instanced quads took ~3 s/frame even with a flat fragment shader). Instead one
 * plain indexed draw of 4 vertices per atom; each vertex finds its atom from gl_VertexID and fetches centre,
 * radius and colour from two data textures (20 bytes per atom, plus 28 bytes of index and placeholder).
 */
const sphereVertex = /* glsl */ `
uniform float uRadiusScale;
uniform highp sampler2D uCenterRadius;
uniform lowp sampler2D uColor;
uniform int uTextureWidth;
varying vec3 vCenter;
varying vec3 vPos;
varying float vRadius;
varying vec3 vColor;
const vec2 CORNERS[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
void main() {
  int atom = gl_VertexID / 4;
  ivec2 texel = ivec2(atom % uTextureWidth, atom / uTextureWidth);
  vec4 centerRadius = texelFetch(uCenterRadius, texel, 0);
  vec2 corner = CORNERS[gl_VertexID - 4 * atom];
  vec4 c = modelViewMatrix * vec4(centerRadius.xyz, 1.0);
  float r = centerRadius.w * uRadiusScale;
  vec3 p;
  if (projectionMatrix[2][3] != 0.0) {
    // Perspective: a quad perpendicular to the eye→centre ray, sized to the tangent cone's section
    // through the centre (r·d/√(d²−r²)), so it just covers the silhouette.
    float d = length(c.xyz);
    vec3 toEye = -c.xyz / d; // basis (right, up, toEye) is right-handed, so the quad faces the eye
    vec3 right = normalize(cross(abs(toEye.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0), toEye));
    vec3 up = cross(toEye, right);
    float s = r * d / sqrt(max(d * d - r * r, 1e-6));
    p = c.xyz + (right * corner.x + up * corner.y) * min(s, 4.0 * r);
  } else {
    p = c.xyz + vec3(corner * r, 0.0);
  }
  vCenter = c.xyz;
  vPos = p;
  vRadius = r;
  vColor = texelFetch(uColor, texel, 0).rgb;
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

const TEXTURE_WIDTH = 2048;

/**
 * Set by hand: three sorts objects by their geometry's bounding sphere and would otherwise compute
 * it from the 1-component placeholder `position` attribute (NaN).
 */
function boundingSphere(xyz: Float32Array, n: number): THREE.Sphere {
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  for (let i = 0; i < n; i++) box.expandByPoint(v.set(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]));
  return n > 0 ? box.getBoundingSphere(new THREE.Sphere()) : new THREE.Sphere(new THREE.Vector3(), 0);
}

/** A TEXTURE_WIDTH-wide RGBA data texture read with texelFetch (no filtering, no colour conversion). */
function dataTexture(data: Float32Array | Uint8Array, height: number, type: THREE.TextureDataType): THREE.DataTexture {
  const t = new THREE.DataTexture(data, TEXTURE_WIDTH, height, THREE.RGBAFormat, type);
  t.minFilter = THREE.NearestFilter;
  t.magFilter = THREE.NearestFilter;
  t.generateMipmaps = false;
  t.colorSpace = THREE.NoColorSpace;
  t.needsUpdate = true;
  return t;
}

export function makeSphereMesh(b: SphereBuffers, opacity = 1): THREE.Mesh {
  const n = b.count;
  const height = Math.max(1, Math.ceil(n / TEXTURE_WIDTH));
  const centerRadius = new Float32Array(TEXTURE_WIDTH * height * 4);
  const color = new Uint8Array(TEXTURE_WIDTH * height * 4);
  for (let i = 0; i < n; i++) {
    centerRadius[4 * i] = b.centers[3 * i];
    centerRadius[4 * i + 1] = b.centers[3 * i + 1];
    centerRadius[4 * i + 2] = b.centers[3 * i + 2];
    centerRadius[4 * i + 3] = b.radii[i];
    color[4 * i] = Math.round(b.colors[3 * i] * 255);
    color[4 * i + 1] = Math.round(b.colors[3 * i + 1] * 255);
    color[4 * i + 2] = Math.round(b.colors[3 * i + 2] * 255);
    color[4 * i + 3] = 255;
  }
  const centerTexture = dataTexture(centerRadius, height, THREE.FloatType);
  const colorTexture = dataTexture(color, height, THREE.UnsignedByteType);
  const geometry = new THREE.BufferGeometry();
  // three needs a `position` attribute to size the draw; the shader only uses gl_VertexID.
  geometry.setAttribute('position', new THREE.BufferAttribute(new Uint8Array(4 * n), 1));
  // Indexed: 4 shaded vertices per atom (the two triangles share a diagonal).
  const index = new Uint32Array(6 * n);
  for (let i = 0; i < n; i++) index.set([4 * i, 4 * i + 1, 4 * i + 2, 4 * i, 4 * i + 2, 4 * i + 3], 6 * i);
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  geometry.boundingSphere = boundingSphere(b.centers, n);
  const material = new THREE.ShaderMaterial({
    vertexShader: sphereVertex,
    fragmentShader: sphereFragment,
    uniforms: {
      uRadiusScale: { value: 1 },
      uOpacity: { value: opacity },
      uCenterRadius: { value: centerTexture },
      uColor: { value: colorTexture },
      uTextureWidth: { value: TEXTURE_WIDTH },
    },
    transparent: opacity < 1,
    depthWrite: opacity >= 1,
  });
  material.addEventListener('dispose', () => {
    centerTexture.dispose();
    colorTexture.dispose();
  });
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;
  return mesh;
}

const TUBE_SIDES = 8;
const TUBE_VERTICES = TUBE_SIDES * 6;

/** Same scheme as the spheres: 48 vertices per half-bond, ends and colour fetched by gl_VertexID. */
const tubeVertex = /* glsl */ `
uniform float uRadius;
uniform highp sampler2D uStart;
uniform highp sampler2D uEnd;
uniform lowp sampler2D uColor;
uniform int uTextureWidth;
varying vec3 vNormal;
varying vec3 vColor;
const ivec2 PATTERN[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1));
void main() {
  int bond = gl_VertexID / ${TUBE_VERTICES};
  int local = gl_VertexID - ${TUBE_VERTICES} * bond;
  ivec2 corner = PATTERN[local % 6];
  float angle = float(local / 6 + corner.x) * ${((2 * Math.PI) / TUBE_SIDES).toFixed(10)};
  ivec2 texel = ivec2(bond % uTextureWidth, bond / uTextureWidth);
  vec3 start = texelFetch(uStart, texel, 0).xyz;
  vec3 end = texelFetch(uEnd, texel, 0).xyz;
  vec3 axis = end - start;
  float len = length(axis);
  vec3 z = axis / max(len, 1e-6);
  vec3 ref = abs(z.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
  vec3 x = normalize(cross(ref, z));
  vec3 y = cross(z, x);
  vec3 radial = x * cos(angle) + y * sin(angle);
  vec3 world = start + radial * uRadius + z * float(corner.y) * len;
  vNormal = normalize(normalMatrix * radial);
  vColor = texelFetch(uColor, texel, 0).rgb;
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

export interface TubeBuffers {
  starts: Float32Array;
  ends: Float32Array;
  colors: Float32Array;
  count: number;
}

export function makeTubeMesh(b: TubeBuffers, radius: number): THREE.Mesh {
  const n = b.count;
  const height = Math.max(1, Math.ceil(n / TEXTURE_WIDTH));
  const starts = new Float32Array(TEXTURE_WIDTH * height * 4);
  const ends = new Float32Array(TEXTURE_WIDTH * height * 4);
  const color = new Uint8Array(TEXTURE_WIDTH * height * 4);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      starts[4 * i + k] = b.starts[3 * i + k];
      ends[4 * i + k] = b.ends[3 * i + k];
      color[4 * i + k] = Math.round(b.colors[3 * i + k] * 255);
    }
    color[4 * i + 3] = 255;
  }
  const textures = [
    dataTexture(starts, height, THREE.FloatType),
    dataTexture(ends, height, THREE.FloatType),
    dataTexture(color, height, THREE.UnsignedByteType),
  ];
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Uint8Array(TUBE_VERTICES * n), 1));
  geometry.setDrawRange(0, TUBE_VERTICES * n);
  geometry.boundingSphere = boundingSphere(b.starts, n);
  const material = new THREE.ShaderMaterial({
    vertexShader: tubeVertex,
    fragmentShader: tubeFragment,
    uniforms: {
      uRadius: { value: radius },
      uStart: { value: textures[0] },
      uEnd: { value: textures[1] },
      uColor: { value: textures[2] },
      uTextureWidth: { value: TEXTURE_WIDTH },
    },
    side: THREE.DoubleSide,
  });
  material.addEventListener('dispose', () => textures.forEach((t) => t.dispose()));
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
