import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostError } from '../errors/host-error.js';
import { httpsOnlyFetch } from './https-only-fetch.js';
import type { FetchGuard } from './https-only-fetch.js';

// A loopback server (plain http is allowed there) that redirects: to plain http off loopback, to itself, and in a
// loop. The guard checks every hop, so a redirect cannot take OAuth traffic to plain http.

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/to-plain-http') res.writeHead(302, { location: 'http://airlock-redirect.invalid/token' }).end();
    else if (req.url === '/to-here') res.writeHead(307, { location: '/here' }).end();
    else if (req.url === '/see-other') res.writeHead(303, { location: '/here' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} here`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the https guard', () => {
  it('refuses a redirect to plain http off loopback, without following it', async () => {
    const guard: FetchGuard = { step: 'token' };
    const guarded = httpsOnlyFetch('notes', fetch, guard);
    const refusal = await guarded(`${base}/to-plain-http`, { method: 'POST', body: 'code=1' }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(HostError);
    expect((refusal as HostError).message).toMatch(/refused http to http:\/\/airlock-redirect\.invalid/);
    expect(guard.refused).toBe(refusal);
  });

  it('follows a redirect that stays allowed, as fetch would (307 keeps the method, 303 turns to GET)', async () => {
    const guarded = httpsOnlyFetch('notes');
    const kept = await guarded(`${base}/to-here`, { method: 'POST', body: 'a=1' });
    expect([kept.status, await kept.text()]).toEqual([200, 'POST here']);
    const other = await guarded(`${base}/see-other`, { method: 'POST', body: 'a=1' });
    expect(await other.text()).toBe('GET here');
  });

  it('gives up after ten redirects', async () => {
    seen.length = 0;
    await expect(httpsOnlyFetch('notes')(`${base}/loop`)).rejects.toThrow(/more than 10 redirects/);
    expect(seen).toHaveLength(11);
  });
});
