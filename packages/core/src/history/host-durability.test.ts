import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { StoreWrite } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { SCOPE } from '../testing/host-store-fixtures.js';
import { HISTORY_LOSS_BOUND } from './history-writer.js';

// What `durability` means to a caller of host.invoke (issue 15): when a call's result comes back, against the commits
// of its history. The crash test (crash-durability.test.ts) kills real processes; these hold the same rules in one.

/** A memory store that answers each write only when the test says: a store on another thread, falling behind. */
class HeldStore extends MemoryStore {
  readonly held: { batch: readonly StoreWrite[]; answer: () => void }[] = [];
  #open = false;
  constructor() {
    super();
    heldStores.push(this);
  }
  /** Answers every write held, and every later one at once. */
  open(): void {
    this.#open = true;
    for (const write of this.held.splice(0)) write.answer();
  }
  override write(batch: readonly StoreWrite[]): Promise<void> {
    if (this.#open) return super.write(batch);
    return new Promise((resolve) => {
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        resolve(super.write(batch));
      };
      this.held.push({ batch, answer });
    });
  }
}

const heldStores: HeldStore[] = [];

let host: Host | undefined;
let dir: string | undefined;
afterEach(async () => {
  for (const store of heldStores.splice(0)) store.open();
  await host?.close();
  host = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A host with a native echo tool a rule allows, over `store`. */
function start(config: HostConfig): Host {
  host = createHost({
    permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args['text']) }] }),
      },
    ],
    ...config,
  });
  return host;
}

function echo(h: Host, i: number) {
  return h.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'echo', args: { text: `call ${i}` } });
}

/** Whether `promise` has settled once the event loop has turned. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise<void>((resolve) => setImmediate(resolve));
  return done;
}

describe("durability 'grouped' (the default)", () => {
  it('commits the calls of a caller that never yields to the event loop, on a real SQLite file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-durability-'));
    const file = join(dir, 'history.db');
    const h = start({ store: new SqliteStore({ database: new Database(file) }) });
    const ids: string[] = [];
    // `for (;;) await host.invoke(...)`: every await resolves in microtasks, so no timer ever runs.
    for (let i = 0; i < 100; i++) ids.push((await echo(h, i)).invocationId);

    // Read from another connection, as after a crash: nothing of the host's queue is drained for it.
    const reader = new Database(file, { readonly: true });
    const committed = new Set(
      (reader.prepare(`SELECT id FROM invocations WHERE state = 'success'`).all() as { id: string }[]).map((r) => r.id),
    );
    reader.close();
    const lost = ids.filter((id) => !committed.has(id));
    expect(lost.length).toBeLessThan(32);
    expect(lost).toEqual(ids.slice(ids.length - lost.length));
  });

  it(`holds the caller back when more than ${HISTORY_LOSS_BOUND.calls} calls wait for a store that falls behind`, async () => {
    const store = new HeldStore();
    const h = start({ store });
    for (let i = 0; i < HISTORY_LOSS_BOUND.calls; i++) await echo(h, i);

    const held = echo(h, HISTORY_LOSS_BOUND.calls);
    expect(await settled(held)).toBe(false);

    store.held[0]!.answer();
    await expect(held).resolves.toMatchObject({ outcome: 'success' });
  });

  it('refuses a durability it does not know, naming it', () => {
    expect(() => createHost({ durability: 'fast' as 'strict' })).toThrow(
      expect.objectContaining({ code: 'config_invalid', message: expect.stringMatching(/durability.*fast/) }),
    );
  });
});

describe("durability 'strict'", () => {
  it("returns a call only once its final row and that row's audit event are committed", async () => {
    const store = new HeldStore();
    const h = start({ store, durability: 'strict' });

    const call = echo(h, 1);
    expect(await settled(call)).toBe(false);
    expect(store.held).toHaveLength(1);
    store.held[0]!.answer(); // its start: pending and running
    expect(await settled(call)).toBe(false);
    expect(store.held).toHaveLength(2);
    const batch = store.held[1];
    const last = batch!.batch.at(-1);
    expect(last).toMatchObject({
      kind: 'transition',
      transition: { to: 'success' },
      audit: { type: 'invocation.transition' },
    });
    expect(last?.kind === 'transition' && last.result !== undefined).toBe(true);

    batch!.answer();
    const result = await call;
    expect(result.outcome).toBe('success');
    expect(await store.getInvocation(SCOPE, result.invocationId)).toMatchObject({ state: 'success' });
    const events = await store.queryAudit({ invocationId: result.invocationId });
    expect(events.at(-1)).toMatchObject({ type: 'invocation.transition', data: { to: 'success' } });
  });

  it('commits the calls that start together once, and their ends once, not once each', async () => {
    const store = new HeldStore();
    const h = start({ store, durability: 'strict' });

    const calls = [echo(h, 1), echo(h, 2), echo(h, 3)];
    await settled(Promise.all(calls));
    expect(store.held).toHaveLength(1);
    const started = store.held[0]!.batch.filter((w) => w.kind === 'transition' && w.transition.to === 'running');
    expect(started).toHaveLength(3);

    store.held[0]!.answer();
    await settled(Promise.all(calls));
    expect(store.held).toHaveLength(2);
    const ended = store.held[1]!.batch.filter((w) => w.kind === 'transition' && w.result !== undefined);
    expect(ended).toHaveLength(3);

    store.held[1]!.answer();
    expect((await Promise.all(calls)).map((r) => r.outcome)).toEqual(['success', 'success', 'success']);
  });
});
