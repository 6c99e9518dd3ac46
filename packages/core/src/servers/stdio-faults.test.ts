import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { DEMO_BIN, demoServer, nextEvent, readCallLog, SCOPE, scriptServer } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const fast = { connectTimeoutMs: 10_000, reconnectBaseDelayMs: 50 };
const CAP = 8_000_000;

function call(tool: string, args: Record<string, unknown> = {}) {
  return host!.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool, args });
}

function stateOf(id: string) {
  return host!.servers.list().find((s) => s.id === id);
}

describe('a stdio server that writes what is not JSON-RPC', () => {
  it('fails the call in flight at once as protocol_error, naming the server and quoting what it sent, and reconnects', async () => {
    const broken = demoServer('broken', { args: ['--garbage-on-call'] });
    // The call's idle timeout is on this clock and never moves: only the fault can end the call.
    const clock = new FakeClock();
    host = createHost({ servers: [broken.config], surface: new ScriptedSurface('allow_once'), limits: fast, clock });
    await host.servers.settled();
    const degraded = nextEvent(host, 'server.state', (e) => e.serverId === 'broken' && e.state === 'degraded');
    const back = nextEvent(host, 'server.state', (e) => e.serverId === 'broken' && e.state === 'ready');
    const result = await call('broken__echo', { text: 'hi' });
    expect(result.outcome).toBe('protocol_error');
    expect(result.error?.code).toBe('protocol_error');
    // The escape character is shown as text, and the quote stops at 200 characters.
    expect(result.text).toContain(
      'server "broken" wrote a line that is not JSON to stdout: "\\u001b[31mpanic:\\u001b[0m unexpected token <',
    );
    expect(result.text).toMatch(/…" \(\d+ characters\); the call got no answer/);
    expect(readCallLog(broken.log)).toEqual([{ event: 'call', tool: 'echo', args: { text: 'hi' } }]);
    // Its stream cannot be trusted any more: the server is restarted with the usual backoff, on the host's clock.
    expect((await degraded).error).toMatch(/^server "broken" wrote a line that is not JSON to stdout: .*dropped/);
    clock.advance(fast.reconnectBaseDelayMs);
    await back;
  });

  it('still starts a server that prints a banner on stdout before it speaks, and says so', async () => {
    const banner = scriptServer(
      'banner',
      `process.stdout.write('Server listening on stdio\\n'); import(${JSON.stringify(DEMO_BIN)})`,
    );
    host = createHost({ servers: [banner], surface: new ScriptedSurface('allow_once'), limits: fast });
    const warned = nextEvent(host, 'server.warning', (e) => e.serverId === 'banner' && e.message.includes('stdout'));
    await host.servers.settled();
    expect(stateOf('banner')?.state).toBe('ready');
    expect((await warned).message).toBe(
      'server "banner" wrote a line that is not JSON to stdout: "Server listening on stdio" (skipped: the server has not spoken yet)',
    );
    expect((await call('banner__echo', { text: 'ok' })).outcome).toBe('success');
  });
});

describe('a message over the cap (limits.maxMessageBytes)', () => {
  it('refuses a 50 MB result while it streams as result_too_large, naming size and cap, and other calls go on', async () => {
    const big = demoServer('big');
    const other = demoServer('other');
    host = createHost({
      servers: [big.config, other.config],
      surface: new ScriptedSurface('allow_once'),
      limits: { ...fast, maxMessageBytes: CAP },
      clock: new FakeClock(),
    });
    await host.servers.settled();
    const huge = call('big__huge_output', { megabytes: 50 });
    const echo = await call('other__echo', { text: 'still here' });
    expect(echo.outcome).toBe('success');
    const result = await huge;
    expect(result.outcome).toBe('invalid_output');
    expect(result.error?.code).toBe('result_too_large');
    const said =
      /server "big": the reply to tools\/call passed the 8000000-byte message cap \(limits\.maxMessageBytes\) at (\d+) bytes and was refused while it streamed/.exec(
        result.text,
      );
    expect(said).not.toBeNull();
    // Refused within a pipe chunk of the cap, not after 50 MB.
    expect(Number(said![1])).toBeGreaterThan(CAP);
    expect(Number(said![1])).toBeLessThan(CAP + 1_000_000);
    // The stream goes on after the refused message: the same server answers the next call, never reconnected.
    expect(stateOf('big')?.state).toBe('ready');
    expect((await call('big__echo', { text: 'next' })).outcome).toBe('success');
  });

  it('refuses a 50 MB tools/list reply and marks the server failed with that reason', async () => {
    const listing = demoServer('listing', { args: ['--huge-list-mb', '50'] });
    host = createHost({
      servers: [listing.config],
      limits: { ...fast, maxMessageBytes: CAP },
      clock: new FakeClock(),
    });
    await host.servers.settled();
    expect(stateOf('listing')).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(
        /^server "listing": the reply to tools\/list passed the 8000000-byte message cap \(limits\.maxMessageBytes\) at \d+ bytes/,
      ),
    });
  });
});

describe('protocol versions', () => {
  it('says a 2026-only server speaks only 2026-07-28 and that negotiation auto reaches it', async () => {
    const legacy = demoServer('modern_only', { args: ['--modern-only'] });
    const auto = demoServer('modern_auto', { args: ['--modern-only'], negotiation: 'auto' });
    host = createHost({ servers: [legacy.config, auto.config], limits: fast, clock: new FakeClock() });
    await host.servers.settled();
    expect(stateOf('modern_only')).toMatchObject({
      state: 'failed',
      error:
        'server "modern_only" speaks only 2026-07-28 and refused 2025-11-25, the version "negotiation": "legacy" ' +
        '(the default) speaks; set "negotiation": "auto" on this server to reach it (-32022)',
    });
    expect(stateOf('modern_auto')).toMatchObject({ state: 'ready', protocolVersion: '2026-07-28' });
  });
});
