import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, namespacedToolName } from './tool-name.js';

describe('namespacedToolName', () => {
  it('joins server and tool with a double underscore when the plain form is safe', () => {
    expect(namespacedToolName('demo', 'echo')).toBe('demo__echo');
  });

  it('gives the same name for the same server and tool every time', () => {
    expect(namespacedToolName('github', 'search.issues')).toBe(namespacedToolName('github', 'search.issues'));
  });

  it('shortens long names to 64 characters and ends them in a hash', () => {
    const name = namespacedToolName('server', 'x'.repeat(200));
    expect(name).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^server__x+_[0-9a-f]{8}$/);
  });

  it('never gives two tools one name when rewriting characters would make them collide', () => {
    const dotted = namespacedToolName('s', 'a.b');
    const underscored = namespacedToolName('s', 'a_b');
    expect(underscored).toBe('s__a_b');
    expect(dotted).not.toBe(underscored);
    expect(dotted).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('keeps two long names apart that share their first 64 characters', () => {
    const prefix = 'p'.repeat(80);
    expect(namespacedToolName('s', `${prefix}1`)).not.toBe(namespacedToolName('s', `${prefix}2`));
  });

  it('keeps the same tool name on two servers apart', () => {
    expect(namespacedToolName('one', 'search')).not.toBe(namespacedToolName('two', 'search'));
  });
});
