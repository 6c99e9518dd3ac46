import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The package as it ships: every subpath in package.json "exports" names built files that exist and export what the
// entry promises. Store tests take the contract from '@airlock/core/testing' (the built entry too); this holds the
// entries themselves, and what the runtime-neutral ones must not load.

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  /** A module entry has its types and code; a data file (the config schema) is exported as a plain path. */
  exports: Record<string, { types: string; import: string } | string>;
};

/** The module entries of package.json: everything but the exported data files. */
const moduleEntries = Object.fromEntries(
  Object.entries(manifest.exports).flatMap(([subpath, entry]) => (typeof entry === 'string' ? [] : [[subpath, entry]])),
) as Record<string, { types: string; import: string }>;

/** Imports a built entry by the path package.json gives it. */
async function built(subpath: string): Promise<Record<string, unknown>> {
  const entry = moduleEntries[subpath];
  if (entry === undefined) throw new Error(`package.json exports no ${subpath}`);
  const file = join(PACKAGE, entry.import);
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

/** Every module a built file loads, transitively (relative imports followed, bare ones listed as they are). */
function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.')) moduleGraph(resolve(dirname(file), specifier), seen);
    else seen.add(specifier);
  }
  return seen;
}

describe('the shipped entries', () => {
  it('point every export of package.json at built files that exist', () => {
    for (const [subpath, entry] of Object.entries(manifest.exports)) {
      if (typeof entry === 'string') {
        expect(existsSync(join(PACKAGE, entry)), `${subpath} file`).toBe(true);
        continue;
      }
      expect(existsSync(join(PACKAGE, entry.import)), `${subpath} import`).toBe(true);
      expect(existsSync(join(PACKAGE, entry.types)), `${subpath} types`).toBe(true);
    }
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './i18n',
      './testing',
      './sqlite',
      './postgres',
      './worker',
      './config-schema.json',
    ]);
  });

  it('ship the store contract suite and the test doubles under ./testing', async () => {
    const testing = await built('./testing');
    for (const name of [
      'describeHostStoreContract',
      'FakeClock',
      'ScriptedSurface',
      'seeded',
      'createWrite',
      'scratchDir',
    ]) {
      expect(typeof testing[name], name).toBe('function');
    }
  });

  it('ship the Node-only stores under ./sqlite, ./postgres and ./worker, and not in the root entry', async () => {
    const [root, sqlite, postgres, worker] = await Promise.all([
      built('.'),
      built('./sqlite'),
      built('./postgres'),
      built('./worker'),
    ]);
    expect(Object.keys(sqlite).sort()).toEqual([
      'NodeSqliteStore',
      'SqliteStore',
      'nodeSqliteDatabase',
      'openSqliteDatabase',
    ]);
    expect(Object.keys(postgres).sort()).toEqual([
      'DB_NOW_MS',
      'HEARTBEAT_MS',
      'InstanceHeartbeat',
      'POSTGRES_SCHEMA_VERSION',
      'PostgresListener',
      'PostgresNews',
      'PostgresStore',
      'RELISTEN_BACKOFF',
      'STALE_MS',
      'applyPostgresMigrations',
      'instanceOption',
    ]);
    // The pool comes from the caller: the entry loads no driver.
    expect([...moduleGraph(join(PACKAGE, moduleEntries['./postgres']!.import))]).not.toContain('pg');
    expect(Object.keys(worker).sort()).toEqual([
      'BACKGROUND_NICENESS',
      'WorkerStore',
      'openSqliteWorkerStore',
      'serveStore',
    ]);
    expect(typeof root['MemoryStore']).toBe('function');
    for (const name of ['SqliteStore', 'PostgresStore', 'WorkerStore', 'serveStore', 'BACKGROUND_NICENESS']) {
      expect(root, name).not.toHaveProperty(name);
    }
  });

  it('keep the root and testing entries free of the Node-only stores', () => {
    for (const subpath of ['.', './testing']) {
      const graph = [...moduleGraph(join(PACKAGE, moduleEntries[subpath]!.import))];
      expect(
        graph.filter((m) => /storage[\\/](sqlite|postgres|worker)[\\/]/.test(m) || m === 'node:worker_threads'),
      ).toEqual([]);
    }
  });
});
