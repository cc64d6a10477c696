/**
 * The lab's side of the resource policy without a browser: the size check every file input goes through
 * (src/browser/read-file.ts), the worker client's time budget (src/state/worker-client.ts) and the decision
 * not to re-parse a file whose last load failed or never finished (src/state/session.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../src/core/limits.ts';
import {
  filesSizeProblem,
  InputSizeError,
  pastedTextProblem,
  readTextFile,
  readTextFiles,
  textBytes,
} from '../../src/browser/read-file.ts';
import { CancelledError, WorkerClient, WorkerTimeoutError } from '../../src/state/worker-client.ts';
import { planRestore, readLastLoad, type LastLoad } from '../../src/state/session.ts';

const MiB = 2 ** 20;

/** A real File whose reported size is `size` (a 300 MiB file is not needed to test the refusal), with `text()` spied on. */
function fakeFile(name: string, size: number, text = 'x'): File & { textCalls: number } {
  const f = new File([text], name) as File & { textCalls: number };
  Object.defineProperty(f, 'size', { value: size });
  f.textCalls = 0;
  const read = f.text.bind(f);
  f.text = () => {
    f.textCalls++;
    return read();
  };
  return f;
}

describe('file size before reading', () => {
  it('refuses one file over LIMITS.inputBytes with the policy sentence, and accepts one at the limit', () => {
    expect(filesSizeProblem([{ name: 'huge.cif', size: LIMITS.inputBytes + 1 }])).toBe(
      'huge.cif is 256 MiB; the limit is 256 MiB per input',
    );
    expect(filesSizeProblem([{ name: 'big.xyz', size: 300 * MiB }])).toBe('big.xyz is 300 MiB; the limit is 256 MiB per input');
    expect(filesSizeProblem([{ name: 'ok.cif', size: LIMITS.inputBytes }])).toBeNull();
    expect(filesSizeProblem([{ name: 'empty.cif', size: 0 }])).toBeNull();
  });

  it('a folder is one input: its files are held to the limit together', () => {
    const files = [
      { name: 'a.jsonl', size: 200 * MiB },
      { name: 'b.jsonl', size: 100 * MiB },
    ];
    expect(filesSizeProblem(files)).toBeNull();
    expect(filesSizeProblem(files, 'results')).toBe('results (2 files together) is 300 MiB; the limit is 256 MiB per input');
  });

  it('a size that is not a finite count is refused, and control characters in names are escaped', () => {
    expect(filesSizeProblem([{ name: 'odd', size: Number.NaN }])).toMatch(/^odd is .*; the limit is 256 MiB per input$/);
    expect(filesSizeProblem([{ name: 'bad\x1b[31m.cif', size: 300 * MiB }])).toBe(
      'bad\\x1b[31m.cif is 300 MiB; the limit is 256 MiB per input',
    );
  });

  it('readTextFile refuses before reading; a file within the limit is read', async () => {
    const big = fakeFile('big.cif', 300 * MiB);
    await expect(readTextFile(big)).rejects.toThrow(new InputSizeError('big.cif is 300 MiB; the limit is 256 MiB per input'));
    expect(big.textCalls).toBe(0);
    const small = fakeFile('small.cif', 5, 'hello');
    await expect(readTextFile(small)).resolves.toBe('hello');
  });

  it('readTextFiles checks the sum before reading any file', async () => {
    const a = fakeFile('a.json', 150 * MiB);
    const b = fakeFile('b.json', 150 * MiB);
    await expect(readTextFiles([a, b], 'tasks')).rejects.toThrow('tasks (2 files together) is 300 MiB; the limit is 256 MiB per input');
    expect(a.textCalls + b.textCalls).toBe(0);
    await expect(readTextFiles([new File(['1'], 'x.json'), new File(['2'], 'y.json')], 'tasks')).resolves.toEqual([
      { path: 'x.json', text: '1' },
      { path: 'y.json', text: '2' },
    ]);
  });

  it('pasted text counts UTF-8 bytes', () => {
    // Expected lengths from the platform's own encoder.
    for (const s of ['', 'abc', 'é', '€', '😀', 'a\ud800b', '\udc00', 'Fe 0 0 0\r\n'.repeat(10)])
      expect(textBytes(s), JSON.stringify(s)).toBe(new TextEncoder().encode(s).length);
    expect(pastedTextProblem('the pasted text', 'x'.repeat(11), 10)).toBe('the pasted text is 11 bytes; the limit is 10 bytes per input');
    expect(pastedTextProblem('the pasted text', 'x'.repeat(10), 10)).toBeNull();
    expect(pastedTextProblem('the pasted text', '€'.repeat(4), 10)).toBe('the pasted text is 12 bytes; the limit is 10 bytes per input');
  });
});

/** A worker that never answers (a job stuck in a loop), counting terminations. */
class StuckWorker {
  static started = 0;
  terminated = false;
  constructor() {
    StuckWorker.started++;
  }
  postMessage(): void {}
  addEventListener(): void {}
  removeEventListener(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

interface Api {
  work(): Promise<number>;
}

describe('worker job time budget', () => {
  it('a job past its budget: the worker is terminated, the call rejects with a sentence, the next call starts a fresh worker', async () => {
    const workers: StuckWorker[] = [];
    const client = new WorkerClient<Api>(() => {
      const w = new StuckWorker();
      workers.push(w);
      return w as unknown as Worker;
    });
    const stuck = client.run(() => new Promise<number>(() => {}), { budgetMs: 50 });
    await expect(stuck).rejects.toThrow(WorkerTimeoutError);
    await expect(stuck).rejects.toThrow('The job took longer than 0.1 s and was stopped; the next job starts a fresh worker.');
    expect(workers).toHaveLength(1);
    expect(workers[0].terminated).toBe(true);
    expect(client.busy).toBe(false);
    await expect(client.run(async () => 7, { budgetMs: 50 })).resolves.toBe(7);
    expect(workers).toHaveLength(2);
    expect(client.epoch).toBe(2);
    expect(workers[1].terminated).toBe(false);
  });

  it('the default budget is LIMITS.workerJobMilliseconds, in seconds in the message', async () => {
    vi.useFakeTimers();
    try {
      const client = new WorkerClient<Api>(() => new StuckWorker() as unknown as Worker);
      const stuck = client.run(() => new Promise<number>(() => {}));
      const seen = stuck.catch((e: Error) => e);
      vi.advanceTimersByTime(LIMITS.workerJobMilliseconds - 1);
      expect(client.busy).toBe(true);
      vi.advanceTimersByTime(1);
      expect(((await seen) as Error).message).toBe(
        `The job took longer than ${LIMITS.workerJobMilliseconds / 1000} s and was stopped; the next job starts a fresh worker.`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('progress renews the budget: a batch that reports is not stopped; one that stops reporting is', async () => {
    vi.useFakeTimers();
    try {
      const client = new WorkerClient<Api>(() => new StuckWorker() as unknown as Worker);
      const stuck = client.run(() => new Promise<number>(() => {}), { budgetMs: 1000 });
      const seen = stuck.catch((e: Error) => e);
      for (let i = 0; i < 10; i++) {
        vi.advanceTimersByTime(900);
        client.touch();
      }
      expect(client.busy).toBe(true);
      vi.advanceTimersByTime(1000);
      expect(((await seen) as Error).message).toBe(
        'The job took longer than 1 s since its last progress report and was stopped; the next job starts a fresh worker.',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('a finished job leaves no timer; cancel still rejects with CancelledError; request shows the sentence as the error', async () => {
    vi.useFakeTimers();
    try {
      const client = new WorkerClient<Api>(() => new StuckWorker() as unknown as Worker);
      await client.run(async () => 1, { budgetMs: 10 });
      expect(vi.getTimerCount()).toBe(0);
      const cancelled = client.run(() => new Promise<number>(() => {}));
      client.cancel();
      await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
      expect(vi.getTimerCount()).toBe(0);
      const states: { busy: string | null; error: string | null }[] = [];
      const req = client.request(() => new Promise(() => {}), { status: (p) => states.push(p), busy: 'working', budgetMs: 2000 });
      vi.advanceTimersByTime(2000);
      await req;
      expect(states.at(-1)).toEqual({
        busy: null,
        error: 'The job took longer than 2 s and was stopped; the next job starts a fresh worker.',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('restoring a session after a failed or unfinished load', () => {
  const good = { name: 'good.cif', text: 'data_good' };
  const bad = { name: 'bad.cif', text: 'data_bad' };
  const session = { files: [good, bad], activeFile: 1, activeStructure: 2 };
  const last = (status: LastLoad['status'], f = bad): LastLoad => ({
    ...f,
    activeStructure: 0,
    status,
    error: status === 'failed' ? 'boom' : null,
  });

  it('loads the active file when the last load ended well (no record)', () => {
    expect(planRestore(session, null)).toEqual({ files: [good, bad], load: { file: bad, activeStructure: 2 }, retry: null });
  });

  it('does not re-parse the active file when its last load failed or never finished: it is offered instead', () => {
    expect(planRestore(session, last('failed'))).toEqual({
      files: [good, bad],
      load: null,
      retry: { name: 'bad.cif', reason: 'failed', error: 'boom' },
    });
    expect(planRestore(session, last('pending'))).toEqual({
      files: [good, bad],
      load: null,
      retry: { name: 'bad.cif', reason: 'unfinished', error: null },
    });
  });

  it('a different file that failed is offered, and the session’s own file still loads', () => {
    const plan = planRestore(session, last('pending', { name: 'new.xyz', text: '1\n\nFe 0 0 0' }));
    expect(plan.load).toEqual({ file: bad, activeStructure: 2 });
    expect(plan.retry).toEqual({ name: 'new.xyz', reason: 'unfinished', error: null });
    expect(planRestore(null, last('failed')).load).toBeNull();
  });

  it('malformed records are ignored', () => {
    for (const v of [null, 1, 'x', {}, { name: 'a', text: 'b', status: 'ok' }, { name: 1, text: 'b', status: 'failed' }]) {
      expect(readLastLoad(v), JSON.stringify(v)).toBeNull();
    }
    expect(readLastLoad({ name: 'a', text: 'b', status: 'pending', activeStructure: -3, error: 5 })).toEqual({
      name: 'a',
      text: 'b',
      status: 'pending',
      activeStructure: 0,
      error: null,
    });
  });
});
