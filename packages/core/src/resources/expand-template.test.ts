import { describe, expect, it } from 'vitest';
import { expandTemplate } from './expand-template.js';

describe('expandTemplate (RFC 6570, through the SDK expander)', () => {
  it('expands simple, reserved and query variables, encoding what a simple value cannot carry', () => {
    expect(expandTemplate('file:///{name}', { name: 'a b' })).toBe('file:///a%20b');
    expect(expandTemplate('demo://x/{id}', { id: 7 })).toBe('demo://x/7');
    expect(expandTemplate('demo://x/{id}', { id: 'a/b' })).toBe('demo://x/a%2Fb');
    expect(expandTemplate('demo://search{?q,lang}', { q: 'mcp', lang: 'en' })).toBe('demo://search?q=mcp&lang=en');
    expect(expandTemplate('demo://search{?q,lang}', { q: 'mcp' })).toBe('demo://search?q=mcp');
  });

  it('refuses, naming the template and the variable: unknown, missing, not text', () => {
    expect(() => expandTemplate('demo://x/{id}', { id: '1', other: '2' })).toThrow(
      'resource template "demo://x/{id}" has no variable "other" (it has: id)',
    );
    expect(() => expandTemplate('demo://x/{id}/{part}', { id: '1' })).toThrow(
      'resource template "demo://x/{id}/{part}" needs a value for "part"',
    );
    expect(() => expandTemplate('demo://x/{id}', { id: { nested: true } })).toThrow(
      'the value of "id" for resource template "demo://x/{id}" must be text',
    );
    expect(() => expandTemplate('demo://x/{+path}{?v}', { path: 'a?v=2' })).toThrow(
      /the value "a\?v=2" of "path" does not fit resource template/,
    );
  });
});
