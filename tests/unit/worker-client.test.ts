/**
 * The one way stores talk to a worker (src/state/worker-client.ts), over a real Comlink channel: a node
 * MessageChannel stands in for the Worker. Stale answers and their progress are dropped, cancel ends the job in
 * flight, progress renews the time budget, and failures reach the store as sentences. The source scan below keeps
 * it the only way: every worker API answers Result, and no store counts generations or bypasses `request`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LimitError } from '../../src/core/limits.ts';
import { CancelledError, type Status, WorkerClient } from '../../src/state/worker-client.ts';
import { attempt, type Result } from '../../workers/result.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

/** A promise the test settles by hand. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

interface FakeApi {
  /** Answers `value` once the test releases gate `key`. */
  echo(key: string, value: number): Promise<Result<number>>;
  /** Reports progress `steps` times, each once the test releases the next step. */
  steps(count: number, onProgress: (done: number) => void): Promise<Result<number>>;
  /** Answers the Result error, or throws, as the worker code does. */
  refuse(): Promise<Result<number>>;
  crash(): Promise<Result<number>>;
  limit(): Promise<Result<number>>;
}

const LIMIT_SENTENCE = 'big.xyz declares 900,000,000 atoms; the limit is 50,000,000.';

/** The worker side of one channel; `gates` lets the test decide when each call answers. */
class FakeWorker {
  static started: FakeWorker[] = [];
  readonly gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  terminated = false;
  private readonly channel = new MessageChannel();

  constructor() {
    FakeWorker.started.push(this);
    const gate = (key: string) => {
      if (!this.gates.has(key)) this.gates.set(key, deferred());
      return this.gates.get(key)!.promise;
    };
    const api: FakeApi = {
      async echo(key, value) {
        await gate(key);
        return { ok: true, value };
      },
      async steps(count, onProgress) {
        for (let i = 1; i <= count; i++) {
          await gate(`step ${i}`);
          await onProgress(i);
        }
        return { ok: true, value: count };
      },
      async refuse() {
        return { ok: false, error: 'x.cif holds no cases.' };
      },
      async crash() {
        throw new Error('the worker code failed');
      },
      limit: () =>
        attempt(() => {
          throw new LimitError('atoms', LIMIT_SENTENCE);
        }),
    };
    Comlink.expose(api, this.channel.port2);
  }

  release(key: string): void {
    if (!this.gates.has(key)) this.gates.set(key, deferred());
    this.gates.get(key)!.resolve();
  }

  /** The page's side, shaped as the Worker the client expects. */
  asWorker(): Worker {
    const port = this.channel.port1 as MessagePort & { terminate?: () => void };
    port.terminate = () => {
      this.terminated = true;
      this.channel.port1.close();
      this.channel.port2.close();
    };
    return port as unknown as Worker;
  }
}

const newClient = () => new WorkerClient<FakeApi>(() => new FakeWorker().asWorker());
const last = <T>(xs: T[]) => xs[xs.length - 1];

afterEach(() => {
  for (const w of FakeWorker.started) if (!w.terminated) w.asWorker().terminate();
  FakeWorker.started = [];
  vi.useRealTimers();
});

describe('WorkerClient.request', () => {
  it('answers the value, and shows the busy label while it runs', async () => {
    const client = newClient();
    const states: Status[] = [];
    const r = client.request((w) => w.echo('a', 7), { status: (p) => states.push(p), busy: 'working' });
    expect(states).toEqual([{ busy: 'working', error: null }]);
    FakeWorker.started[0].release('a');
    expect(await r).toEqual({ ok: true, value: 7 });
    expect(states).toEqual([
      { busy: 'working', error: null },
      { busy: null, error: null },
    ]);
  });

  it('drops the answer of a request superseded in its lane; another lane is untouched', async () => {
    const client = newClient();
    const states: Status[] = [];
    const status = (p: Status) => states.push(p);
    const first = client.request((w) => w.echo('first', 1), { status, busy: 'first' });
    const view = client.request((w) => w.echo('view', 3), { lane: 'view' });
    const second = client.request((w) => w.echo('second', 2), { status, busy: 'second' });
    const worker = FakeWorker.started[0];
    worker.release('second');
    expect(await second).toEqual({ ok: true, value: 2 });
    worker.release('first');
    expect(await first).toBeUndefined();
    worker.release('view');
    expect(await view).toEqual({ ok: true, value: 3 });
    // The stale answer changed nothing: the last status is the second request's.
    expect(states).toEqual([
      { busy: 'first', error: null },
      { busy: 'second', error: null },
      { busy: null, error: null },
    ]);
  });

  it('a ticket spans the steps of one action until a later action in its lane starts', async () => {
    const client = newClient();
    const ticket = client.begin();
    const worker = FakeWorker.started;
    const step1 = client.request((w) => w.echo('1', 1), { ticket });
    worker[0].release('1');
    expect(await step1).toEqual({ ok: true, value: 1 });
    expect(ticket.current).toBe(true);
    const other = client.begin('other lane');
    expect(ticket.current).toBe(true);
    client.begin();
    expect(ticket.current).toBe(false);
    expect(other.current).toBe(true);
    // A step of a stale action does not even reach the worker.
    expect(await client.request((w) => w.echo('never', 0), { ticket })).toBeUndefined();
    expect(worker[0].gates.has('never')).toBe(false);
    client.supersede();
    expect(other.current).toBe(false);
  });

  it('cancel rejects the job in flight, terminates the worker, shows nothing, and the next request starts a fresh worker', async () => {
    const client = newClient();
    const states: Status[] = [];
    const viaRequest = client.request((w) => w.echo('slow', 1), { status: (p) => states.push(p), busy: 'slow' });
    const viaRun = client.run<Result<number>>((w) => w.echo('slow too', 1));
    const ticket = client.begin('other');
    expect(client.busy).toBe(true);
    client.cancel();
    await expect(viaRun).rejects.toBeInstanceOf(CancelledError);
    expect(await viaRequest).toBeUndefined();
    expect(states).toEqual([{ busy: 'slow', error: null }]);
    expect(ticket.current).toBe(false);
    expect(FakeWorker.started[0].terminated).toBe(true);
    expect(client.busy).toBe(false);
    const next = client.request((w) => w.echo('next', 5));
    expect(FakeWorker.started).toHaveLength(2);
    expect(client.epoch).toBe(2);
    FakeWorker.started[1].release('next');
    expect(await next).toEqual({ ok: true, value: 5 });
  });

  it('progress renews the budget: reports every 0.9 s keep a 1 s budget alive for 9 s; silence then stops the job', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = newClient();
    const seen: number[] = [];
    let reported = deferred();
    const r = client.request(
      (w, progress) =>
        w.steps(
          20,
          progress((done: number) => {
            seen.push(done);
            reported.resolve();
          }),
        ),
      { budgetMs: 1000 },
    );
    const worker = FakeWorker.started[0];
    for (let i = 1; i <= 10; i++) {
      vi.advanceTimersByTime(900);
      worker.release(`step ${i}`);
      await reported.promise;
      reported = deferred();
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(client.busy).toBe(true);
    expect(worker.terminated).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(await r).toEqual({
      ok: false,
      error: 'The job took longer than 1 s since its last progress report and was stopped; the next job starts a fresh worker.',
    });
    expect(worker.terminated).toBe(true);
  });

  it('progress of a superseded request renews the budget but never reaches the store', async () => {
    const client = newClient();
    const seen: string[] = [];
    const old = client.request((w, progress) =>
      w.steps(
        2,
        progress((d: number) => seen.push(`old ${d}`)),
      ),
    );
    const worker = FakeWorker.started[0];
    worker.release('step 1');
    await vi.waitFor(() => expect(seen).toEqual(['old 1']));
    const touched = vi.spyOn(client, 'touch');
    const fresh = client.request((w) => w.echo('fresh', 1));
    worker.release('step 2');
    expect(await old).toBeUndefined();
    expect(touched).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['old 1']);
    worker.release('fresh');
    expect(await fresh).toEqual({ ok: true, value: 1 });
  });

  it('failures arrive as sentences: the worker’s Result error as is, a thrown error by its message, a LimitError by its own', async () => {
    const client = newClient();
    const states: Status[] = [];
    const status = (p: Status) => states.push(p);
    expect(await client.request((w) => w.refuse(), { status, busy: 'reading' })).toEqual({ ok: false, error: 'x.cif holds no cases.' });
    expect(last(states)).toEqual({ busy: null, error: 'x.cif holds no cases.' });
    expect(await client.request((w) => w.limit(), { status, busy: 'reading' })).toEqual({ ok: false, error: LIMIT_SENTENCE });
    expect(last(states)).toEqual({ busy: null, error: LIMIT_SENTENCE });
    // `error` words the failure; it learns whether the job itself failed (thrown) or the worker answered one.
    const causes: unknown[] = [];
    const error = (message: string, thrown: unknown) => {
      causes.push(thrown);
      return `Could not read x.cif: ${message}`;
    };
    expect(await client.request((w) => w.crash(), { status, busy: 'reading', error })).toEqual({
      ok: false,
      error: 'Could not read x.cif: the worker code failed',
    });
    expect(last(states)).toEqual({ busy: null, error: 'Could not read x.cif: the worker code failed' });
    expect(await client.request((w) => w.refuse(), { status, error })).toEqual({
      ok: false,
      error: 'Could not read x.cif: x.cif holds no cases.',
    });
    expect(causes).toHaveLength(2);
    expect(causes[0]).toBeInstanceOf(Error);
    expect(causes[1]).toBeUndefined();
  });

  it('keepBusy leaves the busy label on after a step that succeeded', async () => {
    const client = newClient();
    const states: Status[] = [];
    const r = client.request((w) => w.echo('k', 1), { status: (p) => states.push(p), busy: 'step 1 of 2', keepBusy: true });
    FakeWorker.started[0].release('k');
    await r;
    expect(states).toEqual([{ busy: 'step 1 of 2', error: null }]);
  });
});

/** The files under `dir` (recursively) whose names match `pattern`. */
function filesIn(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesIn(p, pattern) : pattern.test(e.name) ? [p] : [];
  });
}

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

/** The members of `interface <name> { … }`, each on one line. */
function interfaceMembers(code: string, name: string): string[] {
  const start = code.indexOf(`interface ${name} {`);
  expect(start, `interface ${name}`).toBeGreaterThanOrEqual(0);
  let depth = 0,
    member = '';
  const members: string[] = [];
  for (let i = code.indexOf('{', start) + 1; i < code.length; i++) {
    const c = code[i];
    if (depth === 0 && c === '}') break;
    if ('{(<['.includes(c)) depth++;
    if ('})>]'.includes(c) && !(c === '>' && code[i - 1] === '=')) depth--;
    if (depth === 0 && c === ';') {
      members.push(member.replace(/\s+/g, ' ').trim());
      member = '';
    } else member += c;
  }
  return members;
}

describe('one way to talk to a worker (source scan)', () => {
  const workers = join(REPO_ROOT, 'workers');
  const apis = filesIn(workers, /-api\.ts$/);
  const stores = filesIn(join(REPO_ROOT, 'src', 'state'), /\.ts$/).filter((f) => !f.endsWith('worker-client.ts'));

  it('every worker has its API file, and every API method answers a Result', () => {
    const entries = filesIn(workers, /\.worker\.ts$/)
      .map((f) => f.replace(/\.worker\.ts$/, '-api.ts'))
      .sort();
    expect(entries.map((f) => relative(REPO_ROOT, f))).toEqual(
      ['atomworld', 'c2np', 'compare', 'crystallography', 'fem', 'generations', 'io', 'onng', 'trajectory'].map(
        (n) => `workers/${n}-api.ts`,
      ),
    );
    expect(apis.sort()).toEqual(entries);
    for (const f of apis) {
      const code = withoutComments(readFileSync(f, 'utf8'));
      const name = /export interface (\w+WorkerApi) \{/.exec(code)?.[1];
      expect(name, relative(REPO_ROOT, f)).toBeDefined();
      const members = interfaceMembers(code, name!);
      expect(members.length, `${name} methods`).toBeGreaterThan(0);
      for (const m of members) expect(m, `${relative(REPO_ROOT, f)}: ${m}`).toMatch(/\): Promise<Result<.+>>$/);
    }
  });

  it('workers/result.ts holds the only result type: no other file under workers/ spells one out', () => {
    for (const f of filesIn(workers, /\.ts$/)) {
      if (f.endsWith('result.ts')) continue;
      expect(withoutComments(readFileSync(f, 'utf8')), relative(REPO_ROOT, f)).not.toMatch(/ok:\s*(true|false)\s*;/);
    }
  });

  it('no store counts generations or reaches past request: the client keeps which request is the latest', () => {
    const clients = stores.flatMap((f) => {
      const code = withoutComments(readFileSync(f, 'utf8'));
      const where = relative(REPO_ROOT, f);
      // A ticket counter by any name; the Generations page (generated crystals) is not one.
      expect(code, where).not.toMatch(/generation(?!s)/i);
      return [...code.matchAll(/const (\w+) = new WorkerClient</g)].map((m) => ({ where, code, name: m[1] }));
    });
    expect(clients.map((c) => c.where).sort()).toEqual(
      ['atomworld', 'compare', 'crystallography', 'fem', 'generations', 'nanoparticle', 'onng', 'session', 'trajectory'].map(
        (n) => `src/state/${n}.ts`,
      ),
    );
    for (const { where, code, name } of clients) {
      const used = new Set([...code.matchAll(new RegExp(`(?<![\\w./-])${name}\\.(\\w+)`, 'g'))].map((m) => m[1]));
      expect(used.has('request'), `${where} uses ${name}.request`).toBe(true);
      for (const member of used)
        expect(['request', 'begin', 'cancel', 'supersede', 'epoch'], `${where}: ${name}.${member}`).toContain(member);
    }
    // Pages and the app neither make their own clients nor read a counter.
    for (const f of filesIn(join(REPO_ROOT, 'src'), /\.tsx?$/)) {
      if (f.includes(`${join('src', 'state')}/`)) continue;
      expect(withoutComments(readFileSync(f, 'utf8')), relative(REPO_ROOT, f)).not.toMatch(/\.generation\b|new WorkerClient\b/);
    }
  });
});
