/**
 * Atom labels in one draw call: the glyphs of every text drawn once into a canvas atlas, and one indexed geometry of
 * glyph quads anchored at the atoms and spread in screen pixels by the vertex shader (billboards of a fixed on-screen
 * size). drei's <Text> (troika) makes a mesh per text; at thousands of labels that is thousands of draw calls.
 * The atlas holds coverage, not colour (red: the letter, green: its outline), so the theme's colours are uniforms.
 */
import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import * as THREE from 'three';
import type { ViewerController } from './controller.ts';
import { glyphsOf, layoutLabels, packAtlas } from './label-layout.ts';
import { useDisposable } from './use-disposable.ts';
import { shownTheme, watchShownTheme } from '../browser/shown-theme.ts';

/** Label line height on screen (CSS pixels) and in the atlas (pixels: drawn larger, filtered down). */
const LABEL_PX = 22;
const ATLAS_PX = 48;
const FONT = `bold ${Math.round(ATLAS_PX * 0.75)}px system-ui, sans-serif`;
/** Outline stroke width in atlas pixels (half of it outside the letter): thin, or it swallows the letter's fill. */
const OUTLINE = 6;

const vertex = /* glsl */ `
attribute vec2 offset;
attribute vec2 glyphUv;
attribute float lift;
attribute float layer;
uniform vec2 uViewport;
uniform float uPx;
varying vec2 vUv;
varying float vLayer;
void main() {
  vLayer = layer;
  vec4 c = modelViewMatrix * vec4(position, 1.0);
  // Drawn at the atom's front (lifted toward the eye by its radius): atoms in front hide it, its own atom does not.
  if (projectionMatrix[2][3] != 0.0) c.xyz += normalize(-c.xyz) * lift;
  else c.z += lift;
  vec4 clip = projectionMatrix * c;
  clip.xy += offset * uPx * 2.0 / uViewport * clip.w;
  gl_Position = clip;
  vUv = glyphUv;
}`;

const fragment = /* glsl */ `
uniform sampler2D uAtlas;
uniform vec3 uFill;
uniform vec3 uOutline;
varying vec2 vUv;
varying float vLayer;
void main() {
  vec2 cov = texture2D(uAtlas, vUv).rg;
  // Layer 0: the letter and its outline in the outline colour; layer 1, drawn over it: the letter in the fill colour.
  float a = vLayer < 0.5 ? min(1.0, cov.r + cov.g) : cov.r;
  if (a < 0.02) discard;
  gl_FragColor = vec4(vLayer < 0.5 ? uOutline : uFill, a);
}`;

/** Dark letters outlined in white on the light theme, the reverse on the dark one (html[data-theme], src/app/theme.ts). */
function themeColors(): { fill: THREE.Color; outline: THREE.Color } {
  const dark = shownTheme() === 'dark';
  return { fill: new THREE.Color(dark ? 0xf5f5f5 : 0x111111), outline: new THREE.Color(dark ? 0x000000 : 0xffffff) };
}

/** The atlas of `glyphs` on a black canvas: each letter's coverage in red over its outline's in green. */
function drawAtlas(glyphs: readonly string[]) {
  const measure = document.createElement('canvas').getContext('2d')!;
  measure.font = FONT;
  const layout = packAtlas(
    glyphs,
    glyphs.map((g) => measure.measureText(g).width),
    ATLAS_PX,
    OUTLINE,
  );
  const canvas = document.createElement('canvas');
  canvas.width = layout.width;
  canvas.height = layout.height;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = OUTLINE;
  ctx.strokeStyle = '#00ff00';
  ctx.fillStyle = '#ff0000';
  for (const [g, c] of layout.cells) {
    ctx.strokeText(g, c.x + c.width / 2, c.y + ATLAS_PX / 2);
    ctx.fillText(g, c.x + c.width / 2, c.y + ATLAS_PX / 2);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.NoColorSpace;
  texture.minFilter = THREE.LinearMipmapLinearFilter;
  texture.magFilter = THREE.LinearFilter;
  return { layout, texture };
}

function makeLabelMesh(positions: Float32Array, radii: Float32Array, atoms: Uint32Array, texts: readonly string[]): THREE.Mesh {
  const { layout, texture } = drawAtlas(glyphsOf(texts));
  const quads = layoutLabels(texts, layout);
  const n = quads.label.length;
  // Every glyph twice: vertices 4g.. for its outline layer, 4(n + g).. for its fill layer.
  const anchor = new Float32Array(24 * n);
  const lift = new Float32Array(8 * n);
  const layer = new Float32Array(8 * n).fill(1, 4 * n);
  for (let g = 0; g < n; g++) {
    const i = atoms[quads.label[g]];
    for (let v = 0; v < 4; v++) {
      for (const base of [4 * g + v, 4 * (n + g) + v]) {
        anchor.set(positions.subarray(3 * i, 3 * i + 3), 3 * base);
        lift[base] = radii[i] * 1.02 + 0.05;
      }
    }
  }
  const twice = (a: Float32Array) => {
    const out = new Float32Array(2 * a.length);
    out.set(a);
    out.set(a, a.length);
    return out;
  };
  // Label by label: its outlines, then its letters, so a later label covers an earlier one whole and no outline of a
  // label eats into a letter next to it.
  const index = new Uint32Array(12 * n);
  const quad = (q: number, at: number) => index.set([4 * q, 4 * q + 1, 4 * q + 2, 4 * q, 4 * q + 2, 4 * q + 3], 6 * at);
  let at = 0;
  for (let start = 0; start < n;) {
    let end = start;
    while (end < n && quads.label[end] === quads.label[start]) end++;
    for (let g = start; g < end; g++) quad(g, at++);
    for (let g = start; g < end; g++) quad(n + g, at++);
    start = end;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(anchor, 3));
  geometry.setAttribute('offset', new THREE.BufferAttribute(twice(quads.offsets), 2));
  geometry.setAttribute('glyphUv', new THREE.BufferAttribute(twice(quads.uvs), 2));
  geometry.setAttribute('lift', new THREE.BufferAttribute(lift, 1));
  geometry.setAttribute('layer', new THREE.BufferAttribute(layer, 1));
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  const { fill, outline } = themeColors();
  const material = new THREE.ShaderMaterial({
    vertexShader: vertex,
    fragmentShader: fragment,
    uniforms: {
      uAtlas: { value: texture },
      uViewport: { value: new THREE.Vector2(1, 1) },
      uPx: { value: LABEL_PX },
      uFill: { value: fill },
      uOutline: { value: outline },
    },
    transparent: true,
    depthWrite: false,
  });
  material.addEventListener('dispose', () => texture.dispose());
  const mesh = new THREE.Mesh(geometry, material);
  mesh.frustumCulled = false;
  mesh.renderOrder = 20;
  const size = new THREE.Vector2();
  mesh.onBeforeRender = (renderer) => {
    // The pixels of what is drawn into (the canvas, or a PNG export's larger target), and the label size scaled with
    // it so an export at 2× shows the labels as the screen does.
    const target = renderer.getRenderTarget();
    if (target) size.set(target.width, target.height);
    else renderer.getDrawingBufferSize(size);
    const css = renderer.domElement.clientWidth || size.x;
    material.uniforms.uViewport.value.copy(size);
    material.uniforms.uPx.value = (LABEL_PX * size.x) / css;
    material.uniformsNeedUpdate = true;
  };
  return mesh;
}

/** Labels `texts[k]` at drawn atom `atoms[k]`; rebuilt only when the atoms, their sizes or the texts change. */
export function AtomLabels({
  positions,
  radii,
  atoms,
  texts,
  controller,
}: {
  positions: Float32Array;
  radii: Float32Array;
  atoms: Uint32Array;
  texts: readonly string[];
  controller: ViewerController;
}) {
  const mesh = useDisposable(() => {
    controller.labelBuilds++;
    controller.labelTexts = texts;
    controller.labelAtoms = atoms;
    return makeLabelMesh(positions, radii, atoms, texts);
  }, [positions, radii, atoms, texts, controller]);
  const invalidate = useThree((s) => s.invalidate);
  // The theme switch recolours the labels (two uniforms), no rebuild.
  useEffect(
    () =>
      watchShownTheme(() => {
        const { fill, outline } = themeColors();
        const m = mesh.material as THREE.ShaderMaterial;
        (m.uniforms.uFill.value as THREE.Color).copy(fill);
        (m.uniforms.uOutline.value as THREE.Color).copy(outline);
        invalidate();
      }),
    [mesh, invalidate],
  );
  useEffect(
    () => () => {
      controller.labelTexts = [];
      controller.labelAtoms = new Uint32Array(0);
    },
    [controller],
  );
  return <primitive object={mesh} />;
}
