import { describe, expect, it } from 'vitest';
import { answeredVerdict, quickVerdict } from './permission-verdict.js';
import type { StoredDecision } from '../store/decision-record.js';

const tool = { name: 'demo__echo' };

const decision = (effect: 'allow' | 'deny'): StoredDecision => ({
  id: 'd7',
  userId: 'ana',
  workspaceId: 'w1',
  serverId: 'demo',
  serverIdentity: 'identity-demo',
  tool: 'echo',
  argsHash: null,
  definitionHash: 'definition-1',
  effect,
  riskTier: 'medium',
  grantedAt: Date.UTC(2026, 2, 14, 23, 0),
  expiresAt: null,
  grantedBy: 'ana',
});

describe('quickVerdict', () => {
  it('denies by a rule, naming the rule to the model and recording its source', () => {
    const verdict = {
      effect: 'deny' as const,
      rule: { effect: 'deny' as const, layer: 'host' as const, source: 'rules.json:3:5' },
      reason: 'host rule rules.json:3:5: deny',
    };
    expect(quickVerdict({ kind: 'rule', verdict }, tool)).toEqual({
      verdict: { allow: false, reason: 'demo__echo is denied by host rule rules.json:3:5: deny; it was not run' },
      decision: 'deny',
      origin: 'rule',
      data: { rule: 'rules.json:3:5' },
    });
  });

  it('allows by a rule', () => {
    const verdict = {
      effect: 'allow' as const,
      rule: { effect: 'allow' as const, layer: 'host' as const, source: 's' },
      reason: 'r',
    };
    expect(quickVerdict({ kind: 'rule', verdict }, tool)).toMatchObject({
      verdict: { allow: true },
      decision: 'allow',
    });
  });

  it('applies a stored deny always as a cache hit, saying on which day the user denied it', () => {
    expect(quickVerdict({ kind: 'stored', decision: decision('deny') }, tool)).toEqual({
      verdict: { allow: false, reason: 'the user denied demo__echo always (on 2026-03-14); it was not run' },
      decision: 'deny_always',
      origin: 'cache_hit',
      data: { decisionId: 'd7' },
    });
    expect(quickVerdict({ kind: 'stored', decision: decision('allow') }, tool)).toMatchObject({
      verdict: { allow: true },
      decision: 'allow_always',
    });
  });
});

describe('answeredVerdict', () => {
  it('runs the call on either allow, and tells the model the user denied it on either deny', () => {
    expect(answeredVerdict('allow_once', tool)).toEqual({ allow: true });
    expect(answeredVerdict('allow_always', tool)).toEqual({ allow: true });
    const denied = { allow: false, reason: 'the user denied demo__echo; it was not run' };
    expect(answeredVerdict('deny_once', tool)).toEqual(denied);
    expect(answeredVerdict('deny_always', tool)).toEqual(denied);
  });
});
