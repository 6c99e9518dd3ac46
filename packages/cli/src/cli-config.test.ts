import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '@airlock/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, storePath } from './cli-config.js';

const saved = { XDG_DATA_HOME: process.env['XDG_DATA_HOME'], AIRLOCK_STORE: process.env['AIRLOCK_STORE'] };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('storePath', () => {
  it("defaults to the console's history file, so airlock history shows the console's calls", () => {
    const dataHome = scratchDir('airlock-data-');
    process.env['XDG_DATA_HOME'] = dataHome;
    delete process.env['AIRLOCK_STORE'];
    // apps/console/src/console-config.test.ts expects the same file from loadConsoleConfig.
    expect(storePath(undefined)).toBe(join(dataHome, 'airlock', 'airlock.db'));
    expect(storePath('mine.db')).toBe('mine.db');
  });
});

describe('loadConfig', () => {
  it("says on stderr which keys of another host's format it ignores, and loads the rest", () => {
    const file = join(scratchDir('airlock-config-'), 'mcp.json');
    writeFileSync(file, '{ "servers": { "demo": { "type": "stdio", "command": "node", "gallery": true } } }');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(loadConfig({ config: file }).servers).toMatchObject([{ id: 'demo', command: 'node' }]);
      expect(stderr.mock.calls.map(([text]) => String(text))).toEqual([
        `airlock: warning: ${file}:1:62: servers.demo.gallery is not a key Airlock knows; ignored\n`,
      ]);
    } finally {
      stderr.mockRestore();
    }
  });
});
