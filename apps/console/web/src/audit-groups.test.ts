import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '@airlock/core';
import { auditGroups } from './audit-groups.js';

const event = (seq: number, invocationId: string | null): AuditEvent =>
  ({ seq, invocationId, type: 'invocation.transition', data: {} }) as unknown as AuditEvent;

describe('auditGroups', () => {
  it('puts the newest first and keeps each call together at the place of its newest event', () => {
    const groups = auditGroups([event(1, 'a'), event(2, 'a'), event(3, null), event(4, 'b'), event(5, 'a')]);
    expect(groups.map((g) => [g.invocationId, g.events.map((e) => e.seq)])).toEqual([
      ['a', [5, 2, 1]],
      ['b', [4]],
      [null, [3]],
    ]);
  });
});
