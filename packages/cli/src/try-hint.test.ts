import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli/run-cli.js';
import { exampleArgs } from './example-args.js';

const here = dirname(fileURLToPath(import.meta.url));
const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory with server-everything as the only server, and its own store. */
function workspace(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'airlock-try-'));
  dirs.push(dir);
  const config = join(dir, 'airlock.config.json');
  const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
  writeFileSync(config, JSON.stringify({ mcpServers: { everything } }));
  return ['--config', config, '--store', join(dir, 'airlock.db')];
}

describe('exampleArgs', () => {
  it('gives every required property a value of its type, and leaves optional ones out', () => {
    const schema = {
      type: 'object',
      properties: {
        message: { type: 'string' },
        count: { type: 'integer', minimum: 3 },
        loud: { type: 'boolean' },
        mode: { type: 'string', enum: ['fast', 'slow'] },
        note: { type: 'string' },
      },
      required: ['message', 'count', 'loud', 'mode'],
    };
    expect(exampleArgs(schema)).toEqual({ message: 'hello', count: 3, loud: true, mode: 'fast' });
  });

  it('gives no arguments to a tool that requires none', () => {
    expect(exampleArgs({ type: 'object', properties: { text: { type: 'string' } } })).toEqual({});
  });
});

describe('the "try:" hint', () => {
  it("suggests arguments server-everything's echo accepts, and the suggested call succeeds", async () => {
    const ws = workspace();
    const overview = await runCli(ws);
    const hint = /try: airlock call (\S+) --args '([^']*)'/.exec(overview.stdout);
    expect(hint?.[1]).toBe('everything/echo');
    expect(JSON.parse(hint?.[2] ?? '')).toEqual({ message: 'hello' });
    const called = await runCli(['call', hint?.[1] ?? '', '--args', hint?.[2] ?? '', '--allow', ...ws]);
    expect(called.code).toBe(0);
    expect(called.stdout).toContain('Echo: hello');
  });
});
