import { describe, expect, it } from 'vitest';
import { serverSlug } from './server-slug.js';

describe('serverSlug', () => {
  it('keeps a name that is already a plain id, capitals included, so existing ids do not change', () => {
    for (const id of ['demo', 'files-2', 'My_Server', 'a'.repeat(32)]) expect(serverSlug(id)).toBe(id);
  });

  it('makes any other name a lowercase id of letters, digits and "_"', () => {
    expect(serverSlug('Brave Search')).toBe('brave_search');
    expect(serverSlug('io.github.acme/files')).toBe('io_github_acme_files');
    expect(serverSlug('  GitHub (work)  ')).toBe('github_work');
  });

  it('shortens a long name with a hash of the whole name, so two long names stay apart', () => {
    const a = serverSlug('io.github.some-organisation/a-very-long-server-name-one');
    const b = serverSlug('io.github.some-organisation/a-very-long-server-name-two');
    expect(a).toMatch(/^[a-z0-9_]{1,32}$/);
    expect(a).not.toBe(b);
    expect(serverSlug('***')).toMatch(/^server_[0-9a-f]{8}$/);
  });
});
