import { describe, expect, it } from 'vitest';
import type { StoreWrite } from '../../store/host-store.js';
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
import { serialize } from 'node:v8';
import type { ResultRecord } from '../../store/invocation-record.js';
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

  it("sends a whole result's framed text once, and gives back every copy of it and every other field", () => {
    const record = invocation();
    const full = '[untrusted data: result of tool "echo"]\n\n' + 'Echo ✓ 𝄞 '.repeat(20);
    const { truncation: _cut, ...model } = resultFor(record.id, full).model;
    const whole: ResultRecord = {
      ...resultFor(record.id, full),
      model: { ...model, content: [{ type: 'text', text: full }], text: full },
    };
    const write = (result: ResultRecord) => transitionWrite(move(record, 3, 'running', 'success'), { result });
    const batch = [write(whole)];
    const received = crossed(batch);
    expect(received).toEqual(batch);
    const got = received[0] as { result: ResultRecord };
    expect(Object.keys(got.result).sort()).toEqual(Object.keys(whole).sort());
    expect(Object.keys(got.result.model).sort()).toEqual(Object.keys(whole.model).sort());
    // The text crosses once: what is sent is smaller than the result by two copies of it, at the least.
    expect(serialize(encodeBatch(batch)).length).toBeLessThan(serialize(batch).length - 2 * full.length);
  });

  it('gives back a result whose model text differs from its full text, and one with fields it does not name', () => {
    const record = invocation();
    const write = (result: ResultRecord) => transitionWrite(move(record, 3, 'running', 'success'), { result });
    const base = resultFor(record.id);
    const batch = [
      write(base),
      write({ ...base, model: { ...base.model, content: [{ type: 'text', text: base.fullText }] } }),
      write({ ...base, model: { ...base.model, content: [] } }),
      write({ ...base, extra: 1 } as ResultRecord),
      write({ ...base, model: { ...base.model, extra: [1] } } as unknown as ResultRecord),
      write({ ...base, expiredAt: 7, fullText: '', rawJson: '' }),
    ];
    const received = crossed(batch);
    expect(received).toEqual(batch);
    expect(received.map((w) => JSON.stringify(w))).toEqual(batch.map((w) => JSON.stringify(w)));
  });
});
