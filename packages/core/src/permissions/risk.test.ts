import { describe, expect, it } from 'vitest';
import { deriveRisk } from './risk.js';

describe('deriveRisk', () => {
  it('treats a tool without annotations as high risk and destructive', () => {
    expect(deriveRisk({ annotations: undefined, trusted: true })).toMatchObject({ tier: 'high', destructive: true });
    expect(deriveRisk({ annotations: { title: 'only a title' }, trusted: true }).tier).toBe('high');
  });

  it('rates read-only low on a trusted server and medium on an untrusted one', () => {
    expect(deriveRisk({ annotations: { readOnlyHint: true }, trusted: true })).toMatchObject({
      tier: 'low',
      destructive: false,
      unverified: false,
    });
    expect(deriveRisk({ annotations: { readOnlyHint: true }, trusted: false })).toMatchObject({
      tier: 'medium',
      unverified: true,
    });
  });

  it('rates a tool that is not read-only high when destructive or open world, as the spec defaults say', () => {
    expect(deriveRisk({ annotations: { readOnlyHint: false }, trusted: true }).tier).toBe('high');
    expect(deriveRisk({ annotations: { destructiveHint: false }, trusted: true }).tier).toBe('high');
    expect(deriveRisk({ annotations: { destructiveHint: true, openWorldHint: false }, trusted: true })).toMatchObject({
      tier: 'high',
      destructive: true,
    });
  });

  it('rates side effects that are neither destructive nor open world medium', () => {
    const idempotent = { destructiveHint: false, openWorldHint: false, idempotentHint: true };
    expect(deriveRisk({ annotations: idempotent, trusted: true })).toMatchObject({
      tier: 'medium',
      destructive: false,
    });
    expect(deriveRisk({ annotations: { destructiveHint: false, openWorldHint: false }, trusted: false }).tier).toBe(
      'medium',
    );
  });

  it('lets a server claim raise the risk but never lower it on an untrusted server', () => {
    const readOnly = { readOnlyHint: true };
    expect(deriveRisk({ annotations: readOnly, trusted: false, meta: { 'airlock/risk': 'high' } }).tier).toBe('high');
    const lowered = deriveRisk({ annotations: undefined, trusted: false, meta: { 'airlock/risk': 'low' } });
    expect(lowered.tier).toBe('high');
    expect(lowered.reasons.join()).toMatch(/cannot lower it/);
    expect(deriveRisk({ annotations: undefined, trusted: true, meta: { 'airlock/risk': 'low' } }).tier).toBe('low');
  });

  it('names the server as the rater when its claim set the tier, and only then', () => {
    const trusted = deriveRisk({ annotations: undefined, trusted: true, meta: { 'airlock/risk': 'medium' } });
    expect(trusted).toMatchObject({ tier: 'medium', destructive: false, ratedBy: 'server' });
    const raised = deriveRisk({
      annotations: { readOnlyHint: true },
      trusted: false,
      meta: { 'airlock/risk': 'high' },
    });
    expect(raised).toMatchObject({ tier: 'high', ratedBy: 'server' });
    const ignored = deriveRisk({ annotations: undefined, trusted: false, meta: { 'airlock/risk': 'low' } });
    expect(ignored).toMatchObject({ tier: 'high', destructive: true, ratedBy: 'annotations' });
    expect(deriveRisk({ annotations: undefined, trusted: true, unannotatedRisk: 'low' }).ratedBy).toBe('host_policy');
    expect(deriveRisk({ annotations: undefined, trusted: true, ruleRisk: 'low' }).ratedBy).toBe('rule');
  });

  it('keeps an explicit destructive hint when a trusted server rates its tool low', () => {
    const claimed = deriveRisk({
      annotations: { destructiveHint: true },
      trusted: true,
      meta: { 'airlock/risk': 'low' },
    });
    expect(claimed).toMatchObject({ tier: 'low', destructive: true, ratedBy: 'server' });
  });

  it("rates a trusted server's tool without annotations by the host's policy, not destructive", () => {
    expect(deriveRisk({ annotations: undefined, trusted: true, unannotatedRisk: 'medium' })).toMatchObject({
      tier: 'medium',
      destructive: false,
      reasons: ['the tool has no annotations; the host rates such tools of trusted servers medium risk'],
    });
    expect(deriveRisk({ annotations: { title: 'Run' }, trusted: true, unannotatedRisk: 'low' })).toMatchObject({
      tier: 'low',
      destructive: false,
    });
    expect(deriveRisk({ annotations: undefined, trusted: true, unannotatedRisk: 'high' })).toMatchObject({
      tier: 'high',
      destructive: true,
    });
  });

  it("keeps an untrusted server's tool without annotations high and destructive whatever the policy says", () => {
    expect(deriveRisk({ annotations: undefined, trusted: false, unannotatedRisk: 'low' })).toMatchObject({
      tier: 'high',
      destructive: true,
      reasons: ['the tool has no annotations, so it is treated as the worst case'],
    });
  });

  it('leaves annotated tools to their annotations, and lets a rule or a claim still raise the tier', () => {
    const destructive = { destructiveHint: true, readOnlyHint: false };
    expect(deriveRisk({ annotations: destructive, trusted: true, unannotatedRisk: 'low' })).toMatchObject({
      tier: 'high',
      destructive: true,
    });
    const claimed = { annotations: undefined, trusted: true, unannotatedRisk: 'low' as const };
    expect(deriveRisk({ ...claimed, meta: { 'airlock/risk': 'high' } }).tier).toBe('high');
    expect(deriveRisk({ ...claimed, ruleRisk: 'medium' }).tier).toBe('medium');
  });

  it('lets a host rule set the risk', () => {
    expect(deriveRisk({ annotations: { readOnlyHint: true }, trusted: true, ruleRisk: 'high' }).tier).toBe('high');
  });
});
