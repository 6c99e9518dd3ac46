import { describe, expect, it } from 'vitest';
import type { StoreWrite } from '../host-store.js';
import {
  SCOPE,
  auditInput,
  createWrite,
  decision,
  decisionAudit,
  deleteWrite,
  invocation,
  move,
  putWrite,
  resultFor,
  transitionWrite,
} from '../../testing/host-store-fixtures.js';
import { decodeBatch, encodeBatch } from './worker-batch-codec.js';

/** The batch as the worker's store receives it: compacted, cloned across the thread boundary, read back. */
function crossed(batch: readonly StoreWrite[]): StoreWrite[] {
  return decodeBatch(structuredClone(encodeBatch(batch)));
}

describe('the batch a WorkerStore sends its worker', () => {
  it("gives the worker's store every write of the call path exactly, with or without its audit event and result", () => {
    const record = invocation();
    const error = { code: -32602, message: 'bad ✓' };
    const batch: StoreWrite[] = [
      createWrite(record, auditInput('pending', { type: 'invocation.transition', invocationId: record.id })),
      createWrite(invocation()),
      transitionWrite(move(record, 2, 'pending', 'running'), { audit: auditInput('running') }),
      { kind: 'audit', audit: auditInput('decision', { data: { nested: { list: [1, 'two', null] } } }) },
      transitionWrite(move(record, 3, 'running', 'error', 'protocol_error', error), {
        result: { ...resultFor(record.id), expiredAt: 5 },
        audit: auditInput('error'),
      }),
      transitionWrite(move(record, 4, 'running', 'success'), { scope: { ...SCOPE, conversationId: 'other' } }),
    ];
    const received = crossed(batch);
    expect(received).toEqual(batch);
    expect(received.map((w) => Object.keys(w).sort())).toEqual(batch.map((w) => Object.keys(w).sort()));
  });

  it("gives back each audit event whole when the batch's events share some fields and differ in others", () => {
    const a = invocation();
    const b = invocation({ scope: { ...SCOPE, userId: 'user-b' } });
    const event = (record: typeof a, label: string, at: number) =>
      auditInput(label, {
        type: 'invocation.transition',
        at,
        userId: record.scope.userId,
        invocationId: record.id,
        argsHash: label.endsWith('!') ? null : 'h',
      });
    const d = decision();
    const batch: StoreWrite[] = [
      createWrite(a, event(a, 'a pending', 1)),
      createWrite(b, event(b, 'b pending', 1)),
      putWrite(d, decisionAudit(d, 'a decision, sent as it is')),
      transitionWrite(move(a, 2, 'pending', 'running'), { audit: event(a, 'a running!', 2) }),
      transitionWrite(move(b, 2, 'pending', 'running'), { scope: b.scope }),
      { kind: 'audit', audit: event(b, 'b decision', 2) },
      transitionWrite(move(b, 3, 'running', 'success', 'success'), { scope: b.scope, audit: event(b, 'b ended', 2) }),
      { kind: 'audit', audit: event(b, 'b again', 2) },
    ];
    expect(crossed(batch)).toEqual(batch);
  });

  it('sends every other kind of write, and a write not of its kind’s shape, as it is', () => {
    const d = decision();
    const odd = { kind: 'create', record: undefined, first: undefined } as unknown as StoreWrite;
    const batch: StoreWrite[] = [
      putWrite(d, decisionAudit(d, 'put')),
      deleteWrite([d.id], [decisionAudit(d, 'delete')]),
      odd,
      { kind: 'audit.prune', throughSeq: 3, checkpoint: auditInput('checkpoint') },
    ];
    const wire = encodeBatch(batch);
    expect(wire).toEqual(batch);
    expect(crossed(batch)).toEqual(batch);
  });
});
