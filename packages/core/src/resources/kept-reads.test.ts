import { describe, expect, it } from 'vitest';
import { SCOPE } from '../testing/demo-fixture.js';
import { KeptReads } from './kept-reads.js';

const read = (uri: string, text: string) => ({ serverId: 's', uri, contents: [{ uri, text }] });

describe('kept reads', () => {
  it('gives back the whole read behind its handle, in its own tenant only', () => {
    const kept = new KeptReads();
    const handle = kept.keep(SCOPE, read('s://a', 'all of a'))!;
    expect(kept.whole(SCOPE, handle)).toEqual(read('s://a', 'all of a'));
    expect(() => kept.whole({ ...SCOPE, workspaceId: 'other' }, handle)).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
    expect(() => kept.whole(SCOPE, 'airlock:result/x')).toThrow(/not a read handle: "airlock:result\/x"/);
  });

  it('lets the oldest go past its count or size, and says so when a let-go handle is read', () => {
    const kept = new KeptReads({ count: 2, chars: 1000 });
    const first = kept.keep(SCOPE, read('s://1', 'one'))!;
    const second = kept.keep(SCOPE, read('s://2', 'two'))!;
    const third = kept.keep(SCOPE, read('s://3', 'three'))!;
    expect(() => kept.whole(SCOPE, first)).toThrow(
      expect.objectContaining({ code: 'result_expired', message: expect.stringContaining('read the resource again') }),
    );
    expect(kept.whole(SCOPE, second).uri).toBe('s://2');
    kept.keep(SCOPE, read('s://big', 'x'.repeat(960)));
    expect(() => kept.whole(SCOPE, second)).toThrow(expect.objectContaining({ code: 'result_expired' }));
    expect(() => kept.whole(SCOPE, third)).toThrow(expect.objectContaining({ code: 'result_expired' }));
    expect(kept.keep(SCOPE, read('s://huge', 'x'.repeat(2000)))).toBeUndefined();
  });
});
