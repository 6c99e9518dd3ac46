// kill -9 of a console instance mid-call, with another instance on the same PostgreSQL database (a real server,
// started by test/support/postgres): instance A runs as a process of its own (the built bin), instance B in this
// process on a clock the test moves. A's call waits on a permission question shown on B's tab; A is killed; once A's
// heartbeat is stale (made older on the database, whose clock judges it), B ends A's call in the shared history with
// the reason, closes the question on its tab, and serves on. And SIGSTOP of A past the limit, then SIGCONT: B has fenced it, so A's late writes are refused
// (the call ends once, as B ended it) and A, told so at its next heartbeat, says so and stops with status 75.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, STALE_MS } from '@airlock/core/postgres';
import { FakeClock } from '@airlock/core/testing';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { ageAllHeartbeats } from '../../../test/support/postgres/heartbeats.js';
import { postgresConsoleConfig } from './testing/postgres-console-config.js';
import { ConsoleClient } from './testing/console-client.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');

let server: PostgresServer;
let b: RunningConsole | undefined;
let a: ChildProcessWithoutNullStreams | undefined;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
const stopAfter: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  a?.kill('SIGKILL');
  await b?.close();
  for (const stop of stopAfter.reverse()) await stop();
  await server?.stop();
});

/** Starts the built console in an empty directory (the demo server) on `url`; resolves with its address. */
function startInstance(url: string): Promise<{ child: ChildProcessWithoutNullStreams; address: string }> {
  const home = mkdtempSync(join(tmpdir(), 'airlock-kill-'));
  const child = spawn(process.execPath, [BIN, '--port', '0', '--store', url], {
    cwd: home,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: home },
  });
  child.once('exit', () => rmSync(home, { recursive: true, force: true }));
  return new Promise((listening, failed) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = /listening on (\S+)/.exec(out);
      if (found?.[1] !== undefined) listening({ child, address: found[1] });
    });
    child.once('exit', () => failed(new Error(`the console ended before it listened: ${out}`)));
  });
}

describe('kill -9 of one console instance mid-call', () => {
  it('ends its call on the other instance with the reason, closes its question there, and the other serves on', async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.now());
    b = await startConsole(postgresConsoleConfig(url, 'kill test'), { clock });
    // The demo server's start is timed on B's clock: it has answered before the clock moves.
    await b.host.servers.settled();
    const started = await startInstance(url);
    a = started.child;
    const onA = await ConsoleClient.signIn(started.address, { userId: 'alice' });
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    const tabB = await onB.openEvents();
    // A's demo server has connected: its tools are listed.
    await vi.waitFor(async () => expect(JSON.stringify((await onA.get('/api/tools')).body)).toContain('demo__echo'), {
      timeout: 20_000,
    });

    const id = await onA.startCall('demo__echo', { text: 'asked on a, never answered' });
    await tabB.waitForPermission(id);
    // A has committed the call (what it committed is what the other instance can close).
    // A's read drains its history writer first: once A answers, the call is committed and B reads it.
    expect((await onA.get(`/api/invocations/${id}`)).status).toBe(200);
    expect((await onB.get(`/api/invocations/${id}`)).status).toBe(200);
    const exited = new Promise((done) => a?.once('exit', (code, signal) => done(signal)));
    a.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // A's last heartbeat becomes stale (made older on the database's clock): B's next heartbeat, which renews its
    // own first, takes A.
    await ageAllHeartbeats(url, STALE_MS + 1000);
    clock.advance(HEARTBEAT_MS);
    const closed = await tabB.waitFor(
      (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === id,
      "the killed instance's question closing",
    );
    expect(closed.data).toEqual({ id, decision: null });
    expect((await onB.get(`/api/invocations/${id}`)).body).toMatchObject({
      invocation: { state: 'cancelled', error: { code: 'instance_lost', message: expect.stringContaining('stopped') } },
    });

    // B serves on: its own call, asked and answered on its tab.
    const own = await onB.startCall('demo__echo', { text: 'b serves on' });
    await tabB.waitForPermission(own);
    expect((await onB.post(`/api/permission-requests/${own}`, { decision: 'allow_once' })).status).toBe(200);
    expect((await tabB.waitForEnd(own)).invocation.state).toBe('success');
    expect((await onB.post('/api/audit/verify')).body).toEqual({ ok: true });
    await tabB.close();
  }, 90_000);

  it('fences an instance stopped past the limit: resumed, it is told, stops with 75, and its call ended once', async () => {
    const url = await server.createDatabase();
    const clock = new FakeClock(Date.now());
    const other = await startConsole(postgresConsoleConfig(url, 'fence test'), { clock });
    stopAfter.push(() => other.close());
    await other.host.servers.settled();
    const { child, address } = await startInstance(url);
    stopAfter.push(() => void child.kill('SIGKILL'));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const onA = await ConsoleClient.signIn(address, { userId: 'alice' });
    const onB = await ConsoleClient.signIn(other.url, { userId: 'alice' });
    const tabB = await onB.openEvents();
    stopAfter.push(() => tabB.close());
    await vi.waitFor(async () => expect(JSON.stringify((await onA.get('/api/tools')).body)).toContain('demo__echo'), {
      timeout: 20_000,
    });
    const id = await onA.startCall('demo__echo', { text: 'asked on a, which then stalls' });
    await tabB.waitForPermission(id);
    // A's read drains its history writer first: once A answers, the call is committed and B reads it.
    expect((await onA.get(`/api/invocations/${id}`)).status).toBe(200);
    expect((await onB.get(`/api/invocations/${id}`)).status).toBe(200);

    child.kill('SIGSTOP');
    await ageAllHeartbeats(url, STALE_MS + 1000);
    clock.advance(HEARTBEAT_MS);
    await tabB.waitFor(
      (e) => e.event === 'permission.closed' && (e.data as { id: string }).id === id,
      "the stalled instance's question closing",
    );
    let said = '';
    child.stderr.on('data', (d: Buffer) => void (said += d.toString()));
    child.kill('SIGCONT');
    // Its next heartbeat (on its own clock, every HEARTBEAT_MS) finds it fenced: it says so, closes and exits 75. (That
    // a fenced instance's writes are refused is shown in core's postgres-instances test; here the call it held still
    // reads as B ended it.)
    expect(await exited).toBe(75);
    expect(said).toContain('another instance took this one over');
    const scope = { userId: 'alice', workspaceId: onB.workspaceId, conversationId: 'main' };
    const entry = await other.host.history.get({ scope, invocationId: id });
    expect(entry?.invocation).toMatchObject({ state: 'cancelled', error: { code: 'instance_lost' } });
    expect(entry?.transitions.map((t) => t.to)).toEqual(['pending', 'cancelled']);
    expect((await onB.post('/api/audit/verify')).body).toEqual({ ok: true });
  }, 90_000);
});
