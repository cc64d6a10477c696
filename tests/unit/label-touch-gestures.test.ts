/**
 * Taps told apart from drags and pinches (tapGestures, src/viewer/controller.ts), on synthetic pointer events with a
 * fake clock: a tap picks; a drag, a long press or a two-finger gesture does not; a quick second touch tap at the same
 * place refits instead of picking; the mouse keeps clicks of any length and has no double tap.
 */
import { describe, expect, it } from 'vitest';
import { tapGestures } from '../../src/viewer/controller.ts';

function rig() {
  const el = new EventTarget();
  let t = 0;
  const taps: number[] = [];
  let doubles = 0;
  tapGestures(
    el as unknown as HTMLElement,
    (e) => taps.push(e.clientX),
    () => doubles++,
    () => t,
  );
  const fire = (type: string, pointerId: number, x: number, y = 0, pointerType = 'touch') =>
    el.dispatchEvent(Object.assign(new Event(type), { pointerId, clientX: x, clientY: y, pointerType }));
  return {
    taps,
    doubles: () => doubles,
    at: (ms: number) => {
      t = ms;
    },
    fire,
  };
}

describe('touch gestures', () => {
  it('a tap picks; a drag does not', () => {
    const r = rig();
    r.fire('pointerdown', 1, 100);
    r.at(80);
    r.fire('pointerup', 1, 103);
    r.at(1000);
    r.fire('pointerdown', 1, 100);
    r.at(1100);
    r.fire('pointerup', 1, 140);
    expect(r.taps).toEqual([103]);
  });

  it('a long press is not a pick (touch), a slow mouse click still is', () => {
    const r = rig();
    r.fire('pointerdown', 1, 10);
    r.at(800);
    r.fire('pointerup', 1, 10);
    expect(r.taps).toEqual([]);
    r.fire('pointerdown', 2, 20, 0, 'mouse');
    r.at(2000);
    r.fire('pointerup', 2, 20, 0, 'mouse');
    expect(r.taps).toEqual([20]);
  });

  it('a pinch picks nothing, even when one finger stayed still and lifts last', () => {
    const r = rig();
    r.fire('pointerdown', 1, 100);
    r.fire('pointerdown', 2, 200);
    r.at(50);
    r.fire('pointerup', 2, 260);
    r.at(100);
    r.fire('pointerup', 1, 100);
    expect(r.taps).toEqual([]);
    // The next single tap counts again.
    r.at(2000);
    r.fire('pointerdown', 3, 50);
    r.fire('pointerup', 3, 50);
    expect(r.taps).toEqual([50]);
  });

  it('a quick second tap at the same place is a double tap (no second pick); a late or distant one is a tap', () => {
    const r = rig();
    r.fire('pointerdown', 1, 100);
    r.fire('pointerup', 1, 100);
    r.at(200);
    r.fire('pointerdown', 1, 105);
    r.fire('pointerup', 1, 105);
    expect(r.taps).toEqual([100]);
    expect(r.doubles()).toBe(1);
    r.at(1000);
    r.fire('pointerdown', 1, 100);
    r.fire('pointerup', 1, 100);
    r.at(1600);
    r.fire('pointerdown', 1, 100);
    r.fire('pointerup', 1, 100);
    r.at(1700);
    r.fire('pointerdown', 1, 300);
    r.fire('pointerup', 1, 300);
    expect(r.taps).toEqual([100, 100, 100, 300]);
    expect(r.doubles()).toBe(1);
    // Two mouse clicks never make a double tap.
    r.at(5000);
    r.fire('pointerdown', 4, 10, 0, 'mouse');
    r.fire('pointerup', 4, 10, 0, 'mouse');
    r.fire('pointerdown', 4, 10, 0, 'mouse');
    r.fire('pointerup', 4, 10, 0, 'mouse');
    expect(r.doubles()).toBe(1);
  });
});
