import { describe, expect, it } from 'vitest';
import { SCOPE } from '../testing/demo-fixture.js';
import { KeptReads } from './kept-reads.js';

const read = (uri: string, text: string) => ({ serverId: 's', uri, contents: [{ uri, text }] });

describe('kept reads', () => {
  it('gives back the whole read behind its handle, in its own tenant only', async () => {
    const kept = new KeptReads();
    const handle = (await kept.keep(SCOPE, read('s://a', 'all of a')))!;
    expect(await kept.whole(SCOPE, handle)).toEqual(read('s://a', 'all of a'));
    await expect(kept.whole({ ...SCOPE, workspaceId: 'other' }, handle)).rejects.toMatchObject({ code: 'not_found' });
    await expect(kept.whole(SCOPE, 'airlock:result/x')).rejects.toThrow(/not a read handle: "airlock:result\/x"/);
  });

  it('lets the oldest go past its count or size, and says so when a let-go handle is read', async () => {
    const kept = new KeptReads({ count: 2, chars: 1000 });
    const first = (await kept.keep(SCOPE, read('s://1', 'one')))!;
    const second = (await kept.keep(SCOPE, read('s://2', 'two')))!;
    const third = (await kept.keep(SCOPE, read('s://3', 'three')))!;
    await expect(kept.whole(SCOPE, first)).rejects.toMatchObject({
      code: 'result_expired',
      message: expect.stringContaining('read the resource again'),
    });
    expect((await kept.whole(SCOPE, second)).uri).toBe('s://2');
    await kept.keep(SCOPE, read('s://big', 'x'.repeat(960)));
    await expect(kept.whole(SCOPE, second)).rejects.toMatchObject({ code: 'result_expired' });
    await expect(kept.whole(SCOPE, third)).rejects.toMatchObject({ code: 'result_expired' });
    expect(await kept.keep(SCOPE, read('s://huge', 'x'.repeat(2000)))).toBeUndefined();
  });
});
