/**
 * Thumbnails of the samples grouped by failure reason. Every thumbnail is an <img> drawn by the one shared
 * offscreen renderer (src/viewer/thumbnails.ts), only once it scrolls into view, and cached by key.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import { THUMBNAIL_SIZE, thumbnails } from '../../viewer/thumbnails.ts';
import { type GallerySample, groupByReason } from './detail-model.ts';
import './gen-detail.css';

/** Thumbnails shown per group before "show all" (a 10,000-sample run would otherwise mount 10,000 images). */
const GROUP_LIMIT = 120;

export function Gallery({
  samples,
  load,
  selected,
  onSelect,
}: {
  samples: readonly GallerySample[];
  /** The display buffers of sample `index` (the prediction, periodic), e.g. from the worker. */
  load: (index: number) => Promise<DisplayData>;
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  const groups = useMemo(() => groupByReason(samples), [samples]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  return (
    <div className="gen-gallery" data-testid="gen-gallery">
      {groups.map((g) => {
        const name = g.reason ?? 'no failure';
        const all = expanded.has(name);
        const shown = all ? g.samples : g.samples.slice(0, GROUP_LIMIT);
        return (
          <section key={name} data-testid="gen-gallery-group" data-reason={name}>
            <h3>
              {name} <span className="hint">({g.samples.length})</span>
            </h3>
            <div className="gen-thumbs">
              {shown.map((s) => (
                <Thumbnail key={s.key} sample={s} load={load} active={s.index === selected} onSelect={onSelect} />
              ))}
              {!all && g.samples.length > GROUP_LIMIT && (
                <button type="button" className="gen-more" onClick={() => setExpanded(new Set([...expanded, name]))}>
                  show all {g.samples.length}
                </button>
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}

function Thumbnail({
  sample,
  load,
  active,
  onSelect,
}: {
  sample: GallerySample;
  load: (index: number) => Promise<DisplayData>;
  active: boolean;
  onSelect: (index: number) => void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  const [url, setUrl] = useState<string | null>(() => thumbnails.cached(sample.key) ?? null);
  const [failed, setFailed] = useState(false);
  const { key, index } = sample;
  useEffect(() => {
    const el = ref.current;
    if (!el || url || failed) return;
    let cancel: (() => void) | null = null;
    let live = true;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.some((e) => e.isIntersecting);
        if (visible && !cancel) {
          const r = thumbnails.request(key, () => load(index));
          cancel = r.cancel;
          r.promise.then(
            (u) => live && setUrl(u),
            () => live && setFailed(true),
          );
        } else if (!visible && cancel) {
          cancel();
          cancel = null;
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => {
      live = false;
      observer.disconnect();
      cancel?.();
    };
  }, [key, index, load, url, failed]);
  return (
    <button
      ref={ref}
      type="button"
      className={active ? 'gen-thumb active' : 'gen-thumb'}
      data-testid="gen-thumb"
      data-index={index}
      data-id={sample.id}
      data-ready={url ? '1' : '0'}
      title={sample.id}
      onClick={() => onSelect(index)}
    >
      {url ? (
        <img src={url} alt={sample.id} width={THUMBNAIL_SIZE} height={THUMBNAIL_SIZE} />
      ) : (
        <span className="gen-thumb-empty" style={{ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE }}>
          {failed ? '×' : ''}
        </span>
      )}
      <span className="gen-thumb-id">{sample.id}</span>
    </button>
  );
}
