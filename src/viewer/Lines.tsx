/** Coloured line segments and canvas-sprite text labels, drawn over the atoms; used as viewer children. */
import * as THREE from 'three';
import { useDisposable } from './use-disposable.ts';

/** Line segments: 6 numbers (two ends) and 6 colours per segment. Pass stable arrays (memoised). */
export function Lines({ points, colors, dashed = false }: { points: number[]; colors: number[]; dashed?: boolean }) {
  const line = useDisposable(() => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    g.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    const material = dashed
      ? new THREE.LineDashedMaterial({ vertexColors: true, dashSize: 0.25, gapSize: 0.15, depthTest: false })
      : new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false });
    const l = new THREE.LineSegments(g, material);
    if (dashed) l.computeLineDistances();
    l.renderOrder = 8;
    return l;
  }, [points, colors, dashed]);
  return <primitive object={line} />;
}

export interface TextLabel {
  position: readonly [number, number, number];
  text: string;
}

/**
 * Text at points as canvas-texture sprites (in the WebGL scene, so the PNG export has them, as the a/b/c axis
 * labels of StructureViewer.tsx). `height`: the text height in Å. Pass a stable array (memoised).
 */
export function TextLabels({ labels, color, height = 0.4 }: { labels: readonly TextLabel[]; color: string; height?: number }) {
  const group = useDisposable(() => {
    const group = new THREE.Group();
    for (const label of labels) {
      const canvas = document.createElement('canvas');
      const ctx = canvas.getContext('2d')!;
      const font = 'bold 40px sans-serif';
      ctx.font = font;
      const width = Math.ceil(ctx.measureText(label.text).width) + 16;
      canvas.width = width;
      canvas.height = 56;
      ctx.font = font; // resizing the canvas resets its state
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.lineWidth = 8;
      ctx.strokeStyle = 'rgba(255,255,255,0.9)';
      ctx.strokeText(label.text, width / 2, 30);
      ctx.fillStyle = color;
      ctx.fillText(label.text, width / 2, 30);
      const texture = new THREE.CanvasTexture(canvas);
      texture.colorSpace = THREE.SRGBColorSpace;
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false, transparent: true }));
      sprite.scale.set((height * width) / 56, height, 1);
      sprite.position.set(label.position[0], label.position[1], label.position[2]);
      sprite.renderOrder = 10;
      group.add(sprite);
    }
    return group;
  }, [labels, color, height]);
  return labels.length ? <primitive object={group} /> : null;
}
