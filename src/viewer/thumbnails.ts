/**
 * Structure thumbnails from ONE WebGL context: a single offscreen THREE.WebGLRenderer draws each structure
 * (atoms as impostor spheres, the cell's edges) into a small canvas, copied out as a PNG blob URL for an <img>.
 * Requests are queued and rendered one at a time, a cancelled request (its thumbnail scrolled away) is dropped
 * from the queue, and the images are cached by key (least recently used ones evicted and revoked).
 */
import * as THREE from 'three';
import type { DisplayData } from '../core/analysis/display-scene.ts';
import { DEFAULT_SETTINGS } from './view-settings.ts';
import { elementColor } from './colors.ts';
import { disposeMesh, makeSphereMesh } from './impostors.ts';
import { atomRadii } from './StructureViewer.tsx';
import { CELL_CORNERS, CELL_EDGE_COLORS, CELL_EDGES } from './cell-edges.ts';
import { shownTheme } from '../browser/shown-theme.ts';

/** Pixel size of a thumbnail (square), drawn at twice this for sharp images on dense screens. */
export const THUMBNAIL_SIZE = 112;
const SCALE = 2;
const CACHE_SIZE = 600;

interface Job {
  key: string;
  load: () => Promise<DisplayData>;
  resolve: (url: string) => void;
  reject: (e: unknown) => void;
  cancelled: boolean;
}

class ThumbnailRenderer {
  private renderer: THREE.WebGLRenderer | null = null;
  private readonly cache = new Map<string, string>();
  private readonly pending = new Map<string, Promise<string>>();
  private readonly queue: Job[] = [];
  private running = false;
  /** Thumbnails drawn since the page loaded (the tests' and benchmarks' count). */
  rendered = 0;

  /** The cached image of `key`, if it was drawn. */
  cached(key: string): string | undefined {
    const url = this.cache.get(key);
    if (url) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, url);
    }
    return url;
  }

  /**
   * The image URL of `key`, drawing it from `load()` when it is not cached. The returned `cancel` drops the request
   * if it has not started (the promise then never settles).
   */
  request(key: string, load: () => Promise<DisplayData>): { promise: Promise<string>; cancel: () => void } {
    const hit = this.cached(key);
    if (hit) return { promise: Promise.resolve(hit), cancel: () => {} };
    let job: Job | null = null;
    let promise = this.pending.get(key);
    if (!promise) {
      promise = new Promise<string>((resolve, reject) => {
        job = { key, load, resolve, reject, cancelled: false };
      });
      this.pending.set(key, promise);
      this.queue.push(job!);
      void this.pump();
    }
    const own = job as Job | null;
    return {
      promise,
      cancel: () => {
        if (!own || own.cancelled) return;
        own.cancelled = true;
        this.pending.delete(key);
      },
    };
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let job = this.queue.shift(); job; job = this.queue.shift()) {
        if (job.cancelled) continue;
        try {
          const display = await job.load();
          const url = await this.draw(display);
          this.rendered++;
          this.cache.set(job.key, url);
          while (this.cache.size > CACHE_SIZE) {
            const [oldest, old] = this.cache.entries().next().value as [string, string];
            this.cache.delete(oldest);
            URL.revokeObjectURL(old);
          }
          job.resolve(url);
        } catch (e) {
          job.reject(e);
        } finally {
          this.pending.delete(job.key);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private context(): THREE.WebGLRenderer {
    if (!this.renderer) {
      const canvas = document.createElement('canvas');
      this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
      this.renderer.setPixelRatio(1);
      this.renderer.setSize(THUMBNAIL_SIZE * SCALE, THUMBNAIL_SIZE * SCALE, false);
      this.renderer.setClearColor(0x000000, 0);
    }
    return this.renderer;
  }

  private async draw(display: DisplayData): Promise<string> {
    const gl = this.context();
    const scene = new THREE.Scene();
    scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const light = new THREE.DirectionalLight(0xffffff, 1.8);
    light.position.set(5, 8, 10);
    scene.add(light);
    const n = display.natoms;
    const colors = new Float32Array(3 * n);
    const palette = display.elements.map((el) => elementColor(el, DEFAULT_SETTINGS.colorScheme));
    for (let i = 0; i < n; i++) colors.set(palette[display.element[i]], 3 * i);
    const atoms = makeSphereMesh({ centers: display.positions, radii: atomRadii(display, DEFAULT_SETTINGS), colors, count: n });
    scene.add(atoms);
    const { center, radius, box, viewDir, up } = framing(display);
    if (box) scene.add(box);
    const camera = new THREE.OrthographicCamera(-radius, radius, radius, -radius, 0.01, 4 * radius + 10);
    camera.up.copy(up);
    camera.position.copy(center).addScaledVector(viewDir, 2 * radius + 5);
    camera.lookAt(center);
    camera.updateProjectionMatrix();
    try {
      gl.render(scene, camera);
      const blob = await new Promise<Blob | null>((resolve) => gl.domElement.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('the thumbnail could not be encoded');
      return URL.createObjectURL(blob);
    } finally {
      disposeMesh(scene);
    }
  }
}

/** The camera's view (StructureViewer's default: a tilted look down c) and the cell's edges. */
function framing(d: DisplayData) {
  const p = d.positions;
  const center = new THREE.Vector3();
  const c = d.cell;
  let box: THREE.LineSegments | null = null;
  let viewDir = new THREE.Vector3(0, 0, 1),
    up = new THREE.Vector3(0, 1, 0);
  const corners: THREE.Vector3[] = [];
  if (c) {
    const [a, b, cc] = [0, 3, 6].map((k) => new THREE.Vector3(c[k], c[k + 1], c[k + 2]));
    const at = (f: readonly number[]) => new THREE.Vector3().addScaledVector(a, f[0]).addScaledVector(b, f[1]).addScaledVector(cc, f[2]);
    const edges = CELL_EDGES.flatMap(([p, q]) => [at(p), at(q)]);
    corners.push(...CELL_CORNERS.map(at));
    box = new THREE.LineSegments(
      new THREE.BufferGeometry().setFromPoints(edges),
      new THREE.LineBasicMaterial({ color: CELL_EDGE_COLORS[shownTheme()] }),
    );
    const [na, nb, nc] = [a, b, cc].map((v) => v.clone().normalize());
    viewDir = nc.clone().addScaledVector(na, 0.35).addScaledVector(nb, 0.55).normalize();
    up = nb;
    corners.forEach((v) => center.add(v));
    center.multiplyScalar(1 / 8);
  } else if (d.natoms) {
    for (let i = 0; i < p.length; i += 3) center.add(new THREE.Vector3(p[i], p[i + 1], p[i + 2]));
    center.multiplyScalar(1 / d.natoms);
  }
  let r2 = 0;
  for (let i = 0; i < p.length; i += 3) r2 = Math.max(r2, center.distanceToSquared(new THREE.Vector3(p[i], p[i + 1], p[i + 2])));
  for (const v of corners) r2 = Math.max(r2, center.distanceToSquared(v));
  return { center, radius: Math.max(1.5, Math.sqrt(r2) + 0.8), box, viewDir, up };
}

/** The one renderer of the lab's thumbnails. */
export const thumbnails = new ThumbnailRenderer();
