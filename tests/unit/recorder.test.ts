/**
 * The movie recorder's stepping (src/viewer/recorder.ts) without a browser: which frames a movie holds, the sentences
 * for what cannot be recorded, and the frame loop over a fake FrameProvider (a growth series): each item shown once, in
 * order, before its frames; a cancel stops between frames and captures nothing more.
 */
import { describe, expect, it } from 'vitest';
import { type FrameProvider, type MovieOptions, MOVIE_LIMITS, movieProblem, movieSteps, runSteps } from '../../src/viewer/recorder.ts';

const base: MovieOptions = {
  kind: 'rotation',
  width: 320,
  height: 240,
  fps: 10,
  seconds: 1,
  every: 1,
  hold: 1,
  format: 'webm',
  background: '#ffffff',
};

/** A growth series of `count` items that logs what it was asked to show. */
function fakeSeries(count: number): FrameProvider & { log: string[] } {
  const log: string[] = [];
  return {
    count,
    log,
    extent: 12,
    async show(index) {
      await Promise.resolve();
      log.push(`show ${index}`);
    },
    async finish() {
      log.push('finish');
    },
  };
}

describe('movieSteps', () => {
  it('a 1 s turn at 10 fps: 10 frames, 36° apart, ending one step short of the start', () => {
    const steps = movieSteps(base, 0);
    expect(steps).toHaveLength(10);
    steps.forEach((s, k) => {
      expect(s.item).toBeNull();
      expect(s.angle).toBeCloseTo((k * Math.PI) / 5, 12);
    });
  });

  it('a trajectory: every k-th frame, each held for `hold` frames', () => {
    const steps = movieSteps({ ...base, kind: 'trajectory', every: 3, hold: 2 }, 10);
    expect(steps.map((s) => s.item)).toEqual([0, 0, 3, 3, 6, 6, 9, 9]);
    expect(steps.every((s) => s.angle === 0)).toBe(true);
  });

  it('a growth series: every item, held', () => {
    expect(movieSteps({ ...base, kind: 'growth', every: 5, hold: 3 }, 3).map((s) => s.item)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });
});

describe('movieProblem', () => {
  it('accepts the e2e clip and refuses what cannot be recorded, one sentence each', () => {
    expect(movieProblem(base, 0)).toBeNull();
    expect(movieProblem({ ...base, format: 'png', width: 321, background: null }, 0)).toBeNull();
    expect(movieProblem({ ...base, width: 321 }, 0)).toMatch(/even width and height/);
    expect(movieProblem({ ...base, width: 8 }, 0)).toMatch(/from 16 to 3840/);
    expect(movieProblem({ ...base, fps: 0 }, 0)).toMatch(/frame rate/);
    expect(movieProblem({ ...base, background: null }, 0)).toMatch(/no transparency/);
    expect(movieProblem({ ...base, seconds: 0.2 }, 0)).toMatch(/from 0\.5 to 120 seconds/);
    expect(movieProblem({ ...base, kind: 'trajectory' }, 1)).toMatch(/no trajectory/);
    expect(movieProblem({ ...base, kind: 'trajectory', every: 0 }, 5)).toMatch(/Every k-th/);
    expect(movieProblem({ ...base, kind: 'growth' }, 0)).toMatch(/no series/);
    expect(movieProblem({ ...base, seconds: 120, fps: 60 }, 0)).toMatch(/7200 frames; a movie holds at most 3600/);
    expect(movieProblem({ ...base, format: 'png', seconds: 101 }, 0)).toMatch(/a PNG sequence holds at most 1000/);
    expect(MOVIE_LIMITS.maxFrames).toBe(3600);
  });
});

describe('runSteps over a fake growth series', () => {
  it('shows each item once, before its frames, in order; captures every frame; reports progress', async () => {
    const series = fakeSeries(3);
    const steps = movieSteps({ ...base, kind: 'growth', hold: 2 }, series.count);
    const progress: string[] = [];
    const done = await runSteps(steps, {
      show: (item) => series.show(item),
      capture: async (k, step, showed) => {
        series.log.push(`frame ${k} of ${step.item}${showed ? ' (new)' : ''}`);
      },
      onProgress: (d, t) => progress.push(`${d}/${t}`),
      signal: new AbortController().signal,
    });
    expect(done).toBe(true);
    expect(series.log).toEqual([
      'show 0',
      'frame 0 of 0 (new)',
      'frame 1 of 0',
      'show 1',
      'frame 2 of 1 (new)',
      'frame 3 of 1',
      'show 2',
      'frame 4 of 2 (new)',
      'frame 5 of 2',
    ]);
    expect(progress).toEqual(['1/6', '2/6', '3/6', '4/6', '5/6', '6/6']);
  });

  it('a cancel stops between frames: nothing is captured after it', async () => {
    const series = fakeSeries(5);
    const control = new AbortController();
    const captured: number[] = [];
    const done = await runSteps(movieSteps({ ...base, kind: 'growth' }, series.count), {
      show: (item) => series.show(item),
      capture: async (k) => {
        captured.push(k);
        if (k === 1) control.abort();
      },
      onProgress: () => undefined,
      signal: control.signal,
    });
    expect(done).toBe(false);
    expect(captured).toEqual([0, 1]);
    expect(series.log).toEqual(['show 0', 'show 1']);
  });

  it("a provider's error ends the run with its sentence", async () => {
    const failing: FrameProvider = {
      count: 2,
      show: async (i) => {
        if (i === 1) throw new Error('Could not carve the particle of R = 7 Å.');
      },
    };
    await expect(
      runSteps(movieSteps({ ...base, kind: 'growth' }, 2), {
        show: (item) => failing.show(item),
        capture: async () => undefined,
        onProgress: () => undefined,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/^Could not carve the particle of R = 7 Å\.$/);
  });
});
