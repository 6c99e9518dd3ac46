import { describe, expect, it } from 'vitest';
import { boundPrompt } from './bound-prompt.js';

const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const svg = Buffer.from('<svg onload="alert(1)"/>').toString('base64');

describe('a filled prompt, bounded', () => {
  it('keeps the model text within its budget, head and tail, and says what was cut', () => {
    const long = `start ${'x'.repeat(5000)} end`;
    const bounded = boundPrompt({
      serverId: 's',
      name: 'p',
      result: { messages: [{ role: 'user', content: { type: 'text', text: long } }] },
      limits: { modelChars: 1000, screenChars: 300 },
    });
    expect(bounded.model.text.length).toBeLessThanOrEqual(1000);
    expect(bounded.model.text).toMatch(/^user: start x+/);
    expect(bounded.model.text).toMatch(/x+ end$/);
    expect(bounded.model.text).toContain('Not kept by the host: get prompt "p" of server "s" again.]');
    expect(bounded.model.truncation).toMatchObject({ totalChars: long.length + 'user: '.length });
    expect(bounded.screen[0]).toMatchObject({
      role: 'user',
      content: { kind: 'text', truncated: true, totalChars: long.length },
    });
    expect((bounded.screen[0]!.content as { text: string }).text).toHaveLength(300);
  });

  it('carries a PNG inline, describes an SVG, names a link, and shows an embedded resource as a read', () => {
    const bounded = boundPrompt({
      serverId: 's',
      name: 'p',
      result: {
        messages: [
          { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'image', data: svg, mimeType: 'image/svg+xml' } },
          { role: 'assistant', content: { type: 'resource_link', uri: 's://doc', name: 'doc' } },
          {
            role: 'user',
            content: { type: 'resource', resource: { uri: 's://n', mimeType: 'text/plain', text: 'note' } },
          },
        ],
      },
    });
    expect(bounded.screen.map((m) => m.content)).toEqual([
      { kind: 'media', type: 'image', mimeType: 'image/png', bytes: 8, render: 'inline', data: png },
      { kind: 'media', type: 'image', mimeType: 'image/svg+xml', bytes: 24, render: 'described' },
      { kind: 'link', uri: 's://doc', name: 'doc' },
      {
        kind: 'resource',
        resource: { kind: 'text', uri: 's://n', mimeType: 'text/plain', text: 'note', totalChars: 4, truncated: false },
      },
    ]);
    expect(bounded.model.text).toBe(
      [
        'user: [image image/png, 8 bytes, not shown]',
        'user: [image image/svg+xml, 24 bytes, not shown]',
        'assistant: [resource link s://doc (doc)]',
        'user: [embedded resource s://n]\nnote',
      ].join('\n\n'),
    );
    expect(bounded.model.text).not.toContain('onload');
  });
});
