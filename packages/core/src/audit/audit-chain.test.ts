import { describe, expect, it } from 'vitest';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { canonicalEventJson, chainEvent, GENESIS_HASH, verifyChain } from './audit-chain.js';
import { canonicalJson } from './canonical-json.js';
import { seeded } from '../testing/seeded.js';

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

  it('writes the same canonical JSON as the general RFC 8785 path for every event it meets', () => {
    // A seeded generator: the same events each run, of every value kind the fields can hold.
    const { next, pick } = seeded(42);
    const strings = [
      '',
      'ana',
      'é€😀',
      '\u2028\u2029',
      '"quoted" \\ back',
      '\n\t\u0000',
      'z'.repeat(70),
      '\ud800 lone',
    ];
    const numbers = [0, -0, 1, -1.5, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, 1_795_373_423_896];
    const text = () => pick(strings);
    const textOrNull = () => (next() < 0.3 ? null : text());
    const data = (): Record<string, unknown> => ({
      decision: text(),
      [text()]: pick<unknown>([text(), pick(numbers), true, null, undefined, [1, 'two', { b: 1, a: [null] }]]),
      nested: { z: pick(numbers), a: textOrNull(), m: { y: 1, x: [text()] } },
    });
    for (let i = 0; i < 500; i++) {
      const event = {
        type: pick(['invocation.transition', 'permission.decision', 'elicitation'] as const),
        at: pick(numbers),
        userId: text(),
        workspaceId: text(),
        conversationId: textOrNull(),
        serverId: textOrNull(),
        tool: textOrNull(),
        argsHash: textOrNull(),
        riskTier: textOrNull(),
        invocationId: textOrNull(),
        data: data(),
        seq: Math.floor(next() * 1e9),
        prevHash: next() < 0.5 ? GENESIS_HASH : 'f'.repeat(64),
      };
      expect(canonicalEventJson(event)).toBe(canonicalJson(event));
    }
  });

  it('takes the general path for an event of another shape, and refuses what has no JSON form', () => {
    const base = { ...chainEvent(input(1), undefined) } as Record<string, unknown>;
    delete base['hash'];
    const shapes: Record<string, unknown>[] = [
      { ...base, extra: 'x' },
      { ...base, tool: undefined },
      { ...base, data: [1, 2] },
      { ...base, userId: { not: 'text' } },
      Object.fromEntries(Object.entries(base).filter(([key]) => key !== 'seq')),
    ];
    for (const shape of shapes) {
      expect(canonicalEventJson(shape as unknown as Omit<AuditEvent, 'hash'>)).toBe(canonicalJson(shape));
    }
    expect(() => canonicalEventJson({ ...base, at: Number.NaN } as unknown as Omit<AuditEvent, 'hash'>)).toThrow(/NaN/);
  });
});
