import { describe, expect, it } from 'vitest';
import { describeRefusal, makeRefusal, previewOf, refusalOf } from './stream-fault.js';

describe('previewOf', () => {
  it('quotes short text as it is', () => {
    expect(previewOf('Server listening on stdio')).toBe('"Server listening on stdio"');
  });

  it('escapes control characters, separators and bidirectional overrides, so a card shows them as text', () => {
    expect(previewOf('\u001b[31mred\u001b[0m\ttab\r\n\u0000 \u2028 \u202eevil "q" \\')).toBe(
      '"\\u001b[31mred\\u001b[0m\\ttab\\r\\n\\u0000 \\u2028 \\u202eevil \\"q\\" \\\\"',
    );
  });

  it('cuts long text at 200 characters and says how long it was', () => {
    const preview = previewOf('a'.repeat(5_000));
    expect(preview).toBe(`"${'a'.repeat(200)}…" (5000 characters)`);
  });
});

describe('refusals', () => {
  it('recognises only refusals it made, not the same shape from a server', () => {
    const made = makeRefusal({ method: 'tools/call', bytes: 16_842_752, cap: 16_777_216, matched: 'by_id' });
    expect(refusalOf({ data: made })).toBe(made);
    expect(refusalOf({ data: { ...made } })).toBeUndefined();
    expect(refusalOf(new Error('x'))).toBeUndefined();
  });

  it('names the request, the size read and the cap, and says when every call in flight was failed', () => {
    expect(describeRefusal({ method: 'tools/list', bytes: 2_000_000, cap: 1_000_000, matched: 'only_request' })).toBe(
      'the reply to tools/list passed the 1000000-byte message cap (limits.maxMessageBytes) at 2000000 bytes and was refused while it streamed',
    );
    expect(describeRefusal({ method: undefined, bytes: 5, cap: 4, matched: 'all_in_flight' })).toMatch(
      /^a message passed .* every call in flight was failed$/,
    );
  });
});
