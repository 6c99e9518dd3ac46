import { crc32 } from 'node:zlib';

/**
 * A tiny PNG (16×16, 8-bit RGB, a two-colour checkerboard), built byte by byte.
 *
 * The image data is wrapped in stored (uncompressed) deflate blocks rather than run through zlib, so the bytes are
 * identical on every machine and zlib version: hosts can snapshot them.
 */
export function demoPng(): Uint8Array {
  const size = 16;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter type "none" for each scanline
    for (let x = 0; x < size; x++) {
      const dark = (Math.floor(x / 4) + Math.floor(y / 4)) % 2 === 0;
      rows.push(...(dark ? [0x1f, 0x3a, 0x5f] : [0xf2, 0xb1, 0x34]));
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter method, no interlace
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    pngChunk('IDAT', storedZlib(Uint8Array.from(rows))),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A tiny WAV (0.1 s of a 440 Hz square wave, 8 kHz, 8-bit mono PCM), deterministic to the byte. */
export function demoWav(): Uint8Array {
  const sampleRate = 8000;
  const samples = Uint8Array.from({ length: sampleRate / 10 }, (_, i) =>
    Math.floor((i * 2 * 440) / sampleRate) % 2 === 0 ? 0xc0 : 0x40,
  );
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const ascii = (offset: number, text: string) => header.set(new TextEncoder().encode(text), offset);
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate, true); // byte rate: rate × channels × bytes per sample
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples.length, true);
  return concat([header, samples]);
}

/** 32 bytes (0x00 to 0x1f): the payload of the `demo://files/blob.bin` embedded resource. */
export function demoBlob(): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => i);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeBytes = new TextEncoder().encode(type);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(typeBytes, 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/** A zlib stream made of stored deflate blocks (RFC 1950/1951), for data under 64 KiB. */
function storedZlib(data: Uint8Array): Uint8Array {
  if (data.length > 0xffff) throw new RangeError('storedZlib handles one stored block only');
  const out = new Uint8Array(2 + 5 + data.length + 4);
  const view = new DataView(out.buffer);
  out.set([0x78, 0x01, 0x01], 0); // zlib header (deflate, 32 KiB window), then BFINAL=1 BTYPE=00
  view.setUint16(3, data.length, true);
  view.setUint16(5, ~data.length & 0xffff, true);
  out.set(data, 7);
  view.setUint32(7 + data.length, adler32(data));
  return out;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
