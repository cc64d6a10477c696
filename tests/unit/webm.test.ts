/**
 * The movie muxer (src/core/io/webm.ts) read back by an independent EBML reader (tests/ebml.ts): header, track, the
 * exact timeline (frame k at k·1000/fps ms), Duration, Cues and SeekHead positions; and the reader the MediaRecorder
 * fallback re-times with, on the unknown-size Segment and Clusters browsers write.
 */
import { describe, expect, it } from 'vitest';
import { frameTimeMs, muxWebm, readWebm, type WebmFrame } from '../../src/core/io/webm.ts';
import { child, childrenOf, parseEbml, summarizeWebm, uintOf } from '../ebml.ts';

/** Frames of distinct bytes (frame k: k+1 repeated), key every `keyEvery`. */
const fakeFrames = (n: number, keyEvery: number): WebmFrame[] =>
  Array.from({ length: n }, (_, k) => ({ data: new Uint8Array(20 + k).fill(k + 1), key: k % keyEvery === 0 }));

describe('muxWebm', () => {
  it('10 frames at 10 fps: a webm of 10 SimpleBlocks at 0, 100, … 900 ms, Duration 1000 ms, 320×240', () => {
    const frames = fakeFrames(10, 5);
    const bytes = muxWebm({ codec: 'V_VP9', width: 320, height: 240, fps: 10, frames });
    const w = summarizeWebm(bytes);
    expect(w.docType).toBe('webm');
    expect(w.codec).toBe('V_VP9');
    expect([w.width, w.height]).toEqual([320, 240]);
    expect(w.durationMs).toBe(1000);
    expect(w.defaultDurationNs).toBe(100_000_000);
    expect(w.blocks.map((b) => b.timeMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(w.blocks.map((b) => b.key)).toEqual(frames.map((f) => f.key));
    expect(w.blocks.map((b) => b.size)).toEqual(frames.map((f) => f.data.length));
    // A Cluster per key frame.
    expect(childrenOf(w.segment, 0x1f43b675)).toHaveLength(2);
  });

  it('30 fps: timestamps round to the millisecond, the Duration is exact', () => {
    const bytes = muxWebm({ codec: 'V_VP8', width: 64, height: 48, fps: 30, frames: fakeFrames(45, 30) });
    const w = summarizeWebm(bytes);
    expect(w.blocks).toHaveLength(45);
    expect(w.blocks.slice(0, 4).map((b) => b.timeMs)).toEqual([0, 33, 67, 100]);
    w.blocks.forEach((b, k) => expect(b.timeMs).toBe(frameTimeMs(k, 30)));
    expect(w.durationMs).toBeCloseTo(1500, 9);
    expect(w.defaultDurationNs).toBe(33_333_333);
  });

  it('a Cluster never spans more than the 16-bit block timestamp', () => {
    // 1 fps, one key frame: block 32 is at 32 s, block 33 (33,000 ms) needs a new Cluster.
    const bytes = muxWebm({ codec: 'V_VP8', width: 16, height: 16, fps: 1, frames: fakeFrames(40, 1000) });
    const w = summarizeWebm(bytes);
    expect(w.blocks.map((b) => b.timeMs)).toEqual(Array.from({ length: 40 }, (_, k) => 1000 * k));
    const clusters = childrenOf(w.segment, 0x1f43b675);
    expect(clusters.length).toBe(2);
    expect(uintOf(bytes, child(clusters[1], 0xe7)!)).toBe(33_000);
  });

  it('SeekHead and Cues point at the elements they name', () => {
    const bytes = muxWebm({ codec: 'V_VP9', width: 32, height: 32, fps: 25, frames: fakeFrames(60, 25) });
    const w = summarizeWebm(bytes);
    const base = w.segment.dataStart;
    const idAt = (offset: number) => parseEbml(bytes, base + offset)[0].id;
    const seeks = childrenOf(child(w.segment, 0x114d9b74)!, 0x4dbb);
    expect(seeks).toHaveLength(3);
    for (const seek of seeks) {
      const id = uintOf(bytes, child(seek, 0x53ab)!);
      expect(idAt(uintOf(bytes, child(seek, 0x53ac)!))).toBe(id);
    }
    const cues = childrenOf(child(w.segment, 0x1c53bb6b)!, 0xbb);
    const clusters = childrenOf(w.segment, 0x1f43b675);
    expect(cues).toHaveLength(clusters.length);
    cues.forEach((cue, k) => {
      const position = uintOf(bytes, child(child(cue, 0xb7)!, 0xf1)!);
      expect(base + position).toBe(clusters[k].start);
      expect(uintOf(bytes, child(cue, 0xb3)!)).toBe(uintOf(bytes, child(clusters[k], 0xe7)!));
    });
  });

  it('refuses a movie without frames, one that does not start on a key frame, and a rate of zero', () => {
    expect(() => muxWebm({ codec: 'V_VP8', width: 8, height: 8, fps: 10, frames: [] })).toThrow(/at least one frame/);
    expect(() => muxWebm({ codec: 'V_VP8', width: 8, height: 8, fps: 10, frames: [{ data: new Uint8Array(1), key: false }] })).toThrow(
      /key frame/,
    );
    expect(() => muxWebm({ codec: 'V_VP8', width: 8, height: 8, fps: 0, frames: fakeFrames(1, 1) })).toThrow(/positive/);
  });
});

// ---- a browser-style file, built by hand: unknown-size Segment and Clusters, no Duration ----

const vsize = (n: number) => (n < 127 ? [0x80 | n] : [0x40 | (n >> 8), n & 0xff]);
const el = (id: number[], body: number[]) => [...id, ...vsize(body.length), ...body];
const UNKNOWN = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** Two Clusters (at 0 and 1000 ms) of unknown size; track 1 audio, track 2 video; blocks at relative 0, 40, 80 ms. */
function recorderStyleFile(): Uint8Array {
  const header = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], ascii('webm')));
  const info = el([0x15, 0x49, 0xa9, 0x66], el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]));
  const audio = el([0xae], [...el([0xd7], [1]), ...el([0x83], [2]), ...el([0x86], ascii('A_OPUS'))]);
  const video = el(
    [0xae],
    [
      ...el([0xd7], [2]),
      ...el([0x83], [1]),
      ...el([0x86], ascii('V_VP8')),
      ...el([0xe0], [...el([0xb0], [0x01, 0x40]), ...el([0xba], [0xf0])]),
    ],
  );
  const tracks = el([0x16, 0x54, 0xae, 0x6b], [...audio, ...video]);
  const block = (track: number, rel: number, key: boolean, fill: number) => el([0xa3], [0x80 | track, 0, rel, key ? 0x80 : 0, fill, fill]);
  const cluster = (time: number[], blocks: number[][]) => [0x1f, 0x43, 0xb6, 0x75, ...UNKNOWN, ...el([0xe7], time), ...blocks.flat()];
  const c1 = cluster([0], [block(2, 0, true, 1), block(1, 10, true, 9), block(2, 40, false, 2), block(2, 80, false, 3)]);
  const c2 = cluster([0x03, 0xe8], [block(2, 0, true, 4), block(2, 40, false, 5)]);
  return new Uint8Array([...header, 0x18, 0x53, 0x80, 0x67, ...UNKNOWN, ...info, ...tracks, ...c1, ...c2]);
}

describe('readWebm', () => {
  it('reads back what muxWebm writes', () => {
    const frames = fakeFrames(12, 4);
    const back = readWebm(muxWebm({ codec: 'V_VP9', width: 320, height: 240, fps: 12, frames }), 'movie.webm');
    expect(back).toMatchObject({ codec: 'V_VP9', width: 320, height: 240, durationMs: 1000 });
    expect(back.frames.map((f) => f.timeMs)).toEqual(frames.map((_, k) => frameTimeMs(k, 12)));
    expect(back.frames.map((f) => f.key)).toEqual(frames.map((f) => f.key));
    back.frames.forEach((f, k) => expect([...f.data]).toEqual([...frames[k].data]));
  });

  it('reads a recorder-style file: unknown sizes, the video track only, no Duration', () => {
    const back = readWebm(recorderStyleFile(), 'recorded.webm');
    expect(back).toMatchObject({ codec: 'V_VP8', width: 320, height: 240, durationMs: null });
    expect(back.frames.map((f) => [f.timeMs, f.key, f.data[0]])).toEqual([
      [0, true, 1],
      [40, false, 2],
      [80, false, 3],
      [1000, true, 4],
      [1040, false, 5],
    ]);
  });

  it('refuses what is not WebM with a sentence', () => {
    expect(() => readWebm(new Uint8Array([1, 2, 3, 4, 5]), 'x.webm')).toThrow(/^x\.webm is not a readable WebM file \(no EBML header\)$/);
    const bytes = muxWebm({ codec: 'V_VP8', width: 8, height: 8, fps: 10, frames: fakeFrames(3, 3) });
    expect(() => readWebm(bytes.subarray(0, bytes.length - 10), 'cut.webm')).toThrow(/cut\.webm is not a readable WebM file/);
  });
});
