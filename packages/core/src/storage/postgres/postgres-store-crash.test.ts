// Two instances writing to one PostgreSQL database, one killed with SIGKILL while it writes: the other goes on, the
// killed one's open transaction is rolled back by the server (and with it the chain lock), nothing either had been
// told was committed is lost, nothing is half-written, and the one audit chain verifies. The writers are child
// processes running the BUILT store (packages/core/dist), as an application would: run "npx tsc -b" first.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../audit/audit-chain.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { SCOPE, auditInput, auditWrites } from '../../testing/host-store-fixtures.js';
import { PostgresStore } from './postgres-store.js';

const BUILT_STORE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist/storage/postgres/index.js');
const DRIVER = createRequire(import.meta.url).resolve('pg');

/** A writer instance: one call per batch (created, running, ended with its result, two audit events), forever. */
const WRITER = `
import { pathToFileURL } from 'node:url';
const [storeFile, driverFile, url, name] = process.argv.slice(2);
const { PostgresStore } = await import(pathToFileURL(storeFile).href);
const pg = (await import(pathToFileURL(driverFile).href)).default;
const pool = new pg.Pool({ connectionString: url, max: 2 });
const store = await PostgresStore.open({ pool });
const scope = ${JSON.stringify(SCOPE)};
const event = (label, id) => ({
  type: 'invocation.transition', at: Date.now(), userId: scope.userId, workspaceId: scope.workspaceId,
  conversationId: scope.conversationId, serverId: 'demo', tool: 'echo', argsHash: null, riskTier: 'low',
  invocationId: id, data: { label },
});
const move = (id, seq, from, to, outcome = null) => ({ invocationId: id, seq, from, to, at: Date.now(), outcome, error: null });
for (let i = 0; ; i++) {
  const id = name + '-' + i;
  const at = Date.now();
  const record = {
    id, scope, caller: { kind: 'model' }, tool: 'demo__echo', serverId: 'demo', originalName: 'echo',
    definitionHash: 'def', args: { text: 'x'.repeat(2000) }, argsHash: 'args', state: 'pending', outcome: null,
    error: null, createdAt: at, updatedAt: at,
  };
  const text = id + ' ' + 'y'.repeat(20000);
  await store.write([
    { kind: 'create', record, first: move(id, 1, null, 'pending'), audit: event(id + ' pending', id) },
    { kind: 'transition', scope, transition: move(id, 2, 'pending', 'running') },
    {
      kind: 'transition', scope, transition: move(id, 3, 'running', 'success', 'success'),
      result: { invocationId: id, model: { content: [], text, isError: false }, screen: { blocks: [], isError: false },
        fullText: text, rawJson: '{}' },
      audit: event(id + ' success', id),
    },
  ]);
  process.stdout.write('acked ' + id + '\\n');
}
`;

let server: PostgresServer;
let dir: string;
beforeAll(async () => {
  server = await startPostgres();
  dir = await mkdtemp(join(tmpdir(), 'airlock-pg-crash-'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** A running writer: the ids it was told are committed, and how to wait for more or for its end. */
function startWriter(script: string, url: string, name: string) {
  const child = spawn(process.execPath, [script, BUILT_STORE, DRIVER, url, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const acked: string[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('acked ')) acked.push(line.slice('acked '.length));
    for (const w of waiting.filter((w) => acked.length >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  });
  const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
  return {
    acked,
    ended,
    stderr: () => stderr,
    kill: () => child.kill('SIGKILL'),
    /** Resolves once `count` writes in all are acknowledged; rejects if the writer ends first. */
    until: (count: number) =>
      Promise.race([
        new Promise<void>((resolve) => (acked.length >= count ? resolve() : waiting.push({ count, resolve }))),
        ended.then(() => {
          throw new Error(`writer ${name} ended after ${acked.length} writes: ${stderr}`);
        }),
      ]),
  };
}

describe('PostgresStore with an instance killed mid-write', () => {
  it('keeps every acknowledged write of both instances whole, and the survivor goes on; the chain verifies', async () => {
    if (!existsSync(BUILT_STORE)) throw new Error(`${BUILT_STORE} is missing: run "npx tsc -b packages/core" first`);
    const script = join(dir, 'writer.mjs');
    await writeFile(script, WRITER, 'utf8');
    const url = await server.createDatabase();
    const [a, b] = [startWriter(script, url, 'a'), startWriter(script, url, 'b')];
    await Promise.all([a.until(30), b.until(30)]);
    a.kill();
    expect(await a.ended, a.stderr()).toBe('SIGKILL');
    // The survivor keeps committing after the kill: the killed instance's transaction and chain lock are gone.
    await b.until(b.acked.length + 30);
    b.kill();
    await b.ended;

    const check = new pg.Pool({ connectionString: url, max: 1 });
    check.on('error', () => undefined);
    const store = await PostgresStore.open({ pool: check });
    const ids = (
      await check.query<{ id: string }>(
        'SELECT id FROM invocations i WHERE state = $1 AND ' +
          '(SELECT COUNT(*) FROM invocation_transitions t WHERE t.invocation_id = i.id) = 3 AND ' +
          'EXISTS (SELECT 1 FROM invocation_results r WHERE r.invocation_id = i.id)',
        ['success'],
      )
    ).rows.map((r) => r.id);
    const { rows } = await check.query<{ n: string }>('SELECT COUNT(*) AS n FROM invocations');
    // Every stored call is whole (no call without its transitions and result), and every acknowledged one is there;
    // at most one per writer was committed but not yet acknowledged when it was killed.
    expect(Number(rows[0]?.n)).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([...a.acked, ...b.acked]));
    expect(ids.length - a.acked.length - b.acked.length).toBeLessThanOrEqual(2);

    const chain = await store.queryAudit({ limit: 10_000 });
    expect(chain).toHaveLength(2 * ids.length);
    expect(verifyChain(chain)).toMatchObject({ ok: true, count: 2 * ids.length });
    await store.write(auditWrites([auditInput('after the crash')]));
    const [last] = await store.queryAudit({ afterSeq: chain.length });
    expect(last).toMatchObject({ seq: chain.length + 1, prevHash: chain.at(-1)?.hash });
    await store.close();
  }, 120_000);
});
