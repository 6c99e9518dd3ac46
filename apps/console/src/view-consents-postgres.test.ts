// Views' browser-permission consents on two consoles sharing one PostgreSQL database: an answer given through one
// instance is what the other reads for the same user, workspace and view, and a revoke on either holds on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConsoles } from './testing/postgres-consoles.js';
import { ConsoleClient } from './testing/console-client.js';

const consoles = new PostgresConsoles('view consents test');
const DASHBOARD = { serverId: 'demo', uri: 'ui://demo/dashboard' };
const query = (extra = '') => `/api/view-consents?serverId=demo&uri=${encodeURIComponent(DASHBOARD.uri)}${extra}`;

beforeAll(() => consoles.start(), 60_000);
afterAll(() => consoles.close());

describe("views' browser-permission consents on two consoles", () => {
  it('holds an answer given on one instance on the other, per user and workspace, until revoked on either', async () => {
    const [a, b] = await consoles.pair();
    const onA = await ConsoleClient.signIn(a.url, { userId: 'alice' });
    const onB = await ConsoleClient.signIn(b.url, { userId: 'alice' });
    expect((await onB.get(query())).body).toEqual({ consents: [] });

    const answered = await onA.request('PUT', '/api/view-consents', {
      ...DASHBOARD,
      decisions: { camera: 'allow', microphone: 'deny' },
    });
    expect(answered.status).toBe(200);

    const read = (await onB.get(query())).body as { consents: { permission: string; decision: string }[] };
    expect(read.consents.map(({ permission, decision }) => [permission, decision])).toEqual([
      ['camera', 'allow'],
      ['microphone', 'deny'],
    ]);
    // Another user, or alice in another workspace, finds none of them.
    const bob = await ConsoleClient.signIn(b.url, { userId: 'bob' });
    expect((await bob.get(query())).body).toEqual({ consents: [] });
    const elsewhere = await ConsoleClient.signIn(a.url, { userId: 'alice', workspaceId: 'other' });
    expect((await elsewhere.get(query())).body).toEqual({ consents: [] });

    // Revoked on B, one feature then the whole view: A reads what is left.
    expect((await onB.delete(query('&permission=camera'))).status).toBe(200);
    const left = (await onA.get(query())).body as { consents: { permission: string }[] };
    expect(left.consents.map((c) => c.permission)).toEqual(['microphone']);
    expect((await onB.delete(query())).status).toBe(200);
    expect((await onA.get(query())).body).toEqual({ consents: [] });
  }, 60_000);

  it('refuses an answer for a view the server does not show, or a feature no view may ask for', async () => {
    const [a] = await consoles.pair();
    const onA = await ConsoleClient.signIn(a.url, { userId: 'alice' });

    const unknownView = await onA.request('PUT', '/api/view-consents', {
      serverId: 'demo',
      uri: 'ui://demo/nothing',
      decisions: { camera: 'allow' },
    });
    expect(unknownView.status).toBe(404);
    const unknownFeature = await onA.request('PUT', '/api/view-consents', {
      ...DASHBOARD,
      decisions: { usb: 'allow' },
    });
    expect(unknownFeature.status).toBe(400);
    expect(unknownFeature.body).toMatchObject({ error: { field: 'usb' } });
    expect((await onA.get(query())).body).toEqual({ consents: [] });
  }, 60_000);
});
