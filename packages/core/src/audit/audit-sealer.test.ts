import { describe, expect, it } from 'vitest';
import type { AuditEventInput } from '../store/audit-record.js';
import { auditEventOf, sealAuditInput, verifyChain } from './audit-chain.js';
import { AuditSealer } from './audit-sealer.js';
import { canonicalJson } from './canonical-json.js';
import { seeded } from '../testing/seeded.js';

describe('an audit sealer', () => {
  it('gives every event of a mixed run the hash sealAuditInput gives it', () => {
    // Runs of events that share some fields and change others, as a batch's calls do, with text that needs escaping.
    const { pick } = seeded(38);
    const texts = ['ana', 'bo', 'w1', 'w2', null, 'a "quoted" \\ name', 'é€😀', '\u2028 line', ''];
    const sealer = new AuditSealer();
    let prev: ReturnType<typeof sealAuditInput> | undefined;
    for (let n = 0; n < 400; n++) {
      const input: AuditEventInput = {
        type: pick(['invocation.transition', 'permission.decision'] as const),
        at: pick([1_000 + n, 1e21, 0.5]),
        userId: pick(['ana', 'bo', 'é']),
        workspaceId: pick(['w1', 'w2']),
        conversationId: pick(texts),
        serverId: pick(texts),
        tool: pick(texts),
        argsHash: pick([null, 'a'.repeat(64), 'b'.repeat(64)]),
        riskTier: pick([null, 'low', 'medium', 'high']),
        invocationId: pick([null, 'call-1', 'call-2']),
        data: { n, note: pick(texts) },
      };
      const dataJson = canonicalJson(input.data);
      const sealed = sealer.seal(input, prev, dataJson);
      expect(sealed).toEqual(sealAuditInput(input, prev, dataJson));
      prev = sealed;
    }
  });

  it('seals a chain that verifies, and takes the general path for a field that is not plain text', () => {
    const sealer = new AuditSealer();
    const base: AuditEventInput = {
      type: 'permission.decision',
      at: 1_000,
      userId: 'ana',
      workspaceId: 'w1',
      conversationId: 'c1',
      serverId: 'demo',
      tool: 'demo__echo',
      argsHash: null,
      riskTier: 'low',
      invocationId: null,
      data: { decision: 'allow_once' },
    };
    const data = '{"decision":"allow_once"}';
    const odd = { ...base, tool: 7 } as unknown as AuditEventInput;
    const first = sealer.seal(base, undefined, data);
    const second = sealer.seal({ ...base, at: 1_001, conversationId: 'c2' }, first, data);
    const third = sealer.seal({ ...base, at: 1_002 }, second, data);
    expect(verifyChain([first, second, third].map(auditEventOf))).toEqual({
      ok: true,
      count: 3,
      lastSeq: 3,
      lastHash: third.hash,
    });
    expect(sealer.seal(odd, third, data)).toEqual(sealAuditInput(odd, third, data));
  });
});
