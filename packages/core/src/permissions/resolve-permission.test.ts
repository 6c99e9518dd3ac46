import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import { DecisionCache } from './decision-cache.js';
import type { PermissionRule } from './permission-rules.js';
import type { PermissionResolution, ServerFacts } from './resolve-permission.js';
import { decisionExpiresAt, permissionRisk, resolvePermission } from './resolve-permission.js';
import type { StoredDecision } from '../store/decision-record.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 1);
const ANA = { userId: 'ana', workspaceId: 'w1' } as const;

function mcpTool(overrides: Partial<Tool> = {}): Tool {
  return {
    name: 'demo__echo',
    origin: { kind: 'mcp', serverId: 'demo', originalName: 'echo' },
    inputSchema: { type: 'object' },
    visibility: ['model'],
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    definitionHash: 'definition-1',
    run: () => Promise.reject(new Error('resolution never runs a tool')),
    ...overrides,
  };
}

const nativeTool = mcpTool({ name: 'clock', origin: { kind: 'native' } });

function stored(overrides: Partial<StoredDecision> = {}): StoredDecision {
  return {
    id: 'd1',
    userId: 'ana',
    workspaceId: 'w1',
    serverId: 'demo',
    serverIdentity: 'identity-demo',
    tool: 'echo',
    argsHash: null,
    definitionHash: 'definition-1',
    effect: 'allow',
    riskTier: 'medium',
    grantedAt: NOW - DAY,
    expiresAt: NOW + 29 * DAY,
    grantedBy: 'ana',
    ...overrides,
  };
}

async function loaded(...decisions: StoredDecision[]): Promise<DecisionCache> {
  const cache = new DecisionCache();
  await cache.load(Promise.resolve(decisions));
  return cache;
}

const demo: ServerFacts = { identity: 'identity-demo', trusted: false };

function resolve(options: {
  decisions: DecisionCache;
  rules?: PermissionRule[];
  tool?: Tool;
  scope?: { userId: string; workspaceId: string };
  argsHash?: () => string;
  now?: number;
  server?: ServerFacts | undefined;
}): PermissionResolution {
  const facts = 'server' in options ? options.server : demo;
  return resolvePermission({
    rules: options.rules ?? [],
    decisions: options.decisions,
    tool: options.tool ?? mcpTool(),
    scope: options.scope ?? ANA,
    argsHash: options.argsHash ?? (() => 'args-1'),
    now: () => options.now ?? NOW,
    server: (serverId) => (serverId === 'demo' ? facts : undefined),
  });
}

const rule = (r: Omit<PermissionRule, 'source' | 'layer'> & Partial<PermissionRule>): PermissionRule => ({
  layer: 'host',
  source: `test rule ${r.effect}`,
  ...r,
});

describe('resolvePermission', () => {
  it('lets a rule decide before any stored decision, either way', async () => {
    const denied = await loaded(stored({ effect: 'deny', expiresAt: null }));
    const allowRule = [rule({ effect: 'allow', server: 'demo' })];
    expect(resolve({ decisions: denied, rules: allowRule })).toMatchObject({
      kind: 'rule',
      verdict: { effect: 'allow' },
    });
    const allowed = await loaded(stored());
    const denyRule = [rule({ effect: 'deny', tool: 'echo' })];
    expect(resolve({ decisions: allowed, rules: denyRule })).toMatchObject({
      kind: 'rule',
      verdict: { effect: 'deny' },
    });
  });

  it('asks on an ask rule even when the user allowed the tool always', async () => {
    const result = resolve({ decisions: await loaded(stored()), rules: [rule({ effect: 'ask', name: 'demo__*' })] });
    expect(result).toMatchObject({
      kind: 'ask',
      origin: 'user_prompt',
      reason: 'rule_says_ask',
      why: 'host rule test rule ask: ask: always ask',
    });
  });

  it('lets a deny at any layer win over an allow at a higher one, for the tenant it names only', async () => {
    const rules = [
      rule({ effect: 'allow', server: 'demo' }),
      rule({ effect: 'deny', layer: 'user', userId: 'ana', tool: 'echo' }),
    ];
    const decisions = await loaded();
    expect(resolve({ decisions, rules })).toMatchObject({ kind: 'rule', verdict: { effect: 'deny' } });
    const bob = { userId: 'bob', workspaceId: 'w1' };
    expect(resolve({ decisions, rules, scope: bob })).toMatchObject({ kind: 'rule', verdict: { effect: 'allow' } });
  });

  it('applies a stored decision for these exact arguments before the one for any arguments', async () => {
    const decisions = await loaded(
      stored({ id: 'any', effect: 'allow' }),
      stored({ id: 'exact', effect: 'deny', argsHash: 'args-1', expiresAt: null }),
    );
    expect(resolve({ decisions, argsHash: () => 'args-1' })).toMatchObject({
      kind: 'stored',
      decision: { id: 'exact', effect: 'deny' },
    });
    expect(resolve({ decisions, argsHash: () => 'args-2' })).toMatchObject({
      kind: 'stored',
      decision: { id: 'any', effect: 'allow' },
    });
  });

  it('does not hash the arguments while no decision for exact arguments exists', async () => {
    const hashNotWanted = () => {
      throw new Error('the arguments were hashed');
    };
    expect(resolve({ decisions: await loaded(stored()), argsHash: hashNotWanted })).toMatchObject({ kind: 'stored' });
  });

  it('asks again when the tool definition changed since the user decided', async () => {
    const result = resolve({ decisions: await loaded(stored()), tool: mcpTool({ definitionHash: 'definition-2' }) });
    expect(result).toMatchObject({
      kind: 'ask',
      origin: 'user_prompt',
      reason: 'definition_changed',
      why: expect.stringMatching(/tool changed/),
    });
  });

  it("asks again when the server's identity changed (a moved server), and for a server no longer configured", async () => {
    const decisions = await loaded(stored());
    const moved = resolve({ decisions, server: { identity: 'identity-elsewhere', trusted: false } });
    expect(moved).toEqual({
      kind: 'ask',
      origin: 'user_prompt',
      reason: 'server_changed',
      why: "the server's configuration (command, URL, env, headers or trust) changed since the user decided",
    });
    expect(resolve({ decisions, server: undefined })).toEqual({
      kind: 'ask',
      origin: 'user_prompt',
      reason: 'first_time',
      why: 'unknown server',
    });
  });

  it('applies an allow until the moment it expires, then asks again as a renewal', async () => {
    const expiresAt = NOW + DAY;
    const decisions = await loaded(stored({ expiresAt }));
    expect(resolve({ decisions, now: expiresAt - 1 })).toMatchObject({ kind: 'stored' });
    expect(resolve({ decisions, now: expiresAt })).toEqual({
      kind: 'ask',
      origin: 'expired_renewal',
      reason: 'decision_expired',
      why: `the stored decision expired ${new Date(expiresAt).toISOString()}`,
      expiredGrain: 'always',
    });
  });

  it('keeps deny always in force however much later: it is stored without an expiry', async () => {
    const grantedAt = NOW;
    const expiresAt = decisionExpiresAt({
      effect: 'deny',
      tier: 'low',
      grantedAt,
      expiryDays: { low: 1, medium: 1, high: 1 },
    });
    expect(expiresAt).toBeNull();
    const decisions = await loaded(stored({ effect: 'deny', grantedAt, expiresAt }));
    expect(resolve({ decisions, now: NOW + 10 * 365 * DAY })).toMatchObject({
      kind: 'stored',
      decision: { effect: 'deny' },
    });
  });

  it('gives an allow always the expiry of its risk tier, or none when the tier never expires', () => {
    const expiryDays = { low: 90, medium: 30, high: null };
    expect(decisionExpiresAt({ effect: 'allow', tier: 'low', grantedAt: NOW, expiryDays })).toBe(NOW + 90 * DAY);
    expect(decisionExpiresAt({ effect: 'allow', tier: 'medium', grantedAt: NOW, expiryDays })).toBe(NOW + 30 * DAY);
    expect(decisionExpiresAt({ effect: 'allow', tier: 'high', grantedAt: NOW, expiryDays })).toBeNull();
  });

  it("never applies another tenant's decision: another user, or the same user in another workspace, is asked", async () => {
    const decisions = await loaded(stored());
    const none = { kind: 'ask', origin: 'user_prompt', reason: 'first_time', why: 'no stored decision for this tool' };
    expect(resolve({ decisions, scope: { userId: 'bob', workspaceId: 'w1' } })).toEqual(none);
    expect(resolve({ decisions, scope: { userId: 'ana', workspaceId: 'w2' } })).toEqual(none);
    expect(resolve({ decisions })).toMatchObject({ kind: 'stored', decision: { userId: 'ana', workspaceId: 'w1' } });
  });

  it('asks while the stored decisions are still loading, rather than miss a deny', () => {
    const decisions = new DecisionCache();
    decisions.remember(stored({ effect: 'deny', expiresAt: null }));
    expect(resolve({ decisions })).toMatchObject({
      kind: 'ask',
      reason: 'decisions_loading',
      why: expect.stringMatching(/still loading/),
    });
  });

  it('asks for a native tool that no rule decides: decisions are stored for MCP tools only', async () => {
    expect(resolve({ decisions: await loaded(), tool: nativeTool })).toEqual({
      kind: 'ask',
      origin: 'user_prompt',
      reason: 'asked_each_time',
      why: 'native tools are asked each time',
    });
  });

  it('forgets a revoked decision, and a decision replaced for the same key is the one applied', async () => {
    const decisions = await loaded(stored({ id: 'first', argsHash: 'args-1' }));
    decisions.remember(stored({ id: 'second', argsHash: 'args-1', effect: 'deny', expiresAt: null }));
    expect(resolve({ decisions })).toMatchObject({ kind: 'stored', decision: { id: 'second' } });
    decisions.forget(stored({ argsHash: 'args-1' }));
    expect(resolve({ decisions })).toMatchObject({
      kind: 'ask',
      reason: 'first_time',
      why: 'no stored decision for this tool',
    });
  });

  it('says the server changed only when a decision for this server and tool is held under another identity', async () => {
    const elsewhere = { identity: 'identity-elsewhere', trusted: false };
    // A decision for other exact arguments under the same identity is not a changed server.
    const perArgs = await loaded(stored({ argsHash: 'args-9' }));
    expect(resolve({ decisions: perArgs })).toMatchObject({ reason: 'first_time' });
    expect(resolve({ decisions: perArgs, server: elsewhere })).toMatchObject({ reason: 'server_changed' });
    // Another tool of the server, or another tenant's decision, says nothing about this one.
    const other = await loaded(stored({ tool: 'reverse' }), stored({ id: 'd2', userId: 'bob' }));
    expect(resolve({ decisions: other, server: elsewhere })).toMatchObject({ reason: 'first_time' });
    // Once revoked, the old identity is forgotten too.
    const once = await loaded(stored());
    once.forget(stored());
    expect(resolve({ decisions: once, server: elsewhere })).toMatchObject({ reason: 'first_time' });
  });
});

describe('permissionRisk', () => {
  const readOnly = { readOnlyHint: true };

  it("rates a read-only tool by its server's trust, and a native tool as trusted", () => {
    const tool = mcpTool({ annotations: readOnly });
    expect(permissionRisk({ rules: [], tool, server: () => demo }).tier).toBe('medium');
    expect(permissionRisk({ rules: [], tool, server: () => ({ ...demo, trusted: true }) }).tier).toBe('low');
    expect(
      permissionRisk({ rules: [], tool: { ...nativeTool, annotations: readOnly }, server: () => undefined }).tier,
    ).toBe('low');
  });

  it("takes a host rule's risk over the derived one, but not a rule that applies to one tenant only", () => {
    const tool = mcpTool({ annotations: undefined });
    expect(permissionRisk({ rules: [], tool, server: () => demo }).tier).toBe('high');
    const hostRule = rule({ effect: 'ask', server: 'demo', risk: 'low' });
    expect(permissionRisk({ rules: [hostRule], tool, server: () => demo })).toMatchObject({
      tier: 'low',
      reasons: expect.arrayContaining(['a host rule sets the risk to low']),
    });
    const userRule = rule({ effect: 'ask', layer: 'user', userId: 'ana', server: 'demo', risk: 'low' });
    expect(permissionRisk({ rules: [userRule], tool, server: () => demo }).tier).toBe('high');
  });
});
