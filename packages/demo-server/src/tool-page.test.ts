import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { toolPage } from './tool-page.js';

describe('toolPage', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('walks the list in pages and stops without a cursor on the last one', () => {
    const first = toolPage({ items, pageSize: 2 });
    const second = toolPage({ items, pageSize: 2, cursor: first.nextCursor });
    const third = toolPage({ items, pageSize: 2, cursor: second.nextCursor });
    expect([first.items, second.items, third.items]).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(third.nextCursor).toBeUndefined();
  });

  it('returns everything on one page without a page size', () => {
    expect(toolPage({ items })).toEqual({ items });
  });

  it('refuses a cursor it did not mint with -32602', () => {
    expect(() => toolPage({ items, pageSize: 2, cursor: 'bogus' })).toThrow(expect.objectContaining({ code: -32602 }));
    const beyond = Buffer.from('offset:99').toString('base64url');
    expect(() => toolPage({ items, pageSize: 2, cursor: beyond })).toThrow(expect.objectContaining({ code: -32602 }));
  });
});
