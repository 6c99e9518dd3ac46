import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO = resolve(here, '../../demo-server/dist/bin.js');
const SECRET = 'sk-live-never-in-a-log';

/** Runs `airlock` in this process with a demo server configured; returns what it wrote. */
async function airlock(args: string[]) {
  const dir = scratchDir('airlock-log-');
  const config = join(dir, 'airlock.config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO] } } }));
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await main(['--config', config, '--store', join(dir, 'airlock.db'), ...args], {
    stdout: sink((t) => (stdout += t)),
    stderr: sink((t) => (stderr += t)),
    stdin: { isTTY: false } as NodeJS.ReadStream,
  });
  const logLines = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, stdout, stderr, logLines };
}

describe('the CLI log', () => {
  it('with --verbose, writes JSON lines with level and msg on stderr, and no argument value', async () => {
    const run = await airlock([
      'call',
      'demo/echo',
      '--args',
      JSON.stringify({ text: SECRET }),
      '--allow',
      '--verbose',
    ]);
    expect(run.code).toBe(0);
    // The card shows the arguments to the person (on stderr) and the result is the command's output; the log never.
    expect(run.stdout).toContain(SECRET);
    expect(JSON.stringify(run.logLines)).not.toContain(SECRET);
    expect(run.logLines.length).toBeGreaterThan(0);
    for (const line of run.logLines) {
      expect(typeof line['level']).toBe('string');
      expect(typeof line['msg']).toBe('string');
    }
    expect(run.logLines).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'server demo is ready', serverId: 'demo' }),
    );
    expect(run.logLines).toContainEqual(
      expect.objectContaining({ level: 'debug', tool: 'demo__echo', outcome: 'success' }),
    );
  });

  it('without --verbose, logs nothing below warn', async () => {
    const run = await airlock(['call', 'demo/echo', '--args', JSON.stringify({ text: SECRET }), '--allow']);
    expect(run.code).toBe(0);
    expect(run.logLines.filter((line) => line['level'] === 'info' || line['level'] === 'debug')).toEqual([]);
  });
});
