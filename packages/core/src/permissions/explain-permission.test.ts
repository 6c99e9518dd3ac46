import { describe, expect, it } from 'vitest';
import { explainPermission } from './explain-permission.js';
import type { RiskAssessment } from './risk.js';
import type { StoredDecision } from '../store/decision-record.js';

const risk: RiskAssessment = { tier: 'medium', destructive: false, unverified: false, reasons: [] };
const decision: StoredDecision = {
  id: 'd1',
  userId: 'ana',
  workspaceId: 'w1',
  serverId: 'demo',
  serverIdentity: 'identity-demo',
  tool: 'echo',
  argsHash: 'args-1',
  definitionHash: 'definition-1',
  effect: 'deny',
  riskTier: 'medium',
  grantedAt: Date.UTC(2026, 2, 14),
  expiresAt: null,
  grantedBy: 'ana',
};

describe('explainPermission', () => {
  it('names a stored decision, when it was stored, for which arguments, and until when', () => {
    expect(explainPermission({ resolution: { kind: 'stored', decision }, risk })).toEqual({
      decision: 'deny',
      source: 'stored_decision',
      risk,
      storedDecision: decision,
      reason: 'deny always, stored 2026-03-14T00:00:00.000Z for these exact arguments; never expires',
    });
    const expiring = { ...decision, argsHash: null, effect: 'allow' as const, expiresAt: Date.UTC(2026, 3, 13) };
    expect(explainPermission({ resolution: { kind: 'stored', decision: expiring }, risk }).reason).toBe(
      'allow always, stored 2026-03-14T00:00:00.000Z; expires 2026-04-13T00:00:00.000Z',
    );
  });

  it('names the rule that decides, or says why the user would be asked', () => {
    const rule = { effect: 'deny' as const, layer: 'host' as const, source: 'rules.json:2:3' };
    const verdict = { effect: 'deny' as const, rule, reason: 'host rule rules.json:2:3: deny' };
    expect(explainPermission({ resolution: { kind: 'rule', verdict }, risk })).toEqual({
      decision: 'deny',
      source: 'rule',
      risk,
      reason: 'host rule rules.json:2:3: deny',
      rule,
    });
    const ask = {
      kind: 'ask' as const,
      origin: 'user_prompt' as const,
      reason: 'first_time' as const,
      why: 'no stored decision for this tool',
    };
    expect(explainPermission({ resolution: ask, risk })).toEqual({
      decision: 'ask',
      source: 'prompt',
      risk,
      reason: 'no stored decision for this tool',
    });
  });
});
