import { describe, expect, it } from 'vitest';
import type { ScreenPayload } from '@airlock/core';
import { argRows } from './arg-rows.js';
import { blockCopyText, resultCopyText } from './copy-text.js';
import { audioDataUrl, formatBytes, imageDataUrl, isLargeImage, safeIconSrc } from './media-policy.js';
import { ARGS_TEXT_BOUNDS, collapseText, RESULT_TEXT_BOUNDS } from './text-head.js';
import { textKind } from './text-kind.js';

const lines = (count: number, width = 10): string =>
  Array.from({ length: count }, (_, i) => `${i}`.padEnd(width, '.')).join('\n');

describe('collapseText', () => {
  it('leaves a text of at most 2,000 characters and 30 lines whole', () => {
    expect(collapseText(lines(30, 5), RESULT_TEXT_BOUNDS)).toBeUndefined();
    expect(collapseText(`${lines(30, 5)}\n`, RESULT_TEXT_BOUNDS)).toBeUndefined();
    expect(collapseText('x'.repeat(2_000), RESULT_TEXT_BOUNDS)).toBeUndefined();
  });

  it('collapses past 30 lines even when short, and past 2,000 characters even on one line, holding the whole text', () => {
    expect(collapseText(lines(31, 2), RESULT_TEXT_BOUNDS)).toEqual({ held: lines(31, 2) });
    expect(collapseText('y'.repeat(2_001), RESULT_TEXT_BOUNDS)).toEqual({ held: 'y'.repeat(2_001) });
  });

  it('holds at most the DOM budget of a 5 MB text, cut at a line end when one is near', () => {
    expect(collapseText('y'.repeat(5_000_000), RESULT_TEXT_BOUNDS)?.held).toHaveLength(50_000);
    const text = lines(1_000_000, 9);
    const held = collapseText(text, RESULT_TEXT_BOUNDS)?.held ?? '';
    expect(held.length).toBeLessThanOrEqual(50_000);
    expect(text.startsWith(`${held}\n`)).toBe(true);
  });

  it('collapses arguments past 100 lines, and leaves 100 lines whole', () => {
    expect(collapseText(lines(100), ARGS_TEXT_BOUNDS)).toBeUndefined();
    expect(collapseText(`${lines(100)}\n`, ARGS_TEXT_BOUNDS)).toBeUndefined();
    expect(collapseText(lines(101), ARGS_TEXT_BOUNDS)).toEqual({ held: lines(101) });
  });
});

describe('textKind', () => {
  it('renders markdown only where the text is markdown', () => {
    expect(textKind('# Title\n\nSome **bold** words')).toBe('markdown');
    expect(textKind('- one\n- two')).toBe('markdown');
    expect(textKind('see [the docs](https://example.com)')).toBe('markdown');
    expect(textKind('```js\nlet a = 1;\n```')).toBe('markdown');
  });

  it('keeps plain text plain, and columnar or numbered output monospace', () => {
    expect(textKind('line 1\nline 2\nline 3')).toBe('plain');
    expect(textKind('Hello, Ana.')).toBe('plain');
    expect(textKind('NAME     SIZE\nfile.txt  12')).toBe('monospace');
    expect(textKind('  1: first\n  2: second')).toBe('monospace');
    expect(textKind('a\tb\nc\td')).toBe('monospace');
  });

  it('lets a declared mime type decide', () => {
    expect(textKind('plain words', 'text/markdown')).toBe('markdown');
    expect(textKind('# not a heading', 'text/plain')).toBe('plain');
    expect(textKind('<h1>x</h1>', 'text/html')).toBe('plain');
  });
});

describe('media policy', () => {
  it('loads icons only from data:image/ and https URLs', () => {
    expect(safeIconSrc('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
    expect(safeIconSrc('https://cdn.example/icon.png')).toBe('https://cdn.example/icon.png');
    for (const src of ['http://cdn.example/i.png', 'javascript:alert(1)', ' https://x', '//cdn.example/i.png', 'i.png'])
      expect(safeIconSrc(src)).toBeUndefined();
    expect(safeIconSrc(42)).toBeUndefined();
  });

  it('makes data: URLs only for raster image types and audio, with well-formed base64', () => {
    expect(imageDataUrl('image/PNG', 'AAAA')).toBe('data:image/png;base64,AAAA');
    expect(imageDataUrl('image/svg+xml', 'AAAA')).toBeUndefined();
    expect(imageDataUrl('image/png', 'AA"AA')).toBeUndefined();
    expect(imageDataUrl('image/png', undefined)).toBeUndefined();
    expect(audioDataUrl('audio/wav', 'AAAA')).toBe('data:audio/wav;base64,AAAA');
    expect(audioDataUrl('video/mp4', 'AAAA')).toBeUndefined();
    expect(audioDataUrl('audio/wav;x=<b>', 'AAAA')).toBeUndefined();
  });

  it('treats images above 500 KB as large and formats sizes for people', () => {
    expect(isLargeImage(500 * 1024)).toBe(false);
    expect(isLargeImage(500 * 1024 + 1)).toBe(true);
    expect(formatBytes(820, 'en-US')).toBe('820 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024, 'pt-BR')).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'pt-BR')).toBe('1,5 MB');
  });
});

describe('copy text', () => {
  const result: ScreenPayload = {
    blocks: [
      { type: 'text', text: 'one', totalChars: 3, truncated: false },
      { type: 'image', mimeType: 'image/png', bytes: 3, data: 'AAAA' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
    ],
    structuredContent: { n: 1 },
    isError: false,
    handle: 'h',
  };

  it('copies the host full text when given, else every block text and the structured content', () => {
    expect(resultCopyText(result, 'FULL')).toBe('FULL');
    expect(resultCopyText(result, undefined)).toBe('one\n\nfile:///a.txt\n\n{\n  "n": 1\n}');
    expect(blockCopyText({ type: 'audio', mimeType: 'audio/wav', bytes: 1 })).toBeUndefined();
  });
});

describe('argRows', () => {
  it('lists schema properties in order with titles, descriptions and required marks, then unnamed arguments', () => {
    const schema = {
      type: 'object',
      properties: { query: { type: 'string', title: 'Query', description: 'What to look for' }, limit: {} },
      required: ['query', 7],
    };
    expect(argRows({ limit: 3, extra: true }, schema)).toEqual([
      {
        name: 'query',
        label: 'Query',
        description: 'What to look for',
        required: true,
        value: undefined,
        present: false,
        schema: { type: 'string', title: 'Query', description: 'What to look for' },
      },
      { name: 'limit', label: 'limit', description: undefined, required: false, value: 3, present: true, schema: {} },
      {
        name: 'extra',
        label: 'extra',
        description: undefined,
        required: false,
        value: true,
        present: true,
        schema: {},
      },
    ]);
  });

  it('treats argument names such as constructor and __proto__ as ordinary rows', () => {
    const args = JSON.parse('{"constructor": 1, "__proto__": 2}') as Record<string, unknown>;
    expect(argRows(args, { properties: {} }).map((row) => [row.name, row.value])).toEqual([
      ['constructor', 1],
      ['__proto__', 2],
    ]);
  });
});
