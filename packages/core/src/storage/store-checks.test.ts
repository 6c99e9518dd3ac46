import { describe, expect, it } from 'vitest';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { auditEventOf, chainEvent, verifyChain } from '../audit/audit-chain.js';
import { sealStoredAuditInput, storedAuditInput } from './store-checks.js';
import { seeded } from '../testing/seeded.js';

describe('sealing the stored form of an audit event', () => {
  it('gives the same chain as sealing the stored copy, for data of every shape', () => {
    // The SQLite store seals without building the stored copy; the memory store seals the copy. Same inputs, same
    // chain: a seeded generator covers flat data (the direct path) and data JSON changes (the copy's path).
    const { next, pick } = seeded(11);
    const text = () => pick(['', 'ana', 'é€😀', '"q" \\', '\u2028', 'z'.repeat(70)]);
    const textOrNull = () => (next() < 0.3 ? null : text());
    const value = () =>
      pick<unknown>([
        text(),
        1.5,
        -0,
        1e21,
        true,
        null,
        undefined,
        Number.NaN,
        new Date(0),
        [1, undefined, 'two'],
        { b: 1, a: { d: [null], c: 'x' } },
      ]);
    const data = (): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      const size = Math.floor(next() * 5);
      for (let k = 0; k < size; k++) out[pick(['decision', 'origin', 'b', 'a', 'é'])] = next() < 0.6 ? text() : value();
      return out;
    };
    let viaCopy: AuditEvent | undefined;
    let direct: AuditEvent | undefined;
    const events: AuditEvent[] = [];
    for (let i = 0; i < 500; i++) {
      const input: AuditEventInput = {
        type: pick(['invocation.transition', 'permission.decision', 'elicitation'] as const),
        at: 1_795_373_423_896 + i,
        userId: text(),
        workspaceId: text(),
        conversationId: textOrNull(),
        serverId: textOrNull(),
        tool: textOrNull(),
        argsHash: textOrNull(),
        riskTier: textOrNull(),
        invocationId: textOrNull(),
        data: data(),
      };
      viaCopy = chainEvent(storedAuditInput(input), viaCopy);
      direct = auditEventOf(sealStoredAuditInput(input, direct));
      expect(direct).toEqual(viaCopy);
      events.push(direct);
    }
    expect(verifyChain(events)).toMatchObject({ ok: true, count: 500 });
  });

  it('refuses what a store could not keep, as storedAuditInput does', () => {
    const input: AuditEventInput = {
      type: 'elicitation',
      at: 1,
      userId: 'u',
      workspaceId: 'w',
      conversationId: null,
      serverId: null,
      tool: null,
      argsHash: null,
      riskTier: null,
      invocationId: null,
      data: { n: 1 },
    };
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    for (const bad of [
      { ...input, type: 'other' },
      { ...input, at: Number.NaN },
      { ...input, userId: 7 },
      { ...input, data: [1] },
      { ...input, data: { big: 1n } },
      { ...input, data: cyclic },
    ] as unknown as AuditEventInput[]) {
      expect(() => storedAuditInput(bad)).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
      expect(() => sealStoredAuditInput(bad, undefined)).toThrow(
        expect.objectContaining({ code: 'invalid_arguments' }),
      );
    }
  });
});
