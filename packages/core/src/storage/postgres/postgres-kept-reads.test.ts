// Resource reads kept whole in PostgreSQL (migration 11), against a real server (test/support/postgres): a handle one
// host gave opens on another host on the same database, in its own tenant only, until the results' retention drops it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../host/create-host.js';
import type { Host } from '../../host/host.js';
import type { Surface } from '../../host/surface.js';
import { DAY_MS } from '../../retention/retention-config.js';
import { SCOPE, scriptServer } from '../../testing/demo-fixture.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { startPostgres } from '../../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../../test/support/postgres/postgres-server.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
const hosts: Host[] = [];
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await server?.stop();
});

/** A stdio server with one text resource per URI: `notes://<n>` is a title and n thousand lines (non-ASCII too). */
const NOTES = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return reply({ protocolVersion: m.params.protocolVersion, capabilities: { resources: {}, tools: {} }, serverInfo: { name: 'notes', version: '1' } });
  if (m.method === 'tools/list') return reply({ tools: [] });
  if (m.method === 'resources/read') {
    const n = Number(m.params.uri.slice('notes://'.length));
    return reply({ contents: [{ uri: m.params.uri, mimeType: 'text/plain', text: 'line ' + n + ' é\\n'.repeat(n * 1000) }] });
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

const allow: Surface = { askPermission: () => Promise.resolve('allow_once') };

async function twoHosts(clock: FakeClock) {
  const url = await server.createDatabase();
  const open = async (withClock?: FakeClock) => {
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    pool.on('error', () => undefined);
    const host = createHost({
      servers: [scriptServer('notes', NOTES)],
      store: await PostgresStore.open({ pool }),
      surface: allow,
      retention: { results: 1, schedule: false },
      ...(withClock === undefined ? {} : { clock: withClock }),
    });
    hosts.push(host);
    await host.servers.settled();
    return host;
  };
  return { a: await open(clock), b: await open() };
}

describe('resource reads kept in PostgreSQL', () => {
  it("opens on another host a read kept by one, in its own tenant only, until the results' retention drops it", async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 27, 9));
    const { a, b } = await twoHosts(clock);
    const read = await a.resources.read({ scope: SCOPE, serverId: 'notes', uri: 'notes://30' });
    expect(read.model.truncation).toMatchObject({ handle: read.handle });

    const whole = await b.resources.whole({ scope: SCOPE, handle: read.handle! });
    expect(whole).toEqual({
      serverId: 'notes',
      uri: 'notes://30',
      contents: [{ uri: 'notes://30', mimeType: 'text/plain', text: 'line 30' + ' é\n'.repeat(30_000) }],
    });
    await expect(
      b.resources.whole({ scope: { ...SCOPE, userId: 'someone-else' }, handle: read.handle! }),
    ).rejects.toMatchObject({ code: 'not_found' });

    // Two days on (results are kept one day here), the first is past the retention on A's clock at once, and the next
    // read kept drops it from the table for every host.
    clock.advance(2 * DAY_MS);
    await expect(a.resources.whole({ scope: SCOPE, handle: read.handle! })).rejects.toMatchObject({
      code: 'not_found',
    });
    const later = await a.resources.read({ scope: SCOPE, serverId: 'notes', uri: 'notes://2' });
    await expect(b.resources.whole({ scope: SCOPE, handle: read.handle! })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining("dropped with the results' retention"),
    });
    expect((await b.resources.whole({ scope: SCOPE, handle: later.handle! })).uri).toBe('notes://2');
  }, 60_000);
});
