import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision, PermissionRequest } from './permission-request.js';
import { demoServer, nextEvent, readCallLog, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { scratchDir } from '../testing/scratch-dir.js';

const DAY = 24 * 60 * 60 * 1000;
let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

/** A surface that answers from a script (the last answer repeats) and remembers each request. */
class Answers implements Surface {
  readonly asked: PermissionRequest[] = [];
  constructor(private readonly answers: PermissionDecision[]) {}
  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.asked.push(request);
    return Promise.resolve(this.answers[Math.min(this.asked.length, this.answers.length) - 1] ?? 'deny_once');
  }
}

const clock = new FakeClock(Date.UTC(2026, 10, 1));

async function start(
  options: {
    answers?: PermissionDecision[];
    store?: HostStore;
    config?: Partial<HostConfig>;
    trusted?: boolean;
    args?: string[];
  } = {},
) {
  const demo = demoServer('demo', { trusted: options.trusted ?? false, args: options.args ?? [] });
  const surface = new Answers(options.answers ?? ['allow_once']);
  const host = createHost({
    servers: [demo.config],
    surface,
    store: options.store ?? new MemoryStore(),
    clock,
    ...options.config,
  });
  hosts.push(host);
  await host.servers.settled();
  await host.permissions.ready();
  return { host, surface, log: demo.log, config: demo.config };
}

const call = (host: Host, tool = 'demo__echo', args: unknown = { text: 'hi' }, scope: Scope = SCOPE) =>
  host.invoke({ scope, caller: { kind: 'model' }, tool, args });

describe('the permission gate', () => {
  it('shows the prompt for a call with no stored decision, with risk, annotations and full arguments', async () => {
    const { host, surface } = await start();
    await call(host, 'demo__write_note', { id: 'n1', text: 'hello' });
    const request = surface.asked[0]!;
    expect(request.tool.name).toBe('demo__write_note');
    expect(request.args).toEqual({ id: 'n1', text: 'hello' });
    expect(request.risk).toMatchObject({ tier: 'medium', destructive: false, unverified: true });
    expect(request.allowAlways).toEqual({ offered: true });
    expect(request.defaultAction).toBe('allow_once');
    expect(request.reason).toBe('first_time');
    expect(request.tool.annotations).toMatchObject({ idempotentHint: true });
  });

  it('asks again after allow once', async () => {
    const { host, surface, log } = await start({ answers: ['allow_once'] });
    expect((await call(host)).outcome).toBe('success');
    expect((await call(host)).outcome).toBe('success');
    expect(surface.asked).toHaveLength(2);
    expect(readCallLog(log)).toHaveLength(2);
  });

  it('remembers allow always, and records the second call as a cache hit in the audit log', async () => {
    const { host, surface } = await start({ answers: ['allow_always'] });
    await call(host);
    expect((await call(host, 'demo__echo', { text: 'other args' })).outcome).toBe('success');
    expect(surface.asked).toHaveLength(1);
    const decisions = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(decisions.map((e) => [e.data['decision'], e.data['origin']])).toEqual([
      ['allow_always', 'user_prompt'],
      ['allow_always', 'cache_hit'],
    ]);
    const [stored] = host.permissions.list({ scope: SCOPE });
    expect(stored).toMatchObject({
      effect: 'allow',
      tool: 'echo',
      serverId: 'demo',
      riskTier: 'medium',
      argsHash: null,
    });
    expect(stored?.expiresAt).toBe(clock.now() + 30 * DAY);
  });

  it('denies once without sending anything, and the model gets an error result saying the user denied it', async () => {
    const { host, surface, log } = await start({ answers: ['deny_once', 'allow_once'] });
    const denied = await call(host);
    expect(denied).toMatchObject({ outcome: 'permission_denied', state: 'cancelled', isError: true });
    expect(denied.text).toMatch(/the user denied demo__echo; it was not run/);
    expect(readCallLog(log)).toEqual([]);
    expect((await call(host)).outcome).toBe('success');
    expect(surface.asked).toHaveLength(2);
  });

  it('persists deny always: later calls are denied without asking', async () => {
    const { host, surface, log } = await start({ answers: ['deny_always'] });
    await call(host);
    const again = await call(host);
    expect(again.outcome).toBe('permission_denied');
    expect(again.text).toMatch(/denied demo__echo always/);
    expect(surface.asked).toHaveLength(1);
    expect(readCallLog(log)).toEqual([]);
    expect(host.permissions.list({ scope: SCOPE })[0]).toMatchObject({ effect: 'deny', expiresAt: null });
  });

  it('writes an audit event for every decision', async () => {
    const { host } = await start({ answers: ['allow_once', 'deny_once', 'allow_always', 'deny_always'] });
    await call(host, 'demo__echo');
    await call(host, 'demo__echo');
    await call(host, 'demo__echo');
    await call(host, 'demo__search_notes', { query: 'x' });
    await call(host, 'demo__search_notes', { query: 'x' });
    const events = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(events.map((e) => `${e.tool}:${String(e.data['decision'])}:${String(e.data['origin'])}`)).toEqual([
      'demo__echo:allow_once:user_prompt',
      'demo__echo:deny_once:user_prompt',
      'demo__echo:allow_always:user_prompt',
      'demo__search_notes:deny_always:user_prompt',
      'demo__search_notes:deny_always:cache_hit',
    ]);
    for (const e of events)
      expect(e).toMatchObject({
        userId: 'ana',
        workspaceId: 'w1',
        serverId: 'demo',
        argsHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        riskTier: 'medium',
      });
    expect((await host.audit.verify()).ok).toBe(true);
  });

  it('audits a call in the order things happened: pending, the decision, running, the outcome', async () => {
    const { host } = await start({ answers: ['allow_always'] });
    await call(host);
    const second = await call(host);
    const events = await host.audit.query({ scope: SCOPE });
    const trail = events.map((e) =>
      e.type === 'permission.decision' ? `decision:${String(e.data['origin'])}` : String(e.data['to']),
    );
    expect(trail).toEqual([
      'pending',
      'decision:user_prompt',
      'running',
      'success',
      'pending',
      'decision:cache_hit',
      'running',
      'success',
    ]);
    expect(events.filter((e) => e.invocationId === second.invocationId)).toHaveLength(4);
    expect(events.every((e) => e.riskTier === 'medium' && e.tool === 'demo__echo')).toBe(true);
    expect(await host.audit.verify()).toMatchObject({ ok: true, count: 8 });
  });

  it('refuses allow always for a destructive tool: the call runs once and nothing is stored', async () => {
    const { host, surface, log } = await start({ answers: ['allow_always'] });
    await call(host, 'demo__delete_note', { id: 'n9' });
    expect(surface.asked[0]).toMatchObject({
      allowAlways: { offered: false, reason: expect.stringMatching(/may modify or delete data/) },
      defaultAction: 'deny_once',
      risk: { tier: 'high', destructive: true },
    });
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    await call(host, 'demo__delete_note', { id: 'n9' });
    expect(surface.asked).toHaveLength(2);
    expect(readCallLog(log)).toHaveLength(2);
    const [first] = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(first?.data).toMatchObject({ decision: 'allow_once', allowAlwaysRefused: true });
    await expect(
      host.permissions.decide({ scope: SCOPE, tool: 'demo__delete_note', decision: 'allow_always' }),
    ).rejects.toThrow(/allow always is refused for demo__delete_note/);
    await expect(
      host.permissions.decide({ scope: SCOPE, tool: 'demo__run_command', decision: 'allow_always' }),
    ).rejects.toThrow(/refused/);
  });

  it('lets only a host rule pre-allow a destructive tool', async () => {
    const { host, surface, log } = await start({
      config: { permissions: { rules: [{ effect: 'allow', server: 'demo', tool: 'delete_note' }] } },
    });
    expect((await call(host, 'demo__delete_note', { id: 'n1' })).outcome).toBe('success');
    expect(surface.asked).toEqual([]);
    expect(readCallLog(log)).toHaveLength(1);
    const [event] = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(event?.data).toMatchObject({ decision: 'allow', origin: 'rule' });
  });

  it('asks again once a stored decision expires (91 days later for a low-risk tool)', async () => {
    const fake = new FakeClock(Date.UTC(2026, 0, 1));
    const { host, surface } = await start({ answers: ['allow_always'], trusted: true, config: { clock: fake } });
    await call(host);
    expect(host.permissions.list({ scope: SCOPE })[0]).toMatchObject({ riskTier: 'low', expiresAt: fake.t + 90 * DAY });
    const decidedAt = fake.t;
    fake.t = decidedAt + 89 * DAY;
    await call(host);
    expect(surface.asked).toHaveLength(1);
    fake.t = decidedAt + 91 * DAY;
    await call(host);
    expect(surface.asked).toHaveLength(2);
    expect(surface.asked[1]).toMatchObject({ renewal: true, reason: 'decision_expired', expiredGrain: 'always' });
    const events = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(events.at(-1)?.data).toMatchObject({ origin: 'expired_renewal' });
  });

  it('keeps decisions per tenant: another user or workspace is asked', async () => {
    const { host, surface } = await start({ answers: ['allow_always'] });
    await call(host);
    await call(host, 'demo__echo', { text: 'x' }, { userId: 'bob', workspaceId: 'w2', conversationId: 'c9' });
    await call(host, 'demo__echo', { text: 'x' }, { ...SCOPE, workspaceId: 'w2' });
    expect(surface.asked).toHaveLength(3);
    expect(host.permissions.list({ scope: { ...SCOPE, userId: 'bob', workspaceId: 'w2' } })).toHaveLength(1);
    await expect(
      host.permissions.revoke({
        scope: { ...SCOPE, userId: 'eve' },
        id: host.permissions.list({ scope: SCOPE })[0]!.id,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('asks again when the tool definition changes', async () => {
    const { host, surface } = await start({ answers: ['allow_always'] });
    await call(host, 'demo__shape_shifter', { text: 'a' });
    await call(host, 'demo__shape_shifter', { text: 'a' });
    expect(surface.asked).toHaveLength(1);
    const changed = nextEvent(host, 'tools.changed');
    await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__change_definition' });
    await changed;
    await call(host, 'demo__shape_shifter', { text: 'a' });
    expect(surface.asked.map((r) => r.reason)).toEqual(['first_time', 'first_time', 'definition_changed']);
    expect(surface.asked.map((r) => r.tool.name)).toEqual([
      'demo__shape_shifter',
      'demo__change_definition',
      'demo__shape_shifter',
    ]);
    expect(host.permissions.explain({ scope: SCOPE, tool: 'demo__shape_shifter' }).source).toBe('stored_decision');
  });

  it('fails closed when the prompt times out, with a clear reason', async () => {
    const demo = demoServer();
    const fake = new FakeClock();
    let asked!: (signal: AbortSignal) => void;
    const prompt = new Promise<AbortSignal>((resolve) => (asked = resolve));
    const host = createHost({
      servers: [demo.config],
      clock: fake,
      surface: {
        askPermission: (_r, signal) => {
          asked(signal);
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('closed'))));
        },
      },
      permissions: { promptTimeoutMs: 100 },
    });
    hosts.push(host);
    await host.servers.settled();
    const pending = call(host);
    const signal = await prompt;
    fake.advance(99);
    expect(signal.aborted).toBe(false);
    fake.advance(1);
    expect(signal.aborted).toBe(true);
    const result = await pending;
    expect(result.outcome).toBe('permission_denied');
    expect(result.text).toMatch(/no one answered the permission prompt within 100 ms/);
    expect(readCallLog(demo.log)).toEqual([]);
  });

  it('explains which rule or stored decision decides a call, and reports rules that can never match', async () => {
    const warnings: string[] = [];
    const demo = demoServer();
    const host = createHost({
      servers: [demo.config],
      surface: new Answers(['allow_always']),
      permissions: {
        rules: [
          { effect: 'deny', server: 'demo', tool: 'run_*' },
          { effect: 'ask', layer: 'workspace', workspaceId: 'w1', tool: 'fetch_url' },
          { effect: 'allow', server: 'demmo' },
          { effect: 'allow', server: 'demo', tool: 'ecko' },
        ],
      },
    });
    hosts.push(host);
    host.on('permission.rule_warning', ({ message }) => warnings.push(message));
    await host.servers.settled();
    expect(
      host.permissions.explain({ scope: SCOPE, tool: 'demo__run_command', args: { command: 'ls' } }),
    ).toMatchObject({
      decision: 'deny',
      source: 'rule',
      reason: expect.stringMatching(/^host rule permissions.rules:\d+:\d+ \(rules\[0\]\): deny$/),
    });
    expect(host.permissions.explain({ scope: SCOPE, tool: 'demo__fetch_url' })).toMatchObject({
      decision: 'ask',
      source: 'prompt',
    });
    expect(host.permissions.explain({ scope: SCOPE, tool: 'demo__echo' })).toMatchObject({
      decision: 'ask',
      reason: 'no stored decision for this tool',
    });
    await call(host);
    expect(host.permissions.explain({ scope: SCOPE, tool: 'demo__echo' })).toMatchObject({
      decision: 'allow',
      source: 'stored_decision',
      reason: expect.stringMatching(/^allow always, stored .* expires /),
    });
    expect(host.permissions.warnings()).toEqual([
      expect.stringMatching(/names server "demmo"/),
      expect.stringMatching(/names tool "ecko", which matches no tool of "demo"/),
    ]);
    expect(warnings).toHaveLength(2);
  });

  it('refuses unknown decisions and decisions for tools that do not exist', async () => {
    const { host } = await start();
    await expect(
      host.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_forever' }),
    ).rejects.toThrow(
      'unknown decision "allow_forever": use allow_once, allow_conversation, allow_always, deny_once, deny_always',
    );
    await expect(
      host.permissions.decide({ scope: SCOPE, tool: 'demo__gone', decision: 'deny_always' }),
    ).rejects.toMatchObject({
      code: 'tool_not_found',
    });
  });

  it('manages decisions: list, revoke one, revoke all of a server, change expiry', async () => {
    const { host, surface } = await start({ answers: ['allow_always'] });
    const a = await host.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_always' });
    await host.permissions.decide({ scope: SCOPE, tool: 'demo__search_notes', decision: 'deny_always' });
    await host.permissions.decide({
      scope: SCOPE,
      tool: 'demo__echo',
      decision: 'allow_always',
      args: { text: 'exact' },
    });
    expect(host.permissions.list({ scope: SCOPE })).toHaveLength(3);
    const later = await host.permissions.setExpiry({ scope: SCOPE, id: a.id, expiresAt: null });
    expect(later.expiresAt).toBeNull();
    expect(await host.permissions.revoke({ scope: SCOPE, id: a.id })).toBe(1);
    expect(await host.permissions.revoke({ scope: SCOPE, serverId: 'demo' })).toBe(2);
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    await call(host);
    expect(surface.asked).toHaveLength(1);
  });
});

describe('lookup decoupled from the tool catalog', () => {
  it('asks, or applies a stored decision, while a 5 s tools/list refresh is still running', async () => {
    const { host, surface, log } = await start({ answers: ['allow_always'], args: ['--slow-list-ms', '5000'] });
    await host.permissions.decide({ scope: SCOPE, tool: 'demo__search_notes', decision: 'allow_always' });
    let refreshed = false;
    host.on('tools.changed', () => (refreshed = true));
    await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'demo__change_definition' });
    // The server announced list_changed; the host's tools/list refresh now takes 5 s. Calls go on meanwhile.
    const asked = await call(host, 'demo__echo');
    const cached = await call(host, 'demo__search_notes', { query: 'a' });
    expect(asked.outcome).toBe('success');
    expect(cached.outcome).toBe('success');
    expect(surface.asked.map((r) => r.tool.name)).toEqual(['demo__change_definition', 'demo__echo']);
    expect(refreshed).toBe(false);
    expect(readCallLog(log).map((l) => l.tool)).toEqual(['change_definition', 'echo', 'search_notes']);
  });

  it('falls back to the prompt when a call comes before stored decisions are loaded', async () => {
    const dir = scratchDir('airlock-race-');
    const file = join(dir, 'airlock.db');
    const first = await start({ answers: ['allow_always'], store: new SqliteStore({ database: new Database(file) }) });
    await call(first.host);
    await first.host.close();
    hosts = [];

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new SqliteStore({ database: new Database(file) });
    const listDecisions = slow.listDecisions.bind(slow);
    slow.listDecisions = async (filter: Parameters<HostStore['listDecisions']>[0]) => {
      await gate;
      return listDecisions(filter);
    };
    // The same server as before (same command and env): its stored decision applies once loaded.
    const surface = new Answers(['allow_once']);
    const host = createHost({ servers: [first.config], surface, store: slow, clock });
    hosts.push(host);
    await host.servers.settled();
    await call(host);
    expect(surface.asked.map((r) => r.reason)).toEqual(['decisions_loading']);
    release();
    await host.permissions.ready();
    await call(host);
    expect(surface.asked).toHaveLength(1);
    const origins = (await host.audit.query({ scope: SCOPE, type: 'permission.decision' })).map(
      (e) => e.data['origin'],
    );
    expect(origins).toEqual(['user_prompt', 'user_prompt', 'cache_hit']);
  });

  it('tells listeners of a stored decision what a prompt would have shown, without asking anyone', async () => {
    const { host, surface } = await start({ answers: ['allow_always'] });
    expect((await call(host)).outcome).toBe('success');
    const decided = nextEvent(host, 'permission.decided', (event) => event.origin === 'cache_hit');
    const second = await call(host, 'demo__echo', { text: 'again' });
    expect(second.outcome).toBe('success');
    const event = await decided;
    expect(event.decision).toBe('allow_always');
    expect(event.request).toMatchObject({
      invocationId: second.invocationId,
      tool: { name: 'demo__echo', originalName: 'echo' },
      args: { text: 'again' },
    });
    expect(surface.asked).toHaveLength(1);
  });
});
