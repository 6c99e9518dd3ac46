import { describe, expect, it } from 'vitest';
import { StdioTransport } from './stdio-transport.js';

describe('StdioTransport', () => {
  it("keeps a server's stderr text whole when a character is split across two chunks", async () => {
    // The child writes the first byte of "é", then the rest once the host has read it (it waits for a line on stdin).
    const script = [
      "const b = Buffer.from('é€\\n');",
      'process.stderr.write(b.subarray(0, 1));',
      "process.stdin.once('data', () => process.stderr.write(b.subarray(1)));",
    ].join('');
    const transport = new StdioTransport({
      command: process.execPath,
      args: ['-e', script],
      env: { ...process.env } as Record<string, string>,
      maxBufferSize: 1_000,
    });
    const stderr = transport.stderr;
    if (stderr === null) throw new Error('stderr is piped by default');
    const chunks: Buffer[] = [];
    const whole = new Promise<void>((resolve) => {
      stderr.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (chunks.length === 1)
          transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }).catch(() => {});
        if (Buffer.concat(chunks).includes('\n')) resolve();
      });
    });
    await transport.start();
    await whole;
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(transport.stderrTail).toBe('é€\n');
    await transport.close();
  });
});
