import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostError } from '../../errors/host-error.js';
import { openSqliteDatabase } from './open-sqlite-database.js';
import { SqliteStore } from './sqlite-store.js';
import type { SqliteStoreConfig } from './sqlite-store-config.js';
import { SCOPE, createWrite, invocation } from '../../testing/host-store-fixtures.js';

function hasNodeSqlite(): boolean {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return true;
  } catch {
    return false;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-open-sqlite-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SqliteStore opened by path', () => {
  it('opens the file with a driver this Node has and keeps what it stores across a reopen', async () => {
    const file = join(dir, 'airlock.db');
    const first = new SqliteStore({ path: file });
    await first.write([createWrite(invocation({ id: 'inv-1' }))]);
    await first.close();
    const again = new SqliteStore({ path: file });
    expect((await again.getInvocation(SCOPE, 'inv-1'))?.id).toBe('inv-1');
    await again.close();
  });

  it('uses node:sqlite where Node has it and better-sqlite3 elsewhere', () => {
    const opened = openSqliteDatabase(join(dir, 'which.db'));
    opened.database.close();
    expect(opened.driver).toBe(hasNodeSqlite() ? 'node:sqlite' : 'better-sqlite3');
  });

  it('refuses a config with neither a path nor a database, naming both', () => {
    const opening = (): SqliteStore => new SqliteStore({} as SqliteStoreConfig);
    expect(opening).toThrow(HostError);
    expect(opening).toThrow('SqliteStore needs a path (the database file to open) or a database');
  });

  it('says what to install when neither node:sqlite nor better-sqlite3 loads', async () => {
    // A Node 20 process in which better-sqlite3 cannot be found, as in an install that skipped the optional native
    // module: the store must say what to do, not fail on an undefined driver.
    const hide = join(dir, 'hide-better-sqlite3.cjs');
    await writeFile(
      hide,
      `const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3' || request === 'node:sqlite') throw new Error('Cannot find module ' + request);
  return resolveFilename.call(this, request, ...rest);
};`,
    );
    const script = `import { SqliteStore } from '@airlock/core/sqlite';
try { new SqliteStore({ path: ${JSON.stringify(join(dir, 'x.db'))} }); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
    const stdout = await new Promise<string>((done, fail) => {
      execFile(
        process.execPath,
        ['--require', hide, '--input-type=module', '-e', script],
        { cwd: ROOT },
        (error, out, stderr) => (error === null ? done(out) : fail(new Error(stderr))),
      );
    });
    const reported = JSON.parse(stdout) as { code: string; message: string };
    expect(reported.code).toBe('store_error');
    expect(reported.message).toMatch(
      /run on Node >= 22\.13 .* or install better-sqlite3 \(npm install better-sqlite3\)/,
    );
  });
});
