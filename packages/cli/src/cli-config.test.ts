import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storePath } from './cli-config.js';

const saved = { XDG_DATA_HOME: process.env['XDG_DATA_HOME'], AIRLOCK_STORE: process.env['AIRLOCK_STORE'] };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('storePath', () => {
  it("defaults to the console's history file, so airlock history shows the console's calls", () => {
    const dataHome = mkdtempSync(join(tmpdir(), 'airlock-data-'));
    process.env['XDG_DATA_HOME'] = dataHome;
    delete process.env['AIRLOCK_STORE'];
    // apps/console/src/console-config.test.ts expects the same file from loadConsoleConfig.
    expect(storePath(undefined)).toBe(join(dataHome, 'airlock', 'airlock.db'));
    expect(storePath('mine.db')).toBe('mine.db');
  });
});
