import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { NativeToolDefinition } from '../tools/tool-registry.js';
import type { HostStore } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../testing/fake-clock.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { DAY_MS } from './retention-config.js';

const SCOPE = { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' } as const;
const TEAM = { userId: 'bo', workspaceId: 'team', conversationId: 'c2' } as const;
const HOUR = 60 * 60 * 1000;

const hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const stores = [
  [
    'SqliteStore (a real file)',
    () => new SqliteStore({ database: new Database(join(scratchDir('airlock-ret-'), 'a.db')) }),
  ],
  ['MemoryStore', () => new MemoryStore()],
] as const;

/** A host with an echo tool and a tool that runs until released, over `store`. */
function start(store: HostStore, clock: FakeClock, config: Partial<HostConfig> = {}) {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (started = resolve));
  const hang: NativeToolDefinition = {
    name: 'hang',
    inputSchema: { type: 'object' },
    run: () =>
      new Promise((resolve) => {
        release = () => resolve({ content: [{ type: 'text', text: 'late' }] });
        started();
      }),
  };
  const echo: NativeToolDefinition = {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args['text']) }] }),
  };
  const host = createHost({
    store,
    clock,
    tools: [hang, echo],
    permissions: { rules: [{ effect: 'allow', tool: '*' }] },
    ...config,
  });
  hosts.push(host);
  const call = (tool: string, scope: typeof SCOPE | typeof TEAM = SCOPE, text = 'x'.repeat(100)) =>
    host.invoke({ scope, caller: { kind: 'model' }, tool, args: { text } });
  return { host, call, running, release: () => release() };
}

describe.each(stores)('retention on %s', (_name, open) => {
  it('empties old whole results (the handle answers expired, saying when), deletes old history, keeps the rest', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { host, call } = start(open(), clock, { retention: { results: 7, history: 30, audit: null } });
    await host.retention.sweeping(); // the sweep at start, before anything is old
    const old = await call('echo');
    clock.t += 20 * DAY_MS;
    const recent = await call('echo');
    clock.t += 15 * DAY_MS; // old: 35 days, recent: 15 days
    const report = await host.retention.sweep();
    // Both whole results are past 7 days (the older one then goes whole, past 30 days).
    expect(report).toMatchObject({ results: 2, invocations: 1, auditEvents: 0, dryRun: false });

    // The 35-day-old call is gone; the 15-day-old one keeps its row and screen payload, not its whole text.
    expect(await host.history.get({ scope: SCOPE, invocationId: old.invocationId })).toBeUndefined();
    const kept = await host.history.get({ scope: SCOPE, invocationId: recent.invocationId });
    expect(kept?.result?.screen).toBeDefined();
    expect(kept?.result).toMatchObject({ fullText: '', rawJson: '', expiredAt: clock.t });
    await expect(host.results.read({ scope: SCOPE, handle: recent.handle })).rejects.toMatchObject({
      code: 'result_expired',
      message: expect.stringContaining('expired on 2026-02-05T00:00:00.000Z'),
    });
    await expect(host.results.read({ scope: SCOPE, handle: old.handle })).rejects.toMatchObject({ code: 'not_found' });

    // Each batch says what it removed, as an audit event of its own; the chain still verifies.
    const swept = await host.audit.query({ scope: { userId: 'airlock:system', workspaceId: 'airlock:system' } });
    expect(swept.map((e) => [e.type, e.data['kind'], e.data['count']])).toEqual([
      ['retention.sweep', 'results', 2],
      ['retention.sweep', 'invocations', 1],
    ]);
    expect(await host.audit.verify()).toMatchObject({ ok: true });
    // A second sweep finds nothing more.
    expect(await host.retention.sweep()).toMatchObject({ results: 0, invocations: 0 });
  });

  it('never touches a running call, however old', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const {
      host,
      call,
      running: started,
      release,
    } = start(open(), clock, {
      retention: { results: 1, history: 1, audit: null },
    });
    const running = call('hang');
    await started;
    expect((await host.history.list({ scope: SCOPE }))[0]?.state).toBe('running');
    clock.t += 100 * DAY_MS;
    expect(await host.retention.sweep()).toMatchObject({ results: 0, invocations: 0 });
    release();
    const done = await running;
    expect(await host.history.get({ scope: SCOPE, invocationId: done.invocationId })).toBeDefined();
  });

  it('applies a workspace its own windows, and a dry run changes nothing', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { host, call } = start(open(), clock);
    await call('echo', SCOPE);
    const team = await call('echo', TEAM);
    clock.t += 10 * DAY_MS;
    const dry = await host.retention.sweep({ dryRun: true });
    // Without a `retention` config no sweep ran by itself; the defaults (results 7 days) apply when asked.
    expect(dry).toEqual({
      dryRun: true,
      results: 2,
      invocations: 0,
      auditEvents: 0,
      conversations: 0,
      expiredDecisions: 0,
      capped: false,
    });
    expect((await host.history.get({ scope: TEAM, invocationId: team.invocationId }))?.result?.fullText).not.toBe('');
  });

  it('sweeps at start and then every sweepEveryMs of the host clock, per workspace', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const store = open();
    const { host, call } = start(store, clock, {
      retention: { results: 7, history: null, audit: null, sweepEveryMs: HOUR, workspaces: { team: { results: 30 } } },
    });
    expect(await host.retention.sweeping()).toMatchObject({ results: 0 }); // the sweep at start
    const mine = await call('echo', SCOPE);
    const theirs = await call('echo', TEAM);
    clock.advance(10 * DAY_MS); // 240 hourly sweeps, one after another
    await host.retention.sweeping();
    expect(
      (await host.history.get({ scope: SCOPE, invocationId: mine.invocationId }))?.result?.expiredAt,
    ).toBeDefined();
    expect((await host.history.get({ scope: TEAM, invocationId: theirs.invocationId }))?.result?.fullText).not.toBe('');
  });

  it('prunes audit events past their window behind a checkpoint, and verify holds', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { host, call } = start(open(), clock, { retention: { results: null, history: null, audit: 400 } });
    await host.retention.sweeping();
    await call('echo');
    const before = (await host.audit.query({ scope: SCOPE })).length;
    clock.t += 401 * DAY_MS;
    await call('echo');
    const report = await host.retention.sweep();
    expect(report.auditEvents).toBe(before);
    expect(await host.audit.verify()).toMatchObject({ ok: true, startedAfter: before });
    expect(await host.audit.query({ scope: SCOPE })).toHaveLength(before);
  });
});
