import { describe, expect, it } from 'vitest';
import type { AuditEvent, AuditEventInput } from './audit-event.js';
import { chainEvent, GENESIS_HASH, verifyChain } from './audit-event.js';

function input(n: number): AuditEventInput {
  return {
    type: 'permission.decision',
    at: 1_000 + n,
    userId: 'ana',
    workspaceId: 'w1',
    conversationId: 'c1',
    serverId: 'demo',
    tool: 'demo__echo',
    argsHash: 'a'.repeat(64),
    riskTier: 'medium',
    invocationId: null,
    data: { decision: 'allow_once', origin: 'user_prompt', n },
  };
}

function chain(length: number): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (let i = 0; i < length; i++) events.push(chainEvent(input(i), events[i - 1]));
  return events;
}

describe('the audit hash chain', () => {
  it('links each event to the one before, from the genesis hash', () => {
    const events = chain(3);
    expect(events[0]?.prevHash).toBe(GENESIS_HASH);
    expect(events[1]?.prevHash).toBe(events[0]?.hash);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(verifyChain(events)).toEqual({ ok: true, count: 3, lastSeq: 3, lastHash: events[2]?.hash });
  });

  it('catches an edited event', () => {
    const events = chain(4);
    events[2] = { ...events[2]!, data: { decision: 'deny_once' } };
    expect(verifyChain(events)).toMatchObject({
      ok: false,
      seq: 3,
      problem: 'event 3 was edited: its content does not match its hash',
    });
  });

  it('catches a removed event', () => {
    const events = chain(4);
    events.splice(1, 1);
    expect(verifyChain(events)).toMatchObject({
      ok: false,
      seq: 3,
      problem: expect.stringMatching(/removed or reordered/),
    });
  });

  it('catches reordered events even when renumbered', () => {
    const events = chain(4);
    const swapped = [events[0]!, { ...events[2]!, seq: 2 }, { ...events[1]!, seq: 3 }, events[3]!];
    expect(verifyChain(swapped)).toMatchObject({
      ok: false,
      seq: 2,
      problem: 'event 2 does not link to the event before it',
    });
  });

  it('continues a verification from a page boundary', () => {
    const events = chain(6);
    const first = verifyChain(events.slice(0, 3));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(
      verifyChain(events.slice(3), { prev: { seq: first.lastSeq, hash: first.lastHash }, count: first.count }),
    ).toMatchObject({
      ok: true,
      count: 6,
    });
  });
});
