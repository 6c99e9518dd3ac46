import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { boundResult, resultHandle } from './bound-result.js';

const handle = resultHandle('00000000-0000-4000-8000-000000000000');
const source = { tool: 'Read media file', serverId: 'files' };
const model = (result: CallToolResult) => boundResult({ result, source, handle }).model;

/** The longest run of base64 characters in a text: what a model would spend on data it cannot see. */
const longestBase64Run = (text: string) =>
  Math.max(0, ...(text.match(/[A-Za-z0-9+/=]{200,}/g) ?? []).map((r) => r.length));

const IMAGE_BYTES = 150 * 1024;
const image = randomBytes(IMAGE_BYTES).toString('base64');

describe('structuredContent for the model', () => {
  it('summarises an image in structured content like an image block: 150 KB no longer fills the budget', () => {
    // The shape server-filesystem's read_media_file answers with: the image block, and the same in structuredContent.
    const result: CallToolResult = {
      content: [{ type: 'image', data: image, mimeType: 'image/png' }],
      structuredContent: { content: [{ type: 'image', data: image, mimeType: 'image/png' }] },
    };
    const { text, truncation } = model(result);
    expect(truncation).toBeUndefined();
    expect(text.length).toBeLessThan(600);
    expect(longestBase64Run(text)).toBe(0);
    expect(text).toContain(`[image: image/png, ${IMAGE_BYTES} bytes, not shown]`);
    expect(text).toContain(
      `"data":"[image/png, ${IMAGE_BYTES} bytes of base64, not shown; read it whole through ${handle}]"`,
    );
    expect(text).toContain('"type":"image"');
  });

  it('summarises data and blob fields beside a mimeType, long base64 strings and base64 data URLs, wherever they are', () => {
    const blob = randomBytes(3000).toString('base64');
    const result: CallToolResult = {
      content: [{ type: 'text', text: 'three files' }],
      structuredContent: {
        files: [
          { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob },
          { name: 'b.png', base64: image },
          { name: 'c.png', url: `data:image/png;base64,${image}` },
          { name: 'tiny', mimeType: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' },
        ],
      },
    };
    const { text } = model(result);
    expect(longestBase64Run(text)).toBe(0);
    expect(text).toContain(
      `"blob":"[application/octet-stream, 3000 bytes of base64, not shown; read it whole through ${handle}]"`,
    );
    expect(text).toContain(`"base64":"[${IMAGE_BYTES} bytes of base64, not shown; read it whole through ${handle}]"`);
    expect(text).toContain(
      `"url":"[image/png data URL, ${IMAGE_BYTES} bytes of base64, not shown; read it whole through ${handle}]"`,
    );
    expect(text).toContain('"data":"[image/gif, 14 bytes of base64, not shown;');
    expect(text).toContain('"uri":"file:///a.bin"');
  });

  it('leaves ordinary values alone: short strings, long prose, numbers, a mimeType without data', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(100);
    const structured = {
      id: 'QUJDRA==',
      hash: 'a'.repeat(64),
      prose,
      count: 3,
      attachment: { mimeType: 'text/plain', size: 12 },
      nested: [[{ data: 'not with a mimeType' }]],
    };
    const { text } = model({ content: [], structuredContent: structured });
    expect(text).toContain(`[structuredContent]\n${JSON.stringify(structured)}`);
  });

  it('does not give structured content twice when a text block repeats it as JSON, pretty or not', () => {
    const structured = { temperature: 21.5, unit: 'C', station: 'Lisboa' };
    for (const repeated of [
      JSON.stringify(structured),
      JSON.stringify(structured, null, 2),
      JSON.stringify({ station: 'Lisboa', unit: 'C', temperature: 21.5 }),
    ]) {
      const { text } = model({ content: [{ type: 'text', text: repeated }], structuredContent: structured });
      expect(text.match(/Lisboa/g), repeated).toHaveLength(1);
      expect(text).toContain(
        `[structuredContent, also sent as text block 1; given once]\n${JSON.stringify(structured)}`,
      );
    }
  });

  it('gives a text block and structured content that differ both, and never drops a block meant for the model', () => {
    const structured = { temperature: 21.5 };
    const { text } = model({
      content: [
        { type: 'text', text: 'It is 21.5 degrees.' },
        { type: 'text', text: '{"temperature": 22}' },
      ],
      structuredContent: structured,
    });
    expect(text).toContain('It is 21.5 degrees.');
    expect(text).toContain('{"temperature": 22}');
    expect(text).toContain('[structuredContent]\n{"temperature":21.5}');
  });

  it('keeps the whole structured content on the screen and in the raw result', () => {
    const structured = { content: [{ type: 'image', data: image, mimeType: 'image/png' }] };
    const bounded = boundResult({ result: { content: [], structuredContent: structured }, source, handle });
    expect(bounded.screen.structuredContent).toBe(structured);
    expect(bounded.rawJson).toContain(image);
  });
});
