import { Buffer } from 'node:buffer';
import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { demoPng, demoWav } from './demo-media.js';

/** Splits a PNG into its chunks, checking each CRC. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
    chunks.push({ type: typeAndData.toString('latin1', 0, 4), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  return chunks;
}

describe('the demo media', () => {
  it('builds a valid 16×16 RGB PNG whose image data inflates to every scanline', () => {
    const chunks = pngChunks(Buffer.from(demoPng()));
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const header = chunks[0]!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([16, 16, 8, 2]);
    expect(inflateSync(chunks[1]!.data)).toHaveLength(16 * (1 + 16 * 3));
  });

  it('builds a valid 8 kHz mono 8-bit PCM WAV of 0.1 s', () => {
    const wav = Buffer.from(demoWav());
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('latin1', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 8000, 8,
    ]);
    expect(wav.readUInt32LE(40)).toBe(800);
    expect(wav).toHaveLength(44 + 800);
  });

  it('is the same bytes every time', () => {
    expect(demoPng()).toEqual(demoPng());
    expect(demoWav()).toEqual(demoWav());
  });
});
