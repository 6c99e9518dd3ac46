import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision, PermissionRequest } from '../permissions/permission-request.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { canonicalJson } from './canonical-json.js';
import { chainEvent } from './audit-chain.js';
import { seedDecisionEvent } from './seed-decision-event.js';

const DAY = 24 * 60 * 60 * 1000;

/** Seed 003 R6's schema, as the seed writes it: the field names, in its order, and the values each may take. */
const SEED_FIELDS = [
  'event_type',
  'decision',
  'koder_user_id',
  'workspace_id',
  'server_id',
  'tool_name',
  'args_hash',
  'risk_tier',
  'timestamp',
  'origin',
];
const SEED_DECISIONS = ['ALLOW_ONCE', 'ALLOW_ALWAYS', 'DENY_ONCE', 'DENY_ALWAYS'];
const SEED_TIERS = ['low', 'medium', 'high'];
const SEED_ORIGINS = ['user_prompt', 'cache_hit', 'auto_revoke_renewal'];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

class Answers implements Surface {
  readonly asked: PermissionRequest[] = [];
  constructor(private readonly answers: PermissionDecision[]) {}
  askPermission(request: PermissionRequest): Promise<PermissionDecision> {
    this.asked.push(request);
    return Promise.resolve(this.answers[Math.min(this.asked.length, this.answers.length) - 1] ?? 'deny_once');
  }
}

let hosts: Host[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
});

describe("audit export in seed 003 R6's schema", () => {
  it('writes each decision with exactly the seed fields and values, an expired allow renewed as auto_revoke_renewal', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const demo = demoServer('demo', { trusted: true });
    const surface = new Answers(['allow_always', 'deny_once']);
    const host = createHost({ servers: [demo.config], surface, store: new MemoryStore(), clock });
    hosts.push(host);
    await host.servers.settled();
    await host.permissions.ready();
    const args = { text: 'hi' };
    const call = () => host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__echo', args });

    await call(); // asked: allow_always (user_prompt)
    clock.t += DAY;
    await call(); // the stored decision: cache_hit
    clock.t += 91 * DAY;
    await call(); // expired (low risk: 90 days), asked again: deny_once (expired_renewal)

    const lines = (await host.audit.export({ scope: SCOPE, format: 'seed' })).trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toHaveLength(3);
    for (const e of events) {
      expect(Object.keys(e)).toEqual(SEED_FIELDS);
      expect(e['event_type']).toBe('mcp.permission.decision');
      expect(SEED_DECISIONS).toContain(e['decision']);
      expect(SEED_TIERS).toContain(e['risk_tier']);
      expect(SEED_ORIGINS).toContain(e['origin']);
      expect(e['timestamp']).toMatch(ISO_8601);
      expect(e).toMatchObject({
        koder_user_id: SCOPE.userId,
        workspace_id: SCOPE.workspaceId,
        server_id: 'demo',
        tool_name: 'demo__echo',
        // sha256(canonical_json(args)), as the seed defines it.
        args_hash: createHash('sha256').update(canonicalJson(args)).digest('hex'),
      });
    }
    expect(events.map((e) => [e['decision'], e['origin'], e['timestamp']])).toEqual([
      ['ALLOW_ALWAYS', 'user_prompt', '2026-01-01T00:00:00.000Z'],
      ['ALLOW_ALWAYS', 'cache_hit', '2026-01-02T00:00:00.000Z'],
      ['DENY_ONCE', 'auto_revoke_renewal', '2026-04-03T00:00:00.000Z'],
    ]);
    // Today's NDJSON is unchanged beside it: every event, in our own shape.
    const ndjson = (await host.audit.export({ scope: SCOPE })).trimEnd().split('\n');
    expect(ndjson.length).toBeGreaterThan(3);
    expect(JSON.parse(ndjson[0]!)).toHaveProperty('prevHash');
  });

  it("maps a rule to cache_hit and leaves out what the seed's four decisions cannot name", () => {
    const base = {
      type: 'permission.decision' as const,
      at: Date.UTC(2026, 0, 1),
      userId: 'u',
      workspaceId: 'w',
      conversationId: null,
      serverId: 's',
      tool: 't',
      argsHash: 'a'.repeat(64),
      riskTier: 'high',
      invocationId: null,
    };
    const seed = (data: Record<string, unknown>) => seedDecisionEvent(chainEvent({ ...base, data }, undefined));
    expect(seed({ decision: 'deny', origin: 'rule' })).toMatchObject({ decision: 'DENY_ALWAYS', origin: 'cache_hit' });
    expect(seed({ decision: 'deny_once', origin: 'prompt_timeout' })).toMatchObject({ origin: 'user_prompt' });
    expect(seed({ decision: 'revoke', origin: 'user_prompt' })).toBeUndefined();
    expect(seed({ decision: 'constructor', origin: 'user_prompt' })).toBeUndefined();
  });

  it('refuses an unknown format, naming it', async () => {
    const host = createHost({ store: new MemoryStore() });
    hosts.push(host);
    await expect(host.audit.export({ scope: SCOPE, format: 'csv' as 'seed' })).rejects.toThrow(/format csv/);
  });
});
