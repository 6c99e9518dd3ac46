// Allow for this conversation: the same tool (same server identity, same definition) runs without asking for the rest
// of the conversation the call belongs to, for any arguments; the user's other conversations still ask. Through a real
// host and the demo server over stdio, on the memory store and on a SQLite file that outlives its host.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import type { StoredDecision } from '../store/decision-record.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { PermissionDecision } from './permission-request.js';
import { DecisionCache } from './decision-cache.js';
import { resolvePermission } from './resolve-permission.js';
import type { Tool } from '../tools/tool.js';
import { demoServer, readCallLog, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

const DAY = 24 * 60 * 60 * 1000;
const OTHER: Scope = { ...SCOPE, conversationId: 'c2' };
let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

const clock = new FakeClock(Date.UTC(2026, 10, 1));

async function start(options: {
  answers: PermissionDecision[];
  store?: HostStore;
  demo?: ReturnType<typeof demoServer>;
}) {
  const demo = options.demo ?? demoServer('demo');
  const surface = new ScriptedSurface({ permissions: options.answers });
  const host = createHost({ servers: [demo.config], surface, store: options.store ?? new MemoryStore(), clock });
  hosts.push(host);
  await host.servers.settled();
  await host.permissions.ready();
  return { host, surface, demo };
}

const call = (host: Host, scope: Scope, tool = 'demo__echo', args: unknown = { text: 'hi' }) =>
  host.invoke({ scope, caller: { kind: 'model' }, tool, args });

describe('allow for this conversation', () => {
  it('runs the next calls of the tool in the same conversation without asking, for any arguments', async () => {
    const { host, surface, demo } = await start({ answers: ['allow_conversation'] });
    expect((await call(host, SCOPE)).outcome).toBe('success');
    expect(surface.requests[0]?.allowConversation).toEqual({ offered: true });
    expect((await call(host, SCOPE, 'demo__echo', { text: 'other arguments' })).outcome).toBe('success');

    expect(surface.requests).toHaveLength(1);
    expect(readCallLog(demo.log)).toHaveLength(2);
    const decisions = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(decisions.map((e) => [e.data['decision'], e.data['origin'], e.conversationId])).toEqual([
      ['allow_conversation', 'user_prompt', 'c1'],
      ['allow_conversation', 'cache_hit', 'c1'],
    ]);
  });

  it("asks again in another conversation of the same user, and another tool's first call", async () => {
    const { host, surface } = await start({ answers: ['allow_conversation', 'deny_once'] });
    await call(host, SCOPE);

    expect((await call(host, OTHER)).outcome).toBe('permission_denied');
    expect((await call(host, SCOPE, 'demo__search_notes', { query: 'x' })).outcome).toBe('permission_denied');
    expect(surface.requests.map((r) => [r.tool.name, r.scope.conversationId, r.reason])).toEqual([
      ['demo__echo', 'c1', 'first_time'],
      ['demo__echo', 'c2', 'first_time'],
      ['demo__search_notes', 'c1', 'first_time'],
    ]);
  });

  it('is stored as a decision naming its conversation, listed, explained and revoked like the others', async () => {
    const { host, surface } = await start({ answers: ['allow_conversation', 'allow_once'] });
    await call(host, SCOPE);
    const [stored] = host.permissions.list({ scope: OTHER });
    expect(stored).toMatchObject({ tool: 'echo', effect: 'allow', conversationId: 'c1', argsHash: null });
    // It lasts no longer than an allow always of its tier would (echo: medium, 30 days).
    expect(stored?.expiresAt).toBe(clock.now() + 30 * DAY);
    expect(host.permissions.explain({ scope: SCOPE, tool: 'demo__echo' })).toMatchObject({
      decision: 'allow',
      source: 'stored_decision',
      reason: expect.stringMatching(/^allow for this conversation, stored /),
    });
    expect(host.permissions.explain({ scope: OTHER, tool: 'demo__echo' }).decision).toBe('ask');

    expect(await host.permissions.revoke({ scope: OTHER, id: stored!.id })).toBe(1);
    await call(host, SCOPE);
    expect(surface.requests).toHaveLength(2);
    const revoke = (await host.audit.query({ scope: SCOPE, type: 'permission.decision' })).find(
      (e) => e.data['decision'] === 'revoke',
    );
    expect(revoke).toMatchObject({ conversationId: 'c1', data: { decisionId: stored!.id } });
  });

  it('is offered, and kept, for a destructive tool whose allow always is refused', async () => {
    const { host, surface, demo } = await start({ answers: ['allow_conversation'] });
    expect((await call(host, SCOPE, 'demo__delete_note', { id: 'n1' })).outcome).not.toBe('permission_denied');
    expect((await call(host, SCOPE, 'demo__delete_note', { id: 'n2' })).outcome).not.toBe('permission_denied');

    expect(surface.requests).toHaveLength(1);
    expect(surface.requests[0]).toMatchObject({
      allowAlways: { offered: false },
      allowConversation: { offered: true },
      defaultAction: 'deny_once',
    });
    expect(readCallLog(demo.log).map((l) => l.tool)).toEqual(['delete_note', 'delete_note']);
  });

  it('lasts a day at most for a destructive tool, however long the conversation goes on', async () => {
    const { host, surface } = await start({ answers: ['allow_conversation'] });
    await call(host, SCOPE, 'demo__delete_note', { id: 'n1' });
    const [stored] = host.permissions.list({ scope: SCOPE });
    expect(stored?.expiresAt).toBe(clock.now() + DAY);

    clock.advance(DAY - 1);
    await call(host, SCOPE, 'demo__delete_note', { id: 'n2' });
    expect(surface.requests).toHaveLength(1);
    clock.advance(1);
    await call(host, SCOPE, 'demo__delete_note', { id: 'n3' });
    expect(surface.requests.map((r) => r.reason)).toEqual(['first_time', 'decision_expired']);
    // The prompt names the grain that ran out: this conversation's allow, not an allow always.
    expect(surface.requests[1]?.expiredGrain).toBe('conversation');
    expect(surface.requests[0]?.expiredGrain).toBeUndefined();
  });

  it('gives way to a deny always the user stores afterwards', async () => {
    const { host, surface } = await start({ answers: ['allow_conversation'] });
    await call(host, SCOPE);
    await host.permissions.decide({ scope: OTHER, tool: 'demo__echo', decision: 'deny_always' });

    const denied = await call(host, SCOPE);
    expect(denied.outcome).toBe('permission_denied');
    expect(denied.text).toMatch(/the user denied demo__echo always/);
    expect(surface.requests).toHaveLength(1);
  });

  it('is stored by host.permissions.decide in the scope’s conversation, and refused with arguments', async () => {
    const { host, surface } = await start({ answers: ['deny_once'] });
    const stored = await host.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_conversation' });
    expect(stored.conversationId).toBe('c1');
    expect((await call(host, SCOPE)).outcome).toBe('success');
    expect((await call(host, OTHER)).outcome).toBe('permission_denied');
    expect(surface.requests.map((r) => r.scope.conversationId)).toEqual(['c2']);

    await expect(
      host.permissions.decide({ scope: SCOPE, tool: 'demo__echo', decision: 'allow_conversation', args: { a: 1 } }),
    ).rejects.toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/any arguments/) });
  });

  it('allows a native tool once and keeps nothing (a native tool is asked each time)', async () => {
    const surface = new ScriptedSurface({ permissions: ['allow_conversation'] });
    const host = createHost({
      surface,
      clock,
      tools: [
        {
          name: 'clock',
          description: 'The time',
          inputSchema: { type: 'object' },
          run: () => Promise.resolve({ content: [{ type: 'text', text: 'noon' }] }),
        },
      ],
    });
    hosts.push(host);
    await host.permissions.ready();
    expect((await call(host, SCOPE, 'clock', {})).outcome).toBe('success');
    expect((await call(host, SCOPE, 'clock', {})).outcome).toBe('success');

    expect(surface.requests).toHaveLength(2);
    expect(surface.requests[0]?.allowConversation).toMatchObject({ offered: false });
    expect(host.permissions.list({ scope: SCOPE })).toEqual([]);
    const decisions = await host.audit.query({ scope: SCOPE, type: 'permission.decision' });
    expect(decisions.map((e) => e.data['decision'])).toEqual(['allow_once', 'allow_once']);
  });

  it('outlives the host on a SQLite file: the same conversation runs, another still asks', async () => {
    const file = join(scratchDir('airlock-grain-'), 'history.db');
    const demo = demoServer('demo');
    const first = await start({
      answers: ['allow_conversation'],
      store: new SqliteStore({ database: new Database(file) }),
      demo,
    });
    await call(first.host, SCOPE);
    await first.host.close();
    hosts = [];

    const second = await start({
      answers: ['deny_once'],
      store: new SqliteStore({ database: new Database(file) }),
      demo,
    });
    expect((await call(second.host, SCOPE)).outcome).toBe('success');
    expect((await call(second.host, OTHER)).outcome).toBe('permission_denied');
    expect(second.surface.requests.map((r) => r.scope.conversationId)).toEqual(['c2']);
  });
});

describe('resolvePermission with an allow for one conversation', () => {
  const tool: Tool = {
    name: 'demo__echo',
    origin: { kind: 'mcp', serverId: 'demo', originalName: 'echo' },
    inputSchema: { type: 'object' },
    visibility: ['model'],
    annotations: { readOnlyHint: true },
    definitionHash: 'definition-2',
    run: () => Promise.reject(new Error('resolution never runs a tool')),
  };
  const NOW = Date.UTC(2026, 10, 1);
  const held = (overrides: Partial<StoredDecision>): StoredDecision => ({
    id: `d-${Math.random()}`,
    userId: 'ana',
    workspaceId: 'w1',
    serverId: 'demo',
    serverIdentity: 'identity-demo',
    tool: 'echo',
    argsHash: null,
    definitionHash: 'definition-2',
    effect: 'allow',
    riskTier: 'low',
    grantedAt: NOW - DAY,
    expiresAt: null,
    grantedBy: 'ana',
    ...overrides,
  });
  async function resolve(decisions: StoredDecision[], conversationId = 'c1') {
    const cache = new DecisionCache();
    await cache.load(Promise.resolve(decisions));
    return resolvePermission({
      rules: [],
      decisions: cache,
      tool,
      scope: { userId: 'ana', workspaceId: 'w1', conversationId },
      argsHash: () => 'args-1',
      now: () => NOW,
      server: () => ({ identity: 'identity-demo', trusted: true }),
    });
  }
  const inC1 = held({ conversationId: 'c1' });

  it('applies in its own conversation only', async () => {
    expect(await resolve([inC1])).toEqual({ kind: 'stored', decision: inC1 });
    expect(await resolve([inC1], 'c2')).toMatchObject({ kind: 'ask', reason: 'first_time' });
  });

  it("wins over the tool's allow always that ran out, or a deny always made for another definition", async () => {
    const ranOut = held({ expiresAt: NOW - 1 });
    expect(await resolve([ranOut, inC1])).toEqual({ kind: 'stored', decision: inC1 });
    const staleDeny = held({ effect: 'deny', definitionHash: 'definition-1' });
    expect(await resolve([staleDeny, inC1])).toEqual({ kind: 'stored', decision: inC1 });
  });

  it('gives way to a deny always in force, and to a decision for these exact arguments', async () => {
    const deny = held({ effect: 'deny' });
    expect(await resolve([deny, inC1])).toEqual({ kind: 'stored', decision: deny });
    const exact = held({ argsHash: 'args-1', effect: 'deny' });
    expect(await resolve([exact, inC1])).toEqual({ kind: 'stored', decision: exact });
  });
});
