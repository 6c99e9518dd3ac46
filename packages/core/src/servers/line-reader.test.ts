import { describe, expect, it } from 'vitest';
import { LineReader, OVERSIZE_HEAD_BYTES } from './line-reader.js';
import type { OversizeLine } from './line-reader.js';

function reader(maxLineBytes: number) {
  const lines: string[] = [];
  const oversize: OversizeLine[] = [];
  const lineReader = new LineReader({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOversize: (line) => oversize.push(line),
  });
  return { lineReader, lines, oversize };
}

describe('LineReader', () => {
  it('splits lines across chunk boundaries, several per chunk, with CRLF and multi-byte characters cut mid-way', () => {
    const { lineReader, lines } = reader(1_000);
    const bytes = Buffer.from('{"a":1}\n{"b":"é"}\r\n\n{"c":', 'utf8');
    // Cut inside the two-byte é and inside the CRLF.
    for (const [from, to] of [
      [0, 3],
      [3, 15],
      [15, 16],
      [16, bytes.length],
    ] as const) {
      lineReader.push(bytes.subarray(from, to));
    }
    lineReader.push(Buffer.from('3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":"é"}', '', '{"c":3}']);
  });

  it('refuses a line as soon as it passes the cap, before its end arrives, and reads on after its newline', () => {
    const { lineReader, lines, oversize } = reader(100);
    lineReader.push(Buffer.from('{"result":'));
    lineReader.push(Buffer.alloc(60, 'x'));
    expect(oversize).toEqual([]);
    // This chunk takes the line to 130 bytes: refused now, with no newline in sight.
    lineReader.push(Buffer.alloc(60, 'x'));
    expect(oversize).toEqual([{ bytes: 130, head: `{"result":${'x'.repeat(120)}` }]);
    // The rest of the refused line is skipped, however long, up to its newline; the next line is read whole.
    for (let i = 0; i < 50; i++) lineReader.push(Buffer.alloc(1_000, 'y'));
    lineReader.push(Buffer.from('yyy"}\n{"id":2}\n'));
    expect(oversize).toHaveLength(1);
    expect(lines).toEqual(['{"id":2}']);
  });

  it('refuses a line that passes the cap within the chunk that ends it, and keeps the lines around it', () => {
    const { lineReader, lines, oversize } = reader(10);
    lineReader.push(Buffer.from('{"a":1}\n{"long":"0123456789"}\n{"b":2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(oversize).toEqual([{ bytes: 21, head: '{"long":"0123456789"}' }]);
  });

  it('keeps only the head of a refused line, never the line', () => {
    const { lineReader, oversize } = reader(50_000);
    for (let i = 0; i < 10; i++) lineReader.push(Buffer.alloc(8_000, 'z'));
    expect(oversize).toHaveLength(1);
    expect(oversize[0]!.bytes).toBe(56_000);
    expect(oversize[0]!.head).toHaveLength(OVERSIZE_HEAD_BYTES);
  });

  it('accepts a line of exactly the cap', () => {
    const { lineReader, lines, oversize } = reader(5);
    lineReader.push(Buffer.from('12345\n'));
    expect(lines).toEqual(['12345']);
    expect(oversize).toEqual([]);
  });

  it('refuses a cap that is not a positive integer', () => {
    expect(() => reader(0)).toThrow(/maxLineBytes must be a positive integer/);
  });
});
